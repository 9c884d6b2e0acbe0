//===- LoopPass.cpp - loop batching: plan, remarks, rewrite, placement ----===//
//
// Runs loop batching (sysbatch/loop.h) over one function: each loop with a
// catalogued call site of its own is described (LoopAnalysis.cpp), planned
// by sb_plan_loop(), printed for print-plan, reported (`batched loop call
// close: 16 iterations per batch` / `close not batched in its loop:
// loop-carried (...)`) and, when batched, rewritten (RewriteLoop.cpp).
//
// Where it runs: at -O0 from the sysbatch pass itself (optnone functions,
// induction variables in stack slots), and for -O1..-O3 as `sysbatch-loops`
// twice: early at the peephole point (SSA, before the loop passes fully
// unroll a small constant loop into straight-line calls no region sees
// again), batching only what plans there, and finally at the vectorizer
// start (loops rotated, induction variables widened, trip counts known),
// where every remaining loop is decided and reported.  A call it batches is
// marked so that no region or later look plans it again.
//
//===----------------------------------------------------------------------===//

#include "LoopBatching.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

#include "sysbatch/config.h"

#include <cstdio>

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

STATISTIC(NumLoopsBatched, "Loop call sites batched (groups of iterations)");
STATISTIC(NumLoopsRefused, "Loop call sites not batched as a loop");

namespace sysbatch {
namespace detail {

static void printLoopPlan(const LoopSite &S) {
  errs().flush();
  std::fprintf(stderr, "function %s loop %u:\n",
               S.Call->getFunction()->getName().str().c_str(), S.Number);
  sb_loop_plan_print(stderr, &S.Model, &S.Plan);
  std::fflush(stderr);
}

static void emitLoopRemark(const LoopSite &S, OptimizationRemarkEmitter &ORE) {
  const sb_loop_plan &P = S.Plan;
  if (P.why == SB_WHY_NONE) {
    ++NumLoopsBatched;
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "LoopBatched", S.Call)
             << "batched loop call "
             << ore::NV("Callee", S.Call->getCalledFunction()) << ": "
             << ore::NV("Iterations", P.group) << " iterations per batch";
    });
    return;
  }
  ++NumLoopsRefused;
  std::string Text = sb_why_text(P.why);
  if (P.detail)
    Text += std::string(": ") + P.detail;
  LLVM_DEBUG(dbgs() << "sysbatch: loop not batched: "
                    << S.Call->getCalledFunction()->getName() << ": "
                    << sb_why_name(P.why) << ": " << Text << "\n");
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, "LoopNotBatched", S.Call)
           << ore::NV("Callee", S.Call->getCalledFunction())
           << " not batched in its loop: "
           << ore::NV("Reason", sb_why_name(P.why)) << " ("
           << ore::NV("Detail", Text) << ")";
  });
}

bool batchLoops(Function &F, FunctionAnalysisManager &FAM, sb_abi Abi,
                const SysbatchOptions &Opts, bool Final) {
  if (!Opts.Config.plan.loops || Abi != SB_ABI_LINUX_X86_64)
    return false;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return false;
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  // At -O0 no loop-simplify has run, so a loop with a `continue` (gnulib's
  // safe_read retry loop) keeps one back edge per way round and would be
  // refused for its shape alone.  Give such a loop one latch, as
  // loop-simplify does before every loop pass at -O1 and above, so that it
  // is described, planned and refused or batched by the same rules as
  // there.  Only loops with a candidate call are touched.
  bool Changed = false;
  if (F.hasOptNone()) {
    SmallVector<Loop *, 8> Loops = LI.getLoopsInPreorder();
    for (Loop *L : Loops) {
      if (L->getLoopLatch())
        continue;
      bool HasCandidate = false;
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : *BB)
          if (auto *CI = dyn_cast<CallInst>(&I))
            HasCandidate |= isCandidate(*CI, Abi);
      if (HasCandidate)
        Changed |= simplifyLoop(L, &DT, &LI, &SE, nullptr, nullptr,
                                /*PreserveLCSSA=*/false);
    }
  }
  Analysis A{FAM.getResult<AAManager>(F), DenseMap<const AllocaInst *, bool>(),
             Abi, DenseMap<const AllocaInst *, bool>()};
  std::vector<std::unique_ptr<LoopSite>> Sites = analyseLoops(F, A, LI, SE, DT);
  sb_options CoreOpts = Opts.Config.plan;
  reportBegin(*F.getParent(), Opts); // at -O2 before the sysbatch pass
  // Every loop is described on the unchanged function, then rewritten.
  std::vector<LoopSite *> Batched;
  for (auto &S : Sites) {
    if (sb_plan_loop(&S->Model, &CoreOpts, &S->Plan) != 0)
      continue;
    // An early look says only what it batches: a later one decides the
    // rest, and a plan that needs rule 7's run-time check too (after
    // inlining the final look may prove the arrays apart).
    if (!Final && (S->Plan.why != SB_WHY_NONE || S->Plan.runtime_check))
      continue;
    if (Opts.Config.print_plan)
      printLoopPlan(*S);
    emitLoopRemark(*S, ORE);
    // A refused loop site is left to the region planner, which reports it.
    if (S->Plan.why == SB_WHY_NONE) {
      reportLoop(S->Call, S->Plan.group);
      Batched.push_back(S.get());
    }
  }
  RuntimeABI RT(*F.getParent());
  for (LoopSite *S : Batched) {
    rewriteLoop(*S, RT, Opts.Config.verify);
    Changed = true;
  }
  return Changed;
}

} // namespace detail

namespace {

/// Set on a function once the final look at its loops is done: an early
/// look that runs again later in the pipeline leaves it alone.
constexpr const char *LoopsDoneAttr = "sysbatch-loops-done";

/// `sysbatch-loops`: loop batching alone, on SSA loops.  Early (before the
/// loop passes unroll small constant loops): batch what already plans,
/// silently refuse the rest; final (loops rotated, induction variables
/// widened, trip counts known): decide and report every loop.
class SysbatchLoopPass : public PassInfoMixin<SysbatchLoopPass> {
public:
  explicit SysbatchLoopPass(SysbatchOptions Opts = SysbatchOptions(),
                            bool Final = true)
      : Opts(Opts), Final(Final) {}
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    sb_abi Abi;
    if (F.isDeclaration() || compat::startsWith(F.getName(), "sysbatch_") ||
        F.hasFnAttribute(LoopsDoneAttr) ||
        !detail::resolvePassTarget(Opts, *F.getParent(), Abi))
      return PreservedAnalyses::all();
    bool Changed = detail::batchLoops(F, FAM, Abi, Opts, Final);
    if (Final)
      F.addFnAttr(LoopsDoneAttr);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  SysbatchOptions Opts;
  bool Final;
};

} // namespace

void registerLoopBatching(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "sysbatch-loops") {
          FPM.addPass(SysbatchLoopPass());
          return true;
        }
        if (!Name.consume_front("sysbatch-loops<") || !Name.consume_back(">"))
          return false;
        SysbatchOptions O;
        char Err[512];
        if (!O.Error.empty() ||
            sb_config_set_list(&O.Config, Name.str().c_str(), ';', Err,
                               sizeof Err) < 0) {
          errs() << (O.Error.empty() ? std::string(Err) : O.Error) << "\n";
          return false;
        }
        FPM.addPass(SysbatchLoopPass(O));
        return true;
      });
  PB.registerPeepholeEPCallback(
      [](FunctionPassManager &FPM, compat::OptimizationLevel) {
        FPM.addPass(SysbatchLoopPass(SysbatchOptions(), /*Final=*/false));
      });
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, compat::OptimizationLevel) {
        FPM.addPass(SysbatchLoopPass());
      });
}

} // namespace sysbatch
