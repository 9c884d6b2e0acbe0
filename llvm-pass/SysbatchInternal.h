//===- SysbatchInternal.h - what the pass's files share ---------*- C++ -*-===//
//
// Internal to llvm-pass/: the data model one region of IR is described in
// (CandidateCall, Region, Analysis), the runtime's plugin ABI as the
// rewrites declare it (RuntimeABI), and the functions one file of the pass
// calls in another, grouped by the file that defines them.  Everything here
// lives in sysbatch::detail; what one file uses alone stays static there.
//
//===----------------------------------------------------------------------===//
#ifndef SYSBATCH_LLVM_INTERNAL_H
#define SYSBATCH_LLVM_INTERNAL_H

#include "LLVMCompat.h"
#include "SysbatchPass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include "sysbatch/cfg.h"
#include "sysbatch/core.h"
#include "sysbatch/libc.h"
#include "sysbatch/report.h"
#include "sysbatch/runtime-abi.h"
#include "sysbatch/tock.h"

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class DominatorTree;
class LoopInfo;
} // namespace llvm

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// Data model: one region per basic block (split every SB_MAX_REGION_CALLS
// calls), holding what the core reads and what the rewrite needs.
//===----------------------------------------------------------------------===//

struct CandidateCall {
  llvm::CallInst *Call;
  const sb_syscall *Row; // the row of the callee ("syscall" for syscall())
  const sb_syscall *RawRow; // the row whose kernel call is issued, or null
  unsigned FirstArg;     // 1 for syscall(NR, ...) and for an sret call:
                         // row argument k is operand k+1
  bool RowDescribesOperands; // RawRow's libc arguments are the operands
  unsigned Event;            // index of its call event in Region::Events
  unsigned EventBase = 0;    // operand of event argument 0 (1: the sret
                             // pointer is not a libc argument)
};

struct Region {
  sb_abi Abi = SB_ABI_LINUX_X86_64;
  llvm::BasicBlock *BB = nullptr;
  unsigned BlockNo = 0, Part = 0;
  std::vector<CandidateCall> Calls;
  std::vector<sb_event> Events;
  std::deque<std::string> Texts; // owns the strings events point to
  llvm::DenseMap<const llvm::Instruction *, unsigned> Position; // order in BB
  unsigned StartPos = 0;         // position of the region's first call
  llvm::DenseMap<const llvm::Value *, int> CallIndex;
  llvm::DenseMap<const llvm::Value *, sb_operand> Classified;
  // load -> value stored before it
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Forwarded;
  // sb_operand.same: value number K + 1 is every fd operand computing the
  // same value as SameValues[K] where the batch is issued
  std::vector<llvm::Value *> SameValues;
  sb_plan Plan = {};
  bool Planned = false;

  // Branchy regions (several blocks; empty Blocks: the straight-line form).
  // Position then numbers the instructions of every region block in list
  // order, so "inside" still means "after the issue point, in the region".
  std::vector<llvm::BasicBlock *> Blocks;      // entry first, topological order
  llvm::DenseMap<const llvm::BasicBlock *, int> BlockIndex;
  std::vector<sb_block> SBBlocks;
  std::vector<int> BlockOfCall;
  std::vector<uint64_t> Ancestors;       // per block: blocks with a path to it
  std::vector<uint64_t> Dominators;      // per block, over the region's DAG
  std::vector<const char *> TermWhy;     // why a terminator ends the region
  // Per block ending in SB_TERM_PRED: the condition the rewrite evaluates
  // at the issue point, and whether it holds on the core's false arm
  // (negations stripped when the compare was described).
  std::vector<llvm::Value *> PredCond;
  std::vector<bool> PredNegated;
  std::vector<llvm::Instruction *> TermInst;
  sb_region_end End = {}; // straight-line: what follows the last call

  Region() = default;
  Region(const Region &) = delete;
  Region &operator=(const Region &) = delete;
  ~Region() {
    if (Planned)
      sb_plan_free(&Plan);
  }
  const char *keep(std::string S) {
    Texts.push_back(std::move(S));
    return Texts.back().c_str();
  }
  bool inside(const llvm::Instruction *I) const {
    auto It = Position.find(I);
    return It != Position.end() && It->second >= StartPos;
  }
  bool branchy() const { return !Blocks.empty(); }
  int blockOf(const llvm::Instruction *I) const {
    auto It = BlockIndex.find(I->getParent());
    return It == BlockIndex.end() ? -1 : It->second;
  }
};

struct Analysis {
  llvm::AAResults &AA;
  llvm::DenseMap<const llvm::AllocaInst *, bool> NonEscaping;
  sb_abi Abi = SB_ABI_LINUX_X86_64;
  llvm::DenseMap<const llvm::AllocaInst *, bool> TockPrivate;
  // For what follows a region's last call (RegionEnd.cpp); may be null.
  const llvm::DominatorTree *DT = nullptr;
  const llvm::LoopInfo *LI = nullptr;
};

//===----------------------------------------------------------------------===//
// The runtime's plugin ABI, used by both rewrites
//===----------------------------------------------------------------------===//

/// The runtime's plugin ABI (runtime/include/sysbatch.h, sysbatch_tock.h),
/// declared in the module from the core's table (sysbatch/runtime-abi.h)
/// the first time a rewrite needs each piece.
class RuntimeABI {
public:
  explicit RuntimeABI(llvm::Module &M)
      : M(M), I64(llvm::Type::getInt64Ty(M.getContext())),
        I32(llvm::Type::getInt32Ty(M.getContext())) {}
  llvm::Module &M;
  llvm::Type *I64, *I32;

  llvm::Constant *active() { return object(SB_RT_ACTIVE); }
  llvm::Constant *emptyString() { return object(SB_RT_EMPTY_STRING); }
  llvm::FunctionCallee run() { return declare(SB_RT_RUN); }
  llvm::FunctionCallee retErrno() { return declare(SB_RT_RET_ERRNO); }
  llvm::FunctionCallee retMmap() { return declare(SB_RT_RET_MMAP); }
  llvm::FunctionCallee retPositiveError() {
    return declare(SB_RT_RET_POSITIVE_ERROR);
  }
  /// verify mode: void sysbatch_verify_slot(rets, slots, n, slot, nr,
  /// expected, mask, where).
  llvm::FunctionCallee verifySlot() { return declare(SB_RT_VERIFY_SLOT); }
  // Tock (runtime/include/sysbatch_tock.h); frames as plain u32 words.
  /// Runs the frames (the marks on their class words say where the code
  /// leaves) and converts each one that ran, in place, into libtock-c's
  /// struct: void sysbatch_tock_run(frames, count).
  llvm::FunctionCallee tockRun() { return declare(SB_RT_TOCK_RUN); }
  /// fill=template: expand the template, apply the patches that follow the
  /// frames, then as tockRun.
  llvm::FunctionCallee tockRunTemplate() {
    return declare(SB_RT_TOCK_RUN_TEMPLATE);
  }
  /// The same two for a series of commands and yields only, whose return
  /// words need no conversion (sb_tock_series_commands_only).
  llvm::FunctionCallee tockRunCommands() {
    return declare(SB_RT_TOCK_RUN_COMMANDS);
  }
  /// Stored frames, the marks as a mask: void (frames, count, checked).
  llvm::FunctionCallee tockRunMasked() { return declare(SB_RT_TOCK_RUN_MASKED); }
  llvm::FunctionCallee tockRunTemplateCommands() {
    return declare(SB_RT_TOCK_RUN_TEMPLATE_COMMANDS);
  }

private:
  /// The IR type of a table type: slots and rets as i64 words, Tock frames
  /// as u32 words, every other pointer as a byte pointer.
  llvm::Type *irType(uint8_t T) {
    llvm::LLVMContext &C = M.getContext();
    switch (T) {
    case SB_RT_VOID: return llvm::Type::getVoidTy(C);
    case SB_RT_INT:
    case SB_RT_U32: return I32;
    case SB_RT_LONG: return I64;
    case SB_RT_LONG_PTR:
    case SB_RT_CONST_LONG_PTR:
    case SB_RT_SLOT_PTR:
    case SB_RT_CONST_SLOT_PTR: return compat::pointerTo(I64);
    case SB_RT_FRAME_PTR: return compat::pointerTo(I32);
    case SB_RT_CONST_CHAR_1: return llvm::ArrayType::get(llvm::Type::getInt8Ty(C), 1);
    default: return compat::bytePointer(C);
    }
  }
  llvm::Constant *object(sb_rt_symbol S) {
    const sb_rt_entry *E = sb_runtime_abi(S);
    return M.getOrInsertGlobal(E->name, irType(E->ret));
  }
  llvm::FunctionCallee declare(sb_rt_symbol S) {
    const sb_rt_entry *E = sb_runtime_abi(S);
    llvm::SmallVector<llvm::Type *, SB_RT_MAX_PARAMS> Params;
    for (unsigned K = 0; K < E->nparams; ++K)
      Params.push_back(irType(E->params[K]));
    llvm::FunctionCallee F = M.getOrInsertFunction(
        E->name, llvm::FunctionType::get(irType(E->ret), Params, false));
    if (auto *Fn = llvm::dyn_cast<llvm::Function>(F.getCallee()))
      Fn->addFnAttr(llvm::Attribute::NoUnwind);
    return F;
  }
};

//===----------------------------------------------------------------------===//
// BlockAnalysis.cpp: calls, operands, code between calls, barriers
//===----------------------------------------------------------------------===//

/// Metadata on a call site the loop rewrite batches (its original call,
/// kept for the iterations that run it): no region plans it again.
constexpr const char *LoopBatchedMD = "sysbatch.loop";
/// On a call site a look decided: a region batch rewrote it (its original
/// call, kept for the path where its slot did not run), it is the batch
/// call itself, or an early look refused it in a region that batched.  No
/// later look - after inlining, at link time, a second run - plans it.
constexpr const char *RegionBatchedMD = "sysbatch.batched";

/// The memory a catalogue argument names, or None for non-memory arguments.
/// ReadsAnything: the kernel reads memory not known before the call (the
/// buffers a writev iovec names; no Loc): code that may write memory does
/// not commute with it.
struct ArgMemory {
  enum { None, Reads, Writes, Everything, ReadsAnything } Effect;
  llvm::MemoryLocation Loc;
};
/// What libc argument \p K of candidate \p C lets the kernel touch.
ArgMemory visitCallArgMemory(const CandidateCall &C, unsigned K);
/// Is \p Ptr errno (an address from __errno_location)?
bool isErrnoAccess(const llvm::Value *Ptr);
/// The barrier text of \p I, or null when it is not a barrier.
const char *visitBarrier(llvm::Instruction &I, std::string &Why, sb_abi Abi);
/// A call to a function of the core's libc table: its row and accesses
/// (\p Acc, one per argument); null when \p I is no such call or it stays a
/// barrier (\p Why then says why).
const sb_libc_function *visitLibcCall(const llvm::Instruction &I, sb_abi Abi,
                                      sb_libc_access *Acc,
                                      std::string *Why = nullptr);
/// Code as a remark names it ("a store", "a call to perror").
std::string describe(const llvm::Instruction &I);
/// The core's objection to the call's IR shape (sysbatch/shape.h), or empty.
std::string visitCallShape(const CandidateCall &C);

/// A call the catalogue knows, or null (\p RawSyscall: syscall(NR, ...)).
const sb_syscall *visitCallee(llvm::CallInst &CI, bool &RawSyscall,
                              sb_abi Abi);
bool isCandidate(llvm::CallInst &CI, sb_abi Abi);
/// Does \p CI return its struct through an sret pointer (operand 0)?
bool hasSretResult(const llvm::CallInst &CI);
/// An alloca only ever loaded from or stored to directly.
bool isNonEscapingAlloca(Analysis &A, const llvm::Value *Ptr);
/// The store whose value load \p L of a non-escaping stack slot reads.
llvm::StoreInst *reachingStore(Region &R, llvm::LoadInst *L, bool &Ambiguous);
CandidateCall makeCandidate(llvm::CallInst *Call, sb_abi Abi);
unsigned countCandidates(llvm::BasicBlock &BB, sb_abi Abi);
/// Whether branch condition \p V is available where the batch is issued
/// (core.h, SB_TERM_PRED); \p What: the call or code that makes it not.
sb_pred_avail visitBranchCondition(Analysis &A, Region &R, llvm::Value *V,
                                   const char *&What, unsigned Depth = 0);
/// One call event: the row, and every written argument classified.
void visitCall(Analysis &A, Region &R, unsigned Index);
/// One code event for the instructions from \p From up to \p End (null:
/// the block's terminator), which follow region call \p After.
void visitGap(Analysis &A, Region &R, llvm::Instruction *From,
              llvm::Instruction *End, int After);
/// One code event between calls \p Before and \p Before + 1.
void visitCode(Analysis &A, Region &R, unsigned Before);
/// Does the block hold code between \p From and \p End (null: the end)?
bool hasCode(llvm::Instruction *From, llvm::Instruction *End);
/// May \p Start (a lifetime.start in a branchy region's block after the
/// issue block) move up to the issue point?  The analysis lets such a marker
/// commute and rewriteBatch moves it; one predicate keeps them in step.
bool isHoistableLifetimeStart(const Region &R, const llvm::IntrinsicInst &Start);
/// Phase 1 for one basic block: its straight-line regions.
std::vector<std::unique_ptr<Region>>
analyseBlock(Analysis &A, llvm::BasicBlock &BB, unsigned BlockNo);

//===----------------------------------------------------------------------===//
// Regions.cpp: branchy regions
//===----------------------------------------------------------------------===//

/// The blocks of the branchy region entered at \p Order[EntryIdx], or none.
std::vector<llvm::BasicBlock *>
formRegion(const std::vector<llvm::BasicBlock *> &Order, size_t EntryIdx,
           const llvm::DenseSet<const llvm::BasicBlock *> &Covered,
           sb_abi Abi);
/// The function's blocks in \p Order as the core's sb_cfg describes them
/// (sysbatch/cfg.h); candidates are counted from block \p From on.
struct CfgDescription {
  CfgDescription(const std::vector<llvm::BasicBlock *> &Order, size_t From,
                 const llvm::DenseSet<const llvm::BasicBlock *> &Covered,
                 sb_abi Abi);
  llvm::DenseMap<const llvm::BasicBlock *, int> Number;
  std::vector<sb_cfg_block> Blocks;
  std::vector<std::vector<int>> Preds;
  std::unique_ptr<bool[]> IsCovered;
  sb_cfg Cfg;
};
/// A region over \p Blocks with its candidate calls collected.
std::unique_ptr<Region>
collectRegionCalls(Analysis &A, std::vector<llvm::BasicBlock *> Blocks,
                   unsigned BlockNo,
                   std::vector<std::vector<unsigned>> &CallsOf);
/// Phase 1 for a branchy region.
std::unique_ptr<Region> analyseRegion(Analysis &A,
                                      std::vector<llvm::BasicBlock *> Blocks,
                                      unsigned BlockNo);

/// JoinSplit.cpp: copy each join block's first candidate call (and the
/// code before it) onto the edge the core picks (sb_cfg_join_split_edge)
/// and keep the copy only when it is batched and the function batches more
/// calls than before besides it; \p BatchedCalls plans the function
/// silently and returns the calls it batches (-1 when the given copy is not
/// among them; null: no copy), and then, in its third argument, what kept
/// the copy out: the refusal of the second argument (the call the copy was
/// to batch with) when that is refused too, else the copy's own refusal.
/// Remarks for joins not split only when \p Final.  Returns the splits
/// kept.
using TrialPlanner = std::function<int(llvm::CallInst *Copy,
                                       llvm::CallInst *Source,
                                       std::string *Why)>;
unsigned splitJoins(llvm::Function &F, Analysis &A, llvm::DominatorTree &DT,
                    llvm::LoopInfo &LI, llvm::OptimizationRemarkEmitter &ORE,
                    bool Final, const TrialPlanner &BatchedCalls);

/// RegionEnd.cpp: R.End, what follows straight-line region \p R's last call
/// (the facts a lone call's reason comes from); \p LastPart: no later
/// region of the same block; \p FunctionCalls: calls to catalogue
/// functions in the function, candidates or not.
void describeRegionEnd(Analysis &A, Region &R, unsigned FunctionCalls,
                       bool LastPart);

//===----------------------------------------------------------------------===//
// TockAnalysis.cpp: the Tock memory rule, call shape, stop tests, chains
//===----------------------------------------------------------------------===//

/// The stack slot call \p C's libtock-c struct lands in, or null.
const llvm::Value *tockResultTemp(const CandidateCall &C);
/// Tock: the libtock-c converter \p I calls (core table), or null.
const sb_tock_converter *tockConverter(const llvm::Instruction &I);
/// Is \p Ptr inside a stack slot only this function can reach?
bool isTockPrivate(Analysis &A, const llvm::Value *Ptr);
/// Does code instruction \p I touch memory other than private slots?
bool visitTockSharedAccess(Analysis &A, llvm::Instruction &I);
/// Bytes libtock-c's raw call of TRD104 class \p Class returns.
/// The front end's objection to a libtock-c call, or empty.
/// The region call whose result temporary load \p L reads, or -1.
int visitTockResultLoad(Analysis &A, Region &R, llvm::LoadInst *L);
/// Tock: a load of a private stack slot unchanged since the issue point
/// (TockAnalysis.cpp): AVAILABLE.
bool visitTockUnchangedPrivateLoad(Analysis &A, Region &R, llvm::LoadInst *L);
/// The chain of blocks entered at \p Order[EntryIdx], or none.
std::vector<llvm::BasicBlock *>
formTockChain(const std::vector<llvm::BasicBlock *> &Order, size_t EntryIdx,
              const llvm::DenseSet<const llvm::BasicBlock *> &Covered,
              llvm::OptimizationRemarkEmitter &ORE);
/// Phase 1 for a chain: one straight-line region over its blocks.
std::unique_ptr<Region> analyseChain(Analysis &A,
                                     std::vector<llvm::BasicBlock *> Blocks,
                                     unsigned BlockNo);

//===----------------------------------------------------------------------===//
// Plan.cpp: the planner call, remarks, refusal statistics
//===----------------------------------------------------------------------===//

/// Plan a branchy region; false when it is not worth using.
bool planBranchy(Region &R, const SysbatchOptions &Opts);
/// After planBranchy said no: why the region batched nothing past its entry
/// block's branch (sb_branch_end_why), or empty.
std::string branchEndWhy(Region &R);
/// Plan a straight-line region; false when the planner failed.
bool planRegion(Region &R, const SysbatchOptions &Opts);
/// Remarks for a plan (a branchy region's refusals in \p Covered only).
void emitRemarks(Region &R, llvm::OptimizationRemarkEmitter &ORE,
                 const llvm::DenseSet<const llvm::BasicBlock *> *Covered =
                     nullptr);
/// The plan text print-plan shows (stderr).
void printPlan(Region &R);
/// Report.cpp: the unit's record for report=DIR (started by run(), filled
/// by emitRemarks, written at exit; no-ops without report=).
void reportBegin(const llvm::Module &M, const SysbatchOptions &Opts);
void reportBatch(const llvm::Instruction *First, int NCalls, int NSlots,
                 const std::string &Callees);
void reportRefused(const llvm::CallInst *Call, const char *Reason);
/// A loop call site batched in groups of up to \p Iterations iterations.
void reportLoop(const llvm::CallInst *Call, int Iterations);
/// `branch ends the region: <why>`, once per branch.
void emitRegionEnds(Region &R, llvm::OptimizationRemarkEmitter &ORE,
                    llvm::DenseSet<const llvm::Instruction *> &Reported);

//===----------------------------------------------------------------------===//
// RewriteLinux.cpp and RewriteTock.cpp: the rewrites
//===----------------------------------------------------------------------===//

/// \p V as a value at the issue point (call \p FirstPos of the block).
llvm::Value *materialize(Region &R, llvm::IRBuilder<> &B, llvm::Value *V,
                         unsigned FirstPos,
                         llvm::DenseMap<llvm::Value *, llvm::Value *> &Cache,
                         const llvm::DenseMap<llvm::Value *, llvm::Value *>
                             &Replaced);
/// \p V as the 64-bit word the kernel reads.
llvm::Value *asWord(llvm::IRBuilder<> &B, llvm::Value *V, llvm::Type *I64);
/// A slot's raw result as call \p Call sees it (libc convention, errno
/// set where this runs), in the call's type; null for a void call.
llvm::Value *convertRawResult(sb_abi Abi, const sb_call_event &CE,
                              llvm::CallInst *Call, llvm::IRBuilder<> &RB,
                              llvm::Value *Raw, RuntimeABI &RT);
/// Rewrite Linux batch \p BI of region \p R.
void rewriteBatch(Region &R, int BI, RuntimeABI &RT, sb_fill_mode Fill,
                  bool Verify,
                  llvm::DenseMap<llvm::Value *, llvm::Value *> &Replaced);
/// Rewrite Tock batch \p BI of region \p R as one series call.
void rewriteTockBatch(Region &R, int BI, RuntimeABI &RT, sb_fill_mode Fill,
                      llvm::DenseMap<llvm::Value *, llvm::Value *> &Replaced,
                      llvm::SmallVectorImpl<llvm::CallInst *> &ErasedCalls);

} // namespace detail
} // namespace sysbatch

#endif // SYSBATCH_LLVM_INTERNAL_H
