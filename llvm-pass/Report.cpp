//===- Report.cpp - the unit's record for the build-wide report -----------===//
//
// With report=DIR every batch and every refused candidate call of the unit
// goes into one record (core/report.c, format in sysbatch/report.h), the
// same the GCC plugin writes.  A pass plugin has no end-of-unit hook of its
// own, so the record is written when the compiler process exits: clang
// compiles one unit per cc1 (in-process or not) and opt one module.
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace sysbatch {
namespace detail {

static sb_report *ActiveReport = nullptr;

static void writeReportAtExit() {
  if (!ActiveReport)
    return;
  char Err[512];
  if (sb_report_end(ActiveReport, Err, sizeof Err) < 0)
    errs() << Err << "\n";
  ActiveReport = nullptr;
}

void reportBegin(const Module &M, const SysbatchOptions &Opts) {
  if (ActiveReport || !Opts.Config.report_dir[0])
    return;
  std::string Compiler = "clang " + std::to_string(LLVM_VERSION_MAJOR);
  ActiveReport = sb_report_begin(Opts.Config.report_dir,
                                 M.getSourceFileName().c_str(),
                                 Compiler.c_str());
  if (ActiveReport)
    std::atexit(writeReportAtExit);
}

/// Where \p I came from: its debug location, else the unit's source, line 0.
static std::pair<std::string, unsigned> siteOf(const Instruction *I) {
  if (const DILocation *L = I->getDebugLoc().get())
    return {L->getFilename().str(), L->getLine()};
  return {I->getModule()->getSourceFileName(), 0};
}

void reportBatch(const Instruction *First, int NCalls, int NSlots,
                 const std::string &Callees) {
  if (!ActiveReport)
    return;
  auto [File, Line] = siteOf(First);
  sb_report_batch(ActiveReport, File.c_str(), Line,
                  First->getFunction()->getName().str().c_str(), NCalls,
                  NSlots, Callees.c_str());
}

void reportRefused(const CallInst *Call, const char *Reason) {
  if (!ActiveReport)
    return;
  auto [File, Line] = siteOf(Call);
  const Function *Callee = Call->getCalledFunction();
  sb_report_refused(ActiveReport, File.c_str(), Line,
                    Call->getFunction()->getName().str().c_str(),
                    Callee ? Callee->getName().str().c_str() : "?", Reason);
}

void reportLoop(const CallInst *Call, int Iterations) {
  if (!ActiveReport)
    return;
  auto [File, Line] = siteOf(Call);
  const Function *Callee = Call->getCalledFunction();
  sb_report_loop(ActiveReport, File.c_str(), Line,
                 Call->getFunction()->getName().str().c_str(),
                 Callee ? Callee->getName().str().c_str() : "?", Iterations);
}

} // namespace detail
} // namespace sysbatch
