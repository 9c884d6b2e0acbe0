//===- Regions.cpp - branchy regions: formation, terminators, phase 1 -----===//
//
// A branchy region (docs/llvm.md, "Branchy regions") is a single-entry DAG
// of blocks, entry first, in which two or more blocks hold candidate calls.
// formRegion() picks its blocks, collectRegionCalls() numbers their
// instructions and collects the calls (shared with Tock chains),
// analyseRegion() describes every block's events and terminator
// (visitTerminator: COND on the last call's value, GOTO, or EXIT with the
// reason that ends the region).
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"
#include "sysbatch/cfg.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// Branchy regions (docs/llvm.md, "Branchy regions")
//===----------------------------------------------------------------------===//

CfgDescription::CfgDescription(const std::vector<BasicBlock *> &Order,
                               size_t From,
                               const DenseSet<const BasicBlock *> &Covered,
                               sb_abi Abi)
    : Blocks(Order.size()), Preds(Order.size()),
      IsCovered(new bool[Order.size()]) {
  for (size_t K = 0; K < Order.size(); ++K)
    Number[Order[K]] = static_cast<int>(K);
  for (size_t K = 0; K < Order.size(); ++K) {
    BasicBlock *BB = Order[K];
    IsCovered[K] = Covered.count(BB) > 0;
    sb_cfg_block &B = Blocks[K];
    B = sb_cfg_block();
    // Only blocks from `From` on can join; counting the others is waste.
    B.candidates = K >= From ? static_cast<int>(countCandidates(*BB, Abi)) : 0;
    for (const BasicBlock *P : predecessors(BB))
      Preds[K].push_back(Number.lookup(P));
    B.npreds = static_cast<int>(Preds[K].size());
    B.preds = Preds[K].data();
    B.abnormal_entry = BB->isEHPad();
    B.unreachable = K != 0 && pred_empty(BB);
  }
  Cfg = sb_cfg{static_cast<int>(Order.size()), Blocks.data(), IsCovered.get()};
}

/// The blocks of the region entered at \p Order[EntryIdx], as the core's
/// sb_cfg_form_region() picks them (sysbatch/cfg.h: single entry, no back
/// edge, within the block and call limits, trailing call-free blocks
/// dropped).  Empty unless two blocks hold candidates.
std::vector<BasicBlock *>
formRegion(const std::vector<BasicBlock *> &Order, size_t EntryIdx,
           const DenseSet<const BasicBlock *> &Covered, sb_abi Abi) {
  if (countCandidates(*Order[EntryIdx], Abi) == 0)
    return {};
  CfgDescription D(Order, EntryIdx, Covered, Abi);
  int Out[SB_MAX_REGION_BLOCKS];
  int N = sb_cfg_form_region(&D.Cfg, static_cast<int>(EntryIdx), Out);
  std::vector<BasicBlock *> Region;
  for (int I = 0; I < N; ++I)
    Region.push_back(Order[Out[I]]);
  return Region;
}

/// A compare's constant operand as an integer (null pointers and
/// `inttoptr (C)` included: `p == MAP_FAILED`).
static bool compareConstant(Value *V, APInt &C) {
  if (auto *CI = dyn_cast<ConstantInt>(V)) {
    C = CI->getValue();
    return true;
  }
  if (isa<ConstantPointerNull>(V)) {
    C = APInt(64, 0);
    return true;
  }
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    if (CE->getOpcode() == Instruction::IntToPtr)
      if (auto *CI = dyn_cast<ConstantInt>(CE->getOperand(0))) {
        C = CI->getValue().sextOrTrunc(64);
        return true;
      }
  return false;
}

static bool mapPredicate(CmpInst::Predicate P, sb_cmp &Op) {
  switch (P) {
  case CmpInst::ICMP_EQ: Op = SB_CMP_EQ; return true;
  case CmpInst::ICMP_NE: Op = SB_CMP_NE; return true;
  case CmpInst::ICMP_SLT: Op = SB_CMP_SLT; return true;
  case CmpInst::ICMP_SLE: Op = SB_CMP_SLE; return true;
  case CmpInst::ICMP_SGT: Op = SB_CMP_SGT; return true;
  case CmpInst::ICMP_SGE: Op = SB_CMP_SGE; return true;
  case CmpInst::ICMP_ULT: Op = SB_CMP_ULT; return true;
  case CmpInst::ICMP_ULE: Op = SB_CMP_ULE; return true;
  case CmpInst::ICMP_UGT: Op = SB_CMP_UGT; return true;
  case CmpInst::ICMP_UGE: Op = SB_CMP_UGE; return true;
  default: return false;
  }
}

/// `if (!x)`: clang negates the compare with `xor i1 %c, true`; the compare
/// under the negations, with \p OnTrue and \p OnFalse swapped to match.
static Value *stripNegations(Value *Cond, BasicBlock *&OnTrue,
                             BasicBlock *&OnFalse) {
  while (auto *X = dyn_cast<BinaryOperator>(Cond)) {
    auto *One = dyn_cast<ConstantInt>(X->getOperand(1));
    if (X->getOpcode() != Instruction::Xor || !One || !One->isOne() ||
        !X->getType()->isIntegerTy(1))
      break;
    Cond = X->getOperand(0);
    std::swap(OnTrue, OnFalse);
  }
  return Cond;
}

/// Is \p V the call site's value: the call \p CallI itself, through stack
/// slots of block \p BB and sign extensions (\p Widened: through one)?
static bool isCallValue(Analysis &A, Region &R, BasicBlock *BB,
                        CallInst *CallI, Value *V, bool &Widened) {
  Widened = false;
  for (unsigned Depth = 0; V != CallI && Depth < 16; ++Depth) {
    if (auto *L = dyn_cast<LoadInst>(V)) {
      bool Ambiguous;
      StoreInst *S = L->isSimple() && isNonEscapingAlloca(A, L->getPointerOperand())
                         ? reachingStore(R, L, Ambiguous)
                         : nullptr;
      if (!S || S->getParent() != BB)
        return false;
      V = S->getValueOperand();
    } else if (isa<SExtInst>(V)) {
      // A zext would be an unsigned result widened (uid_t into a long): in
      // C most often a change of signedness, which GCC does not look
      // through either, so the plans agree.
      Widened = true;
      V = cast<Instruction>(V)->getOperand(0);
    } else {
      return false;
    }
  }
  return V == CallI;
}

/// The region block number of \p D, or -1 outside the region.
static int regionBlock(const Region &R, BasicBlock *D) {
  auto It = R.BlockIndex.find(D);
  return It != R.BlockIndex.end() ? It->second : -1;
}

/// The condition of \p Br, which ends block \p BB after its last call
/// \p CallI, as the core's terminator shape describes it: an integer
/// compare with a constant, and whether the compared value is the call's
/// own (through stack slots of the block and sign extensions).
static void describeCondition(Analysis &A, Region &R, BasicBlock *BB,
                              CallInst *CallI, const sb_call_event &CE,
                              BranchInst *Br, sb_term_shape &Shape) {
  BasicBlock *OnTrue = Br->getSuccessor(0), *OnFalse = Br->getSuccessor(1);
  Value *Cond = stripNegations(Br->getCondition(), OnTrue, OnFalse);
  Shape.succ[0] = regionBlock(R, OnTrue);
  Shape.succ[1] = regionBlock(R, OnFalse);
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return;
  Value *Lhs = Cmp->getOperand(0), *Rhs = Cmp->getOperand(1);
  CmpInst::Predicate Pred = Cmp->getPredicate();
  APInt K;
  if (compareConstant(Lhs, K)) {
    std::swap(Lhs, Rhs);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  sb_cmp Op;
  if (!compareConstant(Rhs, K) || !mapPredicate(Pred, Op) ||
      K.getBitWidth() > 64)
    return;
  Shape.is_compare = true;
  Shape.op = Op;
  bool Unsigned = CmpInst::isUnsigned(Pred);
  Shape.constant = Unsigned ? (long)K.getZExtValue() : (long)K.getSExtValue();
  Type *Ty = CallI->getType();
  const DataLayout &DL = BB->getModule()->getDataLayout();
  unsigned W = Ty->isPointerTy()        ? DL.getPointerSizeInBits()
               : Ty->isIntegerTy()      ? Ty->getIntegerBitWidth()
                                        : 0;
  bool Widened;
  // A zext would be an unsigned result widened (uid_t into a long): in C
  // most often a change of signedness, which GCC does not look through
  // either, so isCallValue follows sign extensions only.
  if (!W || W != (unsigned)sb_call_result_bits(R.Abi, &CE) ||
      !isCallValue(A, R, BB, CallI, Lhs, Widened))
    return;
  Shape.value = Widened ? SB_CV_EXTENDED : SB_CV_RESULT;
  Shape.unsigned_result = false;
  Shape.constant_fits = Widened ? K.isSignedIntN(W) : true;
}

/// Block \p B's terminator (core.h, "branchy regions"), decided by the
/// core's sb_describe_terminator: COND when the block ends in `value OP
/// constant` on its last call's value, with only code that commutes with
/// every later call after the call; GOTO for a plain edge to a later region
/// block; EXIT otherwise (with a reason when that stops a region that had
/// more calls to offer).
static void visitTerminator(Analysis &A, Region &R, int B) {
  BasicBlock *BB = R.Blocks[B];
  Instruction *T = BB->getTerminator();
  R.TermInst[B] = T;
  int Call = -1;
  for (int C = 0; C < (int)R.Calls.size(); ++C)
    if (R.BlockOfCall[C] == B)
      Call = C;
  sb_term_shape Shape = sb_term_shape();
  Shape.succ[0] = Shape.succ[1] = -1;
  auto *Br = dyn_cast<BranchInst>(T);
  if (isa<SwitchInst>(T)) {
    Shape.kind = SB_TS_SWITCH;
  } else if (Br && Br->isUnconditional()) {
    Shape.kind = SB_TS_JUMP;
    Shape.succ[0] = regionBlock(R, Br->getSuccessor(0));
  } else if (Br) {
    Shape.kind = SB_TS_BRANCH;
    int OnTrue = regionBlock(R, Br->getSuccessor(0));
    Shape.succ[0] = OnTrue;
    Shape.succ[1] = regionBlock(R, Br->getSuccessor(1));
    if (Call >= 0)
      describeCondition(A, R, BB, R.Calls[Call].Call,
                        R.Events[R.Calls[Call].Event].u.call, Br, Shape);
    const char *What = nullptr;
    Shape.pred = visitBranchCondition(A, R, Br->getCondition(), What);
    Shape.pred_what = What;
    R.PredCond[B] = Br->getCondition();
    R.PredNegated[B] = Shape.succ[0] != OnTrue;
  }
  sb_region Region{R.Abi, static_cast<int>(R.Events.size()), R.Events.data(),
                   static_cast<int>(R.SBBlocks.size()), R.SBBlocks.data(), {}};
  char Buf[512];
  const char *Why = sb_describe_terminator(&Region, B, Call, &Shape,
                                           &R.SBBlocks[B], Buf, sizeof Buf);
  R.TermWhy[B] = Why == Buf ? R.keep(Buf) : Why;
}

/// A region over \p Blocks (in order): every instruction numbered, the
/// candidate calls collected in program order, \p CallsOf[B] the indexes of
/// block B's calls.
std::unique_ptr<Region>
collectRegionCalls(Analysis &A, std::vector<BasicBlock *> Blocks,
                   unsigned BlockNo,
                   std::vector<std::vector<unsigned>> &CallsOf) {
  auto R = std::make_unique<Region>();
  R->Abi = A.Abi;
  R->BB = Blocks[0];
  R->BlockNo = BlockNo;
  R->Blocks = std::move(Blocks);
  const unsigned NB = R->Blocks.size();
  CallsOf.assign(NB, {});
  unsigned Pos = 0;
  bool Started = false;
  for (unsigned B = 0; B < NB; ++B) {
    R->BlockIndex[R->Blocks[B]] = B;
    for (Instruction &I : *R->Blocks[B]) {
      R->Position[&I] = Pos++;
      auto *CI = dyn_cast<CallInst>(&I);
      if (!CI || !isCandidate(*CI, A.Abi))
        continue;
      if (!Started)
        R->StartPos = R->Position[&I];
      Started = true;
      CallsOf[B].push_back(R->Calls.size());
      R->CallIndex[CI] = R->Calls.size();
      R->Calls.push_back(makeCandidate(CI, A.Abi));
      R->BlockOfCall.push_back(B);
    }
  }
  return R;
}

/// Phase 1 for a branchy region: the events of every block (the entry's
/// from its first candidate call on; the others' from their first
/// instruction, since code before a block's first call is crossed on the
/// way to it) and each block's terminator.
std::unique_ptr<Region> analyseRegion(Analysis &A,
                                      std::vector<BasicBlock *> Blocks,
                                      unsigned BlockNo) {
  std::vector<std::vector<unsigned>> CallsOf;
  auto R = collectRegionCalls(A, std::move(Blocks), BlockNo, CallsOf);
  const unsigned NB = R->Blocks.size();
  // Paths and dominance over the region's DAG (list order is topological).
  R->Ancestors.assign(NB, 0);
  R->Dominators.assign(NB, 0);
  R->Dominators[0] = 1;
  for (unsigned B = 1; B < NB; ++B) {
    uint64_t Dom = ~0ull;
    for (BasicBlock *P : predecessors(R->Blocks[B])) {
      int PI = R->BlockIndex.lookup(P);
      R->Ancestors[B] |= R->Ancestors[PI] | 1ull << PI;
      Dom &= R->Dominators[PI];
    }
    R->Dominators[B] = Dom | 1ull << B;
  }
  R->SBBlocks.assign(NB, sb_block());
  R->TermWhy.assign(NB, nullptr);
  R->TermInst.assign(NB, nullptr);
  R->PredCond.assign(NB, nullptr);
  R->PredNegated.assign(NB, false);
  for (unsigned B = 0; B < NB; ++B) {
    sb_block &SB = R->SBBlocks[B];
    SB.first_event = R->Events.size();
    const std::vector<unsigned> &Own = CallsOf[B];
    int Before = 0; // calls of earlier blocks: code here follows them
    for (unsigned P = 0; P < B; ++P)
      Before += CallsOf[P].size();
    if (B > 0) {
      Instruction *End = Own.empty() ? nullptr : R->Calls[Own.front()].Call;
      if (hasCode(&R->Blocks[B]->front(), End))
        visitGap(A, *R, &R->Blocks[B]->front(), End, Before - 1);
    }
    for (unsigned K = 0; K < Own.size(); ++K) {
      if (K > 0)
        visitCode(A, *R, Own[K] - 1);
      visitCall(A, *R, Own[K]);
    }
    if (!Own.empty()) {
      Instruction *From = R->Calls[Own.back()].Call->getNextNode();
      if (hasCode(From, nullptr))
        visitGap(A, *R, From, nullptr, Own.back());
    }
    SB.nevents = R->Events.size() - SB.first_event;
  }
  for (unsigned B = 0; B < NB; ++B)
    visitTerminator(A, *R, B);
  return R;
}

} // namespace detail
} // namespace sysbatch
