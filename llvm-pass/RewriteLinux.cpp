//===- RewriteLinux.cpp - the Linux rewrite: slots, issue, call sites -----===//
//
// Rewrites each planned Linux batch exactly as docs/design.md prescribes
// ("The rewrite, shared by both front ends"): slot words filled at the
// issue point (materialize() recomputes AVAILABLE values there), one
// versioned sysbatch_run call, and at each call site the result from the
// batch (convertResult: the libc convention) or the original call.
// Example (-O0 IR, as clang emits it):
//
//   before                                   after
//   %call = call i32 @open(i8* %p, i32 0)    %sb.active = load i32, @sysbatch_active
//   store i32 %call, i32* %fd                br (%sb.active != 0), %sb.issue, %sb.join
//   %0 = load i32, i32* %fd                sb.issue:  slots <- template; slot 0 arg 1 <- %p
//   %call1 = call i64 @read(i32 %0, ...)              copy slot 1: rets[0] -> slot 2 arg 0
//                                                     %sb.ran = call @sysbatch_run(rets, slots, 3, 0)
//                                          sb.join:   %sb.last = phi [-1], [%sb.ran]
//                                                     %call = 0 <= %sb.last ? ret_errno(rets[0])
//                                                                           : call @open(%p, 0)
//                                                     store %call, %fd ...
//                                                     %call1 = 2 <= %sb.last ? ret_errno(rets[2])
//                                                                            : call @read(%0, ...)
//
// A straight-line batch whose calls share one block (sb_rt_all_ran_test)
// first makes one test, %sb.last == nslots - 1, and on that common path runs
// a copy of the code from the first call to the last in which each call is
// just its converted result (no test per call); the per-call tests above
// stay on the other path, for a batch that stopped early or did not run.
//
// Branchy regions (several blocks: docs/llvm.md, "Branchy regions") keep the
// original control flow; only the test at each call site changes, because
// the kernel may skip slots:
//
//   %fd = call @open(...)                    %fd = last >= 0 && rets[0] != NOT_RUN
//   br (%fd < 0), %err, %ok                        ? ret_errno(rets[0]) : call @open(...)
//   ok:  %n = call @read(%fd, ...)           br (%fd < 0), %err, %ok
//                                            ok: %n = last >= 0 && rets[3] != NOT_RUN
//                                                     ? ret_errno(rets[3]) : call @read(...)
//
//===----------------------------------------------------------------------===//

#include <functional>
#include "SysbatchInternal.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// The rewrite (docs/design.md, "The rewrite, shared by both front ends")
//===----------------------------------------------------------------------===//

/// SYSBATCH_NOT_RUN (runtime/include/sysbatch.h): rets of a skipped slot.
static constexpr int64_t SYSBATCH_NOT_RUN_WORD = INT64_MIN;

/// A value as the 64-bit word the kernel reads.
Value *asWord(IRBuilder<> &B, Value *V, Type *I64) {
  if (V->getType()->isPointerTy())
    return B.CreatePtrToInt(V, I64);
  return B.CreateSExtOrTrunc(V, I64);
}

/// A 64-bit result as the call's own type.
static Value *asCallType(IRBuilder<> &B, Value *V, Type *Ty) {
  if (V->getType() == Ty)
    return V;
  if (Ty->isPointerTy())
    return V->getType()->isPointerTy() ? B.CreateBitCast(V, Ty)
                                       : B.CreateIntToPtr(V, Ty);
  if (V->getType()->isPointerTy())
    return B.CreatePtrToInt(V, Ty);
  return B.CreateSExtOrTrunc(V, Ty);
}

/// \p V as a value at the issue point, which is where call \p FirstPos of the
/// block stood.  Whatever was computed before it is used as is; values from
/// later in the block were classified AVAILABLE by visitOperand, so every
/// instruction on the way is pure or a load of memory nothing writes between
/// the region's start and the original load: recomputing them gives the
/// same value.
Value *materialize(Region &R, IRBuilder<> &B, Value *V,
                   unsigned FirstPos, DenseMap<Value *, Value *> &Cache,
                   const DenseMap<Value *, Value *> &Replaced) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  auto Rep = Replaced.find(I);
  if (Rep != Replaced.end())
    return Rep->second; // a call of an earlier batch: its result phi
  auto Pos = R.Position.find(I);
  if (Pos == R.Position.end() || Pos->second < FirstPos)
    return I; // dominates the issue point
  auto Fwd = R.Forwarded.find(I);
  if (Fwd != R.Forwarded.end())
    return materialize(R, B, Fwd->second, FirstPos, Cache, Replaced);
  auto Done = Cache.find(I);
  if (Done != Cache.end())
    return Done->second;
  assert(!R.CallIndex.count(I) && "a batched call's result is chained");
  Instruction *Copy = I->clone();
  for (unsigned K = 0; K < Copy->getNumOperands(); ++K)
    Copy->setOperand(K, materialize(R, B, Copy->getOperand(K), FirstPos,
                                    Cache, Replaced));
  B.Insert(Copy, I->getName() + ".sb");
  Cache[I] = Copy;
  return Copy;
}

/// The raw result as the call site sees it: the libc convention applied
/// (errno set here, in program order), in the call's own type.
Value *convertRawResult(sb_abi Abi, const sb_call_event &CE, CallInst *Call,
                        IRBuilder<> &RB, Value *Raw, RuntimeABI &RT) {
  // syscall() itself reports -1 and errno whatever NR's row says.
  unsigned Conv = sb_call_ret_conv(Abi, &CE);
  Value *Converted = Raw;
  switch (Conv) {
  case SB_RET_ERRNO:
    Converted = RB.CreateCall(RT.retErrno(), {Raw});
    break;
  case SB_RET_MAP_FAILED:
    Converted = RB.CreateCall(RT.retMmap(), {Raw});
    break;
  case SB_RET_POSITIVE_ERROR:
    Converted = RB.CreateCall(RT.retPositiveError(), {Raw});
    break;
  default: // SB_RET_NEVER_FAILS
    break;
  }
  if (Call->getType()->isVoidTy())
    return nullptr;
  return asCallType(RB, Converted, Call->getType());
}

static Value *convertResult(Region &R, const CandidateCall &C, IRBuilder<> &RB,
                            Value *Raw, RuntimeABI &RT) {
  return convertRawResult(R.Abi, R.Events[C.Event].u.call, C.Call, RB, Raw,
                          RT);
}

/// verify mode, where a call site takes its slot's result: hand the
/// runtime the raw arguments the original call would have made, from this
/// call site's own operands, to compare with what the slot ran with
/// (sysbatch_verify_slot; runtime/src/verify.c).  A runtime-provided ""
/// is not compared.
struct VerifySite {
  AllocaInst *Rets, *Slots;
  unsigned NSlots;
};

static void emitVerify(IRBuilder<> &B, const CandidateCall &C,
                       const sb_slot_plan &SP, int Slot, const VerifySite &V,
                       RuntimeABI &RT) {
  Type *I64 = RT.I64;
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  auto *ArrTy = ArrayType::get(I64, SB_MAX_ARGS);
  AllocaInst *Expect = EB.CreateAlloca(ArrTy, nullptr, "sb.expect");
  Expect->setAlignment(Align(8));
  uint64_t Mask = 0;
  for (int K = 0; K < SB_MAX_ARGS; ++K) {
    Value *Word = ConstantInt::get(I64, 0);
    const sb_fill_arg &FA = SP.args[K];
    if (K < SP.argc && FA.fill == SB_FILL_CONST) {
      Word = ConstantInt::get(I64, FA.value);
      Mask |= 1ull << K;
    } else if (K < SP.argc &&
               (FA.fill == SB_FILL_LIBC_ARG || FA.fill == SB_FILL_CHAINED) &&
               FA.index >= 0 && (unsigned)FA.index < C.Call->arg_size()) {
      Word = asWord(B, C.Call->getArgOperand(FA.index), I64);
      Mask |= 1ull << K;
    }
    B.CreateAlignedStore(Word, B.CreateConstInBoundsGEP2_64(ArrTy, Expect, 0, K),
                         Align(8));
  }
  // file:line with -g; without debug info, the file and the function.
  std::string Where;
  if (const DebugLoc &DL = C.Call->getDebugLoc())
    Where = (DL->getFilename() + ":" + Twine(DL.getLine())).str();
  else
    Where = F.getParent()->getSourceFileName() + ": in " + F.getName().str();
  Where += ": " + C.Call->getCalledFunction()->getName().str();
  Value *WhereStr = B.CreateGlobalStringPtr(Where, "sb.where");
  B.CreateCall(RT.verifySlot(),
               {B.CreateConstInBoundsGEP2_64(ArrayType::get(I64, V.NSlots),
                                             V.Rets, 0, 0),
                B.CreateConstInBoundsGEP2_64(
                    ArrayType::get(I64, V.NSlots * 8), V.Slots, 0, 0),
                ConstantInt::get(I64, V.NSlots), ConstantInt::get(I64, Slot),
                ConstantInt::get(I64, SP.nr),
                B.CreateConstInBoundsGEP2_64(ArrTy, Expect, 0, 0),
                ConstantInt::get(I64, Mask), WhereStr});
}

/// A call site of a branchy batch, where the kernel may have skipped slots:
///
///   head:      br (last >= 0), sb.check, sb.call
///   sb.check:  %raw = load rets[slot]; br (%raw != NOT_RUN), sb.result, sb.call
///   sb.result: convert(%raw); br sb.next
///   sb.call:   the original call; br sb.next
///   sb.next:   phi
///
/// `last` is checked first: when the batch did not run, rets is unwritten.
static void rewriteBranchyCallSite(Region &R, const CandidateCall &C, int Slot,
                                   int NSlots, AllocaInst *Rets, Value *Last,
                                   RuntimeABI &RT,
                                   DenseMap<Value *, Value *> &Replaced,
                                   const VerifySite *Verify,
                                   const sb_slot_plan &SP) {
  CallInst *Call = C.Call;
  LLVMContext &Ctx = Call->getContext();
  Type *I64 = RT.I64;
  BasicBlock *Head = Call->getParent();
  Function *F = Head->getParent();
  BasicBlock *Tail = Head->splitBasicBlock(Call, "sb.next");
  BasicBlock *Check = BasicBlock::Create(Ctx, "sb.check", F, Tail);
  BasicBlock *FromBatch = BasicBlock::Create(Ctx, "sb.result", F, Tail);
  BasicBlock *Original = BasicBlock::Create(Ctx, "sb.call", F, Tail);

  Head->getTerminator()->eraseFromParent();
  IRBuilder<> HB(Head);
  HB.SetCurrentDebugLocation(Call->getDebugLoc());
  HB.CreateCondBr(HB.CreateICmpSGE(Last, ConstantInt::get(I64, 0),
                                   "sb.batch.ran"),
                  Check, Original);

  IRBuilder<> KB(Check);
  KB.SetCurrentDebugLocation(Call->getDebugLoc());
  Value *Raw = KB.CreateAlignedLoad(
      I64,
      KB.CreateConstInBoundsGEP2_64(ArrayType::get(I64, NSlots), Rets, 0, Slot),
      Align(8), "sb.raw");
  KB.CreateCondBr(KB.CreateICmpNE(Raw,
                                  ConstantInt::get(I64, SYSBATCH_NOT_RUN_WORD),
                                  "sb.slot.ran"),
                  FromBatch, Original);

  IRBuilder<> RB(FromBatch);
  RB.SetCurrentDebugLocation(Call->getDebugLoc());
  if (Verify)
    emitVerify(RB, C, SP, Slot, *Verify, RT);
  Value *Converted = convertResult(R, C, RB, Raw, RT);
  RB.CreateBr(Tail);

  BranchInst *ToTail = BranchInst::Create(Tail, Original);
  Call->moveBefore(ToTail);
  if (!Converted)
    return;
  PHINode *Result = PHINode::Create(Call->getType(), 2, "", &Tail->front());
  Result->takeName(Call);
  Call->setName(Result->getName() + ".orig");
  Call->replaceAllUsesWith(Result);
  Result->addIncoming(Converted, FromBatch);
  Result->addIncoming(Call, Original);
  Replaced[Call] = Result;
}

/// The kernel side of the batch's calls moves up to the issue point, so a
/// buffer whose lifetime starts between the first call and a batched call
/// that writes it (`struct stat st;` declared between open and fstat:
/// llvm.lifetime.start at -O2) must be alive there already; otherwise later
/// passes may treat what the kernel wrote as undefined.  The analysis lets
/// such markers of the issue block commute (visitGap); here they move to
/// just before the first call, which only makes the lifetime longer.
static void hoistLifetimeStarts(Region &R, int BI, CallInst *First) {
  Instruction *LastBatched = nullptr;
  for (int C = 0; C < R.Plan.ncalls; ++C)
    if (R.Plan.calls[C].batch == BI &&
        R.Calls[C].Call->getParent() == First->getParent())
      LastBatched = R.Calls[C].Call;
  SmallVector<IntrinsicInst *, 4> Starts;
  for (Instruction *I = First->getNextNode(); I && LastBatched &&
                                              I != LastBatched;
       I = I->getNextNode())
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->getIntrinsicID() == Intrinsic::lifetime_start)
        Starts.push_back(II);
  for (IntrinsicInst *II : Starts) {
    // Optimised IR (the late look) casts the object's address right before
    // its lifetime starts: the cast moves along when its own operand is
    // available before the batch.
    if (auto *Addr = dyn_cast<Instruction>(II->getArgOperand(1)))
      if (Addr->getParent() == First->getParent() &&
          First->comesBefore(Addr)) {
        auto *Op = dyn_cast<Instruction>(Addr->getOperand(0));
        if (!isa<CastInst>(Addr) && !isa<GetElementPtrInst>(Addr))
          continue;
        if (Op && Op->getParent() == First->getParent() &&
            First->comesBefore(Op))
          continue;
        Addr->moveBefore(First);
      }
    II->moveBefore(First);
  }
  // A branchy region's later blocks: the starts the analysis let commute,
  // with the one address cast the predicate allows repeated at the issue
  // point (it may not dominate it).
  if (!R.branchy())
    return;
  SmallVector<IntrinsicInst *, 4> Later;
  for (unsigned B = 1; B < R.Blocks.size(); ++B)
    for (Instruction &I : *R.Blocks[B])
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (isHoistableLifetimeStart(R, *II))
          Later.push_back(II);
  for (IntrinsicInst *II : Later) {
    if (auto *Addr = dyn_cast<Instruction>(II->getArgOperand(1))) {
      if (!isa<AllocaInst>(Addr)) {
        Instruction *Copy = Addr->clone();
        Copy->insertBefore(First);
        II->setArgOperand(1, Copy);
        if (Addr->use_empty())
          Addr->eraseFromParent();
      }
    }
    II->moveBefore(First);
  }
}

/// A slot word's address: word \p W of the \p Words-word array \p Array.
static Value *wordPtr(IRBuilder<> &IB, Type *I64, Value *Array,
                      unsigned Words, unsigned W) {
  return IB.CreateConstInBoundsGEP2_64(ArrayType::get(I64, Words), Array, 0,
                                       W);
}

constexpr unsigned WordsPerSlot = 8; // struct sysbatch_slot: 64 bytes

/// The batch's slot words: constants (known at compile time), which words
/// the kernel reads, and the words computed at the issue point.
struct SlotWords {
  std::vector<Constant *> Const;
  std::vector<bool> Meaningful;
  std::vector<std::pair<unsigned, Value *>> Variable;
};

/// Fill \p Words for every slot of \p BP; run-time values are computed
/// with \p IB in the issue block (materialize: AVAILABLE values there).
static void fillSlotWords(Region &R, const sb_batch_plan &BP, RuntimeABI &RT,
                          IRBuilder<> &IB, AllocaInst *Rets, AllocaInst *Slots,
                          unsigned FirstPos,
                          DenseMap<Value *, Value *> &Replaced,
                          SlotWords &Words) {
  Type *I64 = RT.I64;
  const unsigned NWords = BP.nslots * WordsPerSlot;
  // Constant words (null: computed at run time) and the run-time words.
  Words.Const.assign(NWords, ConstantInt::get(I64, 0));
  Words.Meaningful.assign(NWords, false);
  DenseMap<Value *, Value *> Cache;
  for (int S = 0; S < BP.nslots; ++S) {
    const sb_slot_plan &SP = BP.slots[S];
    unsigned W = S * WordsPerSlot;
    uint64_t Header = (uint64_t)(uint16_t)SP.nr |
                      (uint64_t)(uint16_t)SP.jump_fail << 16 |
                      (uint64_t)(uint16_t)SP.jump_zero << 32 |
                      (uint64_t)(uint16_t)SP.jump_pos << 48;
    Words.Const[W] = ConstantInt::get(I64, Header);
    if (SP.predicated) {
      // Predicated slot (core.h, SB_TERM_PRED): its jumps follow the
      // conditions of its predicate blocks, evaluated here where the batch
      // is filled; one select per predicate picks among the sets of jumps.
      int NPreds = SP.npreds < 1 ? 1 : SP.npreds;
      SmallVector<Value *, SB_MAX_SLOT_PREDS> Holds;
      for (int P = 0; P < NPreds; ++P) {
        int Block = NPreds == 1 ? SP.pred_block : SP.pred_blocks[P];
        Value *Cond = materialize(R, IB, R.PredCond[Block], FirstPos, Cache,
                                  Replaced);
        Holds.push_back(R.PredNegated[Block] ? IB.CreateNot(Cond) : Cond);
      }
      std::function<Value *(int, int)> Pick = [&](int P, int V) -> Value * {
        if (P == NPreds) {
          short J[3];
          sb_slot_variant_jumps(&SP, V, J);
          return ConstantInt::get(I64, (uint64_t)(uint16_t)SP.nr |
                                           (uint64_t)(uint16_t)J[0] << 16 |
                                           (uint64_t)(uint16_t)J[1] << 32 |
                                           (uint64_t)(uint16_t)J[2] << 48);
        }
        Value *IfHolds = Pick(P + 1, V), *IfNot = Pick(P + 1, V | 1 << P);
        return IfHolds == IfNot
                   ? IfHolds
                   : IB.CreateSelect(Holds[P], IfHolds, IfNot, "sb.jumps");
      };
      Words.Variable.push_back({W, Pick(0, 0)});
    }
    Words.Const[W + 1] = ConstantInt::get(I64, (uint64_t)(uint8_t)SP.argc);
    Words.Meaningful[W] = Words.Meaningful[W + 1] = true;
    for (int K = 0; K < SP.argc; ++K)
      Words.Meaningful[W + 2 + K] = true;
    if (SP.kind == SB_SLOT_COPY) {
      unsigned Dst = SP.copy_dst_slot * WordsPerSlot + 2 + SP.copy_dst_arg;
      Words.Variable.push_back(
          {W + 2,
           IB.CreatePtrToInt(wordPtr(IB, I64, Slots, NWords, Dst), I64)});
      Value *Src;
      if (SP.copy_src_arg >= 0) {
        // A word the writer's call put in its buffer: buffer + offset.
        CallInst *Writer = R.Calls[BP.slots[SP.copy_src_slot].call].Call;
        Value *Buf = materialize(R, IB, Writer->getArgOperand(SP.copy_src_arg),
                                 FirstPos, Cache, Replaced);
        Src = IB.CreateAdd(asWord(IB, Buf, I64),
                           ConstantInt::get(I64, SP.copy_src_offset));
      } else {
        Src = IB.CreatePtrToInt(wordPtr(IB, I64, Rets, BP.nslots, SP.copy_src_slot),
                                I64);
      }
      Words.Variable.push_back({W + 3, Src});
      continue;
    }
    const CandidateCall &C = R.Calls[SP.call];
    for (int K = 0; K < SP.argc; ++K) {
      const sb_fill_arg &FA = SP.args[K];
      switch (FA.fill) {
      case SB_FILL_CONST:
        Words.Const[W + 2 + K] = ConstantInt::get(I64, (uint64_t)FA.value);
        break;
      case SB_FILL_EMPTY_STRING:
        Words.Const[W + 2 + K] = compat::addressAsInteger(RT.emptyString(), I64);
        break;
      case SB_FILL_CHAINED:
        Words.Meaningful[W + 2 + K] = false; // written by the copy slot before it
        break;
      case SB_FILL_LIBC_ARG: {
        unsigned Op = FA.index; // the event's argument (NR is syscall's 0)
        if (Op >= C.Call->arg_size())
          break; // a variadic argument not passed: 0
        Value *V = C.Call->getArgOperand(Op);
        // A constant that LLVM cannot fold to a 64-bit word (possible
        // from 19, where sext/zext are no longer constant expressions) is
        // filled at run time like any other value.
        Constant *Word = nullptr;
        if (auto *CV = dyn_cast<Constant>(V);
            CV && !isa<ConstantInt>(V) && !isa<ConstantPointerNull>(V))
          Word = CV->getType()->isPointerTy()
                     ? compat::addressAsInteger(CV, I64)
                     : compat::integerCast(CV, I64, /*IsSigned=*/true,
                                           C.Call->getModule()->getDataLayout());
        if (auto *CI = dyn_cast<ConstantInt>(V)) {
          Words.Const[W + 2 + K] = ConstantInt::get(I64, CI->getSExtValue());
        } else if (isa<ConstantPointerNull>(V)) {
        } else if (Word) {
          Words.Const[W + 2 + K] = Word;
        } else {
          Value *Here = materialize(R, IB, V, FirstPos, Cache, Replaced);
          Words.Variable.push_back({W + 2 + K, asWord(IB, Here, I64)});
        }
        break;
      }
      }
    }
  }
}

/// Write the slot words: from a constant template (fill=template) or word
/// by word, then the run-time words.
static void storeSlotWords(Module &M, IRBuilder<> &IB, Type *I64,
                           AllocaInst *Slots, unsigned NWords,
                           sb_fill_mode Fill, SlotWords &Words) {
  if (Fill == SB_FILL_MODE_TEMPLATE) {
    auto *TemplateTy = ArrayType::get(I64, NWords);
    auto *Template = new GlobalVariable(
        M, TemplateTy, true, GlobalValue::PrivateLinkage,
        ConstantArray::get(TemplateTy, Words.Const), "sb.template");
    Template->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Template->setAlignment(Align(8));
    IB.CreateMemCpy(wordPtr(IB, I64, Slots, NWords, 0), MaybeAlign(8),
                    Template, MaybeAlign(8), NWords * 8);
  } else {
    for (auto &VW : Words.Variable)
      Words.Meaningful[VW.first] = false; // stored below
    for (unsigned W = 0; W < NWords; ++W)
      if (Words.Meaningful[W])
        IB.CreateAlignedStore(Words.Const[W],
                              wordPtr(IB, I64, Slots, NWords, W), Align(8));
  }
  for (auto &VW : Words.Variable)
    IB.CreateAlignedStore(VW.second, wordPtr(IB, I64, Slots, NWords, VW.first),
                          Align(8));
}

/// A straight-line call site of slot \p Slot: `slot <= last ?
/// convert(rets[slot]) : call`, the result a PHI of both.
static void rewriteCallSite(Region &R, const CandidateCall &C, int Slot,
                            const sb_batch_plan &BP, AllocaInst *Rets,
                            PHINode *Last, RuntimeABI &RT, VerifySite *VSite,
                            DenseMap<Value *, Value *> &Replaced) {
  Type *I64 = RT.I64;
  CallInst *Call = C.Call;
  IRBuilder<> CB(Call);
  Value *SlotRan = CB.CreateICmpSLE(ConstantInt::get(I64, Slot), Last,
                                    "sb.slot.ran");
  Instruction *FromBatch, *Original;
  SplitBlockAndInsertIfThenElse(SlotRan, Call, &FromBatch, &Original);
  BasicBlock *Tail = Call->getParent();
  Tail->setName("sb.next");
  FromBatch->getParent()->setName("sb.result");
  Original->getParent()->setName("sb.call");
  Call->moveBefore(Original);

  IRBuilder<> RB(FromBatch);
  RB.SetCurrentDebugLocation(Call->getDebugLoc());
  Value *Raw = RB.CreateAlignedLoad(
      I64, RB.CreateConstInBoundsGEP2_64(ArrayType::get(I64, BP.nslots),
                                         Rets, 0, Slot),
      Align(8), "sb.raw");
  if (VSite)
    emitVerify(RB, C, BP.slots[Slot], Slot, *VSite, RT);
  Value *Converted = convertResult(R, C, RB, Raw, RT);
  if (!Converted)
    return; // void call site: the conversion only sets errno
  PHINode *Result = PHINode::Create(Call->getType(), 2, "", &Tail->front());
  Result->takeName(Call);
  Call->setName(Result->getName() + ".orig");
  Call->replaceAllUsesWith(Result);
  Result->addIncoming(Converted, FromBatch->getParent());
  Result->addIncoming(Call, Original->getParent());
  Replaced[Call] = Result;
}

/// The straight stretch of a batch that its common path copies: from the
/// first call to the last, in one block, holding only calls of this batch
/// or unbatched ones and nothing that cannot be duplicated.  Returns the
/// number of instructions (debug intrinsics not counted), or -1.
static int copyableStretch(const Region &R, int BI) {
  const sb_batch_plan &BP = R.Plan.batches[BI];
  CallInst *First = R.Calls[BP.first_call].Call;
  CallInst *LastCall = R.Calls[BP.last_call].Call;
  if (First->getParent() != LastCall->getParent())
    return -1;
  for (int C = BP.first_call; C <= BP.last_call; ++C)
    if (R.Plan.calls[C].batch != BI && R.Plan.calls[C].batch != -1)
      return -1; // another batch's call: its rewrite sees only one copy
  int Count = 0;
  for (Instruction *I = First;; I = I->getNextNode()) {
    if (I->getType()->isTokenTy() || isa<AllocaInst>(I) || I->isEHPad())
      return -1;
    if (auto *CB = dyn_cast<CallBase>(I))
      if (CB->cannotDuplicate() || CB->isConvergent())
        return -1;
    if (!isa<DbgInfoIntrinsic>(I))
      ++Count;
    if (I == LastCall)
      return Count;
  }
}

/// The common path of a straight-line batch (sb_rt_all_ran_test): after
///
///   sb.join:  %sb.last = phi [-1], [%sb.ran]
///             br (%sb.last == nslots - 1), sb.all, sb.calls
///
/// sb.all is a copy of the stretch from the first call to the last in
/// which every batched call is convert(rets[slot]) without a test;
/// sb.calls keeps the per-slot tests (rewriteCallSite) for a batch that
/// stopped early, was refused or did not run.  Both meet in sb.after, where
/// a PHI merges each value of the stretch used beyond it (and is what later
/// batches see, through \p Replaced); \p MergedCalls gets the PHI of each
/// batched call, whose sb.calls copy rewriteCallSite rewrites next, and
/// \p AllRanCalls the sb.all copies, in call order, for takeAllResults.
static void emitAllRanPath(Region &R, int BI, BasicBlock *Join, PHINode *Last,
                           RuntimeABI &RT,
                           DenseMap<Value *, Value *> &Replaced,
                           DenseMap<CallInst *, PHINode *> &MergedCalls,
                           SmallVectorImpl<CallInst *> &AllRanCalls) {
  const sb_batch_plan &BP = R.Plan.batches[BI];
  CallInst *First = R.Calls[BP.first_call].Call;
  CallInst *LastCall = R.Calls[BP.last_call].Call;
  Type *I64 = RT.I64;
  BasicBlock *Calls = Join->splitBasicBlock(First, "sb.calls");
  BasicBlock *After =
      Calls->splitBasicBlock(LastCall->getNextNode(), "sb.after");

  ValueToValueMapTy VMap;
  BasicBlock *All = CloneBasicBlock(Calls, VMap, "", Join->getParent());
  All->setName("sb.all");
  All->moveBefore(After); // the per-slot blocks come between, in order
  for (Instruction &I : *All)
    RemapInstruction(&I, VMap,
                     RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);

  Join->getTerminator()->eraseFromParent();
  IRBuilder<> JB(Join);
  JB.SetCurrentDebugLocation(First->getDebugLoc());
  // likely: a batch stops early only on a failure with a stop offset, a
  // fatal signal, or when it is not run at all
  JB.CreateCondBr(JB.CreateICmpEQ(Last, ConstantInt::get(I64, BP.nslots - 1),
                                  "sb.all.ran"),
                  All, Calls,
                  MDBuilder(JB.getContext()).createBranchWeights(2000, 1));

  // Every value of the stretch: one PHI in sb.after, also where nothing
  // after it uses the value yet - a later batch may refer to it when it
  // fills its slots (materialize: a load forwarded to the value stored
  // here, at -O0 a call's result through its variable), and must then see
  // the value of whichever path ran.  Unused PHIs are dead code.
  IRBuilder<> AB(&After->front());
  for (Instruction &I : *Calls) {
    if (I.getType()->isVoidTy())
      continue;
    PHINode *Merge = AB.CreatePHI(I.getType(), 2, I.getName() + ".sb.merge");
    Merge->addIncoming(&I, Calls);
    Merge->addIncoming(VMap[&I], All);
    I.replaceUsesWithIf(Merge, [&](Use &U) {
      return U.getUser() != Merge &&
             cast<Instruction>(U.getUser())->getParent() != Calls;
    });
    Replaced[&I] = Merge;
    if (auto *Call = dyn_cast<CallInst>(&I))
      MergedCalls[Call] = Merge;
  }

  for (int CIdx = BP.first_call; CIdx <= BP.last_call; ++CIdx)
    if (R.Plan.calls[CIdx].batch == BI)
      AllRanCalls.push_back(cast<CallInst>(VMap[R.Calls[CIdx].Call]));
}

/// sb.all (emitAllRanPath): each batched call's copy becomes its result
/// straight from rets (after the per-slot path is built, so that its names
/// read as before).
static void takeAllResults(Region &R, int BI, AllocaInst *Rets,
                           RuntimeABI &RT, ArrayRef<CallInst *> AllRanCalls) {
  const sb_batch_plan &BP = R.Plan.batches[BI];
  Type *I64 = RT.I64;
  unsigned K = 0;
  for (int CIdx = BP.first_call; CIdx <= BP.last_call; ++CIdx) {
    const sb_call_plan &CP = R.Plan.calls[CIdx];
    if (CP.batch != BI)
      continue;
    CandidateCall Copy = R.Calls[CIdx];
    Copy.Call = AllRanCalls[K++];
    IRBuilder<> RB(Copy.Call);
    Value *Raw = RB.CreateAlignedLoad(
        I64, RB.CreateConstInBoundsGEP2_64(ArrayType::get(I64, BP.nslots),
                                           Rets, 0, CP.slot),
        Align(8), "sb.raw");
    if (Value *Converted = convertResult(R, Copy, RB, Raw, RT))
      Copy.Call->replaceAllUsesWith(Converted);
    Copy.Call->eraseFromParent();
  }
}

/// Rewrite batch \p BI of region \p R: slots and the versioned issue at the
/// first call, then `slot <= last ? convert(rets[slot]) : call` at each call
/// (after one test "every slot ran" where sb_rt_all_ran_test allows).
void rewriteBatch(Region &R, int BI, RuntimeABI &RT,
                  sb_fill_mode Fill, bool Verify,
                  DenseMap<Value *, Value *> &Replaced) {
  const sb_batch_plan &BP = R.Plan.batches[BI];
  CallInst *First = R.Calls[BP.first_call].Call;
  const unsigned FirstPos = R.Position.lookup(First);
  Function &F = *First->getFunction();
  Type *I64 = RT.I64;
  const unsigned NWords = BP.nslots * WordsPerSlot;

  hoistLifetimeStarts(R, BI, First);

  // Stack arrays in the entry block, so they are allocated once.
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Rets = EB.CreateAlloca(ArrayType::get(I64, BP.nslots), nullptr,
                                     "sb.rets");
  Rets->setAlignment(Align(8));
  AllocaInst *Slots =
      EB.CreateAlloca(ArrayType::get(I64, NWords), nullptr, "sb.slots");
  Slots->setAlignment(Align(8));

  // Versioning: one load and one branch; the original calls are the else.
  IRBuilder<> B(First);
  Value *Active = B.CreateLoad(RT.I32, RT.active(), "sb.active");
  Value *On = B.CreateICmpNE(Active, ConstantInt::get(RT.I32, 0), "sb.on");
  BasicBlock *Head = First->getParent();
  Instruction *IssueTerm = SplitBlockAndInsertIfThen(On, First, false);
  BasicBlock *Issue = IssueTerm->getParent();
  BasicBlock *Join = First->getParent();
  Issue->setName("sb.issue");
  Join->setName("sb.join");

  IRBuilder<> IB(IssueTerm);
  SlotWords Words;
  fillSlotWords(R, BP, RT, IB, Rets, Slots, FirstPos, Replaced, Words);
  storeSlotWords(*F.getParent(), IB, I64, Slots, NWords, Fill, Words);
  Value *SlotsBase = wordPtr(IB, I64, Slots, NWords, 0);
  Value *RetsBase = wordPtr(IB, I64, Rets, BP.nslots, 0);
  CallInst *Ran = IB.CreateCall(
      RT.run(), {RetsBase, SlotsBase, ConstantInt::get(I64, BP.nslots),
               ConstantInt::get(I64, sb_rt_run_flags(&BP))},
      "sb.ran");
  Ran->setDebugLoc(First->getDebugLoc());
  Ran->setMetadata(RegionBatchedMD, MDNode::get(F.getContext(), {}));
  PHINode *Last = PHINode::Create(I64, 2, "sb.last", &Join->front());
  Last->addIncoming(ConstantInt::get(I64, -1), Head);
  Last->addIncoming(Ran, Issue);

  VerifySite VSite{Rets, Slots, (unsigned)BP.nslots};
  DenseMap<CallInst *, PHINode *> MergedCalls;
  SmallVector<CallInst *, 8> AllRanCalls;
  if (sb_rt_all_ran_test(&BP, copyableStretch(R, BI), Verify))
    emitAllRanPath(R, BI, Join, Last, RT, Replaced, MergedCalls,
                   AllRanCalls);
  // Each call site: the batch's result when its slot ran, else the call.
  for (int CIdx = BP.first_call; CIdx <= BP.last_call; ++CIdx) {
    const sb_call_plan &CP = R.Plan.calls[CIdx];
    if (CP.batch != BI)
      continue;
    const CandidateCall &C = R.Calls[CIdx];
    C.Call->setMetadata(RegionBatchedMD, MDNode::get(F.getContext(), {}));
    if (BP.branchy) {
      rewriteBranchyCallSite(R, C, CP.slot, BP.nslots, Rets, Last, RT,
                             Replaced, Verify ? &VSite : nullptr,
                             BP.slots[CP.slot]);
      continue;
    }
    rewriteCallSite(R, C, CP.slot, BP, Rets, Last, RT,
                    Verify ? &VSite : nullptr, Replaced);
    // beyond the stretch, the merge of both paths stands for the call
    if (PHINode *Merge = MergedCalls.lookup(C.Call))
      Replaced[C.Call] = Merge;
  }
  if (!AllRanCalls.empty())
    takeAllResults(R, BI, Rets, RT, AllRanCalls);
}

} // namespace detail
} // namespace sysbatch
