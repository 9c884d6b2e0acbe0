//===- RewriteTock.cpp - the Tock rewrite: one series call per batch -----===//
//
// With target=tock (Thumb and riscv32 only; docs/llvm.md, "Tock") the same
// analysis describes runs of libtock-c raw calls, under the Tock memory rule
// (only private stack slots commute with the kernel and with upcalls), and
// each batch becomes one runtime call that runs its frames; the runtime
// converts every frame that ran, in place, into libtock-c's struct, and
// each call site reads its result from its frame (no call per site):
//
//   call @command(sret %a, 2, 1, 0, 0)       frames <- {2, 2, 1, 0, 0}, {2, 2, 1, 1, 0},
//   call @command(sret %b, 2, 1, 1, 0)                 {0, 1, 0, 0, 0}
//   call @yield()                            call @sysbatch_tock_run(frames, 3)
//                                            memcpy(%a, frames + 4, 16)
//                                            memcpy(%b, frames + 24, 16)
//
// A frame whose call the code tests exactly and leaves the run on failure
// (the last call of a block of a checked chain) carries SB_TOCK_CHECKED in
// its class word: the runtime stops after such a call that failed, and
// nowhere else, so every call the code reaches ran.
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
STATISTIC(NumTockSretResults, "Tock call sites copying their frame into their sret slot");
STATISTIC(NumTockRegisterResults,
          "Tock call sites loading a register-returned struct from their frame");
STATISTIC(NumTockUnused, "Tock call sites whose result is unused");

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// The Tock rewrite (docs/llvm.md, "Tock"): one series call per batch
//===----------------------------------------------------------------------===//

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

/// fill=template: the core's COMPACT template (sb_tock_template) of \p Words
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
  size_t Size = sb_tock_template(Core.data(), NFrames, SB_TOCK_TEMPLATE_COMPACT,
                                 nullptr, 0, &NPatches);
  if (!Size)
    return nullptr;
  SmallVector<uint8_t, 64> Bytes(Size);
  sb_tock_template(Core.data(), NFrames, SB_TOCK_TEMPLATE_COMPACT, Bytes.data(),
                   Size, &NPatches);
  Constant *Init = ConstantDataArray::get(M.getContext(), Bytes);
  auto *G = new GlobalVariable(M, Init->getType(), true,
                               GlobalValue::PrivateLinkage, Init,
                               "sb.tock.template");
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  G->setAlignment(Align(4)); // the layout asks for it
  return G;
}

/// Call site \p C of frame \p Slot: the runtime has turned the frame's
/// return words into the call's libtock-c struct, so the call becomes a
/// copy of them into its sret slot (SROA then reads the fields in place),
/// a load of the register-returned type from them, or nothing for an
/// unused result; the call is erased.
/// A read of the call's result that can read the frame instead: a load or
/// the source of a memcpy, \p Offset bytes into the result.
struct ResultReader {
  Instruction *I;
  unsigned Operand;
  int64_t Offset;
};

/// Collect every reader of the result alloca reached through \p Ptr
/// (\p Offset bytes into it).  False when some use is not one: a write, an
/// escape, a volatile access, a non-constant offset, or a read outside the
/// call's block or before the call.  Lifetime markers are collected apart.
static bool collectResultReaders(Value *Ptr, int64_t Offset, CallInst *Call,
                                 const DataLayout &DL,
                                 SmallVectorImpl<ResultReader> &Readers,
                                 SmallVectorImpl<Instruction *> &Lifetimes) {
  for (Use &U : Ptr->uses()) {
    auto *I = dyn_cast<Instruction>(U.getUser());
    if (!I)
      return false;
    if (I == Call)
      continue;
    if (I->isLifetimeStartOrEnd()) {
      Lifetimes.push_back(I);
      continue;
    }
    if (isa<BitCastInst>(I)) {
      if (!collectResultReaders(I, Offset, Call, DL, Readers, Lifetimes))
        return false;
      continue;
    }
    if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
      APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (GEP->getPointerOperand() != Ptr || !GEP->accumulateConstantOffset(DL, Off) ||
          !collectResultReaders(GEP, Offset + Off.getSExtValue(), Call, DL, Readers,
                                Lifetimes))
        return false;
      continue;
    }
    if (I->getParent() != Call->getParent() || !Call->comesBefore(I))
      return false;
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (LI->isVolatile())
        return false;
      Readers.push_back({I, U.getOperandNo(), Offset});
      continue;
    }
    if (auto *MT = dyn_cast<MemTransferInst>(I)) {
      if (MT->isVolatile() || U.getOperandNo() != 1 || MT->getRawDest() == Ptr)
        return false;
      Readers.push_back({I, U.getOperandNo(), Offset});
      continue;
    }
    return false;
  }
  return true;
}

/// The sret result lives in a private alloca that only the call writes and
/// that every later use reads in the call's block (libtock-c's wrappers:
/// the call, then its converter, which takes the struct by value).  Then
/// the readers read the frame itself: a copy of the frame into the alloca
/// would be stored and loaded again by the back end.  Nothing writes the
/// frames after the one runtime call before the call site.
static bool readResultFromFrame(CallInst *Call, Value *Sret, Value *Words,
                                uint64_t Bytes) {
  auto *AI = dyn_cast<AllocaInst>(Sret->stripPointerCasts());
  if (!AI)
    return false;
  const DataLayout &DL = Call->getModule()->getDataLayout();
  SmallVector<ResultReader, 8> Readers;
  SmallVector<Instruction *, 4> Lifetimes;
  if (!collectResultReaders(AI, 0, Call, DL, Readers, Lifetimes))
    return false;
  // Every read within the result's bytes (the rest of a larger alloca was
  // never the frame's).
  for (const ResultReader &R : Readers) {
    uint64_t Size;
    if (auto *LI = dyn_cast<LoadInst>(R.I)) {
      Size = DL.getTypeStoreSize(LI->getType());
    } else {
      auto *Len = dyn_cast<ConstantInt>(cast<MemTransferInst>(R.I)->getLength());
      if (!Len)
        return false;
      Size = Len->getZExtValue();
    }
    if (R.Offset < 0 || (uint64_t)R.Offset + Size > Bytes)
      return false;
  }
  for (const ResultReader &R : Readers) {
    IRBuilder<> B(R.I);
    Value *Old = R.I->getOperand(R.Operand);
    Value *At = Words;
    if (R.Offset != 0)
      At = B.CreateConstInBoundsGEP1_64(
          Type::getInt8Ty(Call->getContext()),
          B.CreatePointerCast(Words, compat::bytePointer(Call->getContext())), R.Offset);
    R.I->setOperand(R.Operand, B.CreatePointerCast(At, Old->getType()));
  }
  // The alloca is no longer read; its markers would only keep it alive.
  for (Instruction *L : Lifetimes)
    L->eraseFromParent();
  return true;
}

static void rewriteTockCallSite(const CandidateCall &C, int Slot,
                                Value *Frames, Type *FramesTy,
                                DenseMap<Value *, Value *> &Replaced,
                                SmallVectorImpl<CallInst *> &ErasedCalls) {
  CallInst *Call = C.Call;
  const DataLayout &DL = Call->getModule()->getDataLayout();
  Value *Sret = hasSretResult(*Call) ? Call->getArgOperand(0) : nullptr;
  bool Used = sb_tock_result_bytes(C.RawRow) &&
              (Sret ? tockSretUsed(Call, Sret) : !Call->use_empty());
  // The original call is replaced, not kept as a fallback: the runtime ran
  // every frame whose call site the code reaches.
  ErasedCalls.push_back(Call);
  if (!Used) {
    ++NumTockUnused;
    return;
  }
  IRBuilder<> CB(Call);
  CB.SetCurrentDebugLocation(Call->getDebugLoc());
  Value *Words = CB.CreateConstInBoundsGEP2_64(
      FramesTy, Frames, 0, Slot * TockWordsPerFrame + 1, "sb.result");
  const uint64_t ReturnBytes = 4 * (TockWordsPerFrame - 1);
  if (Sret) {
    // The sret type is on the call or, when only the callee carries the
    // attribute (hasSretResult accepts either), on the callee.
    Attribute SretAttr = Call->getParamAttr(0, Attribute::StructRet);
    if (!SretAttr.isValid())
      if (const Function *Callee = Call->getCalledFunction())
        SretAttr = Callee->getParamAttribute(0, Attribute::StructRet);
    Type *SretTy = SretAttr.isValid() ? SretAttr.getValueAsType() : nullptr;
    uint64_t Bytes = SretTy ? DL.getTypeStoreSize(SretTy)
                            : (uint64_t)sb_tock_result_bytes(C.RawRow);
    if (Bytes > ReturnBytes)
      report_fatal_error("sysbatch: a Tock result larger than a frame's "
                         "return words", false);
    if (!readResultFromFrame(Call, Sret, Words, Bytes))
      CB.CreateMemCpy(Sret, Align(4), Words, Align(4), Bytes);
    ++NumTockSretResults;
    return;
  }
  // The struct comes back in registers (memop_return_t on RV32 ilp32).
  Type *RetTy = Call->getType();
  if (DL.getTypeStoreSize(RetTy) > ReturnBytes)
    report_fatal_error("sysbatch: a Tock result larger than a frame's "
                       "return words", false);
  Value *Result = CB.CreateAlignedLoad(
      RetTy, CB.CreatePointerCast(Words, compat::pointerTo(RetTy)), Align(4),
      "sb.result.value");
  Result->takeName(Call);
  Call->replaceAllUsesWith(Result);
  Replaced[Call] = Result;
  ++NumTockRegisterResults;
}

/// Rewrite Tock batch \p BI of region \p R:
///
///   issue point:  frames[5k] = class_k (| SB_TOCK_CHECKED when the code
///                 leaves the run if call k failed); frames[5k+1..4] = raw
///                 args of k; sysbatch_tock_run(frames, n)
///   call site k:  the result read from frames[5k+1..], the call erased
///
/// With fill=template the constant words come from the core's byte
/// template and only the patches are stored (sysbatch_tock_run_template).
/// No sysbatch_active probe: the backend is chosen at build time.
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
  // A frame is checked when the next frame's call is in another block of
  // the chain (sb_tock_frame_checked); the rewrite adds no blocks.
  DenseMap<const BasicBlock *, int> BlockNumber;
  SmallVector<int, 16> BlockOfSlot;
  for (int S = 0; S < BP.nslots; ++S) {
    const BasicBlock *BB = R.Calls[BP.slots[S].call].Call->getParent();
    BlockOfSlot.push_back(
        BlockNumber.try_emplace(BB, (int)BlockNumber.size()).first->second);
  }
  const bool UseTemplate =
      Fill == SB_FILL_MODE_TEMPLATE && N <= SB_TOCK_TEMPLATE_MAX_FRAMES;
  // Commands and yields need no conversion: the entries without it, which
  // do not link the converter.  Stored frames pass the marks as a mask: no
  // mark scan in the runtime.
  const bool CommandsOnly = sb_tock_series_commands_only(&BP);
  const bool MaskMarks = !UseTemplate && N <= SB_TOCK_MASK_FRAMES;
  uint32_t CheckedMask = 0;
  for (int S = 0; S < BP.nslots; ++S) {
    if (!sb_tock_frame_checked(&BP, S, BlockOfSlot.data()))
      continue;
    if (MaskMarks)
      CheckedMask |= 1u << S;
    else
      Words[S * TockWordsPerFrame] = ConstantInt::get(
          I32, cast<ConstantInt>(Words[S * TockWordsPerFrame])->getZExtValue() |
                   SB_TOCK_CHECKED);
  }
  SmallVector<unsigned, 16> Patches;
  GlobalVariable *Template =
      UseTemplate ? tockTemplate(*F.getParent(), Words, Patches) : nullptr;

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
  Value *FramesBase =
      IB.CreateConstInBoundsGEP2_64(FramesTy, Frames, 0, 0, "sb.base");
  CallInst *Run =
      Template
          ? IB.CreateCall(CommandsOnly ? RT.tockRunTemplateCommands()
                                       : RT.tockRunTemplate(),
                          {FramesBase,
                           IB.CreatePointerCast(
                               Template, compat::bytePointer(F.getContext()))})
      : MaskMarks
          ? IB.CreateCall(CommandsOnly ? RT.tockRunCommands() : RT.tockRunMasked(),
                          {FramesBase, ConstantInt::get(I32, N),
                           ConstantInt::get(I32, CheckedMask)})
          : IB.CreateCall(RT.tockRun(), {FramesBase, ConstantInt::get(I32, N)});
  Run->setDebugLoc(First->getDebugLoc());
  ++NumTockSeries;
  NumTockFrames += N;

  for (int CIdx = BP.first_call; CIdx <= BP.last_call; ++CIdx) {
    const sb_call_plan &CP = R.Plan.calls[CIdx];
    if (CP.batch != BI)
      continue;
    rewriteTockCallSite(R.Calls[CIdx], CP.slot, Frames, FramesTy, Replaced,
                        ErasedCalls);
  }
}

} // namespace detail
} // namespace sysbatch
