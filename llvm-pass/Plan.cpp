//===- Plan.cpp - the planner call, plan printing, remarks ----------------===//
//
// Hands a described Region to the core (sb_plan_region with the options'
// sb_options), refuses a plan the core's hazard check rejects, prints the
// plan for print-plan, and reports what the core decided: `batched N
// calls ...`, `X not batched: <why> (<detail>)`, `branch ends the region`
// and the series-ended remark, with one STATISTIC per refusal reason.
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"
#include "sysbatch/remark.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdio>

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

STATISTIC(NumRefused, "Candidate calls left alone (all reasons)");
STATISTIC(NumRefusedNotInCatalog, "Refused: not in the catalogue");
STATISTIC(NumRefusedWrongAbi, "Refused: row for another ABI");
STATISTIC(NumRefusedNever, "Refused: never batched (exec, exit, fork, vDSO...)");
STATISTIC(NumRefusedNrNotConstant, "Refused: syscall() with a computed number");
STATISTIC(NumRefusedNrUnknown, "Refused: syscall() number not catalogued");
STATISTIC(NumRefusedMayBlock, "Refused: blocking call, blocking disabled");
STATISTIC(NumRefusedArgComputed, "Refused: argument computed from a result");
STATISTIC(NumRefusedArgUnbatched, "Refused: argument from a refused call");
STATISTIC(NumRefusedCodeConflict, "Refused: code in between does not commute");
STATISTIC(NumRefusedBarrier, "Refused: barrier in between");
STATISTIC(NumRefusedBelowMin, "Refused: batch below the minimum size");
STATISTIC(NumRefusedBatchFull, "Refused: batch full");
STATISTIC(NumRefusedFrontEnd, "Refused: the IR does not fit the catalogue row");
STATISTIC(NumRefusedNoChaining, "Refused: a result feeds a later call (Tock)");
STATISTIC(NumSeriesEnded, "Tock series ended by a yield before a batchable call");

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// Planning and remarks
//===----------------------------------------------------------------------===//

static void countRefusal(sb_why Why) {
  ++NumRefused;
  switch (Why) {
  case SB_WHY_NOT_IN_CATALOG: ++NumRefusedNotInCatalog; break;
  case SB_WHY_WRONG_ABI: ++NumRefusedWrongAbi; break;
  case SB_WHY_NEVER_BATCH: ++NumRefusedNever; break;
  case SB_WHY_NR_NOT_CONSTANT: ++NumRefusedNrNotConstant; break;
  case SB_WHY_NR_UNKNOWN: ++NumRefusedNrUnknown; break;
  case SB_WHY_MAY_BLOCK: ++NumRefusedMayBlock; break;
  case SB_WHY_ARG_COMPUTED: ++NumRefusedArgComputed; break;
  case SB_WHY_ARG_FROM_UNBATCHED: ++NumRefusedArgUnbatched; break;
  case SB_WHY_CODE_CONFLICT: ++NumRefusedCodeConflict; break;
  case SB_WHY_BARRIER: ++NumRefusedBarrier; break;
  case SB_WHY_BELOW_MIN_BATCH: ++NumRefusedBelowMin; break;
  case SB_WHY_BATCH_FULL: ++NumRefusedBatchFull; break;
  case SB_WHY_FRONT_END: ++NumRefusedFrontEnd; break;
  case SB_WHY_NO_CHAINING: ++NumRefusedNoChaining; break;
  default: break;
  }
}

static sb_region describe(Region &R) {
  sb_region Desc = {}; // nblocks = 0: the straight-line form
  Desc.abi = R.Abi;
  Desc.nevents = R.Events.size();
  Desc.events = R.Events.data();
  Desc.nblocks = R.SBBlocks.size();
  Desc.blocks = R.SBBlocks.empty() ? nullptr : R.SBBlocks.data();
  Desc.end = R.End;
  return Desc;
}

void printPlan(Region &R) {
  sb_region Desc = describe(R);
  errs().flush();
  std::string Name = R.BB->getParent()->getName().str();
  if (R.Part)
    std::fprintf(stderr, "function %s block %u part %u:\n", Name.c_str(),
                 R.BlockNo, R.Part);
  else
    std::fprintf(stderr, "function %s block %u:\n", Name.c_str(), R.BlockNo);
  sb_plan_print(stderr, &Desc, &R.Plan);
  std::fflush(stderr);
}

static void checkHazards(Region &R) {
  if (const char *Hazard = sb_plan_check_hazards(&R.Plan)) {
    // A plan the kernel could misread is never emitted.
    LLVM_DEBUG(dbgs() << "sysbatch: plan rejected: " << Hazard << "\n");
    report_fatal_error(Twine("sysbatch: core produced a hazardous plan: ") +
                           Hazard,
                       false);
  }
}

static sb_options coreOptions(const SysbatchOptions &Opts) {
  return Opts.Config.plan;
}

/// Plan a branchy region; false when it is not worth using (no batch, or a
/// batch whose calls all sit in one block: then the entry block is planned
/// straight-line).
bool planBranchy(Region &R, const SysbatchOptions &Opts) {
  sb_region Desc = describe(R);
  sb_options CoreOpts = coreOptions(Opts);
  if (sb_plan_region(&Desc, &CoreOpts, &R.Plan) != 0)
    return false;
  R.Planned = true;
  if (!sb_plan_spans_blocks(&R.Plan, R.BlockOfCall.data()))
    return false;
  checkHazards(R);
  if (Opts.Config.print_plan)
    printPlan(R);
  return true;
}

std::string branchEndWhy(Region &R) {
  if (!R.Planned)
    return std::string();
  sb_region Desc = describe(R);
  char Buf[768];
  const char *Why =
      sb_branch_end_why(&Desc, &R.Plan, R.TermWhy.data(), Buf, sizeof Buf);
  return Why ? std::string(Why) : std::string();
}

bool planRegion(Region &R, const SysbatchOptions &Opts) {
  sb_region Desc = describe(R);
  sb_options CoreOpts = coreOptions(Opts);
  if (sb_plan_region(&Desc, &CoreOpts, &R.Plan) != 0) {
    LLVM_DEBUG(dbgs() << "sysbatch: planner out of memory, block left alone\n");
    return false;
  }
  R.Planned = true;
  checkHazards(R);
  if (Opts.Config.print_plan)
    printPlan(R);
  return true;
}

/// Remarks for a plan.  A branchy region's refused calls are reported only
/// in \p Covered blocks (those holding batched calls): the other blocks are
/// planned again on their own and report there.
void emitRemarks(Region &R, OptimizationRemarkEmitter &ORE,
                 const DenseSet<const BasicBlock *> *Covered) {
  sb_region Desc = describe(R);
  for (int B = 0; B < R.Plan.nbatches; ++B) {
    const sb_batch_plan &BP = R.Plan.batches[B];
    CallInst *First = R.Calls[BP.first_call].Call;
    sb_batch_summary Sum;
    sb_summarize_batch(&Desc, &R.Plan, B,
                       R.branchy() ? R.BlockOfCall.data() : nullptr, &Sum);
    std::string Names = Sum.callees;
    // Tock: a yield closes its series, so the call after it is not refused
    // but cannot join either; say so where the next series starts.
    if (R.Abi == SB_ABI_TOCK && BP.end_why == SB_WHY_SERIES_ENDED &&
        BP.end_call >= 0) {
      CallInst *Next = R.Calls[BP.end_call].Call;
      ++NumSeriesEnded;
      LLVM_DEBUG(dbgs() << "sysbatch: series ends before "
                        << Next->getCalledFunction()->getName() << "\n");
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "SeriesEnded", Next)
               << ore::NV("Callee", Next->getCalledFunction())
               << " not in the series before it: "
               << ore::NV("Reason", sb_why_name(SB_WHY_SERIES_ENDED)) << " ("
               << ore::NV("Detail", sb_why_text(SB_WHY_SERIES_ENDED)) << ")";
      });
    }
    reportBatch(First, BP.ncalls, BP.nslots, Names);
    ORE.emit([&] {
      OptimizationRemark Rem(DEBUG_TYPE, "Batched", First);
      Rem << "batched " << ore::NV("Calls", Sum.ncalls) << " calls ("
          << ore::NV("Callees", Names) << ") into "
          << ore::NV("Slots", Sum.nslots) << " slots with "
          << ore::NV("Chains", Sum.nchains) << " chains";
      if (Sum.nblocks)
        Rem << " over " << ore::NV("Blocks", Sum.nblocks) << " blocks"
            << (Sum.branchy ? " (branchy)" : "");
      return Rem;
    });
  }
  for (int C = 0; C < R.Plan.ncalls; ++C) {
    const sb_call_plan &CP = R.Plan.calls[C];
    if (CP.batch >= 0)
      continue;
    if (Covered && !Covered->count(R.Blocks[R.BlockOfCall[C]])) {
      // Planned again on its own and reported there; a refusal with a
      // reason of its own (a chain the layout cannot keep, a failure arm
      // cut off) is said here too, or only the printed plan would show
      // what kept the call out of the batch.
      if (CP.detail && R.Plan.nbatches) {
        CallInst *Call = R.Calls[C].Call;
        CallInst *First = R.Calls[R.Plan.batches[0].first_call].Call;
        unsigned Line = First->getDebugLoc() ? First->getDebugLoc().getLine() : 0;
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "LeftOut", Call)
                 << ore::NV("Callee", Call->getCalledFunction())
                 << " left out of the batch"
                 << (Line ? " at line " + std::to_string(Line) : std::string())
                 << ": " << ore::NV("Reason", sb_why_name(CP.why)) << " ("
                 << ore::NV("Detail", std::string(sb_why_text(CP.why)) +
                                          ": " + CP.detail)
                 << ")";
        });
      }
      continue;
    }
    countRefusal(CP.why);
    CallInst *Call = R.Calls[C].Call;
    reportRefused(Call, sb_why_name(CP.why));
    char Buf[1024];
    sb_remark_refusal(Buf, sizeof Buf, CP.why, CP.detail);
    std::string Text = Buf;
    LLVM_DEBUG(dbgs() << "sysbatch: not batched: "
                      << Call->getCalledFunction()->getName() << ": "
                      << sb_why_name(CP.why) << ": " << Text << "\n");
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotBatched", Call)
             << ore::NV("Callee", Call->getCalledFunction()) << " not batched: "
             << ore::NV("Reason", sb_why_name(CP.why)) << " ("
             << ore::NV("Detail", Text) << ")";
    });
  }
}

/// A branch that ends a branchy region although later blocks of it hold
/// calls: `branch ends the region: <why>` (once per branch).
void emitRegionEnds(Region &R, OptimizationRemarkEmitter &ORE,
                    DenseSet<const Instruction *> &Reported) {
  for (unsigned B = 0; B < R.Blocks.size(); ++B) {
    if (!R.TermWhy[B] || Reported.count(R.TermInst[B]))
      continue;
    bool LaterCalls = false;
    for (int Blk : R.BlockOfCall)
      LaterCalls |= Blk > (int)B;
    if (!LaterCalls)
      continue;
    Reported.insert(R.TermInst[B]);
    LLVM_DEBUG(dbgs() << "sysbatch: branch ends the region: " << R.TermWhy[B]
                      << "\n");
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "RegionEnd", R.TermInst[B])
             << "branch ends the region: "
             << ore::NV("Reason", R.TermWhy[B]);
    });
  }
}

} // namespace detail
} // namespace sysbatch
