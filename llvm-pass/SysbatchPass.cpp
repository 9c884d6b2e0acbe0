//===- SysbatchPass.cpp - the pass: options, run(), registration ----------===//
//
// LLVM IR -> core region -> plan -> rewritten IR.  The pass decides nothing
// about *what* is batched: it describes each basic block (or branchy region,
// or Tock chain) to the core planner (core/include/sysbatch/core.h) and
// rewrites the plan exactly as docs/design.md prescribes.  This file holds
// the pass's options (core/config.c's keys, from -mllvm flags and pass
// parameters), its run() - form and plan every region on the unchanged
// CFG, then rewrite every batch - and the plugin's registration.
//
// Layout of llvm-pass/ (by role; examples of each rewrite at the top of
// its file):
//
//   SysbatchPass.h       the pass class and its options
//   SysbatchInternal.h   the data model (CandidateCall, Region, Analysis),
//                        RuntimeABI, and what the files below share
//   SysbatchPass.cpp     options, run(), batch statistics, registration
//   BlockAnalysis.cpp    phase 1: calls, operands, code between calls,
//                        barriers; analyseBlock()
//   RegionEnd.cpp        what follows a straight-line region (lone calls)
//   Regions.cpp          branchy regions: formation, terminators,
//                        collectRegionCalls(), analyseRegion()
//   TockAnalysis.cpp     the Tock memory rule, call shape, stop tests and
//                        checked chains
//   Plan.cpp             the planner call, plan printing, hazard check,
//                        remarks and refusal statistics
//   RewriteLinux.cpp     RuntimeABI's Linux calls, the call-site rewrite,
//                        rewriteBatch()
//   RewriteTock.cpp      the Tock rewrite: one series call per batch
//   LLVMCompat.h         the only place for LLVM version differences
//
//===----------------------------------------------------------------------===//

#include "SysbatchPass.h"
#include "SysbatchInternal.h"
#include "sysbatch/remark.h"
#include "LoopBatching.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include "sysbatch/config.h"
#include "sysbatch/core.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

STATISTIC(NumBatches, "Batches formed");
STATISTIC(NumBatchedCalls, "Calls issued through a batch");
STATISTIC(NumSlots, "Slots written (calls and word copies)");
STATISTIC(NumChains, "Word-copy slots (results feeding later arguments)");

namespace sysbatch {

//===----------------------------------------------------------------------===//
// Options: core defaults, then -mllvm flags, then pass parameters.
//===----------------------------------------------------------------------===//

// One -mllvm -sysbatch-KEY[=VALUE] flag per core/config.c key (and
// -sysbatch-no-KEY for flags), registered from the core's table when the
// plugin loads.  Each is handed to the core as the user wrote it, so its
// range and error text are the same as for pass parameters, the GCC plugin
// and sysbatch-plan; a later flag wins, as there.
namespace {
struct ConfigFlag {
  const char *Key;  ///< the key given to sb_config_set ("no-verify")
  std::unique_ptr<cl::opt<std::string>> Opt;
};
} // namespace

static std::vector<ConfigFlag> &configFlags() {
  static std::deque<std::string> Names; // cl::opt keeps only a StringRef
  static std::vector<ConfigFlag> Flags = [] {
    std::vector<ConfigFlag> V;
    for (size_t I = 0; I < sb_config_key_count(); ++I) {
      std::string Key = sb_config_key_name(I);
      std::vector<std::string> Forms{Key};
      if (sb_config_key_is_flag(I))
        Forms.push_back("no-" + Key);
      for (const std::string &Form : Forms) {
        Names.push_back(Form);
        const char *K = Names.back().c_str();
        Names.push_back("sysbatch-" + Form);
        auto Opt = std::make_unique<cl::opt<std::string>>(
            StringRef(Names.back()), cl::ValueOptional,
            cl::desc(std::string("sysbatch: ") + sb_config_key_help(I)));
        V.push_back({K, std::move(Opt)});
      }
    }
    return V;
  }();
  return Flags;
}

// Registered at load time, so `clang -mllvm -sysbatch-...` sees them.
static const bool ConfigFlagsRegistered = !configFlags().empty();

SysbatchOptions::SysbatchOptions() {
  (void)ConfigFlagsRegistered;
  sb_config_default(&Config);
  std::vector<const ConfigFlag *> Given;
  for (const ConfigFlag &F : configFlags())
    if (F.Opt->getNumOccurrences())
      Given.push_back(&F);
  llvm::sort(Given, [](const ConfigFlag *A, const ConfigFlag *B) {
    return A->Opt->getPosition() < B->Opt->getPosition();
  });
  for (const ConfigFlag *F : Given) {
    const std::string &Value = *F->Opt;
    // "-sysbatch-verify" and "-sysbatch-min-batch" carry no value.
    bool HasValue = !Value.empty();
    char Err[512];
    if (sb_config_set(&Config, F->Key, HasValue ? Value.c_str() : nullptr, Err,
                      sizeof Err) < 0) {
      Error = Err;
      return;
    }
  }
}

using namespace detail;

namespace {

/// A bad option is a compile error (opt exits 1, clang reports `error:`),
/// said once per module although the pass runs per function.
static void reportOptionError(Module &M, const Twine &Msg) {
  // Marked in the module itself: clang compiles several files in one
  // process, so a remembered Module pointer could be a new module's.
  const char *Mark = "sysbatch.option.error";
  if (M.getNamedMetadata(Mark))
    return;
  M.getOrInsertNamedMetadata(Mark);
  M.getContext().emitError(Msg);
}

/// The ABI this run rewrites for, from the target option and the triple
/// (the rule is the core's); false when the run does nothing.  An explicit
/// target on a triple without that kernel ABI is an error.
static bool resolveTarget(const SysbatchOptions &Opts, Module &M,
                          sb_abi &Abi) {
  if (!Opts.Error.empty()) {
    reportOptionError(M, Opts.Error);
    return false;
  }
  Triple T(M.getTargetTriple());
  sb_target_facts Facts{M.getTargetTriple().c_str(),
                        T.getArch() == Triple::x86_64 && T.isOSLinux(),
                        T.isThumb() || T.getArch() == Triple::riscv32};
  const char *Why = nullptr;
  char Err[512];
  int Use = sb_config_resolve_target(&Opts.Config, &Facts, &Abi, &Why, Err,
                                     sizeof Err);
  if (Use < 0)
    reportOptionError(M, Err);
  if (Use == 0)
    LLVM_DEBUG(dbgs() << "sysbatch: " << M.getTargetTriple() << ": " << Why
                      << "\n");
  return Use > 0;
}

/// Every region is formed, described and planned on the unchanged CFG;
/// then the batches are rewritten.  Candidate blocks keep the numbers of
/// the straight-line plans (the GCC plugin prints the same) whatever the
/// branchy regions cover.
/// Says nothing: remarks go to a context of its own whose handler wants
/// none, so an early look that decides nothing leaves no trace in the
/// user's remarks or optimization record.
struct QuietRemarks {
  struct NoRemarks : DiagnosticHandler {
    bool isAnalysisRemarkEnabled(StringRef) const override { return false; }
    bool isMissedOptRemarkEnabled(StringRef) const override { return false; }
    bool isPassedOptRemarkEnabled(StringRef) const override { return false; }
    bool isAnyRemarkEnabled() const override { return false; }
  };
  LLVMContext Ctx;
  Module M{"sysbatch.quiet", Ctx};
  Function *F;
  std::unique_ptr<OptimizationRemarkEmitter> ORE;
  QuietRemarks() {
    Ctx.setDiagnosticHandler(std::make_unique<NoRemarks>());
    F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                         GlobalValue::ExternalLinkage, "quiet", M);
    ORE = std::make_unique<OptimizationRemarkEmitter>(F);
  }
};

/// What a look says about the regions it plans.
enum class Say {
  All,         ///< every batch and refusal, every plan (print-plan)
  BatchesOnly, ///< an early look under placement=both: the regions that
               ///< batch (their batches and refusals); a region that
               ///< batches nothing is a later look's to decide and report
  Nothing,     ///< a join split's trial: plan, keep what batches, say
               ///< nothing and mark nothing
};

/// The calls a region that batched decided and reported (its refusals;
/// the batched ones are marked by the rewrite): no later look plans them.
/// A branchy region decides only the calls of the blocks it covers.
static void markDecidedCalls(Region &R,
                             const DenseSet<const BasicBlock *> *Covered) {
  for (int C = 0; C < R.Plan.ncalls; ++C) {
    if (R.Plan.calls[C].batch >= 0)
      continue;
    if (Covered && !Covered->count(R.Blocks[R.BlockOfCall[C]]))
      continue;
    CallInst *Call = R.Calls[C].Call;
    Call->setMetadata(RegionBatchedMD, MDNode::get(Call->getContext(), {}));
  }
}

/// With Say::BatchesOnly a region that forms no batch is dropped unsaid;
/// Say::Nothing keeps every region and says nothing.
static std::vector<std::unique_ptr<Region>>
formRegions(Function &F, Analysis &A, sb_abi Abi, const SysbatchOptions &Opts,
            OptimizationRemarkEmitter &ORE, Say What) {
  const bool All = What == Say::All;
  const bool Silent = What == Say::Nothing;
  SysbatchOptions Planning = Opts;
  Planning.Config.print_plan = Opts.Config.print_plan && All;
  std::unique_ptr<QuietRemarks> Quiet;
  if (!All)
    Quiet = std::make_unique<QuietRemarks>();
  OptimizationRemarkEmitter &EndsORE = All ? ORE : *Quiet->ORE;
  // Says what a plan batches (all of it, or nothing when it batches
  // nothing and a later look decides); false: drop the region.  A trial
  // (Say::Nothing) keeps every region: a join split's remark names the
  // refusal that kept its copy out.
  auto Publish = [&](Region &R, const DenseSet<const BasicBlock *> *Cov) {
    if (Silent)
      return true;
    if (!All && !R.Plan.nbatches)
      return false;
    if (!All) {
      if (Opts.Config.print_plan)
        printPlan(R);
      markDecidedCalls(R, Cov);
    }
    emitRemarks(R, ORE, Cov);
    return true;
  };
  std::vector<std::unique_ptr<Region>> Regions;
  std::vector<BasicBlock *> Order;
  for (BasicBlock &BB : F)
    Order.push_back(&BB);
  DenseSet<const BasicBlock *> Covered;
  DenseSet<const Instruction *> ReportedEnds;
  // Calls to catalogue functions, candidates or not (an earlier look may
  // have batched or decided some): "no other system call in the function".
  unsigned FunctionCalls = 0;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I)) {
      bool Raw = false;
      FunctionCalls += visitCallee(*CI, Raw, Abi) || Raw;
    }
  unsigned BlockNo = 0;
  for (size_t K = 0; K < Order.size(); ++K) {
    BasicBlock &BB = *Order[K];
    if (!countCandidates(BB, Abi))
      continue;
    unsigned Number = BlockNo++;
    if (Covered.count(&BB))
      continue;
    // Tock's series call only stops or continues: each block is planned
    // straight-line (the core would refuse a branchy region as wrong-abi).
    std::vector<BasicBlock *> Blocks;
    if (Abi == SB_ABI_LINUX_X86_64)
      Blocks = formRegion(Order, K, Covered, Abi);
    // Opt-in: a chain of blocks linked by exact success tests is one
    // straight-line run (the stop policy takes the tests' failing edges).
    if (Abi == SB_ABI_TOCK && Opts.Config.tock_chains) {
      std::vector<BasicBlock *> Chain =
          formTockChain(Order, K, Covered, EndsORE);
      if (!Chain.empty()) {
        std::unique_ptr<Region> R = analyseChain(A, std::move(Chain), Number);
        for (BasicBlock *CB : R->Blocks)
          Covered.insert(CB);
        if (planRegion(*R, Planning) && Publish(*R, nullptr))
          Regions.push_back(std::move(R));
        continue;
      }
    }
    std::string BranchWhy;
    if (!Blocks.empty()) {
      std::unique_ptr<Region> R = analyseRegion(A, std::move(Blocks), Number);
      bool Use = planBranchy(*R, Planning);
      if (!Silent && (All || Use))
        emitRegionEnds(*R, ORE, ReportedEnds);
      if (Use) {
        for (int C = 0; C < R->Plan.ncalls; ++C)
          if (R->Plan.calls[C].batch == 0)
            Covered.insert(R->Blocks[R->BlockOfCall[C]]);
        if (Publish(*R, &Covered))
          Regions.push_back(std::move(R));
        continue;
      }
      BranchWhy = branchEndWhy(*R);
    }
    std::vector<std::unique_ptr<Region>> Parts = analyseBlock(A, BB, Number);
    for (auto &R : Parts) {
      describeRegionEnd(A, *R, FunctionCalls, &R == &Parts.back());
      if (R->End.term == SB_ENDT_BRANCH && !BranchWhy.empty())
        R->End.branch_why = R->keep(BranchWhy);
      if (planRegion(*R, Planning) && Publish(*R, nullptr))
        Regions.push_back(std::move(R));
    }
  }
  return Regions;
}

/// Set on a function once a look has decided it: no later look, and no
/// second run of the pass, plans it again.
constexpr const char *DecidedAttr = "sysbatch-decided";
/// Set at the end of an LTO pre-link compile, where the function is left
/// for the link (its callees from other units are inlined only there); a
/// late look that finds it is ThinLTO's post-link one.
constexpr const char *DeferredAttr = "sysbatch-deferred-to-link";

/// clang marks a module compiled for (Thin)LTO before its pipeline runs.
static bool isLTOPreLinkModule(const Module &M) {
  return M.getModuleFlag("ThinLTO") || M.getModuleFlag("EnableSplitLTOUnit");
}

enum class Verdict {
  Skip,      ///< another look decides this function
  Tentative, ///< batch what plans here and say only that; a later look
             ///< decides the rest of the function
  Decide,    ///< plan, report and rewrite everything
};

static Verdict lookVerdict(Function &F, SysbatchLook Look, sb_placement P) {
  if (F.hasFnAttribute(DecidedAttr))
    return Verdict::Skip;
  switch (Look) {
  case SysbatchLook::Only:
    return Verdict::Decide;
  case SysbatchLook::Early:
    // -O0 (optnone) inlines nothing and no later look runs its passes.
    if (F.hasOptNone() || P == SB_PLACEMENT_EARLY)
      return Verdict::Decide;
    return P == SB_PLACEMENT_LATE ? Verdict::Skip : Verdict::Tentative;
  case SysbatchLook::Late:
    if (P == SB_PLACEMENT_EARLY)
      return Verdict::Skip;
    if (isLTOPreLinkModule(*F.getParent())) {
      if (F.hasFnAttribute(DeferredAttr))
        return Verdict::Decide; // ThinLTO post-link
      F.addFnAttr(DeferredAttr);
      return Verdict::Skip;
    }
    return Verdict::Decide;
  case SysbatchLook::Link:
    return P == SB_PLACEMENT_EARLY ? Verdict::Skip : Verdict::Decide;
  }
  return Verdict::Skip;
}

/// Rewrite every planned batch; true when anything changed.
static bool rewriteRegions(Function &F,
                           std::vector<std::unique_ptr<Region>> &Regions,
                           sb_abi Abi, const SysbatchOptions &Opts) {
  bool Changed = false;
  RuntimeABI RT(*F.getParent());
  DenseMap<Value *, Value *> Replaced;
  // Tock call sites are gone after the rewrite; erased only at the end, so
  // no other region's lookups (Replaced, Position) see a freed pointer.
  SmallVector<CallInst *, 16> ErasedCalls;
  for (auto &R : Regions) {
    for (int B = 0; B < R->Plan.nbatches; ++B) {
      Changed = true;
      const sb_batch_plan &BP = R->Plan.batches[B];
      ++NumBatches;
      NumBatchedCalls += BP.ncalls;
      NumSlots += BP.nslots;
      NumChains += BP.nchains;
      if (Abi == SB_ABI_TOCK)
        rewriteTockBatch(*R, B, RT, Opts.Config.fill, Replaced, ErasedCalls);
      else
        rewriteBatch(*R, B, RT, Opts.Config.fill, Opts.Config.verify, Replaced);
    }
  }
  for (CallInst *Call : ErasedCalls) {
    assert(Call->use_empty() && "a replaced Tock call still has users");
    Call->eraseFromParent();
  }
  return Changed;
}

} // namespace

bool detail::resolvePassTarget(const SysbatchOptions &Opts, Module &M,
                               sb_abi &Abi) {
  return resolveTarget(Opts, M, Abi);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

PreservedAnalyses SysbatchPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  sb_abi Abi;
  if (!resolveTarget(Opts, *F.getParent(), Abi))
    return PreservedAnalyses::all();
  reportBegin(*F.getParent(), Opts); // once per unit, even if nothing batches
  if (compat::startsWith(F.getName(), "sysbatch_")) {
    LLVM_DEBUG(dbgs() << "sysbatch: " << F.getName()
                      << ": the runtime itself is never batched\n");
    return PreservedAnalyses::all();
  }
  Verdict V = lookVerdict(F, Look, Opts.Config.placement);
  if (V == Verdict::Skip)
    return PreservedAnalyses::all();

  bool HasCandidate = false;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      HasCandidate |= isCandidate(*CI, Abi);
  if (!HasCandidate)
    return PreservedAnalyses::all(); // functions without candidates untouched

  // -O0 (optnone: no later loop pass runs): loops first, so a call they
  // batch is no region's candidate.
  bool LoopsChanged = F.hasOptNone() && batchLoops(F, FAM, Abi, Opts);
  if (LoopsChanged)
    FAM.invalidate(F, PreservedAnalyses::none());
  Analysis A{FAM.getResult<AAManager>(F), DenseMap<const AllocaInst *, bool>(),
             Abi, DenseMap<const AllocaInst *, bool>()};
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  A.DT = &DT;
  A.LI = &LI;
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  // Before inlining under placement=both: what batches here is rewritten
  // (and its call sites marked); the rest waits for the wrappers to be
  // inlined and is decided, and reported, by a later look.
  const bool Final = V == Verdict::Decide;
  if (Final)
    F.addFnAttr(DecidedAttr);
  // Join splits first: a kept split is a new block the regions below see.
  // Each is tried by planning the whole function again, silently.
  auto BatchedCalls = [&](CallInst *Copy, CallInst *Source,
                          std::string *Why) {
    std::vector<std::unique_ptr<Region>> Trial =
        formRegions(F, A, Abi, Opts, ORE, Say::Nothing);
    int Batched = 0;
    bool CopyBatched = false;
    std::string CopyWhy, SourceWhy;
    for (auto &R : Trial)
      for (int C = 0; C < R->Plan.ncalls; ++C) {
        const sb_call_plan &CP = R->Plan.calls[C];
        CallInst *Site = R->Calls[C].Call;
        if (CP.batch >= 0) {
          ++Batched;
          CopyBatched |= Site == Copy;
        } else if (Site && (Site == Copy || Site == Source)) {
          char Buf[400];
          sb_remark_refusal(Buf, sizeof Buf, CP.why, CP.detail);
          std::string Callee = Site->getCalledFunction()
                                   ? Site->getCalledFunction()->getName().str()
                                   : std::string("call");
          (Site == Copy ? CopyWhy : SourceWhy) = Callee + ": " + Buf;
        }
      }
    if (Why)
      *Why = !SourceWhy.empty() ? SourceWhy : CopyWhy;
    return Copy && !CopyBatched ? -1 : Batched;
  };
  bool Split = Opts.Config.plan.join_split &&
               splitJoins(F, A, DT, LI, ORE, Final, BatchedCalls) > 0;
  std::vector<std::unique_ptr<Region>> Regions = formRegions(
      F, A, Abi, Opts, ORE, Final ? Say::All : Say::BatchesOnly);
  bool Changed =
      rewriteRegions(F, Regions, Abi, Opts) || LoopsChanged || Split;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// `sysbatch<KEY[=VALUE];...>`: the keys of core/config.c, after the
/// -sysbatch-* flags.
static Expected<SysbatchOptions> parseSysbatchParameters(StringRef Params) {
  SysbatchOptions O;
  if (!O.Error.empty())
    return make_error<StringError>(O.Error, inconvertibleErrorCode());
  char Err[512];
  if (sb_config_set_list(&O.Config, Params.str().c_str(), ';', Err,
                         sizeof Err) < 0)
    return make_error<StringError>(Err, inconvertibleErrorCode());
  if (O.Config.help)
    errs() << "sysbatch pass parameters (sysbatch<KEY[=VALUE];...>, or "
              "-mllvm -sysbatch-KEY[=VALUE]):\n"
           << sb_config_help();
  return O;
}

} // namespace sysbatch

using namespace sysbatch;

static bool parseSysbatchPipeline(StringRef Name, FunctionPassManager &FPM,
                                  ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "sysbatch") {
    FPM.addPass(SysbatchPass());
    return true;
  }
  if (!Name.consume_front("sysbatch<") || !Name.consume_back(">"))
    return false;
  Expected<SysbatchOptions> Opts = parseSysbatchParameters(Name);
  if (!Opts) {
    // LLVM 14 has no way to hand a parse error back; say what is wrong and
    // let opt report the pipeline as invalid (exit status 1, no crash).
    errs() << toString(Opts.takeError()) << "\n";
    return false;
  }
  FPM.addPass(SysbatchPass(*Opts));
  return true;
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "sysbatch", LLVM_VERSION_STRING,
          [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(parseSysbatchPipeline);
            registerLoopBatching(PB);
            // Before inlining and before SROA, at every -O level (the pass
            // is required, so -O0's optnone does not skip it).
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, compat::OptimizationLevel) {
                  MPM.addPass(createModuleToFunctionPassAdaptor(
                      SysbatchPass(SysbatchOptions(), SysbatchLook::Early)));
                });
            // After the inliner: a wrapper's calls (xopen, safe_read, a
            // libtock-c driver) are the caller's own here.
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, compat::OptimizationLevel) {
                  MPM.addPass(createModuleToFunctionPassAdaptor(
                      SysbatchPass(SysbatchOptions(), SysbatchLook::Late)));
                });
            compat::registerFullLTOLastCallback(PB, [](ModulePassManager &MPM) {
              MPM.addPass(createModuleToFunctionPassAdaptor(
                  SysbatchPass(SysbatchOptions(), SysbatchLook::Link)));
            });
          }};
}
