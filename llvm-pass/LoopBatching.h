//===- LoopBatching.h - loop batching's model, shared by its files -*- C++ -*-===//
//
// Internal to llvm-pass/: one loop around one catalogued call site as the
// core's sb_loop (core/include/sysbatch/loop.h), plus what the rewrite
// needs to repeat the loop's induction for later iterations (the inspector):
// which values are induction variables and with what step, and which exit
// tests it repeats.  LoopAnalysis.cpp fills a LoopSite, RewriteLoop.cpp
// rewrites one from its plan, LoopPass.cpp runs both and registers the
// -O1..-O3 placement.
//
//===----------------------------------------------------------------------===//
#ifndef SYSBATCH_LLVM_LOOP_BATCHING_H
#define SYSBATCH_LLVM_LOOP_BATCHING_H

#include "SysbatchInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PassManager.h"

#include "sysbatch/loop.h"

namespace llvm {
class PassBuilder;
}

namespace sysbatch {
namespace detail {

/// An induction variable the inspector recomputes for iteration t as
/// `value now + t * Step`: a header phi (SSA, -O1 and up) or, at -O0, a
/// load of a stack slot the loop updates once per iteration after the
/// call (`i++` as load/add/store); the rewrite then loads the slot again at
/// the call site.
struct InductionLeaf {
  llvm::PHINode *Phi = nullptr;
  llvm::AllocaInst *Slot = nullptr;
  int64_t Step = 0; // bytes for a pointer
  /// -O0: a load of the slot that does not dominate the call (after it,
  /// before the bump: a store's address the run-time check computes); the
  /// rewrite takes "now" from a load of the slot at the call site.
  bool Late = false;
  /// Rule 10: a pointer chase (`p = p->next`): no step; iteration t's
  /// value is \p Link (the load of the next node's address, the phi's
  /// latch value or the -O0 slot's bump) evaluated at iteration t - 1.
  /// Every leaf of one chase (the phi, or each load of the slot) has the
  /// same Link.
  llvm::LoadInst *Link = nullptr;
};

/// An exit test the inspector repeats: before the call (evaluated for
/// iteration t) or after it on every path to the latch (evaluated for
/// iteration t - 1).  Listed in dominance order.
struct ExitTest {
  llvm::BranchInst *Br;
  bool StayOnTrue;
  bool AfterCall;
};

/// A condition the call runs under that the inspector repeats for
/// iteration t (its guard): the call is reached exactly when every guard
/// goes the call's way, in dominance order.
struct GuardTest {
  llvm::BranchInst *Br;
  bool CallOnTrue;
};

/// Rule 6: the buffer the call reads that the loop builds each iteration
/// (the alloca \p Obj), and the calls that build it, in program order; the
/// inspector repeats them into a private buffer per slot.
struct BuiltBuffer {
  int Arg = -1; // libc argument of the call
  llvm::AllocaInst *Obj = nullptr;
  std::vector<llvm::Instruction *> Builders; // calls and stores
};

/// Rule 7 (sysbatch/loop.h): memory whose bytes the run-time check
/// computes for each iteration of a group - a load the inspector repeats
/// that code in the loop may write, or such a write (a store, an output
/// buffer of the call).  Bytes [at(Ptr), at(Ptr) + size) in iteration t,
/// size Size or, when SizeArg is set, that value at iteration t.
struct CheckedRange {
  llvm::Value *Ptr = nullptr;
  uint64_t Size = 0;
  llvm::Value *SizeArg = nullptr;
  /// A buffer of the call (the kernel's side): two such ranges are never
  /// compared with each other (the batch keeps the calls' order).
  bool Kernel = false;
  /// The load the range is for, when it is one the inspector repeats.
  llvm::LoadInst *Load = nullptr;
  /// Rule 10: a chase's link, which the original loads after iteration
  /// t's writes: counted from iteration 0 on, not 1.
  bool FromFirst = false;
  /// A read range that is the string libc argument StringArg (a name)
  /// points to: SB_LOOP_NAME_MAX bytes from it in iteration t (none for
  /// NULL; never read), compared with every write, the kernel's too.
  int StringArg = -1;
};

struct LoopSite {
  llvm::Loop *L = nullptr;
  llvm::CallInst *Call = nullptr;
  CandidateCall C{};
  unsigned Number = 0; // loops in the function, in the order of their calls
  sb_loop Model = {};
  sb_loop_plan Plan = {};
  std::deque<std::string> Texts; // owns the strings Model points to
  llvm::DenseMap<const llvm::Value *, InductionLeaf> Leaves;
  std::vector<ExitTest> Exits;
  std::vector<GuardTest> Guards;
  BuiltBuffer Built;
  /// Rule 7: the inspector fills a group only when no CheckedReads range of
  /// iterations 1..K-1 (what runs ahead: the inspector's loads, later
  /// calls' buffers) overlaps a CheckedWrites range of iterations 0..K-1
  /// (the loop's stores, the call's output), but for two Kernel ones.
  std::vector<CheckedRange> CheckedReads, CheckedWrites;
  /// Rule 9: the code each sign class of the result reaches before the
  /// next iteration's call (set once the paths are described), and the
  /// writes this description leaves out because only classes that stop
  /// the group reach them.
  bool PathsKnown = false;
  llvm::DenseSet<const llvm::Instruction *> ClassCode[3];
  llvm::DenseSet<const llvm::Instruction *> StopWriters;

  const char *keep(std::string S) {
    Texts.push_back(std::move(S));
    return Texts.back().c_str();
  }
};

/// LoopAnalysis.cpp: every loop of \p F with a catalogued call site of its
/// own, described (not planned).
std::vector<std::unique_ptr<LoopSite>>
analyseLoops(llvm::Function &F, Analysis &A, llvm::LoopInfo &LI,
             llvm::ScalarEvolution &SE, llvm::DominatorTree &DT);

/// RewriteLoop.cpp: the rewrite of one batched loop call site (\p Verify:
/// each taken slot's words are compared with the call site's arguments).
void rewriteLoop(LoopSite &S, RuntimeABI &RT, bool Verify);

/// LoopPass.cpp: plan, report and rewrite the loops of \p F; true when
/// anything changed.  Used by the -O0 pass (optnone functions) and by the
/// loop pass of optimised pipelines; not \p Final: refusals are left to a
/// later look (neither printed nor reported).
bool batchLoops(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                sb_abi Abi, const SysbatchOptions &Opts, bool Final = true);

/// SysbatchPass.cpp: the ABI this run rewrites for (false: do nothing).
bool resolvePassTarget(const SysbatchOptions &Opts, llvm::Module &M,
                       sb_abi &Abi);

} // namespace detail

/// LoopPass.cpp: the `sysbatch-loops` pipeline name and its placements in
/// -O1..-O3: early at the peephole point, finally at the vectorizer start.
void registerLoopBatching(llvm::PassBuilder &PB);

} // namespace sysbatch

#endif // SYSBATCH_LLVM_LOOP_BATCHING_H
