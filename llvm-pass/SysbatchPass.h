//===- SysbatchPass.h - batch straight-line system calls --------*- C++ -*-===//
//
// The sysbatch LLVM pass: a thin adapter between LLVM IR and the IR-free
// planner in core/.  For every basic block it describes the calls to
// catalogue functions (and the code between them) as an sb_region, asks
// sb_plan_region() for a plan and rewrites each planned batch as
// docs/design.md prescribes:
//
//   before                               after
//   %fd = call i32 @open(p, 0)           %a = load i32, @sysbatch_active
//   %n  = call i64 @read(%fd, b, 64)     br %a, issue, join
//                                      issue: <fill slots>; %r = sysbatch_run(...)
//                                      join:  %last = phi [-1], [%r]
//                                             %fd = 0 <= %last ? ret_errno(rets[0])
//                                                               : call @open(p, 0)
//                                             %n  = 2 <= %last ? ret_errno(rets[2])
//                                                               : call @read(%fd, b, 64)
//
// With target=tock (Cortex-M Thumb or RV32 only) the same analysis plans
// runs of libtock-c raw calls, and each batch becomes one series call
// (class 0xfe, docs/tock.md); each call is replaced by one runtime call that
// converts its frame, or runs it when the series stopped before it:
//
//   before                                   after
//   call @allow_readwrite(sret %a, D, 0, b, n)   frames <- {3, D, 0, b, n}, {2, D, 1, 5, 0}
//   call @command(sret %c, D, 1, 5, 0)           %left = call @sysbatch_tock_series(frames, 2, 0)
//                                                %ran = 2 - %left
//                                                call @sysbatch_tock_take(%a, frames, 0, %ran)
//                                                call @sysbatch_tock_take(%c, frames, 1, %ran)
//
// Pipeline: `opt -passes=sysbatch` / `sysbatch<min-batch=N;print-plan>` /
// `sysbatch<target=tock>`, and from clang (-fpass-plugin, -mllvm
// -sysbatch-target=tock there) in up to three looks chosen by the
// placement key: at the pipeline start (every -O level, before inlining),
// at the optimizer's end (after inlining), and at the end of full LTO's
// link-time pipeline.  Each function is decided by one look only.
//
//===----------------------------------------------------------------------===//
#ifndef SYSBATCH_LLVM_PASS_H
#define SYSBATCH_LLVM_PASS_H

#include "llvm/IR/PassManager.h"

#include "sysbatch/config.h"

#include <string>

namespace sysbatch {

/// The pass's options: core/config.c's keys (the same as the GCC plugin's
/// and sysbatch-plan's), from -mllvm -sysbatch-* flags, then from pass
/// parameters.
struct SysbatchOptions {
  sb_config Config;
  std::string Error;  ///< a -sysbatch-* flag the core refused; reported
                      ///< on the first module the pass sees
  SysbatchOptions();  ///< the core's defaults, then the -sysbatch-* flags
};

/// Which look at a function this instance of the pass is.  A function is
/// decided (planned, reported, rewritten) by one look only, and marked so
/// that no later look - nor running the pass again - plans it a second time.
enum class SysbatchLook {
  Only,  ///< `opt -passes=sysbatch`: decides every function it sees
  Early, ///< pipeline start, before inlining
  Late,  ///< end of the optimizer, after inlining (ThinLTO: post-link)
  Link,  ///< end of full LTO's link-time pipeline
};

class SysbatchPass : public llvm::PassInfoMixin<SysbatchPass> {
public:
  explicit SysbatchPass(SysbatchOptions Opts = SysbatchOptions(),
                        SysbatchLook Look = SysbatchLook::Only)
      : Opts(Opts), Look(Look) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  /// Runs on optnone functions too, so clang -O0 batches as well.
  static bool isRequired() { return true; }

private:
  SysbatchOptions Opts;
  SysbatchLook Look;
};

} // namespace sysbatch

#endif // SYSBATCH_LLVM_PASS_H
