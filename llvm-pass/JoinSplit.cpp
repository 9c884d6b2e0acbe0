//===- JoinSplit.cpp - copy a join block's first call onto one edge -------===//
//
// A call in a join block cannot batch with a call on a path into it
// (sysbatch/cfg.h, "join splits"): cat.c's
//
//   if (reading_stdin) fd = 0; else { fd = open(p, ...); if (fd < 0) ...; }
//   if (fstat(fd, &st) < 0) ...
//
// Before planning, the code of the join up to and including its first
// candidate call is copied into a new block on the edge the core picks
// (sb_cfg_join_split_edge); the rest of the join takes the values through
// phis:
//
//   P:     fd1 = open(...); if (fd1 < 0) goto err; else goto J.copy
//   J.copy: r1 = fstat(fd1, &st); goto J.tail
//   J:     fd = phi [0, S]; r0 = fstat(fd, &st); goto J.tail
//   J.tail: r = phi [r0, J], [r1, J.copy]; if (r < 0) ...
//
// Each path still runs one fstat with the same argument.  The function is
// planned again with the split (quietly); when the copy is in no batch the
// split is undone, so code grows only where a batch forms.
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

namespace {

/// One split, with what its undo needs.
struct Split {
  BasicBlock *Pred = nullptr, *Head = nullptr, *Copy = nullptr,
             *Tail = nullptr;
  CallInst *Call = nullptr, *CopyCall = nullptr;
  SmallVector<std::pair<PHINode *, Value *>, 4> HeadIncoming; // from Pred
  SmallVector<PHINode *, 4> TailPhis;
};

} // namespace

/// The first candidate call of \p BB, and what comes before it: the number
/// of instructions the split copies and, when one of them is no plain
/// computation or load, what it is.
static CallInst *firstCandidate(BasicBlock &BB, sb_abi Abi, int &Prefix,
                                std::string &Effect) {
  Prefix = 0;
  for (Instruction &I : BB) {
    if (isa<PHINode>(I) || isa<DbgInfoIntrinsic>(I))
      continue;
    auto *CI = dyn_cast<CallInst>(&I);
    if (CI && isCandidate(*CI, Abi))
      return CI;
    if (I.isTerminator())
      return nullptr;
    ++Prefix;
    if (!Effect.empty())
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->isLifetimeStartOrEnd())
        continue; // the end of a local's life: copied along with the rest
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      Function *Callee = CB->getCalledFunction();
      Effect = "call to " +
               (Callee ? Callee->getName().str() : std::string("a pointer"));
    } else if (isa<AllocaInst>(I)) {
      Effect = "alloca";
    } else if (I.isVolatile() || I.isAtomic()) {
      Effect = "volatile or atomic access";
    } else if (I.mayWriteToMemory() || I.mayHaveSideEffects()) {
      Effect = "store";
    }
  }
  return nullptr;
}

/// The value the last store to \p L's location wrote, walking back from
/// \p L through its block and then through blocks of one predecessor each
/// (every path to L), when nothing between that store and L may write the
/// location; else null.  Before GVN (clang -O1, the early look) a global's
/// reload stays in a join (cat.c's `static int input_desc`: `input_desc =
/// 0` on one path, `input_desc = open(...)` on the other, `fstat(input_desc,
/// ...)` after them); in the copy, which has one predecessor, the reload
/// reads the one store of that path.
static Value *storedValueReaching(AAResults &AA, LoadInst *L) {
  MemoryLocation Loc = MemoryLocation::get(L);
  unsigned Steps = 0;
  for (BasicBlock *B = L->getParent(); B; B = B->getSinglePredecessor()) {
    Instruction *From = B == L->getParent() ? L->getPrevNode()
                                            : B->getTerminator();
    for (Instruction *I = From; I; I = I->getPrevNode()) {
      if (++Steps > 64)
        return nullptr;
      if (auto *S = dyn_cast<StoreInst>(I))
        if (S->isSimple() && S->getPointerOperand() == L->getPointerOperand())
          return S->getValueOperand()->getType() == L->getType()
                     ? S->getValueOperand()
                     : nullptr;
      if (I->mayWriteToMemory() && isModSet(AA.getModRefInfo(I, Loc)))
        return nullptr;
    }
    if (B->isEntryBlock())
      break;
  }
  return nullptr;
}

/// Loads before the copied call that read what the edge's path stored
/// become that value, so the call sees it as the path computed it (open's
/// result, chained) instead of memory read after the batch's first call.
/// A non-escaping stack slot (clang -O0's locals) is left to the region's
/// own store-to-load forwarding, which sees it as GCC sees an SSA local.
static void forwardStoresIntoCopy(Analysis &A, BasicBlock *Copy,
                                  CallInst *CopyCall) {
  for (Instruction *I = &Copy->front(); I && I != CopyCall;) {
    Instruction *Next = I->getNextNode();
    if (auto *L = dyn_cast<LoadInst>(I))
      if (L->isSimple() && !isNonEscapingAlloca(A, L->getPointerOperand()))
        if (Value *V = storedValueReaching(A.AA, L)) {
          L->replaceAllUsesWith(V);
          L->eraseFromParent();
        }
    I = Next;
  }
}

/// Copy \p J's code up to and including \p Call onto the edge from \p P.
static Split doSplit(BasicBlock *J, BasicBlock *P, CallInst *Call,
                     DominatorTree &DT, LoopInfo &LI, Analysis &A) {
  Split S;
  S.Pred = P;
  S.Head = J;
  S.Call = Call;
  Function *F = J->getParent();
  S.Tail = SplitBlock(J, Call->getNextNode(), &DT, &LI, nullptr,
                      J->getName() + ".sb.tail");
  S.Copy = BasicBlock::Create(F->getContext(), J->getName() + ".sb.copy", F,
                              S.Tail);
  BranchInst *ToTail = BranchInst::Create(S.Tail, S.Copy);
  ValueToValueMapTy VM;
  for (PHINode &PN : J->phis()) {
    Value *In = PN.getIncomingValueForBlock(P);
    VM[&PN] = In;
    S.HeadIncoming.push_back({&PN, In});
  }
  for (Instruction &I : *J) {
    if (isa<PHINode>(I) || isa<DbgInfoIntrinsic>(I))
      continue;
    if (I.isTerminator())
      break;
    Instruction *New = I.clone();
    New->setName(I.getName());
    New->insertBefore(ToTail);
    RemapInstruction(New, VM,
                     RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    VM[&I] = New;
    if (&I == Call)
      S.CopyCall = cast<CallInst>(New);
  }
  P->getTerminator()->replaceSuccessorWith(J, S.Copy);
  for (auto &HI : S.HeadIncoming)
    HI.first->removeIncomingValue(P, /*DeletePHIIfEmpty=*/false);
  // J no longer dominates J.tail: every value of J used past it comes
  // through a phi of the original and the copy.
  for (Instruction &I : *J) {
    if (I.isTerminator())
      break;
    SmallVector<Use *, 8> Outside;
    for (Use &U : I.uses())
      if (cast<Instruction>(U.getUser())->getParent() != J)
        Outside.push_back(&U);
    if (Outside.empty())
      continue;
    PHINode *Phi = PHINode::Create(I.getType(), 2, I.getName() + ".sb",
                                   &S.Tail->front());
    Phi->addIncoming(&I, J);
    Phi->addIncoming(VM.lookup(&I) ? VM.lookup(&I) : &I, S.Copy);
    for (Use *U : Outside)
      U->set(Phi);
    S.TailPhis.push_back(Phi);
  }
  if (Loop *L = LI.getLoopFor(J))
    L->addBasicBlockToLoop(S.Copy, LI);
  if (S.CopyCall)
    forwardStoresIntoCopy(A, S.Copy, S.CopyCall);
  DT.recalculate(*F);
  return S;
}

/// Put the function back as it was before doSplit().
static void undoSplit(Split &S, DominatorTree &DT, LoopInfo &LI) {
  for (PHINode *Phi : S.TailPhis) {
    Phi->replaceAllUsesWith(Phi->getIncomingValueForBlock(S.Head));
    Phi->eraseFromParent();
  }
  S.Pred->getTerminator()->replaceSuccessorWith(S.Copy, S.Head);
  for (auto &HI : S.HeadIncoming)
    HI.first->addIncoming(HI.second, S.Pred);
  LI.removeBlock(S.Copy);
  while (!S.Copy->empty()) {
    Instruction &Last = S.Copy->back();
    Last.replaceAllUsesWith(UndefValue::get(Last.getType()));
    Last.eraseFromParent();
  }
  S.Copy->eraseFromParent();
  MergeBlockIntoPredecessor(S.Tail, nullptr, &LI);
  DT.recalculate(*S.Head->getParent());
}

static std::string calleeName(CallInst *Call) {
  Function *Callee = Call->getCalledFunction();
  return Callee ? Callee->getName().str() : std::string("call");
}

/// The call the copy is to batch with: the last candidate call of the
/// predecessor or of the blocks of one predecessor before it.
static CallInst *edgeSourceCall(BasicBlock *P, sb_abi Abi) {
  for (BasicBlock *B = P; B; B = B->getSinglePredecessor()) {
    for (auto It = B->rbegin(); It != B->rend(); ++It)
      if (auto *CI = dyn_cast<CallInst>(&*It))
        if (isCandidate(*CI, Abi))
          return CI;
    if (B == &B->getParent()->getEntryBlock())
      break;
  }
  return nullptr;
}

/// Where the edge comes from, for a remark.
static std::string edgeSource(BasicBlock *P, sb_abi Abi) {
  if (CallInst *CI = edgeSourceCall(P, Abi))
    return calleeName(CI) + "'s block";
  return "block " + P->getName().str();
}

unsigned splitJoins(Function &F, Analysis &A, DominatorTree &DT, LoopInfo &LI,
                    OptimizationRemarkEmitter &ORE, bool Final,
                    const TrialPlanner &BatchedCalls) {
  if (A.Abi != SB_ABI_LINUX_X86_64)
    return 0; // Tock's series call only stops or continues: no branchy batch
  const bool ReturnsTwice = F.callsFunctionThatReturnsTwice();
  unsigned Kept = 0, Trials = 0;
  int Baseline = -1; // calls the function batches without (more) splits
  constexpr unsigned MaxTrials = 16; // each trial plans the function again
  std::vector<BasicBlock *> Joins;
  for (BasicBlock &BB : F)
    Joins.push_back(&BB);
  for (BasicBlock *J : Joins) {
    int Prefix;
    std::string Effect;
    CallInst *Call = firstCandidate(*J, A.Abi, Prefix, Effect);
    if (!Call)
      continue;
    bool AbnormalPred = false;
    for (BasicBlock *P : predecessors(J)) {
      Instruction *T = P->getTerminator();
      AbnormalPred |= !isa<BranchInst>(T) && !isa<SwitchInst>(T);
    }
    sb_join_info Info = {};
    Info.prefix = Prefix;
    Info.prefix_effect = Effect.empty() ? nullptr : Effect.c_str();
    Info.address_taken = J->hasAddressTaken();
    Info.returns_twice = ReturnsTwice;
    Info.loop_header = LI.isLoopHeader(J);
    const sb_syscall *Row =
        Call->getCalledFunction()
            ? sb_catalog_lookup(A.Abi,
                                Call->getCalledFunction()->getName().str().c_str())
            : nullptr;
    Info.never_batched = Row && (Row->flags & SB_ROW_NEVER);
    std::string Why;
    for (int From = 0;;) {
      std::vector<BasicBlock *> Order;
      for (BasicBlock &BB : F)
        Order.push_back(&BB);
      CfgDescription D(Order, 0, DenseSet<const BasicBlock *>(), A.Abi);
      int JNo = D.Number.lookup(J);
      if (AbnormalPred)
        D.Blocks[JNo].abnormal_entry = true;
      const char *CoreWhy = nullptr;
      int K = sb_cfg_join_split_edge(&D.Cfg, JNo, &Info, From, &CoreWhy);
      if (K < 0) {
        if (CoreWhy && Why.empty())
          Why = CoreWhy;
        break;
      }
      BasicBlock *P = Order[D.Preds[JNo][K]];
      From = D.Preds[JNo][K] + 1;
      if (Trials == MaxTrials) {
        Why = "join not split: the function's other joins used up the "
              "trials (" + std::to_string(MaxTrials) + ")";
        break;
      }
      ++Trials;
      if (Baseline < 0)
        Baseline = BatchedCalls(nullptr, nullptr, nullptr);
      Split S = doSplit(J, P, Call, DT, LI, A);
      A.NonEscaping.clear();
      A.TockPrivate.clear();
      // Kept only for a batched copy that gains a call besides itself (a
      // join already inside a region would batch the copy and the
      // original both, for no call more).
      std::string TrialWhy;
      int After = BatchedCalls(S.CopyCall, edgeSourceCall(P, A.Abi), &TrialWhy);
      if (After > Baseline + 1) {
        Baseline = After;
        ++Kept;
        std::string Source = edgeSource(P, A.Abi);
        std::string Name = calleeName(Call);
        LLVM_DEBUG(dbgs() << "sysbatch: join split: " << Name
                          << " copied onto the edge from " << Source << "\n");
        ORE.emit([&] {
          return OptimizationRemark(DEBUG_TYPE, "JoinSplit", S.CopyCall)
                 << "join split: " << ore::NV("Callee", Name)
                 << " copied onto the edge from " << ore::NV("From", Source)
                 << ", with the " << ore::NV("Prefix", Prefix)
                 << (Prefix == 1 ? " instruction" : " instructions")
                 << " before it; it batches there";
        });
        Why.clear();
        break;
      }
      Why = "join not split: its copy on the edge from " +
            edgeSource(P, A.Abi) +
            (After < 0 ? std::string(" forms no batch")
                       : std::string(" batches no call the function does "
                                     "not batch without it")) +
            (After < 0 && !TrialWhy.empty() ? " (" + TrialWhy + ")" : "");
      undoSplit(S, DT, LI);
      A.NonEscaping.clear();
      A.TockPrivate.clear();
    }
    if (!Why.empty() && Final) {
      LLVM_DEBUG(dbgs() << "sysbatch: " << calleeName(Call) << ": " << Why
                        << "\n");
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "JoinNotSplit", Call)
               << ore::NV("Callee", calleeName(Call)) << ": "
               << ore::NV("Reason", Why);
      });
    }
  }
  return Kept;
}

} // namespace detail
} // namespace sysbatch
