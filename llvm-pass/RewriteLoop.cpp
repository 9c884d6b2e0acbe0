//===- RewriteLoop.cpp - one loop call site as groups of one batch --------===//
//
// Rewrites the call site of a batched loop from its sb_loop_plan, in the
// shape sysbatch/loop.h prescribes for both front ends.  The loop's own
// code is not touched: only the call site changes, and the counters are
// reset in the preheader so a loop entered again never uses a stale group.
//
//   entry:      slots[K], rets[K], priv[K * size], next, filled
//   preheader:  next = filled = 0
//   head:       br (sysbatch_active != 0), sb.loop.check, sb.loop.call
//   check:      br (next == filled || rets[next] == NOT_RUN), refill, pick
//   refill:     for t in 0..K-1: (t > 0: the repeated exit tests say
//               iteration t happens) && precheck(args of t) -> fill slot t
//               filled = t; next = 0; filled > 0: sysbatch_run(...) (a
//               refused batch: filled = 0)
//   pick:       br (next < filled && rets[next] != NOT_RUN), take, call
//   take:       r = convert(rets[next]); copy priv[next] back on success;
//               next++
//   call:       the original call
//   tail:       phi(r, call)
//
// The inspector computes iteration t's values from the induction variables
// (value now + t * step, no poison flags) and loop invariants; its branch
// conditions are frozen, so a test evaluated for an iteration that turns
// out not to matter is never undefined behaviour.
//
//===----------------------------------------------------------------------===//

#include "LoopBatching.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

namespace {

constexpr int64_t NotRunWord = INT64_MIN; // SYSBATCH_NOT_RUN
constexpr unsigned WordsPerSlot = 8;      // struct sysbatch_slot: 64 bytes

/// Values of the loop for iteration `now + T` (T an i64 at run time).
class IterationValues {
public:
  IterationValues(LoopSite &S, IRBuilder<> &B, Value *T,
                  DenseMap<const Value *, Value *> &Bases,
                  const DenseSet<const Instruction *> &Inside)
      : S(S), B(B), T(T), Bases(Bases), Inside(Inside) {}

  Value *at(Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Inside.count(I))
      return V;
    auto Done = Cache.find(I);
    if (Done != Cache.end())
      return Done->second;
    Value *R;
    auto Leaf = S.Leaves.find(I);
    if (Leaf != S.Leaves.end()) {
      R = step(I, Leaf->second);
    } else {
      Instruction *Copy = I->clone();
      Copy->dropPoisonGeneratingFlags();
      if (isa<LoadInst>(Copy))
        for (unsigned Kind : {LLVMContext::MD_range, LLVMContext::MD_nonnull,
                              LLVMContext::MD_noundef, LLVMContext::MD_align,
                              LLVMContext::MD_dereferenceable,
                              LLVMContext::MD_dereferenceable_or_null,
                              LLVMContext::MD_invariant_load})
          Copy->setMetadata(Kind, nullptr);
      for (unsigned K = 0; K < Copy->getNumOperands(); ++K)
        Copy->setOperand(K, at(Copy->getOperand(K)));
      B.Insert(Copy, I->getName() + ".sb.t");
      R = Copy;
    }
    Cache[I] = R;
    return R;
  }

private:
  LoopSite &S;
  IRBuilder<> &B;
  Value *T;
  DenseMap<const Value *, Value *> &Bases;
  const DenseSet<const Instruction *> &Inside;
  DenseMap<const Value *, Value *> Cache;

  /// The induction value now, then + T * step in its own type.
  Value *step(Instruction *I, const InductionLeaf &Leaf) {
    Value *Now = Bases.lookup(I);
    Type *Ty = I->getType();
    Type *I64 = T->getType();
    Value *Bytes = B.CreateMul(T, ConstantInt::get(I64, Leaf.Step));
    if (Ty->isPointerTy()) {
      Type *I8 = Type::getInt8Ty(Ty->getContext());
      Value *Raw = B.CreateBitCast(Now, compat::pointerTo(I8));
      Value *Moved = B.CreateGEP(I8, Raw, Bytes);
      return B.CreateBitCast(Moved, Ty);
    }
    return B.CreateAdd(Now, B.CreateSExtOrTrunc(Bytes, Ty));
  }
};

} // namespace

/// Does libc argument \p V pass glibc's precheck (sysbatch/loop.h rule 5)?
static Value *precheckPasses(IRBuilder<> &B, uint8_t Pre, Value *V,
                             Type *I64) {
  switch (Pre) {
  case SB_PRE_FD_NONNEG:
    return V->getType()->isIntegerTy()
               ? B.CreateICmpSGE(V, ConstantInt::get(V->getType(), 0))
               : B.getTrue();
  case SB_PRE_NONNULL:
    return B.CreateICmpNE(asWord(B, V, I64), ConstantInt::get(I64, 0));
  case SB_PRE_PAGE_ALIGNED:
    return B.CreateICmpEQ(
        B.CreateAnd(asWord(B, V, I64), ConstantInt::get(I64, 4095)),
        ConstantInt::get(I64, 0));
  case SB_PRE_COUNT_INT_MAX:
    return B.CreateICmpULE(asWord(B, V, I64), ConstantInt::get(I64, INT32_MAX));
  default:
    return B.getTrue();
  }
}

void rewriteLoop(LoopSite &S, RuntimeABI &RT, bool Verify) {
  const sb_loop_plan &P = S.Plan;
  CallInst *Call = S.Call;
  Function &F = *Call->getFunction();
  LLVMContext &Ctx = F.getContext();
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *I64 = RT.I64;
  const unsigned K = P.group;
  const uint64_t Stride = (P.private_size + 7) & ~7ull;

  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  auto *SlotsTy = ArrayType::get(I64, K * WordsPerSlot);
  auto *RetsTy = ArrayType::get(I64, K);
  AllocaInst *Slots = EB.CreateAlloca(SlotsTy, nullptr, "sb.loop.slots");
  Slots->setAlignment(Align(8));
  AllocaInst *Rets = EB.CreateAlloca(RetsTy, nullptr, "sb.loop.rets");
  Rets->setAlignment(Align(8));
  AllocaInst *Priv = nullptr;
  ArrayType *PrivTy = nullptr;
  if (P.private_arg >= 0) {
    PrivTy = ArrayType::get(Type::getInt8Ty(Ctx), K * Stride);
    Priv = EB.CreateAlloca(PrivTy, nullptr, "sb.loop.private");
    Priv->setAlignment(Align(16));
  }
  AllocaInst *Next = EB.CreateAlloca(I64, nullptr, "sb.loop.next");
  AllocaInst *Filled = EB.CreateAlloca(I64, nullptr, "sb.loop.filled");

  // On every edge into the loop (a block that branches elsewhere too resets
  // them for nothing).
  for (BasicBlock *Pred : predecessors(S.L->getHeader())) {
    if (S.L->contains(Pred))
      continue;
    IRBuilder<> PB(Pred->getTerminator());
    PB.CreateStore(ConstantInt::get(I64, 0), Next);
    PB.CreateStore(ConstantInt::get(I64, 0), Filled);
  }

  // The induction values as the call site sees them now (before the
  // blocks below split the call's block).
  DenseMap<const Value *, Value *> Bases;
  // The loop's instructions, taken before the split moves some of them
  // into blocks LoopInfo does not know.
  DenseSet<const Instruction *> Inside;
  for (BasicBlock *BB : S.L->blocks())
    for (Instruction &I : *BB)
      Inside.insert(&I);

  BasicBlock *Head = Call->getParent();
  BasicBlock *Tail = Head->splitBasicBlock(Call, "sb.loop.next");
  auto NewBlock = [&](const char *Name) {
    return BasicBlock::Create(Ctx, Name, &F, Tail);
  };
  BasicBlock *Check = NewBlock("sb.loop.check");
  BasicBlock *Peek = NewBlock("sb.loop.peek");
  BasicBlock *Refill = NewBlock("sb.loop.refill");
  BasicBlock *InspHead = NewBlock("sb.loop.inspect");
  BasicBlock *Done = NewBlock("sb.loop.filled");
  BasicBlock *Run = NewBlock("sb.loop.run");
  BasicBlock *Pick = NewBlock("sb.loop.pick");
  BasicBlock *PickRet = NewBlock("sb.loop.pick.ret");
  BasicBlock *Take = NewBlock("sb.loop.result");
  BasicBlock *Original = NewBlock("sb.loop.call");
  DebugLoc Loc = Call->getDebugLoc();

  Head->getTerminator()->eraseFromParent();
  IRBuilder<> HB(Head);
  HB.SetCurrentDebugLocation(Loc);
  Value *Active = HB.CreateLoad(RT.I32, RT.active(), "sb.active");
  HB.CreateCondBr(HB.CreateICmpNE(Active, ConstantInt::get(RT.I32, 0)), Check,
                  Original);

  IRBuilder<> CB(Check);
  CB.SetCurrentDebugLocation(Loc);
  Value *N0 = CB.CreateLoad(I64, Next, "sb.next");
  Value *F0 = CB.CreateLoad(I64, Filled, "sb.filled");
  CB.CreateCondBr(CB.CreateICmpEQ(N0, F0), Refill, Peek);
  IRBuilder<> KB(Peek);
  KB.SetCurrentDebugLocation(Loc);
  Value *Stale = KB.CreateLoad(
      I64, KB.CreateInBoundsGEP(RetsTy, Rets, {KB.getInt64(0), N0}));
  KB.CreateCondBr(KB.CreateICmpEQ(Stale, ConstantInt::get(I64, NotRunWord)),
                  Refill, Pick);

  // Refill: the inspector.
  IRBuilder<> RB(Refill);
  RB.SetCurrentDebugLocation(Loc);
  // A leaf dominates the call: the phi, or the -O0 load itself.
  for (auto &LeafEntry : S.Leaves)
    Bases[LeafEntry.first] = const_cast<Value *>(LeafEntry.first);
  RB.CreateBr(InspHead);

  IRBuilder<> IB(InspHead);
  IB.SetCurrentDebugLocation(Loc);
  PHINode *T = IB.CreatePHI(I64, 2, "sb.t");
  T->addIncoming(ConstantInt::get(I64, 0), Refill);
  IRBuilder<> DB(Done);
  DB.SetCurrentDebugLocation(Loc);
  PHINode *Count = DB.CreatePHI(I64, 4, "sb.count");
  auto StopHere = [&](IRBuilder<> &B, Value *Go, BasicBlock *On) {
    Count->addIncoming(T, B.GetInsertBlock());
    B.CreateCondBr(B.CreateFreeze(Go), On, Done);
  };

  // t > 0: iteration t happens (the exit tests after t-1's call and before
  // t's, in dominance order; each only when the one before stayed).
  BasicBlock *Tests = NewBlock("sb.loop.tests");
  BasicBlock *Args = NewBlock("sb.loop.args");
  IB.CreateCondBr(IB.CreateICmpEQ(T, ConstantInt::get(I64, 0)), Args, Tests);
  IRBuilder<> TB(Tests);
  TB.SetCurrentDebugLocation(Loc);
  Value *Prev = TB.CreateSub(T, ConstantInt::get(I64, 1), "sb.t.prev");
  IterationValues AtPrev(S, TB, Prev, Bases, Inside),
      AtT(S, TB, T, Bases, Inside);
  for (const ExitTest &E : S.Exits) {
    Value *Cond = (E.AfterCall ? AtPrev : AtT).at(E.Br->getCondition());
    Value *Stay = E.StayOnTrue ? Cond : TB.CreateNot(Cond);
    BasicBlock *Passed = NewBlock("sb.loop.test.passed");
    StopHere(TB, Stay, Passed);
    TB.SetInsertPoint(Passed);
  }
  TB.CreateBr(Args);

  // Iteration t's arguments, its precheck, its slot.
  IRBuilder<> AB(Args);
  AB.SetCurrentDebugLocation(Loc);
  IterationValues AtArgs(S, AB, T, Bases, Inside);
  auto LibcArg = [&](int Index) -> Value * {
    if ((unsigned)Index >= Call->arg_size())
      return nullptr;
    return AtArgs.at(Call->getArgOperand(Index));
  };
  if (P.precheck != SB_PRE_NONE) {
    Value *V = LibcArg(S.C.EventBase + P.precheck_arg);
    if (V) {
      BasicBlock *Fill = NewBlock("sb.loop.fill");
      StopHere(AB, precheckPasses(AB, P.precheck, V, I64), Fill);
      AB.SetInsertPoint(Fill);
    }
  }
  Value *SlotBase = AB.CreateMul(T, ConstantInt::get(I64, WordsPerSlot));
  auto Word = [&](unsigned W) {
    return AB.CreateInBoundsGEP(
        SlotsTy, Slots,
        {AB.getInt64(0), AB.CreateAdd(SlotBase, ConstantInt::get(I64, W))});
  };
  uint64_t Header = (uint64_t)(uint16_t)P.nr |
                    (uint64_t)(uint16_t)P.jump_fail << 16 |
                    (uint64_t)(uint16_t)P.jump_zero << 32 |
                    (uint64_t)(uint16_t)P.jump_pos << 48;
  AB.CreateAlignedStore(ConstantInt::get(I64, Header), Word(0), Align(8));
  AB.CreateAlignedStore(ConstantInt::get(I64, (uint64_t)(uint8_t)P.argc),
                        Word(1), Align(8));
  for (int A = 0; A < P.argc; ++A) {
    const sb_fill_arg &FA = P.args[A];
    Value *V = ConstantInt::get(I64, 0);
    if (FA.fill == SB_FILL_CONST) {
      V = ConstantInt::get(I64, (uint64_t)FA.value);
    } else if (FA.fill == SB_FILL_EMPTY_STRING) {
      V = compat::addressAsInteger(RT.emptyString(), I64);
    } else if (FA.fill == SB_FILL_LIBC_ARG && FA.index == P.private_arg) {
      V = AB.CreatePtrToInt(
          AB.CreateInBoundsGEP(PrivTy, Priv,
                               {AB.getInt64(0),
                                AB.CreateMul(T, ConstantInt::get(I64, Stride))}),
          I64);
    } else if (FA.fill == SB_FILL_LIBC_ARG) {
      if (Value *Arg = LibcArg(S.C.EventBase + FA.index))
        V = asWord(AB, Arg, I64);
    }
    AB.CreateAlignedStore(V, Word(2 + A), Align(8));
  }
  Value *T1 = AB.CreateAdd(T, ConstantInt::get(I64, 1), "sb.t.next");
  T->addIncoming(T1, AB.GetInsertBlock());
  Count->addIncoming(T1, AB.GetInsertBlock());
  AB.CreateCondBr(AB.CreateICmpULT(T1, ConstantInt::get(I64, K)), InspHead,
                  Done);

  // The group: filled slots, one batch.
  DB.CreateStore(Count, Filled);
  DB.CreateStore(ConstantInt::get(I64, 0), Next);
  DB.CreateCondBr(DB.CreateICmpSGT(Count, ConstantInt::get(I64, 0)), Run,
                  Pick);
  IRBuilder<> UB(Run);
  UB.SetCurrentDebugLocation(Loc);
  CallInst *Ran = UB.CreateCall(
      RT.run(), {UB.CreateConstInBoundsGEP2_64(RetsTy, Rets, 0, 0),
                 UB.CreateConstInBoundsGEP2_64(SlotsTy, Slots, 0, 0), Count,
                 ConstantInt::get(I64, sb_loop_run_flags(&P))},
      "sb.ran");
  Ran->setMetadata(LoopBatchedMD, MDNode::get(Ctx, {}));
  // A batch the runtime refused ran nothing and left rets unwritten.
  UB.CreateStore(UB.CreateSelect(UB.CreateICmpSLT(Ran, ConstantInt::get(I64, 0)),
                                 ConstantInt::get(I64, 0), Count),
                 Filled);
  UB.CreateBr(Pick);

  // This iteration's slot, if it ran.
  IRBuilder<> QB(Pick);
  QB.SetCurrentDebugLocation(Loc);
  Value *N1 = QB.CreateLoad(I64, Next, "sb.next");
  Value *F1 = QB.CreateLoad(I64, Filled, "sb.filled");
  QB.CreateCondBr(QB.CreateICmpSLT(N1, F1), PickRet, Original);
  IRBuilder<> QR(PickRet);
  QR.SetCurrentDebugLocation(Loc);
  Value *Raw = QR.CreateAlignedLoad(
      I64, QR.CreateInBoundsGEP(RetsTy, Rets, {QR.getInt64(0), N1}), Align(8),
      "sb.raw");
  QR.CreateCondBr(QR.CreateICmpNE(Raw, ConstantInt::get(I64, NotRunWord)),
                  Take, Original);

  IRBuilder<> XB(Take);
  XB.SetCurrentDebugLocation(Loc);
  if (Priv) {
    // Rule 3: what the kernel wrote, copied back in order.
    Value *Failed = XB.CreateICmpULT(
        XB.CreateAdd(Raw, ConstantInt::get(I64, 4095)),
        ConstantInt::get(I64, 4095));
    BasicBlock *Copy = NewBlock("sb.loop.copy.back");
    BasicBlock *Convert = NewBlock("sb.loop.convert");
    XB.CreateCondBr(Failed, Convert, Copy);
    IRBuilder<> YB(Copy);
    YB.SetCurrentDebugLocation(Loc);
    Value *From = YB.CreateInBoundsGEP(
        PrivTy, Priv,
        {YB.getInt64(0), YB.CreateMul(N1, ConstantInt::get(I64, Stride))});
    Value *To = Call->getArgOperand(S.C.EventBase + P.private_arg);
    Value *Size = P.copy_back == SB_COPY_BACK_FIXED
                      ? (Value *)ConstantInt::get(I64, P.private_size)
                      : Raw;
    YB.CreateMemCpy(To, MaybeAlign(1), From, MaybeAlign(1), Size);
    YB.CreateBr(Convert);
    XB.SetInsertPoint(Convert);
  }
  if (Verify) {
    // verify mode: the words slot `next` ran with must be this call site's
    // own arguments (rule 1 checked at run time); the private buffer's word
    // is the slot's own, not compared.
    auto *ArrTy = ArrayType::get(I64, SB_MAX_ARGS);
    AllocaInst *Expect = EB.CreateAlloca(ArrTy, nullptr, "sb.loop.expect");
    Expect->setAlignment(Align(8));
    uint64_t Mask = 0;
    for (int A = 0; A < SB_MAX_ARGS; ++A) {
      Value *W = ConstantInt::get(I64, 0);
      if (A < P.argc) {
        const sb_fill_arg &FA = P.args[A];
        unsigned Op = S.C.EventBase + FA.index;
        if (FA.fill == SB_FILL_CONST) {
          W = ConstantInt::get(I64, (uint64_t)FA.value);
          Mask |= 1ull << A;
        } else if (FA.fill == SB_FILL_LIBC_ARG && FA.index != P.private_arg &&
                   Op < Call->arg_size()) {
          W = asWord(XB, Call->getArgOperand(Op), I64);
          Mask |= 1ull << A;
        }
      }
      XB.CreateAlignedStore(W, XB.CreateConstInBoundsGEP2_64(ArrTy, Expect, 0, A),
                            Align(8));
    }
    std::string Where;
    if (const DebugLoc &D = Call->getDebugLoc())
      Where = (D->getFilename() + ":" + Twine(D.getLine())).str();
    else
      Where = F.getParent()->getSourceFileName() + ": in " + F.getName().str();
    Where += ": " + Call->getCalledFunction()->getName().str() + " (loop)";
    XB.CreateCall(RT.verifySlot(),
                  {XB.CreateConstInBoundsGEP2_64(RetsTy, Rets, 0, 0),
                   XB.CreateConstInBoundsGEP2_64(SlotsTy, Slots, 0, 0),
                   XB.CreateLoad(I64, Filled), N1,
                   ConstantInt::get(I64, P.nr),
                   XB.CreateConstInBoundsGEP2_64(ArrTy, Expect, 0, 0),
                   ConstantInt::get(I64, Mask),
                   XB.CreateGlobalStringPtr(Where, "sb.where")});
  }
  XB.CreateStore(XB.CreateAdd(N1, ConstantInt::get(I64, 1)), Next);
  Value *Converted =
      convertRawResult(S.Model.abi, S.Model.call, Call, XB, Raw, RT);
  XB.CreateBr(Tail);

  BranchInst *ToTail = BranchInst::Create(Tail, Original);
  Call->moveBefore(ToTail);
  Call->setMetadata(LoopBatchedMD, MDNode::get(Ctx, {}));
  (void)DL;
  if (!Converted)
    return;
  PHINode *Result = PHINode::Create(Call->getType(), 2, "", &Tail->front());
  Result->takeName(Call);
  Call->setName(Result->getName() + ".orig");
  Call->replaceAllUsesWith(Result);
  Result->addIncoming(Converted, XB.GetInsertBlock());
  Result->addIncoming(Call, Original);
}

} // namespace detail
} // namespace sysbatch
