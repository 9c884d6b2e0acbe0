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
//               refused batch: filled = 0).  Under a guard the iteration
//               j counts apart from t: a false guard fills no slot (j++,
//               up to plan.scan).  A built name (rule 6): the loop's own
//               builders run again into slot t's private buffer (over a
//               copy of the shared one under plan.built_copy_in), errno
//               saved at the refill and restored before the run.
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

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

namespace {

constexpr int64_t NotRunWord = INT64_MIN; // SYSBATCH_NOT_RUN

/// Rule 10: one chase, whatever leaf stands for its node: the phi, or the
/// -O0 stack slot every load of which reads it.
const Value *chaseKey(const InductionLeaf &Leaf) {
  return Leaf.Phi ? static_cast<const Value *>(Leaf.Phi) : Leaf.Slot;
}
constexpr unsigned WordsPerSlot = 8;      // struct sysbatch_slot: 64 bytes

/// Values of the loop for iteration `now + T` (T an i64 at run time).
class IterationValues {
public:
  IterationValues(LoopSite &S, IRBuilder<> &B, Value *T,
                  DenseMap<const Value *, Value *> &Bases,
                  const DenseSet<const Instruction *> &Inside,
                  const DenseMap<const Value *, Value *> *Nodes = nullptr)
      : S(S), B(B), T(T), Bases(Bases), Inside(Inside), Nodes(Nodes) {}

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
  // Rule 10: each chase's node in this iteration (the inspector follows
  // the list; no closed form), by chaseKey.
  const DenseMap<const Value *, Value *> *Nodes;
  DenseMap<const Value *, Value *> Cache;

  /// The induction value now, then + T * step in its own type.
  Value *step(Instruction *I, const InductionLeaf &Leaf) {
    if (Leaf.Link) {
      Value *Node = Nodes ? Nodes->lookup(chaseKey(Leaf)) : nullptr;
      assert(Node && "a chase outside the inspector's walk");
      return B.CreateBitCast(Node, I->getType());
    }
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

namespace {

/// The rewrite of one call site, by role (the same roles and names as
/// gcc-plugin/rewrite-loop.cc): storage, the group check, the inspector
/// (exit tests, precheck, slot fill), the run, the pick, the consume
/// (copy back, verify, convert) and the fallback to the original call.
class LoopRewriter {
public:
  LoopRewriter(LoopSite &S, RuntimeABI &RT, bool Verify)
      : S(S), P(S.Plan), RT(RT), Verify(Verify), Call(S.Call),
        F(*Call->getFunction()), Ctx(F.getContext()), I64(RT.I64),
        K(P.group), Stride((P.private_size + 7) & ~7ull),
        EB(&*F.getEntryBlock().getFirstInsertionPt()),
        Loc(Call->getDebugLoc()) {}

  void run() {
    makeStorage();
    resetOnEntry();
    splitCallSite();
    emitGroupCheck();
    emitInspector();
    emitRun();
    emitPick();
    Value *Converted = emitConsume();
    joinOriginal(Converted);
  }

private:
  LoopSite &S;
  const sb_loop_plan &P;
  RuntimeABI &RT;
  bool Verify;
  CallInst *Call;
  Function &F;
  LLVMContext &Ctx;
  Type *I64;
  const unsigned K;
  const uint64_t Stride;
  IRBuilder<> EB; // the entry block: storage
  DebugLoc Loc;

  ArrayType *SlotsTy = nullptr, *RetsTy = nullptr, *PrivTy = nullptr;
  AllocaInst *Slots = nullptr, *Rets = nullptr, *Priv = nullptr;
  ArrayType *BuiltTy = nullptr; // rule 6: the buffers the inspector builds
  AllocaInst *BuiltBufs = nullptr;
  uint64_t BuiltStride = 0;
  Value *ErrnoAt = nullptr, *SavedErrno = nullptr;
  AllocaInst *Next = nullptr, *Filled = nullptr;
  // Rule 7: per checked range (reads, then writes), the lowest and one
  // past the highest byte address the group's iterations touch.
  SmallVector<AllocaInst *, 8> RangeLo, RangeHi;

  // The induction values as the call site sees them now (before the
  // blocks below split the call's block).
  DenseMap<const Value *, Value *> Bases;
  // The loop's instructions, taken before the split moves some of them
  // into blocks LoopInfo does not know.
  DenseSet<const Instruction *> Inside;
  // Rule 10: per chase (chaseKey), its link and the inspector's phis: the
  // node of iteration j and of j - 1.
  struct Chase {
    const Value *Key;
    LoadInst *Link;
    PHINode *Node, *PrevNode;
  };
  SmallVector<Chase, 2> Chases;
  DenseMap<const Value *, Value *> NodeAtJ, NodeAtPrev;
  bool ChaseChecked = false; // a link under rule 7's check

  /// Rule 10: each chase's next node, loaded from iteration j's node once
  /// j is filled or skipped (the load the original makes on the way round);
  /// the inspector's phis take it for iteration j + 1.
  void followLinks(IRBuilder<> &B) {
    IterationValues AtJ(S, B, J, Bases, Inside, &NodeAtJ);
    for (Chase &C : Chases) {
      Value *Next = AtJ.at(C.Link);
      C.Node->addIncoming(B.CreateBitCast(Next, C.Node->getType()),
                          B.GetInsertBlock());
      C.PrevNode->addIncoming(C.Node, B.GetInsertBlock());
    }
  }

  BasicBlock *Head = nullptr, *Tail = nullptr, *Check = nullptr,
             *Peek = nullptr, *Refill = nullptr, *InspHead = nullptr,
             *Done = nullptr, *RunBB = nullptr, *Pick = nullptr,
             *PickRet = nullptr, *Take = nullptr, *Original = nullptr;
  PHINode *T = nullptr;     // the inspector's slot index
  Value *J = nullptr;       // its iteration (now + J); T without a guard
  PHINode *Count = nullptr; // slots filled when the inspector stops
  Value *N1 = nullptr;      // next, at the pick
  Value *Raw = nullptr;     // rets[next], at the pick
  BasicBlock *ConsumeEnd = nullptr;

  BasicBlock *newBlock(const char *Name) {
    return BasicBlock::Create(Ctx, Name, &F, Tail);
  }

  /// The inspector stops before slot T when \p Go is false.
  void stopUnless(IRBuilder<> &B, Value *Go, BasicBlock *On) {
    Count->addIncoming(T, B.GetInsertBlock());
    B.CreateCondBr(B.CreateFreeze(Go), On, Done);
  }

  void makeStorage();
  void resetOnEntry();
  void splitCallSite();
  void emitGroupCheck();
  void emitInspector();
  void emitExitTests(BasicBlock *Tests, BasicBlock *Args);
  void emitGuards(IRBuilder<> &TB);
  void emitSlotFill(IRBuilder<> &AB);
  Value *emitBuild(IRBuilder<> &AB, IterationValues &AtArgs);
  void emitRangeUpdate(IRBuilder<> &AB, IterationValues &AtArgs);
  Value *emitNameExtent(IRBuilder<> &AB, Value *Name, Value *Skip);
  Value *emitRangeCheck(IRBuilder<> &DB);
  void emitRun();
  void emitPick();
  Value *emitConsume();
  void emitCopyBack(IRBuilder<> &XB);
  void emitVerify(IRBuilder<> &XB);
  void joinOriginal(Value *Converted);
};

/// slots[K], rets[K], priv[K * size], next, filled: function scope.
void LoopRewriter::makeStorage() {
  SlotsTy = ArrayType::get(I64, K * WordsPerSlot);
  RetsTy = ArrayType::get(I64, K);
  Slots = EB.CreateAlloca(SlotsTy, nullptr, "sb.loop.slots");
  Slots->setAlignment(Align(8));
  Rets = EB.CreateAlloca(RetsTy, nullptr, "sb.loop.rets");
  Rets->setAlignment(Align(8));
  if (P.private_arg >= 0) {
    PrivTy = ArrayType::get(Type::getInt8Ty(Ctx), K * Stride);
    Priv = EB.CreateAlloca(PrivTy, nullptr, "sb.loop.private");
    Priv->setAlignment(Align(16));
  }
  if (P.built_arg >= 0) {
    BuiltStride = (P.built_size + 15) & ~15ull;
    BuiltTy = ArrayType::get(Type::getInt8Ty(Ctx), K * BuiltStride);
    BuiltBufs = EB.CreateAlloca(BuiltTy, nullptr, "sb.loop.built");
    BuiltBufs->setAlignment(Align(16));
  }
  Next = EB.CreateAlloca(I64, nullptr, "sb.loop.next");
  Filled = EB.CreateAlloca(I64, nullptr, "sb.loop.filled");
  if (P.runtime_check)
    for (size_t R = 0; R < S.CheckedReads.size() + S.CheckedWrites.size(); ++R) {
      RangeLo.push_back(EB.CreateAlloca(I64, nullptr, "sb.loop.range.lo"));
      RangeHi.push_back(EB.CreateAlloca(I64, nullptr, "sb.loop.range.hi"));
    }
}

/// next = filled = 0 on every edge into the loop, so a loop entered again
/// never uses a stale group (a block that branches elsewhere too resets
/// them for nothing).
void LoopRewriter::resetOnEntry() {
  for (BasicBlock *Pred : predecessors(S.L->getHeader())) {
    if (S.L->contains(Pred))
      continue;
    IRBuilder<> PB(Pred->getTerminator());
    PB.CreateStore(ConstantInt::get(I64, 0), Next);
    PB.CreateStore(ConstantInt::get(I64, 0), Filled);
  }
}

/// head | the new blocks | the original call | tail.
void LoopRewriter::splitCallSite() {
  for (BasicBlock *BB : S.L->blocks())
    for (Instruction &I : *BB)
      Inside.insert(&I);
  Head = Call->getParent();
  Tail = Head->splitBasicBlock(Call, "sb.loop.next");
  Check = newBlock("sb.loop.check");
  Peek = newBlock("sb.loop.peek");
  Refill = newBlock("sb.loop.refill");
  InspHead = newBlock("sb.loop.inspect");
  Done = newBlock("sb.loop.filled");
  RunBB = newBlock("sb.loop.run");
  Pick = newBlock("sb.loop.pick");
  PickRet = newBlock("sb.loop.pick.ret");
  Take = newBlock("sb.loop.result");
  Original = newBlock("sb.loop.call");
}

/// head: sysbatch_active?  check: next == filled || rets[next] == NOT_RUN
/// -> refill, else pick.
void LoopRewriter::emitGroupCheck() {
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
}

/// The inspector: for t in 0..K-1, iteration t happens (t > 0), passes
/// the precheck, and fills slot t; Count slots when it stops.
void LoopRewriter::emitInspector() {
  IRBuilder<> RB(Refill);
  RB.SetCurrentDebugLocation(Loc);
  // A leaf that dominates the call is its value now: the phi, or the -O0
  // load itself; a later load of the slot reads what it holds here.
  for (auto &LeafEntry : S.Leaves)
    Bases[LeafEntry.first] =
        LeafEntry.second.Late
            ? RB.CreateLoad(LeafEntry.first->getType(), LeafEntry.second.Slot,
                            "sb.slot.now")
            : const_cast<Value *>(LeafEntry.first);
  if (BuiltBufs) {
    // Rule 6: the builders the inspector repeats may set errno (snprintf's
    // EOVERFLOW); the program sees it as it was.
    Type *I32 = Type::getInt32Ty(Ctx);
    FunctionCallee ErrnoFn = F.getParent()->getOrInsertFunction(
        "__errno_location", FunctionType::get(compat::pointerTo(I32), false));
    ErrnoAt = RB.CreateCall(ErrnoFn, {}, "sb.errno");
    SavedErrno = RB.CreateLoad(I32, ErrnoAt, "sb.errno.saved");
  }
  // Rule 10: each chase's node now (for a slot, what it holds here).
  MapVector<const Value *, std::pair<unsigned, Value *>> ChaseNow;
  for (auto &LeafEntry : S.Leaves) {
    const InductionLeaf &Leaf = LeafEntry.second;
    if (!Leaf.Link || ChaseNow.count(chaseKey(Leaf)))
      continue;
    Type *Ty = Leaf.Link->getType();
    Value *Now = Leaf.Phi ? static_cast<Value *>(Leaf.Phi)
                          : RB.CreateLoad(Ty, Leaf.Slot, "sb.chase.now");
    ChaseNow[chaseKey(Leaf)] = {(unsigned)Chases.size(),
                                RB.CreateBitCast(Now, Ty)};
    Chases.push_back({chaseKey(Leaf), Leaf.Link, nullptr, nullptr});
  }
  // Rule 7: empty ranges (lowest above highest).
  for (size_t R = 0; R < RangeLo.size(); ++R) {
    RB.CreateStore(ConstantInt::get(I64, UINT64_MAX), RangeLo[R]);
    RB.CreateStore(ConstantInt::get(I64, 0), RangeHi[R]);
  }
  RB.CreateBr(InspHead);

  IRBuilder<> IB(InspHead);
  IB.SetCurrentDebugLocation(Loc);
  T = IB.CreatePHI(I64, 2, "sb.t");
  T->addIncoming(ConstantInt::get(I64, 0), Refill);
  J = T;
  if (!S.Guards.empty()) {
    PHINode *Iter = IB.CreatePHI(I64, 3, "sb.j");
    Iter->addIncoming(ConstantInt::get(I64, 0), Refill);
    J = Iter;
  }
  // Rule 10: a chase starts at the node at hand (iteration j = 0; its
  // previous node is never used there).
  for (auto &Start : ChaseNow) {
    Chase &C = Chases[Start.second.first];
    Value *Now = Start.second.second;
    C.Node = IB.CreatePHI(Now->getType(), 3, "sb.chase");
    C.PrevNode = IB.CreatePHI(Now->getType(), 3, "sb.chase.prev");
    C.Node->addIncoming(Now, Refill);
    C.PrevNode->addIncoming(Now, Refill);
    NodeAtJ[C.Key] = C.Node;
    NodeAtPrev[C.Key] = C.PrevNode;
  }
  for (const CheckedRange &R : S.CheckedReads)
    ChaseChecked |= R.FromFirst;
  IRBuilder<> DB(Done);
  DB.SetCurrentDebugLocation(Loc);
  Count = DB.CreatePHI(I64, 4, "sb.count");

  BasicBlock *Tests = newBlock("sb.loop.tests");
  BasicBlock *Args = newBlock("sb.loop.args");
  // Iteration 0 is the one at hand: it happens and its guard held.
  IB.CreateCondBr(IB.CreateICmpEQ(J, ConstantInt::get(I64, 0)), Args, Tests);
  emitExitTests(Tests, Args);

  IRBuilder<> AB(Args);
  AB.SetCurrentDebugLocation(Loc);
  emitSlotFill(AB);
}

/// t > 0: iteration t happens (the exit tests after t-1's call and before
/// t's, in dominance order; each only when the one before stayed).
void LoopRewriter::emitExitTests(BasicBlock *Tests, BasicBlock *Args) {
  IRBuilder<> TB(Tests);
  TB.SetCurrentDebugLocation(Loc);
  // Rule 10 under rule 7's check: a node is followed only while the links
  // read so far miss every write of the iterations before it, so each node
  // the inspector reaches is the one the original reaches (a link a write
  // meets is the lost group's, never dereferenced).
  if (ChaseChecked) {
    BasicBlock *Unwritten = newBlock("sb.loop.links.unwritten");
    stopUnless(TB, TB.CreateNot(emitRangeCheck(TB)), Unwritten);
    TB.SetInsertPoint(Unwritten);
  }
  Value *Prev = TB.CreateSub(J, ConstantInt::get(I64, 1), "sb.t.prev");
  IterationValues AtPrev(S, TB, Prev, Bases, Inside, &NodeAtPrev),
      AtT(S, TB, J, Bases, Inside, &NodeAtJ);
  for (const ExitTest &E : S.Exits) {
    Value *Cond = (E.AfterCall ? AtPrev : AtT).at(E.Br->getCondition());
    Value *Stay = E.StayOnTrue ? Cond : TB.CreateNot(Cond);
    BasicBlock *Passed = newBlock("sb.loop.test.passed");
    stopUnless(TB, Stay, Passed);
    TB.SetInsertPoint(Passed);
  }
  emitGuards(TB);
  TB.CreateBr(Args);
}

/// Rule 2 under a guard: an iteration whose guard is false fills no slot;
/// the inspector goes on to the next one, up to plan->scan of them.
void LoopRewriter::emitGuards(IRBuilder<> &TB) {
  if (S.Guards.empty())
    return;
  BasicBlock *Skip = newBlock("sb.loop.skip");
  IterationValues AtJ(S, TB, J, Bases, Inside, &NodeAtJ);
  for (const GuardTest &G : S.Guards) {
    Value *Cond = AtJ.at(G.Br->getCondition());
    Value *Holds = G.CallOnTrue ? Cond : TB.CreateNot(Cond);
    BasicBlock *Held = newBlock("sb.loop.guard.held");
    TB.CreateCondBr(TB.CreateFreeze(Holds), Held, Skip);
    TB.SetInsertPoint(Held);
  }
  IRBuilder<> SB(Skip);
  SB.SetCurrentDebugLocation(Loc);
  followLinks(SB);
  Value *J1 = SB.CreateAdd(J, ConstantInt::get(I64, 1), "sb.j.next");
  T->addIncoming(T, Skip);
  cast<PHINode>(J)->addIncoming(J1, Skip);
  Count->addIncoming(T, Skip);
  SB.CreateCondBr(SB.CreateICmpULT(J1, ConstantInt::get(I64, P.scan)),
                  InspHead, Done);
}

/// Iteration t's arguments, its precheck (rule 5), its slot; t + 1.
void LoopRewriter::emitSlotFill(IRBuilder<> &AB) {
  IterationValues AtArgs(S, AB, J, Bases, Inside, &NodeAtJ);
  auto LibcArg = [&](int Index) -> Value * {
    if ((unsigned)Index >= Call->arg_size())
      return nullptr;
    return AtArgs.at(Call->getArgOperand(Index));
  };
  if (P.precheck != SB_PRE_NONE) {
    Value *V = LibcArg(S.C.EventBase + P.precheck_arg);
    if (V) {
      BasicBlock *Fill = newBlock("sb.loop.fill");
      stopUnless(AB, precheckPasses(AB, P.precheck, V, I64), Fill);
      AB.SetInsertPoint(Fill);
    }
  }
  Value *Built = emitBuild(AB, AtArgs);
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
    } else if (FA.fill == SB_FILL_LIBC_ARG && FA.index == P.built_arg) {
      V = AB.CreatePtrToInt(Built, I64);
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
  if (P.runtime_check)
    emitRangeUpdate(AB, AtArgs);
  followLinks(AB);
  Value *T1 = AB.CreateAdd(T, ConstantInt::get(I64, 1), "sb.t.next");
  T->addIncoming(T1, AB.GetInsertBlock());
  Count->addIncoming(T1, AB.GetInsertBlock());
  Value *More = AB.CreateICmpULT(T1, ConstantInt::get(I64, K));
  if (J != T) {
    Value *J1 = AB.CreateAdd(J, ConstantInt::get(I64, 1), "sb.j.next");
    cast<PHINode>(J)->addIncoming(J1, AB.GetInsertBlock());
    More = AB.CreateAnd(More,
                        AB.CreateICmpULT(J1, ConstantInt::get(I64, P.scan)));
  }
  AB.CreateCondBr(More, InspHead, Done);
}

/// Rule 6: iteration J's buffer built again into slot T's private buffer
/// by the loop's own builders, the private buffer in place of the shared
/// one; the address the call takes in it (null: nothing built).
Value *LoopRewriter::emitBuild(IRBuilder<> &AB, IterationValues &AtArgs) {
  if (!BuiltBufs)
    return nullptr;
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *I8 = Type::getInt8Ty(Ctx);
  Value *Mine = AB.CreateInBoundsGEP(
      BuiltTy, BuiltBufs,
      {AB.getInt64(0), AB.CreateMul(T, ConstantInt::get(I64, BuiltStride))},
      "sb.built");
  AllocaInst *Obj = S.Built.Obj;
  // Fixed-size steps over a copy of the shared buffer: the bytes they do
  // not write are written by nothing in the loop (rule 6).
  if (P.built_copy_in)
    AB.CreateMemCpy(Mine, Align(16), Obj, Obj->getAlign(),
                    (uint64_t)P.built_size);
  // A pointer into the shared buffer at a constant offset, moved into
  // Mine (the analysis proved every such pointer is one).
  auto Moved = [&](Value *Ptr) -> Value * {
    APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
    const Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Off, true);
    if (Base->stripPointerCasts() != Obj)
      return nullptr;
    Value *At = AB.CreateInBoundsGEP(I8, Mine, AB.getInt64(Off.getSExtValue()));
    return AB.CreatePointerCast(At, Ptr->getType());
  };
  for (Instruction *B : S.Built.Builders) {
    Instruction *Again = B->clone();
    for (unsigned K = 0; K < Again->getNumOperands(); ++K) {
      Value *Op = B->getOperand(K);
      if (isa<CallInst>(B) && K >= cast<CallInst>(B)->arg_size())
        continue; // the callee
      Value *New = Op->getType()->isPointerTy() ? Moved(Op) : nullptr;
      Again->setOperand(K, New ? New : AtArgs.at(Op));
    }
    Again->setDebugLoc(Loc);
    AB.Insert(Again);
  }
  Value *Arg = Call->getArgOperand(S.C.EventBase + P.built_arg);
  Value *At = Moved(Arg);
  return At ? At : Mine;
}

/// Rule 7: widen each checked range by iteration t's bytes - the writes
/// of every filled iteration, the reads of iterations after the first
/// (the first one's loads are the call site's own, made now).
void LoopRewriter::emitRangeUpdate(IRBuilder<> &AB, IterationValues &AtArgs) {
  Value *Later = AB.CreateICmpNE(T, ConstantInt::get(I64, 0));
  auto Widen = [&](size_t R, Value *Lo, Value *Size, Value *Counts) {
    Value *Hi = AB.CreateAdd(Lo, Size);
    Value *OldLo = AB.CreateLoad(I64, RangeLo[R]);
    Value *OldHi = AB.CreateLoad(I64, RangeHi[R]);
    Value *Empty = AB.CreateICmpEQ(Size, ConstantInt::get(I64, 0));
    Value *Counted = AB.CreateAnd(Counts, AB.CreateNot(Empty));
    AB.CreateStore(
        AB.CreateSelect(AB.CreateAnd(Counted, AB.CreateICmpULT(Lo, OldLo)), Lo,
                        OldLo),
        RangeLo[R]);
    AB.CreateStore(
        AB.CreateSelect(AB.CreateAnd(Counted, AB.CreateICmpUGT(Hi, OldHi)), Hi,
                        OldHi),
        RangeHi[R]);
  };
  auto Fixed = [&](const CheckedRange &C, size_t R, Value *Counts) {
    Value *Lo = AB.CreatePtrToInt(AtArgs.at(C.Ptr), I64, "sb.range.at");
    Value *Size = C.SizeArg
                      ? AB.CreateZExtOrTrunc(AtArgs.at(C.SizeArg), I64)
                      : ConstantInt::get(I64, C.Size);
    Widen(R, Lo, Size, Counts);
  };
  size_t NR = S.CheckedReads.size();
  bool Names = false;
  for (size_t R = 0; R < NR; ++R) {
    if (S.CheckedReads[R].StringArg >= 0)
      Names = true;
    else
      Fixed(S.CheckedReads[R], R,
            S.CheckedReads[R].FromFirst ? AB.getTrue() : Later);
  }
  for (size_t W = 0; W < S.CheckedWrites.size(); ++W)
    Fixed(S.CheckedWrites[W], NR + W, AB.getTrue());
  if (!Names)
    return;
  // A name is dereferenced only when every load it comes from reads what
  // the original would: when the ranges so far (iterations 0..t's writes,
  // 1..t's loads) already meet, the pointer may be one a store of the loop
  // replaces before the original uses it - the group is lost anyway, so
  // nothing is measured.
  Value *Stale = emitRangeCheck(AB);
  for (size_t R = 0; R < NR; ++R) {
    const CheckedRange &C = S.CheckedReads[R];
    if (C.StringArg < 0)
      continue;
    Value *Name = AtArgs.at(C.Ptr);
    Widen(R, AB.CreatePtrToInt(Name, I64, "sb.range.at"),
          emitNameExtent(AB, Name, Stale), Later);
  }
}

/// Rule 7: the bytes the kernel may read of name \p Name: SB_LOOP_NAME_MAX
/// (it reads up to the NUL and never more than that), or none for NULL
/// (the kernel reads nothing there) or when \p Skip.  The name is not read
/// here: the original never reads it in user space, and a pointer the
/// kernel answers with EFAULT must not fault in the inspector, so the check
/// takes the most the kernel could read instead of measuring.
Value *LoopRewriter::emitNameExtent(IRBuilder<> &AB, Value *Name,
                                    Value *Skip) {
  Type *I8Ptr = compat::pointerTo(Type::getInt8Ty(Ctx));
  Value *Str = AB.CreatePointerCast(Name, I8Ptr);
  Value *Unread = AB.CreateOr(
      AB.CreateICmpEQ(Str, ConstantPointerNull::get(cast<PointerType>(I8Ptr))),
      Skip);
  return AB.CreateSelect(Unread, ConstantInt::get(I64, 0),
                         ConstantInt::get(I64, SB_LOOP_NAME_MAX),
                         "sb.name.bytes");
}

/// Rule 7: does any read range of the group meet a write range?
Value *LoopRewriter::emitRangeCheck(IRBuilder<> &DB) {
  Value *Overlap = DB.getFalse();
  size_t NR = S.CheckedReads.size();
  for (size_t Rd = 0; Rd < NR; ++Rd)
    for (size_t W = NR; W < RangeLo.size(); ++W) {
      if (S.CheckedReads[Rd].Kernel && S.CheckedWrites[W - NR].Kernel)
        continue;
      Value *RLo = DB.CreateLoad(I64, RangeLo[Rd]);
      Value *RHi = DB.CreateLoad(I64, RangeHi[Rd]);
      Value *WLo = DB.CreateLoad(I64, RangeLo[W]);
      Value *WHi = DB.CreateLoad(I64, RangeHi[W]);
      Overlap = DB.CreateOr(Overlap,
                            DB.CreateAnd(DB.CreateICmpULT(RLo, WHi),
                                         DB.CreateICmpULT(WLo, RHi)));
    }
  return Overlap;
}

/// filled = Count (none when rule 7's check fails: the iteration at hand
/// then calls from its call site); next = 0; one batch when there is a slot.
void LoopRewriter::emitRun() {
  IRBuilder<> DB(Done, Done->end());
  DB.SetCurrentDebugLocation(Loc);
  if (ErrnoAt)
    DB.CreateStore(SavedErrno, ErrnoAt);
  Value *Group = Count;
  if (P.runtime_check)
    Group = DB.CreateSelect(emitRangeCheck(DB), ConstantInt::get(I64, 0),
                            Count, "sb.count.checked");
  DB.CreateStore(Group, Filled);
  DB.CreateStore(ConstantInt::get(I64, 0), Next);
  DB.CreateCondBr(DB.CreateICmpSGT(Group, ConstantInt::get(I64, 0)), RunBB,
                  Pick);
  IRBuilder<> UB(RunBB);
  UB.SetCurrentDebugLocation(Loc);
  CallInst *Ran = UB.CreateCall(
      RT.run(), {UB.CreateConstInBoundsGEP2_64(RetsTy, Rets, 0, 0),
                 UB.CreateConstInBoundsGEP2_64(SlotsTy, Slots, 0, 0), Group,
                 ConstantInt::get(I64, sb_rt_run_flags_slot(0, P.nr, P.jump_fail,
                                                            P.jump_zero, P.jump_pos))},
      "sb.ran");
  Ran->setMetadata(LoopBatchedMD, MDNode::get(Ctx, {}));
  // A batch the runtime refused ran nothing and left rets unwritten.
  UB.CreateStore(UB.CreateSelect(UB.CreateICmpSLT(Ran, ConstantInt::get(I64, 0)),
                                 ConstantInt::get(I64, 0), Group),
                 Filled);
  UB.CreateBr(Pick);
}

/// This iteration's slot, if it ran: next < filled && rets[next] != NOT_RUN.
void LoopRewriter::emitPick() {
  IRBuilder<> QB(Pick);
  QB.SetCurrentDebugLocation(Loc);
  N1 = QB.CreateLoad(I64, Next, "sb.next");
  Value *F1 = QB.CreateLoad(I64, Filled, "sb.filled");
  QB.CreateCondBr(QB.CreateICmpSLT(N1, F1), PickRet, Original);
  IRBuilder<> QR(PickRet);
  QR.SetCurrentDebugLocation(Loc);
  Raw = QR.CreateAlignedLoad(
      I64, QR.CreateInBoundsGEP(RetsTy, Rets, {QR.getInt64(0), N1}), Align(8),
      "sb.raw");
  QR.CreateCondBr(QR.CreateICmpNE(Raw, ConstantInt::get(I64, NotRunWord)),
                  Take, Original);
}

/// The taken slot: copy back, verify, next++, the converted result (errno
/// set here, in order); null when the call's result is unused.
Value *LoopRewriter::emitConsume() {
  IRBuilder<> XB(Take);
  XB.SetCurrentDebugLocation(Loc);
  if (Priv)
    emitCopyBack(XB);
  if (Verify)
    emitVerify(XB);
  XB.CreateStore(XB.CreateAdd(N1, ConstantInt::get(I64, 1)), Next);
  Value *Converted =
      convertRawResult(S.Model.abi, S.Model.call, Call, XB, Raw, RT);
  XB.CreateBr(Tail);
  ConsumeEnd = XB.GetInsertBlock();
  return Converted;
}

/// Rule 3: what the kernel wrote, copied back in order.
void LoopRewriter::emitCopyBack(IRBuilder<> &XB) {
  Value *Failed = XB.CreateICmpULT(
      XB.CreateAdd(Raw, ConstantInt::get(I64, 4095)),
      ConstantInt::get(I64, 4095));
  BasicBlock *Copy = newBlock("sb.loop.copy.back");
  BasicBlock *Convert = newBlock("sb.loop.convert");
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

/// verify mode: the words slot `next` ran with must be this call site's
/// own arguments (rule 1 checked at run time); the private buffer's word
/// is the slot's own, not compared.
void LoopRewriter::emitVerify(IRBuilder<> &XB) {
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
                 FA.index != P.built_arg && Op < Call->arg_size()) {
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
                 XB.CreateLoad(I64, Filled), N1, ConstantInt::get(I64, P.nr),
                 XB.CreateConstInBoundsGEP2_64(ArrTy, Expect, 0, 0),
                 ConstantInt::get(I64, Mask),
                 XB.CreateGlobalStringPtr(Where, "sb.where")});
}

/// The fallback: the original call in its own block, and the call site's
/// users see phi(converted, original).
void LoopRewriter::joinOriginal(Value *Converted) {
  BranchInst *ToTail = BranchInst::Create(Tail, Original);
  Call->moveBefore(ToTail);
  Call->setMetadata(LoopBatchedMD, MDNode::get(Ctx, {}));
  if (!Converted)
    return;
  PHINode *Result = PHINode::Create(Call->getType(), 2, "", &Tail->front());
  Result->takeName(Call);
  Call->setName(Result->getName() + ".orig");
  Call->replaceAllUsesWith(Result);
  Result->addIncoming(Converted, ConsumeEnd);
  Result->addIncoming(Call, Original);
}

} // namespace

void rewriteLoop(LoopSite &S, RuntimeABI &RT, bool Verify) {
  LoopRewriter(S, RT, Verify).run();
}

} // namespace detail
} // namespace sysbatch
