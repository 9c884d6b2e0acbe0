//===- RegionEnd.cpp - what follows a straight-line region's last call ----===//
//
// The facts the core turns into a lone call's reason (sb_region_end in
// core.h): how the block ends, a barrier after its last call, and what a
// walk from the block's end through call-free blocks meets before the next
// candidate call - a loop's back edge (the edge's target dominates its
// source), a loop exit, or no call at all.  The GCC plugin walks the same
// way (gcc-plugin/region-end.cc), so both print the same reasons.
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"

using namespace llvm;

namespace sysbatch {
namespace detail {

static uint8_t terminatorKind(const Instruction *T) {
  if (!T || isa<ReturnInst>(T) || isa<UnreachableInst>(T) ||
      isa<ResumeInst>(T) || T->getNumSuccessors() == 0)
    return SB_ENDT_RETURN;
  if (const auto *Br = dyn_cast<BranchInst>(T))
    if (Br->isUnconditional())
      return SB_ENDT_JUMP;
  return SB_ENDT_BRANCH;
}

/// A catalogued call an earlier look's region rewrite decided (its
/// original call, kept for the path where its slot did not run): no
/// candidate any more, but a call that follows.
static const CallInst *firstDecidedCall(BasicBlock &BB, sb_abi Abi) {
  for (Instruction &I : BB)
    if (auto *CI = dyn_cast<CallInst>(&I)) {
      bool Raw = false;
      if (!CI->getMetadata(RegionBatchedMD) || !CI->getCalledFunction())
        continue;
      const sb_syscall *Row = visitCallee(*CI, Raw, Abi);
      if ((Row && !(Row->flags & SB_ROW_NEVER)) || Raw) // not sysbatch_run
        return CI;
    }
  return nullptr;
}

void describeRegionEnd(Analysis &A, Region &R, unsigned FunctionCalls,
                       bool LastPart) {
  sb_region_end &End = R.End;
  End = sb_region_end();
  if (R.Calls.empty() || R.branchy())
    return;
  BasicBlock *BB = R.BB;
  End.term = terminatorKind(BB->getTerminator());
  End.only_call = FunctionCalls == 1;
  End.split = !LastPart;
  for (Instruction *I = R.Calls.back().Call->getNextNode();
       I && !I->isTerminator(); I = I->getNextNode()) {
    std::string Why;
    if (visitBarrier(*I, Why, A.Abi)) {
      End.barrier = R.keep(Why);
      break;
    }
  }
  if (!A.DT || !A.LI)
    return;
  bool CallFollows = false;
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<BasicBlock *, 16> Work{BB};
  while (!Work.empty()) {
    BasicBlock *U = Work.pop_back_val();
    const Loop *L = A.LI->getLoopFor(U);
    for (BasicBlock *V : successors(U)) {
      End.back_edge |= A.DT->dominates(V, U);
      End.loop_exit |= L && !L->contains(V);
      if (countCandidates(*V, A.Abi) || V == BB) {
        CallFollows = true;
        continue;
      }
      if (const CallInst *D = firstDecidedCall(*V, A.Abi)) {
        if (!End.decided_next)
          End.decided_next = R.keep(D->getCalledFunction()->getName().str());
        CallFollows = true;
        continue;
      }
      if (Seen.insert(V).second)
        Work.push_back(V);
    }
  }
  End.no_call_follows = !CallFollows;
}

} // namespace detail
} // namespace sysbatch
