//===- RewriteTock.cpp - the Tock rewrite: one series call per batch -----===//
//
// With target=tock (Thumb and riscv32 only; docs/llvm.md, "Tock") the same
// analysis describes runs of libtock-c raw calls, under the Tock memory rule
// (only private stack slots commute with the kernel and with upcalls), and
// each batch becomes one series call with the stop policy; each call site
// becomes one runtime call that converts its frame, or runs the frame
// itself when the series stopped before it (no copy of the original call):
//
//   call @command(sret %a, 2, 1, 0, 0)       frames <- {2, 2, 1, 0, 0}, {2, 2, 1, 1, 0},
//   call @command(sret %b, 2, 1, 1, 0)                 {0, 1, 0, 0, 0}
//   call @yield()                            %sb.left = call @sysbatch_tock_series(frames, 3, 0)
//                                            %sb.ran = 3 - %sb.left
//                                            call @sysbatch_tock_take(%a, frames, 0, %sb.ran)
//                                            call @sysbatch_tock_take(%b, frames, 1, %sb.ran)
//                                            call @sysbatch_tock_take(null, frames, 2, %sb.ran)
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"

#include "sysbatch/shape.h"
#include "sysbatch/tock.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

STATISTIC(NumTockSeries, "Tock series calls emitted");
STATISTIC(NumTockFrames, "Tock frames filled");
STATISTIC(NumTockSretResults, "Tock call sites converted into their sret slot");
STATISTIC(NumTockRegisterResults,
          "Tock call sites converted through a register-return temporary");
STATISTIC(NumTockReissueOnly, "Tock call sites whose result is unused");

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// The Tock rewrite (docs/llvm.md, "Tock"): one series call per batch
//===----------------------------------------------------------------------===//

/// SYSBATCH_TOCK_POLICY_STOP: every Tock slot has fail=stop.
static constexpr uint32_t TockPolicyStop = SB_TOCK_POLICY_STOP;
static constexpr unsigned TockWordsPerFrame = SB_TOCK_WORDS_PER_FRAME;

/// Is the struct call \p Call returns through its sret slot \p Sret read
/// by anything?  A temporary only the call and lifetime markers touch is
/// not (`command(...);` as a statement).
static bool tockSretUsed(const CallInst *Call, const Value *Sret) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Sret));
  if (!AI)
    return true;
  SmallVector<const Value *, 8> Work{AI};
  DenseSet<const Value *> Seen{AI};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (U == Call)
        continue;
      if (isa<BitCastInst>(U) || isa<GetElementPtrInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      const auto *II = dyn_cast<IntrinsicInst>(U);
      if (II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
        continue;
      return true;
    }
  }
  return false;
}

/// The words of every frame of \p BP at the issue point \p IB, five per
/// frame: the core's frame words (sb_tock_frame_words: class, constants,
/// zeros), the variable ones materialized (AVAILABLE values there).
static SmallVector<Value *, 40>
frameWords(Region &R, const sb_batch_plan &BP, RuntimeABI &RT, IRBuilder<> &IB,
           unsigned FirstPos, DenseMap<Value *, Value *> &Replaced) {
  Type *I32 = RT.I32;
  const DataLayout &DL = RT.M.getDataLayout();
  auto AsWord = [&](Value *V) -> Value * {
    if (auto *C = dyn_cast<Constant>(V)) {
      if (C->getType()->isPointerTy())
        return ConstantExpr::getPtrToInt(C, I32);
      if (Constant *Word = compat::integerCast(C, I32, /*IsSigned=*/true, DL))
        return Word;
    }
    return V->getType()->isPointerTy() ? IB.CreatePtrToInt(V, I32)
                                       : IB.CreateSExtOrTrunc(V, I32);
  };
  DenseMap<Value *, Value *> Cache;
  SmallVector<Value *, 40> Words;
  for (int S = 0; S < BP.nslots; ++S) {
    const CandidateCall &C = R.Calls[BP.slots[S].call];
    sb_tock_word FW[SB_TOCK_WORDS_PER_FRAME];
    const char *Why;
    if (sb_tock_frame_words(&BP, S, FW, &Why) != 0)
      report_fatal_error(Twine("sysbatch: ") + Why, false);
    for (const sb_tock_word &W : FW) {
      unsigned Op = C.EventBase + (W.libc_arg < 0 ? 0 : W.libc_arg);
      if (W.constant || Op >= C.Call->arg_size())
        Words.push_back(ConstantInt::get(I32, W.constant ? W.value : 0));
      else
        Words.push_back(AsWord(materialize(R, IB, C.Call->getArgOperand(Op),
                                           FirstPos, Cache, Replaced)));
    }
  }
  return Words;
}

/// fill=template: the core's byte template (sb_tock_template) of \p Words
/// as a private constant; a word that is not a ConstantInt (an argument,
/// an address) is a patch, returned in \p Patches in word order.
static GlobalVariable *tockTemplate(Module &M, ArrayRef<Value *> Words,
                                    SmallVectorImpl<unsigned> &Patches) {
  SmallVector<sb_tock_word, 40> Core;
  for (unsigned W = 0; W < Words.size(); ++W) {
    sb_tock_word CW = {};
    CW.libc_arg = -1;
    if (auto *K = dyn_cast<ConstantInt>(Words[W])) {
      CW.constant = true;
      CW.value = (uint32_t)K->getZExtValue();
    } else {
      Patches.push_back(W);
    }
    Core.push_back(CW);
  }
  int NFrames = Words.size() / SB_TOCK_WORDS_PER_FRAME, NPatches;
  size_t Size = sb_tock_template(Core.data(), NFrames, SB_TOCK_TEMPLATE_BYTES,
                                 nullptr, 0, &NPatches);
  if (!Size)
    return nullptr;
  SmallVector<uint8_t, 64> Bytes(Size);
  sb_tock_template(Core.data(), NFrames, SB_TOCK_TEMPLATE_BYTES, Bytes.data(),
                   Size, &NPatches);
  Constant *Init = ConstantDataArray::get(M.getContext(), Bytes);
  auto *G = new GlobalVariable(M, Init->getType(), true,
                               GlobalValue::PrivateLinkage, Init,
                               "sb.tock.template");
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  G->setAlignment(Align(4)); // the layout asks for it
  return G;
}

/// Call site \p C of frame \p Slot: one sysbatch_tock_take into its sret
/// slot, a fresh private slot loaded in place of a register-returned struct,
/// or nothing for an unused result; the call is erased.
static void rewriteTockCallSite(const CandidateCall &C, int Slot,
                                Value *FramesBase, Value *Ran, RuntimeABI &RT,
                                IRBuilder<> &EB,
                                DenseMap<Value *, Value *> &Replaced,
                                SmallVectorImpl<CallInst *> &ErasedCalls) {
  Type *I32 = RT.I32;
  Function &F = *C.Call->getFunction();
  LLVMContext &Ctx = F.getContext();
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *BytePtr = compat::bytePointer(Ctx);
  CallInst *Call = C.Call;
  Value *Sret = hasSretResult(*Call) ? Call->getArgOperand(0) : nullptr;
  bool Used = sb_tock_result_bytes(C.RawRow) &&
              (Sret ? tockSretUsed(Call, Sret) : !Call->use_empty());
  IRBuilder<> CB(Call);
  CB.SetCurrentDebugLocation(Call->getDebugLoc());
  Value *K = ConstantInt::get(I32, Slot);
  // The original call is replaced, not kept as a fallback: a frame the
  // series did not run still holds its inputs, and the runtime runs it.
  ErasedCalls.push_back(Call);
  if (!Used) {
    CB.CreateCall(RT.tockTake(),
                  {ConstantPointerNull::get(cast<PointerType>(BytePtr)),
                   FramesBase, K, Ran});
    ++NumTockReissueOnly;
    return;
  }
  if (Sret) {
    CB.CreateCall(RT.tockTake(),
                  {CB.CreatePointerCast(Sret, BytePtr), FramesBase, K, Ran});
    ++NumTockSretResults;
    return;
  }
  // The struct comes back in registers (memop_return_t on RV32 ilp32):
  // convert into private memory and load the call's own type from it.
  Type *RetTy = Call->getType();
  uint64_t Bytes = std::max<uint64_t>(16, DL.getTypeStoreSize(RetTy));
  AllocaInst *Tmp = EB.CreateAlloca(ArrayType::get(Type::getInt8Ty(Ctx), Bytes),
                                    nullptr, "sb.result.tmp");
  Tmp->setAlignment(Align(16));
  CB.CreateCall(RT.tockTake(),
                {CB.CreatePointerCast(Tmp, BytePtr), FramesBase, K, Ran});
  Value *Converted = CB.CreateAlignedLoad(
      RetTy, CB.CreatePointerCast(Tmp, compat::pointerTo(RetTy)), Align(16),
      "sb.result.value");
  Converted->takeName(Call);
  Call->replaceAllUsesWith(Converted);
  Replaced[Call] = Converted;
  ++NumTockRegisterResults;
}

/// Rewrite Tock batch \p BI of region \p R:
///
///   issue point:  frames[5k] = class_k; frames[5k+1..4] = raw args of k
///                 %sb.left = sysbatch_tock_series(frames, n, STOP)
///                 %sb.ran  = n - %sb.left
///   call site k:  sysbatch_tock_take(out, frames, k, %sb.ran), the call erased
///
/// `out` is the call's sret slot, or a fresh 16-byte private slot the
/// register-returned struct is loaded from in place of the call; null for
/// unused results and yield.  The runtime runs frame k itself when
/// k >= %sb.ran.  No sysbatch_active probe: the backend is chosen at build
/// time.
void rewriteTockBatch(Region &R, int BI, RuntimeABI &RT, sb_fill_mode Fill,
                      DenseMap<Value *, Value *> &Replaced,
                      SmallVectorImpl<CallInst *> &ErasedCalls) {
  const sb_batch_plan &BP = R.Plan.batches[BI];
  CallInst *First = R.Calls[BP.first_call].Call;
  const unsigned FirstPos = R.Position.lookup(First);
  Function &F = *First->getFunction();
  Type *I32 = RT.I32;
  const unsigned N = BP.nslots, NWords = N * TockWordsPerFrame;
  for (int S = 0; S < BP.nslots; ++S)
    if (BP.slots[S].kind != SB_SLOT_CALL || BP.slots[S].argc > 4)
      report_fatal_error("sysbatch: a Tock plan has a slot a series frame "
                         "cannot hold (word copy or more than 4 arguments)",
                         false);

  IRBuilder<> IB(First);
  IB.SetCurrentDebugLocation(First->getDebugLoc());
  SmallVector<Value *, 40> Words =
      frameWords(R, BP, RT, IB, FirstPos, Replaced);
  SmallVector<unsigned, 16> Patches;
  GlobalVariable *Template =
      Fill == SB_FILL_MODE_TEMPLATE && N <= SB_TOCK_TEMPLATE_MAX_FRAMES
          ? tockTemplate(*F.getParent(), Words, Patches)
          : nullptr;

  // With a template the patch values follow the frames.
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  auto *FramesTy = ArrayType::get(I32, NWords + Patches.size());
  AllocaInst *Frames = EB.CreateAlloca(FramesTy, nullptr, "sb.frames");
  Frames->setAlignment(Align(4));
  auto Store = [&](unsigned W, Value *V) {
    IB.CreateAlignedStore(V, IB.CreateConstInBoundsGEP2_64(FramesTy, Frames, 0, W),
                          Align(4));
  };
  if (Template)
    for (unsigned P = 0; P < Patches.size(); ++P)
      Store(NWords + P, Words[Patches[P]]);
  else
    for (unsigned W = 0; W < NWords; ++W)
      Store(W, Words[W]);
  // The series and every call site take the frames from here.
  Value *FramesBase =
      IB.CreateConstInBoundsGEP2_64(FramesTy, Frames, 0, 0, "sb.base");
  CallInst *Left =
      Template
          ? IB.CreateCall(RT.tockSeriesTemplate(),
                          {FramesBase,
                           IB.CreatePointerCast(
                               Template, compat::bytePointer(F.getContext()))},
                          "sb.left")
          : IB.CreateCall(RT.tockSeries(),
                          {FramesBase, ConstantInt::get(I32, N),
                           ConstantInt::get(I32, TockPolicyStop)},
                          "sb.left");
  Left->setDebugLoc(First->getDebugLoc());
  Value *Ran = IB.CreateSub(ConstantInt::get(I32, N), Left, "sb.ran");
  ++NumTockSeries;
  NumTockFrames += N;

  for (int CIdx = BP.first_call; CIdx <= BP.last_call; ++CIdx) {
    const sb_call_plan &CP = R.Plan.calls[CIdx];
    if (CP.batch != BI)
      continue;
    rewriteTockCallSite(R.Calls[CIdx], CP.slot, FramesBase, Ran, RT, EB,
                        Replaced, ErasedCalls);
  }
}

} // namespace detail
} // namespace sysbatch
