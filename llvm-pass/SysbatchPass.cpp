//===- SysbatchPass.cpp - batch straight-line system calls ----------------===//
//
// LLVM IR -> core region -> plan -> rewritten IR.  The pass decides nothing
// about *what* is batched: it describes each basic block to the core planner
// (core/include/sysbatch/core.h) and rewrites the plan exactly as
// docs/design.md prescribes.  Example (-O0 IR, as clang emits it):
//
//   before                                   after
//   %call = call i32 @open(i8* %p, i32 0)    %sb.active = load i32, @sysbatch_active
//   store i32 %call, i32* %fd                br (%sb.active != 0), %sb.issue, %sb.join
//   %0 = load i32, i32* %fd                sb.issue:  slots <- template; slot 0 arg 1 <- %p
//   %call1 = call i64 @read(i32 %0, ...)              copy slot 1: rets[0] -> slot 2 arg 0
//                                                     %sb.ran = call @sysbatch_run(rets, slots, 3, 0)
//                                          sb.join:   %sb.last = phi [-1], [%sb.ran]
//                                                     %call = 0 <= %sb.last ? ret_errno(rets[0])
//                                                                           : call @open(%p, 0)
//                                                     store %call, %fd ...
//                                                     %call1 = 2 <= %sb.last ? ret_errno(rets[2])
//                                                                            : call @read(%0, ...)
//
// Branchy regions (several blocks: docs/llvm.md, "Branchy regions") keep the
// original control flow; only the test at each call site changes, because
// the kernel may skip slots:
//
//   %fd = call @open(...)                    %fd = last >= 0 && rets[0] != NOT_RUN
//   br (%fd < 0), %err, %ok                        ? ret_errno(rets[0]) : call @open(...)
//   ok:  %n = call @read(%fd, ...)           br (%fd < 0), %err, %ok
//                                            ok: %n = last >= 0 && rets[3] != NOT_RUN
//                                                     ? ret_errno(rets[3]) : call @read(...)
//
// With target=tock (Thumb and riscv32 only; docs/llvm.md, "Tock") the same
// analysis describes runs of libtock-c raw calls, under the Tock memory rule
// (only private stack slots commute with the kernel and with upcalls), and
// each batch becomes one series call with the stop policy; each call site
// becomes one runtime call that converts its frame, or runs the frame
// itself when the series stopped before it (no copy of the original call):
//
//   call @command(sret %a, 2, 1, 0, 0)       frames <- {2, 2, 1, 0, 0}, {2, 2, 1, 1, 0},
//   call @command(sret %b, 2, 1, 1, 0)                 {0, 1, 0, 0, 0}
//   call @yield()          (with tock-yield) %sb.left = call @sysbatch_tock_series(frames, 3, 0)
//                                            %sb.ran = 3 - %sb.left
//                                            call @sysbatch_tock_take(%a, frames, 0, %sb.ran)
//                                            call @sysbatch_tock_take(%b, frames, 1, %sb.ran)
//                                            call @sysbatch_tock_take(null, frames, 2, %sb.ran)
//
// Layout of this file: the data model (Region), the analysis that fills it
// (visit* functions: calls, operands, code between calls, the Tock memory
// rule), branchy region formation and terminators, the planner call,
// remarks, the Linux rewrite, the Tock rewrite, the pass's run(), and
// registration.
//
//===----------------------------------------------------------------------===//

#include "SysbatchPass.h"
#include "LLVMCompat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include "sysbatch/config.h"
#include "sysbatch/core.h"

#include <cstdio>
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
STATISTIC(NumTockSeries, "Tock series calls emitted");
STATISTIC(NumTockFrames, "Tock frames filled");
STATISTIC(NumTockSretResults, "Tock call sites converted into their sret slot");
STATISTIC(NumTockRegisterResults,
          "Tock call sites converted through a register-return temporary");
STATISTIC(NumTockReissueOnly, "Tock call sites whose result is unused");

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

namespace {

//===----------------------------------------------------------------------===//
// Data model: one region per basic block (split every SB_MAX_REGION_CALLS
// calls), holding what the core reads and what the rewrite needs.
//===----------------------------------------------------------------------===//

struct CandidateCall {
  CallInst *Call;
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
  BasicBlock *BB = nullptr;
  unsigned BlockNo = 0, Part = 0;
  std::vector<CandidateCall> Calls;
  std::vector<sb_event> Events;
  std::deque<std::string> Texts; // owns the strings events point to
  DenseMap<const Instruction *, unsigned> Position; // order in BB
  unsigned StartPos = 0;         // position of the region's first call
  DenseMap<const Value *, int> CallIndex;
  DenseMap<const Value *, sb_operand> Classified;
  DenseMap<const Value *, Value *> Forwarded; // load -> value stored before it
  sb_plan Plan = {};
  bool Planned = false;

  // Branchy regions (several blocks; empty Blocks: the straight-line form).
  // Position then numbers the instructions of every region block in list
  // order, so "inside" still means "after the issue point, in the region".
  std::vector<BasicBlock *> Blocks;      // entry first, topological order
  DenseMap<const BasicBlock *, int> BlockIndex;
  std::vector<sb_block> SBBlocks;
  std::vector<int> BlockOfCall;
  std::vector<uint64_t> Ancestors;       // per block: blocks with a path to it
  std::vector<uint64_t> Dominators;      // per block, over the region's DAG
  std::vector<const char *> TermWhy;     // why a terminator ends the region
  std::vector<Instruction *> TermInst;

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
  bool inside(const Instruction *I) const {
    auto It = Position.find(I);
    return It != Position.end() && It->second >= StartPos;
  }
  bool branchy() const { return !Blocks.empty(); }
  int blockOf(const Instruction *I) const {
    auto It = BlockIndex.find(I->getParent());
    return It == BlockIndex.end() ? -1 : It->second;
  }
};

struct Analysis {
  AAResults &AA;
  DenseMap<const AllocaInst *, bool> NonEscaping;
  sb_abi Abi = SB_ABI_LINUX_X86_64;
  DenseMap<const AllocaInst *, bool> TockPrivate;
};

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

static bool isErrnoLocationCall(const Value *V) {
  const auto *CI = dyn_cast<CallInst>(V);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == "__errno_location";
}

static bool isErrnoAccess(const Value *Ptr) {
  return isErrnoLocationCall(getUnderlyingObject(Ptr));
}

/// An alloca whose address is only ever loaded from or stored to directly
/// (plus lifetime markers): no call can read or write it, and the last store
/// in the block is what a load sees.
static bool isNonEscapingAlloca(Analysis &A, const Value *Ptr) {
  const auto *AI = dyn_cast<AllocaInst>(Ptr);
  if (!AI)
    return false;
  auto It = A.NonEscaping.find(AI);
  if (It != A.NonEscaping.end())
    return It->second;
  bool Ok = true;
  for (const User *U : AI->users()) {
    if (const auto *LI = dyn_cast<LoadInst>(U)) {
      Ok &= LI->isSimple();
    } else if (const auto *SI = dyn_cast<StoreInst>(U)) {
      Ok &= SI->isSimple() && SI->getValueOperand() != AI;
    } else if (const auto *BC = dyn_cast<BitCastInst>(U)) {
      for (const User *BU : BC->users())
        Ok &= isa<IntrinsicInst>(BU) &&
              cast<IntrinsicInst>(BU)->isLifetimeStartOrEnd();
    } else if (const auto *II = dyn_cast<IntrinsicInst>(U)) {
      Ok &= II->isLifetimeStartOrEnd();
    } else {
      Ok = false;
    }
    if (!Ok)
      break;
  }
  A.NonEscaping[AI] = Ok;
  return Ok;
}

/// The memory a catalogue argument names, or None for non-memory arguments.
struct ArgMemory {
  enum { None, Reads, Writes, Everything } Effect;
  MemoryLocation Loc;
};

static ArgMemory visitCallArgMemory(const CandidateCall &C, unsigned K) {
  ArgMemory M{ArgMemory::None, MemoryLocation()};
  const sb_arg_desc &D = C.RawRow->libc_args[K];
  unsigned Op = C.FirstArg + K;
  if (Op >= C.Call->arg_size())
    return M;
  Value *Ptr = C.Call->getArgOperand(Op);
  LocationSize Size = LocationSize::beforeOrAfterPointer();
  if (D.size_arg >= 0 && C.FirstArg + D.size_arg < C.Call->arg_size()) {
    if (auto *N = dyn_cast<ConstantInt>(
            C.Call->getArgOperand(C.FirstArg + D.size_arg)))
      Size = LocationSize::precise(N->getZExtValue());
  } else if (D.size_arg < 0 && D.fixed_size > 0) {
    Size = LocationSize::precise(D.fixed_size);
  }
  switch (D.kind) {
  case SB_ARG_PATH:
    M.Effect = ArgMemory::Reads;
    break;
  case SB_ARG_IN_BUF:
    M.Effect = ArgMemory::Reads;
    break;
  case SB_ARG_OUT_BUF:
    M.Effect = ArgMemory::Writes;
    break;
  case SB_ARG_ADDR:
  case SB_ARG_OPAQUE:
    M.Effect = ArgMemory::Everything;
    return M;
  default:
    return M;
  }
  if (!Ptr->getType()->isPointerTy()) {
    M.Effect = ArgMemory::Everything; // an address passed as an integer
    return M;
  }
  if (M.Effect == ArgMemory::Reads && D.kind == SB_ARG_PATH)
    Size = LocationSize::beforeOrAfterPointer();
  M.Loc = MemoryLocation(Ptr, Size);
  return M;
}

/// May candidate call \p C write \p Loc (kernel effects and errno)?
static bool visitCallMayWrite(Analysis &A, const CandidateCall &C,
                              const MemoryLocation &Loc) {
  if (!C.RowDescribesOperands || isErrnoAccess(Loc.Ptr))
    return true;
  for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
    ArgMemory M = visitCallArgMemory(C, K);
    if (M.Effect == ArgMemory::Everything)
      return true;
    if (M.Effect == ArgMemory::Writes && !A.AA.isNoAlias(M.Loc, Loc))
      return true;
  }
  return false;
}

/// Is the memory \p L reads unchanged between the region's first call and
/// \p L?  Then re-loading it at the issue point gives the same value.
static bool visitLoadUnchanged(Analysis &A, Region &R, LoadInst *L) {
  if (!L->isSimple())
    return false;
  MemoryLocation Loc = MemoryLocation::get(L);
  auto MayWrite = [&](Instruction *I) {
    auto CI = R.CallIndex.find(I);
    if (CI != R.CallIndex.end())
      return visitCallMayWrite(A, R.Calls[CI->second], Loc);
    return I->mayWriteToMemory() && isModSet(A.AA.getModRefInfo(I, Loc));
  };
  for (Instruction *I = L->getPrevNode(); I; I = I->getPrevNode()) {
    if (!R.inside(I))
      break;
    if (MayWrite(I))
      return false;
  }
  // Branchy region: every block on some path from the issue point to L.
  int B = R.branchy() ? R.blockOf(L) : -1;
  for (int P = 0; B > 0 && P < B; ++P) {
    if (!(R.Ancestors[B] >> P & 1))
      continue;
    for (Instruction &I : *R.Blocks[P])
      if (R.inside(&I) && MayWrite(&I))
        return false;
  }
  return true;
}

static sb_operand operand(sb_operand_kind Kind, int Call = -1, long Value = 0);

/// A load of an 8-byte word that an earlier call of the region wrote through
/// an output buffer (`read(fd, buf, st.st_size)` after `fstat(fd, &st)`),
/// with nothing writing it in between: MEMORY (a word copy inside a batch).
static sb_operand visitMemoryWord(Analysis &A, Region &R, LoadInst *L) {
  const DataLayout &DL = L->getModule()->getDataLayout();
  if (!L->isSimple() || DL.getTypeStoreSize(L->getType()) != 8 ||
      !(L->getType()->isIntegerTy() || L->getType()->isPointerTy()))
    return operand(SB_OPND_LOCAL);
  int64_t Offset = 0;
  const Value *Base =
      GetPointerBaseWithConstantOffset(L->getPointerOperand(), Offset, DL);
  MemoryLocation Word = MemoryLocation::get(L);
  unsigned LoadPos = R.Position.lookup(L);
  for (int J = (int)R.Calls.size() - 1; J >= 0; --J) {
    const CandidateCall &C = R.Calls[J];
    // Branchy regions: a writer in the load's block or in one with a path
    // to it (the core checks that it dominates the load).
    int CB = R.branchy() ? R.blockOf(C.Call) : -1;
    int LB = R.branchy() ? R.blockOf(L) : -1;
    if (CB != LB && !(R.Ancestors[LB] >> CB & 1))
      continue;
    if (R.Position.lookup(C.Call) >= LoadPos || !C.RowDescribesOperands)
      continue;
    for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
      unsigned Op = C.FirstArg + K;
      if (C.RawRow->libc_args[K].kind != SB_ARG_OUT_BUF ||
          Op >= C.Call->arg_size())
        continue;
      int64_t BufOffset = 0;
      const Value *BufBase = GetPointerBaseWithConstantOffset(
          C.Call->getArgOperand(Op), BufOffset, DL);
      if (BufBase != Base || Offset < BufOffset)
        continue;
      // The word must still hold what call J wrote when L reads it (in a
      // branchy region: on every path from J's block to L's).
      auto Keeps = [&](Instruction *From, Instruction *Stop) {
        for (Instruction *I = From; I && I != Stop; I = I->getNextNode()) {
          auto CI = R.CallIndex.find(I);
          bool Writes = CI != R.CallIndex.end()
                            ? visitCallMayWrite(A, R.Calls[CI->second], Word)
                            : I->mayWriteToMemory() &&
                                  isModSet(A.AA.getModRefInfo(I, Word));
          if (Writes)
            return false;
        }
        return true;
      };
      if (CB == LB) {
        if (!Keeps(C.Call->getNextNode(), L))
          return operand(SB_OPND_LOCAL);
      } else {
        if (!Keeps(C.Call->getNextNode(), nullptr) ||
            !Keeps(&L->getParent()->front(), L))
          return operand(SB_OPND_LOCAL);
        for (int X = CB + 1; X < LB; ++X)
          if ((R.Ancestors[LB] >> X & 1) && (R.Ancestors[X] >> CB & 1) &&
              !Keeps(&R.Blocks[X]->front(), nullptr))
            return operand(SB_OPND_LOCAL);
      }
      // In a batch the copy runs just before its consumer, after the kernel
      // side of every call in between: none of the later calls may write it.
      for (const CandidateCall &Later : R.Calls)
        if (R.Position.lookup(Later.Call) > LoadPos &&
            visitCallMayWrite(A, Later, Word))
          return operand(SB_OPND_LOCAL);
      sb_operand O = operand(SB_OPND_MEMORY, J, Offset - BufOffset);
      O.arg = Op;
      return O;
    }
    // An earlier writer of the same word would be hidden by this call only
    // if it wrote it too; stop at the nearest call that may write memory.
    if (visitCallMayWrite(A, C, Word))
      return operand(SB_OPND_LOCAL);
  }
  return operand(SB_OPND_LOCAL);
}

/// The store whose value load \p L of a non-escaping stack slot reads: the
/// last store to the slot before L in its block; in a branchy region, when
/// L's block has none, the last store of a region block that dominates L's
/// block with no store to the slot on any path in between.  Null when no
/// store in the region reaches L (the slot holds what it held at the issue
/// point); \p Ambiguous when different stores reach it on different paths.
static StoreInst *reachingStore(Region &R, LoadInst *L, bool &Ambiguous) {
  Value *Ptr = L->getPointerOperand();
  auto LastStoreBefore = [&](Instruction *From) -> StoreInst * {
    for (Instruction *P = From; P; P = P->getPrevNode())
      if (auto *S = dyn_cast<StoreInst>(P))
        if (S->getPointerOperand() == Ptr)
          return S;
    return nullptr;
  };
  Ambiguous = false;
  if (StoreInst *S = LastStoreBefore(L->getPrevNode()))
    return S;
  int B = R.branchy() ? R.blockOf(L) : -1;
  if (B <= 0)
    return nullptr;
  // Region blocks on a path to B that store to the slot after the issue
  // point; the one that dominates B must come after every other one.
  uint64_t Storing = 0;
  for (int P = 0; P < B; ++P) {
    if (!(R.Ancestors[B] >> P & 1))
      continue;
    StoreInst *S = LastStoreBefore(&R.Blocks[P]->back());
    if (S && R.inside(S))
      Storing |= 1ull << P;
  }
  if (!Storing)
    return nullptr;
  for (int D = B - 1; D >= 0; --D) {
    if (!(Storing >> D & 1))
      continue;
    // D is the last storing block in list order; it must dominate B and no
    // other storing block may lie on a path from D to B.
    if (!(R.Dominators[B] >> D & 1))
      break;
    for (int X = D + 1; X < B; ++X)
      if ((Storing >> X & 1) && (R.Ancestors[X] >> D & 1))
        goto ambiguous;
    return LastStoreBefore(&R.Blocks[D]->back());
  }
ambiguous:
  Ambiguous = true;
  return nullptr;
}

static sb_operand operand(sb_operand_kind Kind, int Call, long Value) {
  sb_operand O = {};
  O.kind = Kind;
  O.call = Call;
  O.value = Value;
  return O;
}

static const Value *tockResultTemp(const CandidateCall &C);

static bool isTockPrivate(Analysis &A, const Value *Ptr);
static bool hasSretResult(const CallInst &CI);

/// Tock: the region call whose result temporary load \p L reads (the
/// latest one before L that writes that slot), or -1.  Also -1 when
/// anything else may write the slot in between (`r.data[0] = 7;`): then
/// the load is computed code, not the call's result.
static int visitTockResultLoad(Analysis &A, Region &R, LoadInst *L) {
  const Value *Obj = getUnderlyingObject(L->getPointerOperand());
  unsigned LoadPos = R.Position.lookup(L);
  int J = (int)R.Calls.size() - 1;
  for (; J >= 0; --J)
    if (R.Position.lookup(R.Calls[J].Call) < LoadPos &&
        tockResultTemp(R.Calls[J]) == Obj)
      break;
  if (J < 0)
    return -1;
  MemoryLocation Loc = MemoryLocation::get(L);
  // Nothing but this function's own stores, memory intrinsics and sret
  // arguments can reach a private slot: no other call (Tock call, unknown
  // function) sees its address.
  bool Private = isTockPrivate(A, Obj);
  for (Instruction *I = R.Calls[J].Call->getNextNode(); I && I != L;
       I = I->getNextNode()) {
    if (!I->mayWriteToMemory())
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
        continue;
    auto *S = dyn_cast<StoreInst>(I);
    if (S && S->getValueOperand() == R.Calls[J].Call)
      continue; // the register-returned struct landing in its slot
    if (Private)
      if (auto *Call = dyn_cast<CallInst>(I))
        if (!isa<MemIntrinsic>(Call) &&
            !(hasSretResult(*Call) &&
              getUnderlyingObject(Call->getArgOperand(0)) == Obj))
          continue;
    if (isModSet(A.AA.getModRefInfo(I, Loc)))
      return -1;
  }
  return J;
}

/// Classify \p V as seen by a call of region \p R (phase 1 of the core).
static sb_operand visitOperand(Analysis &A, Region &R, Value *V,
                               unsigned Depth = 0) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getBitWidth() <= 64
               ? operand(SB_OPND_CONST, -1, (long)C->getSExtValue())
               : operand(SB_OPND_LOCAL);
  if (isa<ConstantPointerNull>(V))
    return operand(SB_OPND_CONST, -1, 0);
  if (isa<Constant>(V) || isa<Argument>(V))
    return operand(SB_OPND_AVAILABLE);
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !R.inside(I))
    return operand(SB_OPND_AVAILABLE); // dominates the region's first call
  auto Known = R.Classified.find(I);
  if (Known != R.Classified.end())
    return Known->second;
  if (Depth > 16)
    return operand(SB_OPND_LOCAL);

  sb_operand Result = operand(SB_OPND_LOCAL);
  auto CI = R.CallIndex.find(I);
  int TockProducer = R.Abi == SB_ABI_TOCK && isa<LoadInst>(I)
                         ? visitTockResultLoad(A, R, cast<LoadInst>(I))
                         : -1;
  if (CI != R.CallIndex.end()) {
    Result = operand(SB_OPND_RESULT, CI->second);
  } else if (TockProducer >= 0) {
    // A field of a libtock-c struct an earlier call returned: chaining,
    // which the series call cannot do (the core says no-chaining).
    Result = operand(SB_OPND_RESULT, TockProducer);
  } else if (R.Abi == SB_ABI_TOCK && isa<ExtractValueInst>(I)) {
    // The same, for a struct returned in registers and not stored.
    sb_operand Src = visitOperand(A, R, I->getOperand(0), Depth + 1);
    if (Src.kind == SB_OPND_RESULT || Src.kind == SB_OPND_AVAILABLE)
      Result = Src;
  } else if (isa<SExtInst>(I) || isa<ZExtInst>(I) || isa<TruncInst>(I) ||
             isa<BitCastInst>(I) || isa<PtrToIntInst>(I) ||
             isa<IntToPtrInst>(I)) {
    // Integer conversions of a result are recorded, not judged: the core
    // decides whether the narrowest width keeps every value the producer
    // can hand on (sb_conversion_keeps_result).
    sb_operand Src = visitOperand(A, R, I->getOperand(0), Depth + 1);
    bool IntegerConversion = isa<SExtInst>(I) || isa<ZExtInst>(I) ||
                             isa<TruncInst>(I);
    if (Src.kind == SB_OPND_AVAILABLE || Src.kind == SB_OPND_CONST) {
      Result = operand(SB_OPND_AVAILABLE);
    } else if (Src.kind == SB_OPND_RESULT && IntegerConversion) {
      Result = Src;
      unsigned Bits = I->getType()->getIntegerBitWidth();
      if (isa<TruncInst>(I) &&
          (!Result.narrowest_bits || Bits < Result.narrowest_bits))
        Result.narrowest_bits = Bits;
    }
  } else if (auto *L = dyn_cast<LoadInst>(I)) {
    Value *Ptr = L->getPointerOperand();
    if (L->isSimple() && isNonEscapingAlloca(A, Ptr)) {
      // Store-to-load forwarding over the -O0 stack slots clang emits.
      bool Ambiguous = false;
      StoreInst *Reaching = reachingStore(R, L, Ambiguous);
      if (Ambiguous) {
        Result = operand(SB_OPND_LOCAL); // different stores on different paths
      } else if (Reaching && R.inside(Reaching) &&
          Reaching->getValueOperand()->getType() == L->getType()) {
        R.Forwarded[L] = Reaching->getValueOperand();
        Result = visitOperand(A, R, Reaching->getValueOperand(), Depth + 1);
      } else if (!Reaching || !R.inside(Reaching)) {
        Result = operand(SB_OPND_AVAILABLE); // no store since the issue point
      }
    } else if (visitOperand(A, R, Ptr, Depth + 1).kind == SB_OPND_AVAILABLE &&
               R.blockOf(L) <= 0 && visitLoadUnchanged(A, R, L)) {
      // Not in a later block of a branchy region: there the load runs only
      // on some paths, and repeating it at the issue point might fault (a
      // pointer valid only on that path).  GCC, which sees such loads as
      // computed values, plans the same.
      Result = operand(SB_OPND_AVAILABLE);
    } else {
      Result = visitMemoryWord(A, R, L);
    }
  } else if (isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
             isa<SelectInst>(I) || isa<FreezeInst>(I) ||
             (isa<BinaryOperator>(I) && !I->isIntDivRem())) {
    // Pure, cannot trap: recomputed at the issue point when its inputs are.
    bool AllAvailable = true;
    for (Value *Op : I->operands()) {
      sb_operand O = visitOperand(A, R, Op, Depth + 1);
      AllAvailable &= O.kind == SB_OPND_CONST || O.kind == SB_OPND_AVAILABLE;
    }
    if (AllAvailable)
      Result = operand(SB_OPND_AVAILABLE);
  }
  R.Classified[I] = Result;
  return Result;
}

/// A call the catalogue knows, or null.  Only declarations count: a function
/// defined in this module is not the libc wrapper the row describes.
/// On Tock, rows of that ABI only (libtock-c's names); syscall(NR, ...) is
/// a Linux entry point there is no Tock counterpart of.
static const sb_syscall *visitCallee(CallInst &CI, bool &RawSyscall,
                                     sb_abi Abi) {
  RawSyscall = false;
  Function *Callee = CI.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic())
    return nullptr;
  std::string Name = Callee->getName().str();
  if (Abi == SB_ABI_LINUX_X86_64 &&
      sb_catalog_is_raw_syscall_symbol(Name.c_str())) {
    RawSyscall = true;
    return nullptr;
  }
  return sb_catalog_lookup(Abi, Name.c_str());
}

static bool isCandidate(CallInst &CI, sb_abi Abi) {
  bool Raw;
  return visitCallee(CI, Raw, Abi) || Raw;
}

/// Does \p CI return its struct through an sret pointer (operand 0)?
static bool hasSretResult(const CallInst &CI) {
  return CI.arg_size() > 0 && CI.paramHasAttr(0, Attribute::StructRet);
}

/// Tock: the stack slot call \p C's libtock-c struct lands in, its sret
/// slot or the slot a register-returned struct is stored to right after
/// the call (clang's RV32 memop); null otherwise.
static const Value *tockResultTemp(const CandidateCall &C) {
  if (hasSretResult(*C.Call))
    return getUnderlyingObject(C.Call->getArgOperand(0));
  if (C.Call->getType()->isVoidTy() || !C.Call->hasOneUse())
    return nullptr;
  if (auto *S = dyn_cast<StoreInst>(C.Call->user_back()))
    if (S->getValueOperand() == C.Call)
      return getUnderlyingObject(S->getPointerOperand());
  return nullptr;
}

/// Tock memory rule: is \p Ptr inside a stack slot only this function can
/// reach?  Its address is only loaded from, stored to (never stored itself),
/// copied with a memory intrinsic, or passed as the sret slot of a libtock-c
/// call (the result temporaries of the Tock calls count as private).
static bool isTockPrivate(Analysis &A, const Value *Ptr) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  if (!AI)
    return false;
  auto It = A.TockPrivate.find(AI);
  if (It != A.TockPrivate.end())
    return It->second;
  bool Ok = true;
  SmallVector<const Value *, 8> Work{AI};
  DenseSet<const Value *> Seen{AI};
  while (Ok && !Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (const auto *L = dyn_cast<LoadInst>(Usr)) {
        Ok &= L->isSimple();
      } else if (const auto *S = dyn_cast<StoreInst>(Usr)) {
        Ok &= S->isSimple() && U.getOperandNo() == 1;
      } else if (isa<BitCastInst>(Usr) || isa<GetElementPtrInst>(Usr)) {
        if (Seen.insert(Usr).second)
          Work.push_back(Usr);
      } else if (const auto *MI = dyn_cast<MemIntrinsic>(Usr)) {
        Ok &= !MI->isVolatile() && U.getOperandNo() < 2;
      } else if (const auto *II = dyn_cast<IntrinsicInst>(Usr)) {
        Ok &= II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II);
      } else if (const auto *CI = dyn_cast<CallInst>(Usr)) {
        bool Raw;
        Ok &= CI->isArgOperand(&U) && U.getOperandNo() == 0 &&
              hasSretResult(*CI) &&
              visitCallee(*const_cast<CallInst *>(CI), Raw, SB_ABI_TOCK);
      } else {
        Ok = false;
      }
      if (!Ok)
        break;
    }
  }
  A.TockPrivate[AI] = Ok;
  return Ok;
}

/// Tock memory rule: does code instruction \p I read or write memory other
/// than the function's private stack slots?  (Calls are barriers already.)
static bool visitTockSharedAccess(Analysis &A, Instruction &I) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
        II->getIntrinsicID() == Intrinsic::assume)
      return false;
  if (!I.mayReadOrWriteMemory())
    return false;
  if (auto *L = dyn_cast<LoadInst>(&I))
    return !isTockPrivate(A, L->getPointerOperand());
  if (auto *S = dyn_cast<StoreInst>(&I))
    return !isTockPrivate(A, S->getPointerOperand());
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    if (!isTockPrivate(A, MI->getRawDest()))
      return true;
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      return !isTockPrivate(A, MT->getRawSource());
    return false;
  }
  return true;
}

/// Bytes libtock-c's raw call of TRD104 class \p Class returns (the
/// runtime's converter writes that many), 0 for yield (nothing).
static unsigned tockResultBytes(int Class) {
  return Class == 0 ? 0 : Class == 5 ? 8 : 16;
}

/// The front end's objection to a libtock-c call: its result must come back
/// where the converter writes it, as libtock-c's struct (an sret slot of
/// exactly the struct's size, or registers holding exactly it), it must
/// pass the row's arguments, and every argument must fit a frame word.
static std::string visitTockCallShape(const CandidateCall &C) {
  CallInst *Call = C.Call;
  const DataLayout &DL = Call->getModule()->getDataLayout();
  unsigned Bytes = tockResultBytes(C.RawRow->nr);
  std::string Name = C.RawRow->name;
  Type *RetTy = Call->getType();
  if (hasSretResult(*Call)) {
    Type *Slot = compat::sretType(*Call, 0);
    if (!Bytes)
      return Name + " has an sret result, libtock-c's returns nothing";
    if (!Slot || !Slot->isSized() || DL.getTypeAllocSize(Slot) < Bytes)
      return "the sret slot of " + Name + " is smaller than libtock-c's " +
             std::to_string(Bytes) + "-byte result";
    if (DL.getTypeAllocSize(Slot) > Bytes)
      return Name + " returns a " +
             std::to_string(DL.getTypeAllocSize(Slot)) +
             "-byte value, libtock-c's result has " + std::to_string(Bytes) +
             " bytes";
  } else if (!RetTy->isVoidTy()) {
    if (!Bytes)
      return Name + " returns a value, libtock-c's returns nothing";
    if (!RetTy->isSized() || DL.getTypeStoreSize(RetTy) > 16 ||
        DL.getTypeStoreSize(RetTy) != Bytes)
      return Name + " returns a " +
             std::to_string(DL.getTypeStoreSize(RetTy)) +
             "-byte value in registers, libtock-c's result has " +
             std::to_string(Bytes) + " bytes";
  } else if (Bytes) {
    return Name + " returns nothing, libtock-c's returns a struct";
  }
  unsigned NArgs = Call->arg_size() - C.EventBase;
  if (NArgs != C.RawRow->libc_argc)
    return Name + " is called with " + std::to_string(NArgs) +
           " arguments, libtock-c's takes " +
           std::to_string(C.RawRow->libc_argc);
  for (unsigned Op = C.EventBase; Op < Call->arg_size(); ++Op) {
    Type *T = Call->getArgOperand(Op)->getType();
    if (!(T->isPointerTy() && DL.getPointerTypeSizeInBits(T) <= 32) &&
        !(T->isIntegerTy() && T->getIntegerBitWidth() <= 32))
      return "argument " + std::to_string(Op - C.EventBase) +
             " does not fit a 32-bit frame word";
  }
  return "";
}

/// The front end's own objection to a call the catalogue knows, or empty.
static std::string visitCallShape(const CandidateCall &C) {
  // Rows never batched keep their own reason (yield_no_wait returns an int).
  if (C.RawRow && C.RawRow->abi == SB_ABI_TOCK)
    return (C.RawRow->flags & SB_ROW_NEVER) ? "" : visitTockCallShape(C);
  Type *RetTy = C.Call->getType();
  if (!RetTy->isVoidTy() && !RetTy->isPointerTy() &&
      !(RetTy->isIntegerTy() && RetTy->getIntegerBitWidth() <= 64))
    return "the call returns a value that is not an integer or a pointer";
  for (unsigned Op = 0; Op < C.Call->arg_size(); ++Op) {
    Type *T = C.Call->getArgOperand(Op)->getType();
    if (!T->isPointerTy() &&
        !(T->isIntegerTy() && T->getIntegerBitWidth() <= 64))
      return "argument " + std::to_string(Op) +
             " is neither an integer nor a pointer";
  }
  return "";
}

/// One call event: the row, and every written argument classified.
static void visitCall(Analysis &A, Region &R, unsigned Index) {
  CandidateCall &C = R.Calls[Index];
  sb_event E = {};
  E.kind = SB_EV_CALL;
  C.Event = R.Events.size();
  sb_call_event &CE = E.u.call;
  CE.row = C.Row;
  CE.symbol = R.keep(C.Call->getCalledFunction()->getName().str());
  CE.nargs = std::min<int>(C.Call->arg_size() - C.EventBase, SB_MAX_ARGS + 1);
  for (int Op = 0; Op < CE.nargs; ++Op)
    CE.args[Op] = visitOperand(A, R, C.Call->getArgOperand(C.EventBase + Op));
  std::string Why = visitCallShape(C);
  CE.why_not = Why.empty() ? nullptr : R.keep(Why);
  if (CE.why_not)
    LLVM_DEBUG(dbgs() << "sysbatch: " << CE.symbol << ": " << Why << "\n");
  R.Events.push_back(E);
}

/// What code \p I is, if it must stay on its side of every later call.
static const char *visitBarrier(Instruction &I, std::string &Why) {
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm())
      return "inline asm";
    if (isErrnoLocationCall(CB))
      return nullptr;
    if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
      if (isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd() ||
          II->getIntrinsicID() == Intrinsic::assume)
        return nullptr;
      if (auto *MI = dyn_cast<MemIntrinsic>(II))
        return MI->isVolatile() ? "volatile memory intrinsic" : nullptr;
      if (!II->mayReadOrWriteMemory() &&
          isGuaranteedToTransferExecutionToSuccessor(II))
        return nullptr;
    }
    Function *Callee = CB->getCalledFunction();
    Why = Callee ? "call to " + Callee->getName().str() : "indirect call";
    return Why.c_str();
  }
  if (isa<FenceInst>(I))
    return "fence";
  if (I.isAtomic())
    return "atomic access";
  if (auto *L = dyn_cast<LoadInst>(&I))
    if (L->isVolatile())
      return "volatile load";
  if (auto *S = dyn_cast<StoreInst>(&I))
    if (S->isVolatile())
      return "volatile store";
  if (!isGuaranteedToTransferExecutionToSuccessor(&I))
    return "instruction that may not return";
  return nullptr;
}

/// Does code instruction \p I fail to commute with candidate call \p C?
static bool visitCodeConflict(Analysis &A, Instruction &I,
                              const CandidateCall &C) {
  if (!I.mayReadOrWriteMemory())
    return false;
  if (auto *L = dyn_cast<LoadInst>(&I))
    if (isNonEscapingAlloca(A, L->getPointerOperand()))
      return false;
  if (auto *S = dyn_cast<StoreInst>(&I))
    if (isNonEscapingAlloca(A, S->getPointerOperand()))
      return false;
  bool Errno = false;
  if (auto *L = dyn_cast<LoadInst>(&I))
    Errno = isErrnoAccess(L->getPointerOperand());
  if (auto *S = dyn_cast<StoreInst>(&I))
    Errno = isErrnoAccess(S->getPointerOperand());
  if (!C.RowDescribesOperands)
    return true;
  for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
    ArgMemory M = visitCallArgMemory(C, K);
    if (M.Effect == ArgMemory::None)
      continue;
    if (M.Effect == ArgMemory::Everything)
      return true;
    // errno is set at each call site in program order, never by the kernel:
    // accesses to it commute unless the call's own buffer is errno.
    if (Errno) {
      if (isErrnoAccess(M.Loc.Ptr))
        return true;
      continue;
    }
    ModRefInfo MRI = A.AA.getModRefInfo(&I, M.Loc);
    if (M.Effect == ArgMemory::Reads ? isModSet(MRI) : isModOrRefSet(MRI))
      return true;
  }
  return false;
}

static std::string describe(const Instruction &I) {
  if (isa<StoreInst>(I))
    return "a store";
  if (isa<LoadInst>(I))
    return "a load";
  // Memory intrinsics are named as the C function the source called, so the
  // remark (and the plan text) reads the same as GCC's.
  if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    return std::string("a call to ") +
           (isa<MemSetInst>(MI) ? "memset"
                                : isa<MemMoveInst>(MI) ? "memmove" : "memcpy");
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (Function *F = CB->getCalledFunction())
      return "a call to " + F->getName().str();
  return std::string("a ") + I.getOpcodeName();
}

/// Tock: the code as the remark names it.  clang copies `g = command(...)`
/// from the call's result temporary with a memcpy right after the call;
/// that is the assignment's store (GCC, which sees `g = command (...)`,
/// names it so too).
static std::string describeTockAccess(Region &R, Instruction &I, int After) {
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    if (After >= 0 &&
        getUnderlyingObject(MT->getRawSource()) ==
            tockResultTemp(R.Calls[After]))
      return "a store";
  return describe(I);
}

/// Is \p I code at all (not a terminator, phi or debug intrinsic)?
static bool isCode(const Instruction &I) {
  return !I.isTerminator() && !isa<PHINode>(I) && !isa<DbgInfoIntrinsic>(I);
}

/// One code event for the instructions from \p From up to (not including)
/// \p End (null: the block's terminator), which follow region call
/// \p After (-1: none) and so may have to stay before every later call.
static void visitGap(Analysis &A, Region &R, Instruction *From,
                     Instruction *End, int After) {
  sb_event E = {};
  E.kind = SB_EV_CODE;
  sb_code_event &CE = E.u.code;
  std::string Why;
  // Tock: a result the previous call writes straight into shared memory
  // (its sret slot is not private) is a store there, in this gap.
  if (R.Abi == SB_ABI_TOCK && After >= 0) {
    CallInst *Prev = R.Calls[After].Call;
    if (hasSretResult(*Prev) && !isTockPrivate(A, Prev->getArgOperand(0))) {
      for (unsigned J = After + 1; J < R.Calls.size(); ++J)
        if (R.Calls[J].RawRow &&
            (R.Calls[J].RawRow->flags & SB_ROW_SHARED_MEMORY))
          CE.conflicts |= 1ull << J;
      if (CE.conflicts)
        Why = "a store that may touch memory shared with the kernel or an "
              "upcall";
    }
  }
  for (Instruction *I = From; I && I != End; I = I->getNextNode()) {
    if (!isCode(*I))
      continue;
    std::string Tmp;
    if (const char *B = visitBarrier(*I, Tmp)) {
      CE.barrier = true;
      CE.conflicts = ~0ull;
      CE.why = R.keep(B);
      LLVM_DEBUG(dbgs() << "sysbatch: barrier after call " << After << ": "
                        << B << "\n");
      R.Events.push_back(E);
      return;
    }
    // Tock: the kernel may touch any buffer allowed earlier at any later
    // call, and a yield runs upcalls, so only private stack slots commute.
    bool Shared = R.Abi == SB_ABI_TOCK && visitTockSharedAccess(A, *I);
    for (unsigned J = After + 1; J < R.Calls.size(); ++J) {
      if (CE.conflicts & (1ull << J))
        continue;
      const CandidateCall &C = R.Calls[J];
      bool SharedRow = R.Abi == SB_ABI_TOCK && C.RawRow &&
                       (C.RawRow->flags & SB_ROW_SHARED_MEMORY);
      if (SharedRow ? Shared : visitCodeConflict(A, *I, C)) {
        CE.conflicts |= 1ull << J;
        if (Why.empty())
          Why = SharedRow
                    ? describeTockAccess(R, *I, After) +
                          " that may touch memory shared with the kernel "
                          "or an upcall"
                    : describe(*I) + " that may alias a buffer of " +
                          C.Call->getCalledFunction()->getName().str();
      }
    }
  }
  if (CE.conflicts) {
    CE.why = R.keep(Why);
    LLVM_DEBUG(dbgs() << "sysbatch: code after call " << After << ": " << Why
                      << "\n");
  } else {
    CE.why = R.keep("code that commutes with the later calls");
  }
  R.Events.push_back(E);
}

/// One code event for the instructions strictly between calls \p Before and
/// \p Before + 1 of a straight-line region.
static void visitCode(Analysis &A, Region &R, unsigned Before) {
  visitGap(A, R, R.Calls[Before].Call->getNextNode(), R.Calls[Before + 1].Call,
           Before);
}

/// Does the block hold code between \p From and \p End (null: the end)?
static bool hasCode(Instruction *From, Instruction *End) {
  for (Instruction *I = From; I && I != End; I = I->getNextNode())
    if (isCode(*I))
      return true;
  return false;
}

/// syscall(NR, ...) passes its operands straight to the kernel, so NR's row
/// describes them only when its libc arguments are the raw arguments.
static bool rowPassesArgsThrough(const sb_syscall *Row) {
  if (Row->libc_argc != Row->raw_argc)
    return false;
  for (unsigned I = 0; I < Row->raw_argc; ++I)
    if (Row->raw_args[I].from != SB_RAW_LIBC_ARG || Row->raw_args[I].index != (int)I)
      return false;
  return true;
}

static CandidateCall makeCandidate(CallInst *Call, sb_abi Abi) {
  bool Raw;
  CandidateCall C = {Call, visitCallee(*Call, Raw, Abi), nullptr, Raw ? 1u : 0u,
                     false, 0};
  if (Abi == SB_ABI_TOCK && hasSretResult(*Call))
    C.FirstArg = C.EventBase = 1; // the sret pointer is not an argument
  if (Raw) {
    C.Row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "syscall");
    auto *NR = dyn_cast_or_null<ConstantInt>(
        C.Call->arg_size() ? C.Call->getArgOperand(0) : nullptr);
    C.RawRow =
        NR ? sb_catalog_by_nr(SB_ABI_LINUX_X86_64, NR->getSExtValue()) : nullptr;
    C.RowDescribesOperands = C.RawRow && rowPassesArgsThrough(C.RawRow);
  } else {
    C.RawRow = C.Row;
    C.RowDescribesOperands = true;
  }
  return C;
}

static unsigned countCandidates(BasicBlock &BB, sb_abi Abi) {
  unsigned N = 0;
  for (Instruction &I : BB)
    if (auto *CI = dyn_cast<CallInst>(&I))
      N += isCandidate(*CI, Abi);
  return N;
}

/// Phase 1 for one basic block: its regions (one per SB_MAX_REGION_CALLS
/// candidate calls), empty when it has none.
static std::vector<std::unique_ptr<Region>>
analyseBlock(Analysis &A, BasicBlock &BB, unsigned BlockNo) {
  std::vector<std::unique_ptr<Region>> Regions;
  DenseMap<const Instruction *, unsigned> Position;
  std::vector<CallInst *> Candidates;
  unsigned Pos = 0;
  for (Instruction &I : BB) {
    Position[&I] = Pos++;
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (isCandidate(*CI, A.Abi))
        Candidates.push_back(CI);
  }
  for (size_t First = 0; First < Candidates.size();
       First += SB_MAX_REGION_CALLS) {
    auto R = std::make_unique<Region>();
    R->Abi = A.Abi;
    R->BB = &BB;
    R->BlockNo = BlockNo;
    R->Part = First / SB_MAX_REGION_CALLS;
    R->Position = Position;
    R->StartPos = Position[Candidates[First]];
    size_t Last = std::min(Candidates.size(), First + SB_MAX_REGION_CALLS);
    for (size_t K = First; K < Last; ++K) {
      R->CallIndex[Candidates[K]] = K - First;
      R->Calls.push_back(makeCandidate(Candidates[K], A.Abi));
    }
    for (unsigned K = 0; K < R->Calls.size(); ++K) {
      if (K > 0)
        visitCode(A, *R, K - 1);
      visitCall(A, *R, K);
    }
    Regions.push_back(std::move(R));
  }
  return Regions;
}

//===----------------------------------------------------------------------===//
// Branchy regions (docs/llvm.md, "Branchy regions")
//===----------------------------------------------------------------------===//

/// The blocks of the region entered at \p Order[EntryIdx]: later blocks in
/// function order join when every predecessor is already in (single entry;
/// no back edge can lead to them), while the region stays within
/// SB_MAX_REGION_BLOCKS blocks and SB_MAX_REGION_CALLS calls.  Trailing
/// call-free blocks are dropped.  Empty unless two blocks hold candidates.
static std::vector<BasicBlock *>
formRegion(const std::vector<BasicBlock *> &Order, size_t EntryIdx,
           const DenseSet<const BasicBlock *> &Covered, sb_abi Abi) {
  BasicBlock *Entry = Order[EntryIdx];
  unsigned Calls = countCandidates(*Entry, Abi);
  if (Calls == 0 || Calls > SB_MAX_REGION_CALLS)
    return {};
  std::vector<BasicBlock *> Blocks{Entry};
  std::vector<unsigned> NCalls{Calls};
  DenseSet<const BasicBlock *> In{Entry};
  for (size_t K = EntryIdx + 1;
       K < Order.size() && Blocks.size() < SB_MAX_REGION_BLOCKS; ++K) {
    BasicBlock *BB = Order[K];
    if (Covered.count(BB) || pred_empty(BB))
      continue;
    bool Inside = true;
    for (BasicBlock *P : predecessors(BB))
      Inside &= In.count(P) > 0;
    unsigned N = Inside ? countCandidates(*BB, Abi) : 0;
    if (!Inside || Calls + N > SB_MAX_REGION_CALLS)
      continue;
    Blocks.push_back(BB);
    NCalls.push_back(N);
    In.insert(BB);
    Calls += N;
  }
  while (NCalls.back() == 0) {
    NCalls.pop_back();
    Blocks.pop_back();
  }
  unsigned WithCalls = 0;
  for (unsigned N : NCalls)
    WithCalls += N > 0;
  return WithCalls >= 2 ? Blocks : std::vector<BasicBlock *>();
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

/// Block \p B's terminator (core.h, "branchy regions"): COND when the block
/// ends in `value OP constant` on its last call's value, with only code that
/// commutes with every later call after the call; GOTO for a plain edge to
/// a later region block; EXIT otherwise (with a reason when that stops a
/// region that had more calls to offer).
static void visitTerminator(Analysis &A, Region &R, int B) {
  sb_block &SB = R.SBBlocks[B];
  SB.term = SB_TERM_EXIT;
  SB.cond_call = -1;
  SB.succ[0] = SB.succ[1] = SB.succ[2] = SB_BLOCK_EXIT;
  BasicBlock *BB = R.Blocks[B];
  Instruction *T = BB->getTerminator();
  R.TermInst[B] = T;
  const char *&Why = R.TermWhy[B];
  auto Target = [&](BasicBlock *D) {
    auto It = R.BlockIndex.find(D);
    return It != R.BlockIndex.end() && It->second > B ? It->second
                                                       : SB_BLOCK_EXIT;
  };
  int Call = -1;
  for (int C = 0; C < (int)R.Calls.size(); ++C)
    if (R.BlockOfCall[C] == B)
      Call = C;
  if (Call >= 0 && isa<SwitchInst>(T))
    Why = "a switch";
  auto *Br = dyn_cast<BranchInst>(T);
  if (!Br)
    return;
  if (Br->isUnconditional()) {
    int To = Target(Br->getSuccessor(0));
    if (To != SB_BLOCK_EXIT) {
      SB.term = SB_TERM_GOTO;
      SB.succ[0] = To;
    } else if (Call >= 0 && Br->getSuccessor(0) == R.Blocks[0]) {
      Why = "a loop: the edge goes back to the region's entry";
    }
    return;
  }
  if (Call < 0)
    return;
  const sb_call_event &CE = R.Events[R.Calls[Call].Event].u.call;
  std::string Sym = CE.symbol;
  const sb_event &After = R.Events[SB.first_event + SB.nevents - 1];
  if (After.kind == SB_EV_CODE &&
      (After.u.code.barrier || After.u.code.conflicts)) {
    Why = R.keep("code between " + Sym + " and the branch may not move (" +
                 After.u.code.why + ")");
    return;
  }
  const char *NotResult =
      R.keep("the branch is not the result of " + Sym +
             " (the block's last call) compared with a constant");
  Why = NotResult;
  BasicBlock *OnTrue = Br->getSuccessor(0), *OnFalse = Br->getSuccessor(1);
  Value *Cond = Br->getCondition();
  // `if (!x)`: clang negates the compare with `xor i1 %c, true`.
  while (auto *X = dyn_cast<BinaryOperator>(Cond)) {
    auto *One = dyn_cast<ConstantInt>(X->getOperand(1));
    if (X->getOpcode() != Instruction::Xor || !One || !One->isOne() ||
        !X->getType()->isIntegerTy(1))
      break;
    Cond = X->getOperand(0);
    std::swap(OnTrue, OnFalse);
  }
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
  if (!compareConstant(Rhs, K))
    return;
  // The compared value must be the call site's value: the call itself,
  // through stack slots of this block and sign extensions.
  CallInst *CallI = R.Calls[Call].Call;
  Value *V = Lhs;
  bool Widened = false;
  for (unsigned Depth = 0; V != CallI && Depth < 16; ++Depth) {
    if (auto *L = dyn_cast<LoadInst>(V)) {
      bool Ambiguous;
      StoreInst *S = L->isSimple() && isNonEscapingAlloca(A, L->getPointerOperand())
                         ? reachingStore(R, L, Ambiguous)
                         : nullptr;
      if (!S || S->getParent() != BB)
        return;
      V = S->getValueOperand();
    } else if (isa<SExtInst>(V)) {
      // A zext would be an unsigned result widened (uid_t into a long): in
      // C most often a change of signedness, which GCC does not look
      // through either, so the plans agree.
      Widened = true;
      V = cast<Instruction>(V)->getOperand(0);
    } else {
      return;
    }
  }
  if (V != CallI)
    return;
  Type *Ty = CallI->getType();
  const DataLayout &DL = BB->getModule()->getDataLayout();
  unsigned W = Ty->isPointerTy()        ? DL.getPointerSizeInBits()
               : Ty->isIntegerTy()      ? Ty->getIntegerBitWidth()
                                        : 0;
  sb_cmp Op;
  if (!W || !mapPredicate(Pred, Op) ||
      W != (unsigned)sb_call_result_bits(R.Abi, &CE))
    return;
  bool Unsigned = CmpInst::isUnsigned(Pred);
  // After a sign extension an unsigned compare means something else, and
  // the constant must be one the call's own width can hold.
  if ((Widened && (Unsigned || !K.isSignedIntN(W))) || K.getBitWidth() > 64)
    return;
  long Constant = Unsigned ? (long)K.getZExtValue() : (long)K.getSExtValue();
  int Mask = sb_cond_classes(sb_call_ret_conv(R.Abi, &CE),
                             sb_call_result_bits(R.Abi, &CE), Op,
                             Constant);
  if (Mask < 0) {
    Why = R.keep("the sign of " + Sym + "'s result does not decide the compare");
    return;
  }
  Why = nullptr;
  if (OnTrue == R.Blocks[0] || OnFalse == R.Blocks[0])
    Why = "a loop: an edge goes back to the region's entry";
  int To = Target(OnTrue), Else = Target(OnFalse);
  for (int C = 0; C < 3; ++C)
    SB.succ[C] = (Mask >> C & 1) ? To : Else;
  SB.term = SB_TERM_COND;
  SB.cond_call = Call;
}

/// A region over \p Blocks (in order): every instruction numbered, the
/// candidate calls collected in program order, \p CallsOf[B] the indexes of
/// block B's calls.
static std::unique_ptr<Region>
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
static std::unique_ptr<Region> analyseRegion(Analysis &A,
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

//===----------------------------------------------------------------------===//
// Tock checked chains (on by default, no-tock-chains turns them off;
// docs/llvm.md, "Checked chains")
//===----------------------------------------------------------------------===//

/// How block \p BB's conditional branch tests the libtock-c result of its
/// last candidate call: the successor taken exactly when the call's return
/// variant is a Failure* (the series' stop condition) and the one taken
/// exactly on success.  False (with \p Why) when the test is anything else:
/// `r.type != TOCK_SYSCALL_SUCCESS` leaves on a Success-u32 too, while the
/// kernel goes on.  Exact tests: `r.type < 128` / `>= 128` (and `<= 127`,
/// `> 127`, signed or not) for command; `r.success` true or false for
/// subscribe and the allows, which TRD104 lets return only Success-2u32 or
/// Failure-2u32 (relied on here).
static bool visitTockStopTest(BasicBlock &BB, BasicBlock *&OnFailure,
                              BasicBlock *&OnSuccess, const char *&Why) {
  Why = nullptr;
  auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  CallInst *Last = nullptr;
  for (Instruction &I : BB)
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (isCandidate(*CI, SB_ABI_TOCK))
        Last = CI;
  if (!Last)
    return false;
  CandidateCall C = makeCandidate(Last, SB_ABI_TOCK);
  if (!C.RawRow || (C.RawRow->flags & SB_ROW_NEVER))
    return false;
  const int Class = C.RawRow->nr;
  const bool IsCommand = Class == 2;
  const bool HasSuccessFlag = Class == 1 || Class == 3 || Class == 4 || Class == 7;
  Why = "the branch does not test the call's success exactly (command: "
        "r.type < 128 or >= 128; allow, subscribe: r.success)";
  if (!IsCommand && !HasSuccessFlag)
    return false;
  const Value *Temp = tockResultTemp(C);
  BasicBlock *OnTrue = Br->getSuccessor(0), *OnFalse = Br->getSuccessor(1);
  Value *Cond = Br->getCondition();
  while (auto *X = dyn_cast<BinaryOperator>(Cond)) {
    auto *One = dyn_cast<ConstantInt>(X->getOperand(1));
    if (X->getOpcode() != Instruction::Xor || !One || !One->isOne() ||
        !X->getType()->isIntegerTy(1))
      break;
    Cond = X->getOperand(0);
    std::swap(OnTrue, OnFalse);
  }
  // The loaded field: word 0 of the call's own result slot, read after the
  // call with nothing writing memory in between.
  const DataLayout &DL = BB.getModule()->getDataLayout();
  auto FieldZero = [&](Value *V) -> LoadInst * {
    while (isa<ZExtInst>(V) || isa<TruncInst>(V))
      V = cast<Instruction>(V)->getOperand(0);
    auto *L = dyn_cast<LoadInst>(V);
    if (!L || !L->isSimple() || L->getParent() != &BB || !Temp)
      return nullptr;
    int64_t Offset = 0;
    const Value *Base =
        GetPointerBaseWithConstantOffset(L->getPointerOperand(), Offset, DL);
    if (getUnderlyingObject(Base) != Temp || Offset != 0)
      return nullptr;
    // L must come after the call (an earlier load reads another result).
    Instruction *I = Last->getNextNode();
    for (; I && I != L; I = I->getNextNode()) {
      if (auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      auto *S = dyn_cast<StoreInst>(I);
      if (I->mayWriteToMemory() && !(S && S->getValueOperand() == Last))
        return nullptr;
    }
    return I == L ? L : nullptr;
  };
  bool TrueIsSuccess;
  if (auto *Cmp = dyn_cast<ICmpInst>(Cond)) {
    Value *Lhs = Cmp->getOperand(0), *Rhs = Cmp->getOperand(1);
    CmpInst::Predicate P = Cmp->getPredicate();
    if (isa<ConstantInt>(Lhs)) {
      std::swap(Lhs, Rhs);
      P = CmpInst::getSwappedPredicate(P);
    }
    auto *K = dyn_cast<ConstantInt>(Rhs);
    LoadInst *L = K ? FieldZero(Lhs) : nullptr;
    if (!L)
      return false;
    if (IsCommand) {
      if (!L->getType()->isIntegerTy(32))
        return false;
      int64_t V = K->getSExtValue();
      if (((P == CmpInst::ICMP_ULT || P == CmpInst::ICMP_SLT) && V == 128) ||
          ((P == CmpInst::ICMP_ULE || P == CmpInst::ICMP_SLE) && V == 127))
        TrueIsSuccess = false;
      else if (((P == CmpInst::ICMP_UGE || P == CmpInst::ICMP_SGE) &&
                V == 128) ||
               ((P == CmpInst::ICMP_UGT || P == CmpInst::ICMP_SGT) &&
                V == 127))
        TrueIsSuccess = true;
      else
        return false;
    } else {
      if (!L->getType()->isIntegerTy(8) || !K->isZero() ||
          (P != CmpInst::ICMP_EQ && P != CmpInst::ICMP_NE))
        return false;
      TrueIsSuccess = P == CmpInst::ICMP_NE;
    }
  } else if (auto *T = dyn_cast<TruncInst>(Cond)) {
    // `if (r.success)`: clang tests the bool's low bit.
    LoadInst *L = HasSuccessFlag ? FieldZero(T) : nullptr;
    if (!L || !L->getType()->isIntegerTy(8) || !T->getType()->isIntegerTy(1))
      return false;
    TrueIsSuccess = true;
  } else {
    return false;
  }
  OnSuccess = TrueIsSuccess ? OnTrue : OnFalse;
  OnFailure = TrueIsSuccess ? OnFalse : OnTrue;
  Why = nullptr;
  return OnSuccess != OnFailure;
}

/// The chain of blocks entered at \p Order[EntryIdx]: while the current
/// block ends in an exact stop test on its last call, the success edge leads
/// to a block that only this one enters and that holds candidate calls,
/// that block joins.  Empty unless two blocks join.
static std::vector<BasicBlock *>
formTockChain(const std::vector<BasicBlock *> &Order, size_t EntryIdx,
              const DenseSet<const BasicBlock *> &Covered,
              OptimizationRemarkEmitter &ORE) {
  std::vector<BasicBlock *> Chain{Order[EntryIdx]};
  unsigned Calls = countCandidates(*Order[EntryIdx], SB_ABI_TOCK);
  DenseSet<const BasicBlock *> In{Order[EntryIdx]};
  while (Chain.size() < SB_MAX_REGION_BLOCKS) {
    BasicBlock *OnFailure = nullptr, *OnSuccess = nullptr;
    const char *Why = nullptr;
    if (!visitTockStopTest(*Chain.back(), OnFailure, OnSuccess, Why)) {
      if (Why) {
        // A test on the call's result the stop policy cannot do: the run
        // ends at this branch (its call may still end a series).
        Instruction *T = Chain.back()->getTerminator();
        LLVM_DEBUG(dbgs() << "sysbatch: chain ends: " << Why << "\n");
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "ChainEnd", T)
                 << "branch ends the run: " << ore::NV("Reason", Why);
        });
      }
      break;
    }
    unsigned N = countCandidates(*OnSuccess, SB_ABI_TOCK);
    if (In.count(OnSuccess) || Covered.count(OnSuccess) ||
        !OnSuccess->getSinglePredecessor() || !N ||
        Calls + N > SB_MAX_REGION_CALLS)
      break;
    Chain.push_back(OnSuccess);
    In.insert(OnSuccess);
    Calls += N;
  }
  return Chain.size() >= 2 ? Chain : std::vector<BasicBlock *>();
}

/// Phase 1 for a chain: one straight-line region over its blocks (the core
/// sees no blocks: under the stop policy the kernel does what the exact
/// tests do).  The code between two calls of different blocks - the test,
/// and the next block's code before its first call - is crossed on the way,
/// so it is described as two code events.  Blocks and paths are recorded
/// as for a branchy region, so stack-slot forwarding and loads look across
/// the blocks and a load of a later block is never repeated at the issue
/// point.
static std::unique_ptr<Region> analyseChain(Analysis &A,
                                            std::vector<BasicBlock *> Blocks,
                                            unsigned BlockNo) {
  std::vector<std::vector<unsigned>> CallsOf;
  auto R = collectRegionCalls(A, std::move(Blocks), BlockNo, CallsOf);
  const unsigned NB = R->Blocks.size();
  R->Ancestors.assign(NB, 0);
  R->Dominators.assign(NB, 0);
  for (unsigned B = 0; B < NB; ++B) {
    R->Ancestors[B] = (1ull << B) - 1;     // every earlier block of the chain
    R->Dominators[B] = (2ull << B) - 1;    // and itself
  }
  R->TermWhy.assign(NB, nullptr);
  R->TermInst.assign(NB, nullptr);
  for (unsigned K = 0; K < R->Calls.size(); ++K) {
    if (K > 0) {
      CallInst *Prev = R->Calls[K - 1].Call, *Cur = R->Calls[K].Call;
      if (Prev->getParent() == Cur->getParent()) {
        visitCode(A, *R, K - 1);
      } else {
        visitGap(A, *R, Prev->getNextNode(), nullptr, K - 1);
        visitGap(A, *R, &Cur->getParent()->front(), Cur, K - 1);
      }
    }
    visitCall(A, *R, K);
  }
  return R;
}

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
  return Desc;
}

static void printPlan(Region &R) {
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

/// Plan a branchy region; false when it is not worth using (no batch, or a
/// batch whose calls all sit in one block: then the entry block is planned
/// straight-line).
static sb_options coreOptions(const SysbatchOptions &Opts) {
  return Opts.Config.plan;
}

static bool planBranchy(Region &R, const SysbatchOptions &Opts) {
  sb_region Desc = describe(R);
  sb_options CoreOpts = coreOptions(Opts);
  if (sb_plan_region(&Desc, &CoreOpts, &R.Plan) != 0)
    return false;
  R.Planned = true;
  if (R.Plan.nbatches != 1)
    return false;
  int Block = -1;
  bool Several = false;
  for (int C = 0; C < R.Plan.ncalls; ++C) {
    if (R.Plan.calls[C].batch != 0)
      continue;
    Several |= Block >= 0 && R.BlockOfCall[C] != Block;
    Block = R.BlockOfCall[C];
  }
  if (!Several)
    return false;
  checkHazards(R);
  if (Opts.Config.print_plan)
    printPlan(R);
  return true;
}

static bool planRegion(Region &R, const SysbatchOptions &Opts) {
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
static void emitRemarks(Region &R, OptimizationRemarkEmitter &ORE,
                        const DenseSet<const BasicBlock *> *Covered = nullptr) {
  for (int B = 0; B < R.Plan.nbatches; ++B) {
    const sb_batch_plan &BP = R.Plan.batches[B];
    CallInst *First = R.Calls[BP.first_call].Call;
    std::string Names;
    int NBlocks = 0, Prev = -1;
    for (int C = BP.first_call; C <= BP.last_call; ++C) {
      if (R.Plan.calls[C].batch != B)
        continue;
      Names += (Names.empty() ? "" : ", ") +
               R.Calls[C].Call->getCalledFunction()->getName().str();
      if (R.branchy() && R.BlockOfCall[C] != Prev) {
        Prev = R.BlockOfCall[C];
        ++NBlocks;
      }
    }
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
    ORE.emit([&] {
      OptimizationRemark Rem(DEBUG_TYPE, "Batched", First);
      Rem << "batched " << ore::NV("Calls", BP.ncalls) << " calls ("
          << ore::NV("Callees", Names) << ") into "
          << ore::NV("Slots", BP.nslots) << " slots with "
          << ore::NV("Chains", BP.nchains) << " chains";
      // (A Tock chain's batch within one of its blocks reads as usual.)
      if (R.branchy() && (R.Abi != SB_ABI_TOCK || NBlocks > 1))
        Rem << " over " << ore::NV("Blocks", NBlocks) << " blocks"
            << (BP.branchy ? " (branchy)" : "");
      return Rem;
    });
  }
  for (int C = 0; C < R.Plan.ncalls; ++C) {
    const sb_call_plan &CP = R.Plan.calls[C];
    if (CP.batch >= 0)
      continue;
    if (Covered && !Covered->count(R.Blocks[R.BlockOfCall[C]]))
      continue;
    countRefusal(CP.why);
    CallInst *Call = R.Calls[C].Call;
    std::string Text = sb_why_text(CP.why);
    if (CP.detail)
      Text += std::string(": ") + CP.detail;
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
static void emitRegionEnds(Region &R, OptimizationRemarkEmitter &ORE,
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

//===----------------------------------------------------------------------===//
// The rewrite (docs/design.md, "The rewrite, shared by both front ends")
//===----------------------------------------------------------------------===//

/// The runtime's plugin ABI (runtime/include/sysbatch.h), declared in the
/// module the first time a rewrite needs each piece.
class RuntimeABI {
public:
  explicit RuntimeABI(Module &M)
      : M(M), I64(Type::getInt64Ty(M.getContext())),
        I32(Type::getInt32Ty(M.getContext())) {}
  Module &M;
  Type *I64, *I32;

  Constant *active() { return M.getOrInsertGlobal("sysbatch_active", I32); }
  Constant *emptyString() {
    return M.getOrInsertGlobal(
        "sysbatch_empty_string",
        ArrayType::get(Type::getInt8Ty(M.getContext()), 1));
  }
  FunctionCallee run() {
    Type *Words = compat::pointerTo(I64);
    return declare("sysbatch_run", I64, {Words, Words, I64, I64});
  }
  FunctionCallee retErrno() { return declare("sysbatch_ret_errno", I64, {I64}); }
  FunctionCallee retMmap() {
    return declare("sysbatch_ret_mmap", compat::bytePointer(M.getContext()),
                   {I64});
  }
  FunctionCallee retPositiveError() {
    return declare("sysbatch_ret_positive_error", I32, {I64});
  }
  // Tock (runtime/include/sysbatch_tock.h); frames as plain u32 words.
  FunctionCallee tockSeries() {
    return declare("sysbatch_tock_series", I32,
                   {compat::pointerTo(I32), I32, I32});
  }
  /// One call per call site: converts frame k into libtock-c's struct at
  /// `out` (null: nothing to write), running the frame first when the
  /// series did not (k >= ran).
  FunctionCallee tockTake() {
    return declare("sysbatch_tock_take", Type::getVoidTy(M.getContext()),
                   {compat::bytePointer(M.getContext()), compat::pointerTo(I32),
                    I32, I32});
  }

private:
  FunctionCallee declare(StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
    FunctionCallee F =
        M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
    if (auto *Fn = dyn_cast<Function>(F.getCallee()))
      Fn->addFnAttr(Attribute::NoUnwind);
    return F;
  }
};

/// SYSBATCH_NOT_RUN (runtime/include/sysbatch.h): rets of a skipped slot.
static constexpr int64_t SYSBATCH_NOT_RUN_WORD = INT64_MIN;

/// A value as the 64-bit word the kernel reads.
static Value *asWord(IRBuilder<> &B, Value *V, Type *I64) {
  if (V->getType()->isPointerTy())
    return B.CreatePtrToInt(V, I64);
  return B.CreateSExtOrTrunc(V, I64);
}

/// A 64-bit result as the call's own type.
static Value *asCallType(IRBuilder<> &B, Value *V, Type *Ty) {
  if (V->getType() == Ty)
    return V;
  if (Ty->isPointerTy())
    return V->getType()->isPointerTy() ? B.CreateBitCast(V, Ty)
                                       : B.CreateIntToPtr(V, Ty);
  if (V->getType()->isPointerTy())
    return B.CreatePtrToInt(V, Ty);
  return B.CreateSExtOrTrunc(V, Ty);
}

/// \p V as a value at the issue point, which is where call \p FirstPos of the
/// block stood.  Whatever was computed before it is used as is; values from
/// later in the block were classified AVAILABLE by visitOperand, so every
/// instruction on the way is pure or a load of memory nothing writes between
/// the region's start and the original load: recomputing them gives the
/// same value.
static Value *materialize(Region &R, IRBuilder<> &B, Value *V,
                          unsigned FirstPos, DenseMap<Value *, Value *> &Cache,
                          const DenseMap<Value *, Value *> &Replaced) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  auto Rep = Replaced.find(I);
  if (Rep != Replaced.end())
    return Rep->second; // a call of an earlier batch: its result phi
  auto Pos = R.Position.find(I);
  if (Pos == R.Position.end() || Pos->second < FirstPos)
    return I; // dominates the issue point
  auto Fwd = R.Forwarded.find(I);
  if (Fwd != R.Forwarded.end())
    return materialize(R, B, Fwd->second, FirstPos, Cache, Replaced);
  auto Done = Cache.find(I);
  if (Done != Cache.end())
    return Done->second;
  assert(!R.CallIndex.count(I) && "a batched call's result is chained");
  Instruction *Copy = I->clone();
  for (unsigned K = 0; K < Copy->getNumOperands(); ++K)
    Copy->setOperand(K, materialize(R, B, Copy->getOperand(K), FirstPos,
                                    Cache, Replaced));
  B.Insert(Copy, I->getName() + ".sb");
  Cache[I] = Copy;
  return Copy;
}

/// The raw result as the call site sees it: the libc convention applied
/// (errno set here, in program order), in the call's own type.
static Value *convertResult(Region &R, const CandidateCall &C, IRBuilder<> &RB,
                            Value *Raw, RuntimeABI &RT) {
  // syscall() itself reports -1 and errno whatever NR's row says.
  unsigned Conv =
      sb_call_ret_conv(R.Abi, &R.Events[C.Event].u.call);
  Value *Converted = Raw;
  switch (Conv) {
  case SB_RET_ERRNO:
    Converted = RB.CreateCall(RT.retErrno(), {Raw});
    break;
  case SB_RET_MAP_FAILED:
    Converted = RB.CreateCall(RT.retMmap(), {Raw});
    break;
  case SB_RET_POSITIVE_ERROR:
    Converted = RB.CreateCall(RT.retPositiveError(), {Raw});
    break;
  default: // SB_RET_NEVER_FAILS
    break;
  }
  if (C.Call->getType()->isVoidTy())
    return nullptr;
  return asCallType(RB, Converted, C.Call->getType());
}

/// A call site of a branchy batch, where the kernel may have skipped slots:
///
///   head:      br (last >= 0), sb.check, sb.call
///   sb.check:  %raw = load rets[slot]; br (%raw != NOT_RUN), sb.result, sb.call
///   sb.result: convert(%raw); br sb.next
///   sb.call:   the original call; br sb.next
///   sb.next:   phi
///
/// `last` is checked first: when the batch did not run, rets is unwritten.
static void rewriteBranchyCallSite(Region &R, const CandidateCall &C, int Slot,
                                   int NSlots, AllocaInst *Rets, Value *Last,
                                   RuntimeABI &RT,
                                   DenseMap<Value *, Value *> &Replaced) {
  CallInst *Call = C.Call;
  LLVMContext &Ctx = Call->getContext();
  Type *I64 = RT.I64;
  BasicBlock *Head = Call->getParent();
  Function *F = Head->getParent();
  BasicBlock *Tail = Head->splitBasicBlock(Call, "sb.next");
  BasicBlock *Check = BasicBlock::Create(Ctx, "sb.check", F, Tail);
  BasicBlock *FromBatch = BasicBlock::Create(Ctx, "sb.result", F, Tail);
  BasicBlock *Original = BasicBlock::Create(Ctx, "sb.call", F, Tail);

  Head->getTerminator()->eraseFromParent();
  IRBuilder<> HB(Head);
  HB.SetCurrentDebugLocation(Call->getDebugLoc());
  HB.CreateCondBr(HB.CreateICmpSGE(Last, ConstantInt::get(I64, 0),
                                   "sb.batch.ran"),
                  Check, Original);

  IRBuilder<> KB(Check);
  KB.SetCurrentDebugLocation(Call->getDebugLoc());
  Value *Raw = KB.CreateAlignedLoad(
      I64,
      KB.CreateConstInBoundsGEP2_64(ArrayType::get(I64, NSlots), Rets, 0, Slot),
      Align(8), "sb.raw");
  KB.CreateCondBr(KB.CreateICmpNE(Raw,
                                  ConstantInt::get(I64, SYSBATCH_NOT_RUN_WORD),
                                  "sb.slot.ran"),
                  FromBatch, Original);

  IRBuilder<> RB(FromBatch);
  RB.SetCurrentDebugLocation(Call->getDebugLoc());
  Value *Converted = convertResult(R, C, RB, Raw, RT);
  RB.CreateBr(Tail);

  BranchInst *ToTail = BranchInst::Create(Tail, Original);
  Call->moveBefore(ToTail);
  if (!Converted)
    return;
  PHINode *Result = PHINode::Create(Call->getType(), 2, "", &Tail->front());
  Result->takeName(Call);
  Call->setName(Result->getName() + ".orig");
  Call->replaceAllUsesWith(Result);
  Result->addIncoming(Converted, FromBatch);
  Result->addIncoming(Call, Original);
  Replaced[Call] = Result;
}

/// Rewrite batch \p BI of region \p R: slots and the versioned issue at the
/// first call, then `slot <= last ? convert(rets[slot]) : call` at each call.
static void rewriteBatch(Region &R, int BI, RuntimeABI &RT,
                         sb_fill_mode Fill,
                         DenseMap<Value *, Value *> &Replaced) {
  const sb_batch_plan &BP = R.Plan.batches[BI];
  CallInst *First = R.Calls[BP.first_call].Call;
  const unsigned FirstPos = R.Position.lookup(First);
  Function &F = *First->getFunction();
  Module &M = *F.getParent();
  Type *I64 = RT.I64;
  constexpr unsigned WordsPerSlot = 8; // struct sysbatch_slot: 64 bytes
  const unsigned NWords = BP.nslots * WordsPerSlot;

  // Stack arrays in the entry block, so they are allocated once.
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Rets = EB.CreateAlloca(ArrayType::get(I64, BP.nslots), nullptr,
                                     "sb.rets");
  Rets->setAlignment(Align(8));
  AllocaInst *Slots =
      EB.CreateAlloca(ArrayType::get(I64, NWords), nullptr, "sb.slots");
  Slots->setAlignment(Align(8));

  // Versioning: one load and one branch; the original calls are the else.
  IRBuilder<> B(First);
  Value *Active = B.CreateLoad(RT.I32, RT.active(), "sb.active");
  Value *On = B.CreateICmpNE(Active, ConstantInt::get(RT.I32, 0), "sb.on");
  BasicBlock *Head = First->getParent();
  Instruction *IssueTerm = SplitBlockAndInsertIfThen(On, First, false);
  BasicBlock *Issue = IssueTerm->getParent();
  BasicBlock *Join = First->getParent();
  Issue->setName("sb.issue");
  Join->setName("sb.join");

  IRBuilder<> IB(IssueTerm);
  auto WordPtr = [&](Value *Array, unsigned Words, unsigned W) {
    return IB.CreateConstInBoundsGEP2_64(ArrayType::get(I64, Words), Array, 0,
                                         W);
  };
  // Constant words (null: computed at run time) and the run-time words.
  std::vector<Constant *> Const(NWords, ConstantInt::get(I64, 0));
  std::vector<bool> Meaningful(NWords, false);
  std::vector<std::pair<unsigned, Value *>> Variable;
  DenseMap<Value *, Value *> Cache;
  for (int S = 0; S < BP.nslots; ++S) {
    const sb_slot_plan &SP = BP.slots[S];
    unsigned W = S * WordsPerSlot;
    uint64_t Header = (uint64_t)(uint16_t)SP.nr |
                      (uint64_t)(uint16_t)SP.jump_fail << 16 |
                      (uint64_t)(uint16_t)SP.jump_zero << 32 |
                      (uint64_t)(uint16_t)SP.jump_pos << 48;
    Const[W] = ConstantInt::get(I64, Header);
    Const[W + 1] = ConstantInt::get(I64, (uint64_t)(uint8_t)SP.argc);
    Meaningful[W] = Meaningful[W + 1] = true;
    for (int K = 0; K < SP.argc; ++K)
      Meaningful[W + 2 + K] = true;
    if (SP.kind == SB_SLOT_COPY) {
      unsigned Dst = SP.copy_dst_slot * WordsPerSlot + 2 + SP.copy_dst_arg;
      Variable.push_back(
          {W + 2, IB.CreatePtrToInt(WordPtr(Slots, NWords, Dst), I64)});
      Value *Src;
      if (SP.copy_src_arg >= 0) {
        // A word the writer's call put in its buffer: buffer + offset.
        CallInst *Writer = R.Calls[BP.slots[SP.copy_src_slot].call].Call;
        Value *Buf = materialize(R, IB, Writer->getArgOperand(SP.copy_src_arg),
                                 FirstPos, Cache, Replaced);
        Src = IB.CreateAdd(asWord(IB, Buf, I64),
                           ConstantInt::get(I64, SP.copy_src_offset));
      } else {
        Src = IB.CreatePtrToInt(WordPtr(Rets, BP.nslots, SP.copy_src_slot),
                                I64);
      }
      Variable.push_back({W + 3, Src});
      continue;
    }
    const CandidateCall &C = R.Calls[SP.call];
    for (int K = 0; K < SP.argc; ++K) {
      const sb_fill_arg &FA = SP.args[K];
      switch (FA.fill) {
      case SB_FILL_CONST:
        Const[W + 2 + K] = ConstantInt::get(I64, (uint64_t)FA.value);
        break;
      case SB_FILL_EMPTY_STRING:
        Const[W + 2 + K] = compat::addressAsInteger(RT.emptyString(), I64);
        break;
      case SB_FILL_CHAINED:
        Meaningful[W + 2 + K] = false; // written by the copy slot before it
        break;
      case SB_FILL_LIBC_ARG: {
        unsigned Op = FA.index; // the event's argument (NR is syscall's 0)
        if (Op >= C.Call->arg_size())
          break; // a variadic argument not passed: 0
        Value *V = C.Call->getArgOperand(Op);
        if (auto *CI = dyn_cast<ConstantInt>(V)) {
          Const[W + 2 + K] = ConstantInt::get(I64, CI->getSExtValue());
        } else if (isa<ConstantPointerNull>(V)) {
        } else if (auto *CV = dyn_cast<Constant>(V)) {
          Const[W + 2 + K] = CV->getType()->isPointerTy()
                                 ? compat::addressAsInteger(CV, I64)
                                 : ConstantExpr::getIntegerCast(CV, I64, true);
        } else {
          Value *Here = materialize(R, IB, V, FirstPos, Cache, Replaced);
          Variable.push_back({W + 2 + K, asWord(IB, Here, I64)});
        }
        break;
      }
      }
    }
  }
  if (Fill == SB_FILL_MODE_TEMPLATE) {
    auto *TemplateTy = ArrayType::get(I64, NWords);
    auto *Template = new GlobalVariable(
        M, TemplateTy, true, GlobalValue::PrivateLinkage,
        ConstantArray::get(TemplateTy, Const), "sb.template");
    Template->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Template->setAlignment(Align(8));
    IB.CreateMemCpy(WordPtr(Slots, NWords, 0), MaybeAlign(8), Template,
                    MaybeAlign(8),
                    NWords * 8);
  } else {
    for (auto &VW : Variable)
      Meaningful[VW.first] = false; // stored below
    for (unsigned W = 0; W < NWords; ++W)
      if (Meaningful[W])
        IB.CreateAlignedStore(Const[W], WordPtr(Slots, NWords, W), Align(8));
  }
  for (auto &VW : Variable)
    IB.CreateAlignedStore(VW.second, WordPtr(Slots, NWords, VW.first),
                          Align(8));
  Value *SlotsBase = WordPtr(Slots, NWords, 0);
  Value *RetsBase = WordPtr(Rets, BP.nslots, 0);
  CallInst *Ran = IB.CreateCall(
      RT.run(), {RetsBase, SlotsBase, ConstantInt::get(I64, BP.nslots),
               ConstantInt::get(I64, 0)},
      "sb.ran");
  Ran->setDebugLoc(First->getDebugLoc());
  PHINode *Last = PHINode::Create(I64, 2, "sb.last", &Join->front());
  Last->addIncoming(ConstantInt::get(I64, -1), Head);
  Last->addIncoming(Ran, Issue);

  // Each call site: the batch's result when its slot ran, else the call.
  for (int CIdx = BP.first_call; CIdx <= BP.last_call; ++CIdx) {
    const sb_call_plan &CP = R.Plan.calls[CIdx];
    if (CP.batch != BI)
      continue;
    const CandidateCall &C = R.Calls[CIdx];
    CallInst *Call = C.Call;
    if (BP.branchy) {
      rewriteBranchyCallSite(R, C, CP.slot, BP.nslots, Rets, Last, RT,
                             Replaced);
      continue;
    }
    IRBuilder<> CB(Call);
    Value *SlotRan = CB.CreateICmpSLE(ConstantInt::get(I64, CP.slot), Last,
                                      "sb.slot.ran");
    Instruction *FromBatch, *Original;
    SplitBlockAndInsertIfThenElse(SlotRan, Call, &FromBatch, &Original);
    BasicBlock *Tail = Call->getParent();
    Tail->setName("sb.next");
    FromBatch->getParent()->setName("sb.result");
    Original->getParent()->setName("sb.call");
    Call->moveBefore(Original);

    IRBuilder<> RB(FromBatch);
    RB.SetCurrentDebugLocation(Call->getDebugLoc());
    Value *Raw = RB.CreateAlignedLoad(
        I64, RB.CreateConstInBoundsGEP2_64(ArrayType::get(I64, BP.nslots),
                                           Rets, 0, CP.slot),
        Align(8), "sb.raw");
    Value *Converted = convertResult(R, C, RB, Raw, RT);
    if (!Converted)
      continue; // void call site: the conversion only sets errno
    PHINode *Result = PHINode::Create(Call->getType(), 2, "", &Tail->front());
    Result->takeName(Call);
    Call->setName(Result->getName() + ".orig");
    Call->replaceAllUsesWith(Result);
    Result->addIncoming(Converted, FromBatch->getParent());
    Result->addIncoming(Call, Original->getParent());
    Replaced[Call] = Result;
  }
}

//===----------------------------------------------------------------------===//
// The Tock rewrite (docs/llvm.md, "Tock"): one series call per batch
//===----------------------------------------------------------------------===//

/// SYSBATCH_TOCK_POLICY_STOP: every Tock slot has fail=stop.
static constexpr uint32_t TockPolicyStop = 0;
static constexpr unsigned TockWordsPerFrame = 5; // {class, r0, r1, r2, r3}

/// Is the struct call \p Call returns through its sret slot \p Sret read
/// by anything?  A temporary only the call and lifetime markers touch is
/// not (`command(...);` as a statement).
static bool tockSretUsed(const CallInst *Call, const Value *Sret) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Sret));
  if (!AI)
    return true;
  SmallVector<const Value *, 8> Work{AI};
  DenseSet<const Value *> Seen{AI};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (U == Call)
        continue;
      if (isa<BitCastInst>(U) || isa<GetElementPtrInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      const auto *II = dyn_cast<IntrinsicInst>(U);
      if (II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
        continue;
      return true;
    }
  }
  return false;
}

/// Rewrite Tock batch \p BI of region \p R:
///
///   issue point:  frames[5k] = class_k; frames[5k+1..4] = raw args of k
///                 %sb.left = sysbatch_tock_series(frames, n, STOP)
///                 %sb.ran  = n - %sb.left
///   call site k:  sysbatch_tock_take(out, frames, k, %sb.ran), the call erased
///
/// `out` is the call's sret slot, or a fresh 16-byte private slot the
/// register-returned struct is loaded from in place of the call; null for
/// unused results and yield.  The runtime runs frame k itself when
/// k >= %sb.ran.  No sysbatch_active probe: the backend is chosen at build
/// time.
static void rewriteTockBatch(Region &R, int BI, RuntimeABI &RT,
                             DenseMap<Value *, Value *> &Replaced,
                             SmallVectorImpl<CallInst *> &ErasedCalls) {
  const sb_batch_plan &BP = R.Plan.batches[BI];
  CallInst *First = R.Calls[BP.first_call].Call;
  const unsigned FirstPos = R.Position.lookup(First);
  Function &F = *First->getFunction();
  LLVMContext &Ctx = F.getContext();
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *I32 = RT.I32;
  const unsigned N = BP.nslots, NWords = N * TockWordsPerFrame;
  for (int S = 0; S < BP.nslots; ++S)
    if (BP.slots[S].kind != SB_SLOT_CALL || BP.slots[S].argc > 4)
      report_fatal_error("sysbatch: a Tock plan has a slot a series frame "
                         "cannot hold (word copy or more than 4 arguments)",
                         false);

  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  auto *FramesTy = ArrayType::get(I32, NWords);
  AllocaInst *Frames = EB.CreateAlloca(FramesTy, nullptr, "sb.frames");
  Frames->setAlignment(Align(4));

  IRBuilder<> IB(First);
  IB.SetCurrentDebugLocation(First->getDebugLoc());
  auto WordPtr = [&](IRBuilder<> &B, unsigned W) {
    return B.CreateConstInBoundsGEP2_64(FramesTy, Frames, 0, W);
  };
  auto AsWord = [&](Value *V) -> Value * {
    if (auto *C = dyn_cast<Constant>(V))
      return C->getType()->isPointerTy()
                 ? ConstantExpr::getPtrToInt(C, I32)
                 : ConstantExpr::getIntegerCast(C, I32, true);
    return V->getType()->isPointerTy() ? IB.CreatePtrToInt(V, I32)
                                       : IB.CreateSExtOrTrunc(V, I32);
  };
  DenseMap<Value *, Value *> Cache;
  for (int S = 0; S < BP.nslots; ++S) {
    const sb_slot_plan &SP = BP.slots[S];
    const CandidateCall &C = R.Calls[SP.call];
    Value *Words[TockWordsPerFrame];
    Words[0] = ConstantInt::get(I32, (uint32_t)SP.nr);
    for (unsigned K = 1; K < TockWordsPerFrame; ++K)
      Words[K] = ConstantInt::get(I32, 0); // memop r2, r3; yield r1..r3
    for (int K = 0; K < SP.argc; ++K) {
      const sb_fill_arg &FA = SP.args[K];
      if (FA.fill == SB_FILL_CONST) {
        Words[1 + K] = ConstantInt::get(I32, (uint32_t)FA.value);
      } else if (FA.fill == SB_FILL_LIBC_ARG) {
        unsigned Op = C.EventBase + FA.index;
        if (Op < C.Call->arg_size())
          Words[1 + K] = AsWord(materialize(R, IB, C.Call->getArgOperand(Op),
                                            FirstPos, Cache, Replaced));
      } else {
        report_fatal_error("sysbatch: a Tock frame word the series call "
                           "cannot fill (chained or empty string)",
                           false);
      }
    }
    for (unsigned K = 0; K < TockWordsPerFrame; ++K)
      IB.CreateAlignedStore(Words[K],
                            WordPtr(IB, S * TockWordsPerFrame + K), Align(4));
  }
  // The series and every call site take the frames from here.
  Value *FramesBase =
      IB.CreateConstInBoundsGEP2_64(FramesTy, Frames, 0, 0, "sb.base");
  CallInst *Left = IB.CreateCall(
      RT.tockSeries(),
      {FramesBase, ConstantInt::get(I32, N),
       ConstantInt::get(I32, TockPolicyStop)},
      "sb.left");
  Left->setDebugLoc(First->getDebugLoc());
  Value *Ran = IB.CreateSub(ConstantInt::get(I32, N), Left, "sb.ran");
  ++NumTockSeries;
  NumTockFrames += N;

  Type *BytePtr = compat::bytePointer(Ctx);
  for (int CIdx = BP.first_call; CIdx <= BP.last_call; ++CIdx) {
    const sb_call_plan &CP = R.Plan.calls[CIdx];
    if (CP.batch != BI)
      continue;
    const CandidateCall &C = R.Calls[CIdx];
    CallInst *Call = C.Call;
    const int Class = C.RawRow->nr;
    Value *Sret = hasSretResult(*Call) ? Call->getArgOperand(0) : nullptr;
    bool Used = tockResultBytes(Class) &&
                (Sret ? tockSretUsed(Call, Sret) : !Call->use_empty());
    IRBuilder<> CB(Call);
    CB.SetCurrentDebugLocation(Call->getDebugLoc());
    Value *K = ConstantInt::get(I32, CP.slot);
    // The original call is replaced, not kept as a fallback: a frame the
    // series did not run still holds its inputs, and the runtime runs it.
    ErasedCalls.push_back(Call);
    if (!Used) {
      CB.CreateCall(RT.tockTake(),
                    {ConstantPointerNull::get(cast<PointerType>(BytePtr)),
                     FramesBase, K, Ran});
      ++NumTockReissueOnly;
      continue;
    }
    if (Sret) {
      CB.CreateCall(RT.tockTake(),
                    {CB.CreatePointerCast(Sret, BytePtr), FramesBase, K, Ran});
      ++NumTockSretResults;
      continue;
    }
    // The struct comes back in registers (memop_return_t on RV32 ilp32):
    // convert into private memory and load the call's own type from it.
    Type *RetTy = Call->getType();
    uint64_t Bytes = std::max<uint64_t>(16, DL.getTypeStoreSize(RetTy));
    AllocaInst *Tmp = EB.CreateAlloca(ArrayType::get(Type::getInt8Ty(Ctx), Bytes),
                                      nullptr, "sb.result.tmp");
    Tmp->setAlignment(Align(16));
    CB.CreateCall(RT.tockTake(),
                  {CB.CreatePointerCast(Tmp, BytePtr), FramesBase, K, Ran});
    Value *Converted = CB.CreateAlignedLoad(
        RetTy, CB.CreatePointerCast(Tmp, compat::pointerTo(RetTy)), Align(16),
        "sb.result.value");
    Converted->takeName(Call);
    Call->replaceAllUsesWith(Converted);
    Replaced[Call] = Converted;
    ++NumTockRegisterResults;
  }
}

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

} // namespace

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

PreservedAnalyses SysbatchPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  sb_abi Abi;
  if (!resolveTarget(Opts, *F.getParent(), Abi))
    return PreservedAnalyses::all();
  if (F.getName().startswith("sysbatch_")) {
    LLVM_DEBUG(dbgs() << "sysbatch: " << F.getName()
                      << ": the runtime itself is never batched\n");
    return PreservedAnalyses::all();
  }

  bool HasCandidate = false;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      HasCandidate |= isCandidate(*CI, Abi);
  if (!HasCandidate)
    return PreservedAnalyses::all(); // functions without candidates untouched

  Analysis A{FAM.getResult<AAManager>(F), DenseMap<const AllocaInst *, bool>(),
             Abi, DenseMap<const AllocaInst *, bool>()};
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  // Every region is formed, described and planned on the unchanged CFG;
  // then the batches are rewritten.  Candidate blocks keep the numbers of
  // the straight-line plans (the GCC plugin prints the same) whatever the
  // branchy regions cover.
  std::vector<std::unique_ptr<Region>> Regions;
  std::vector<BasicBlock *> Order;
  for (BasicBlock &BB : F)
    Order.push_back(&BB);
  DenseSet<const BasicBlock *> Covered;
  DenseSet<const Instruction *> ReportedEnds;
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
      std::vector<BasicBlock *> Chain = formTockChain(Order, K, Covered, ORE);
      if (!Chain.empty()) {
        std::unique_ptr<Region> R = analyseChain(A, std::move(Chain), Number);
        for (BasicBlock *CB : R->Blocks)
          Covered.insert(CB);
        if (planRegion(*R, Opts)) {
          emitRemarks(*R, ORE);
          Regions.push_back(std::move(R));
        }
        continue;
      }
    }
    if (!Blocks.empty()) {
      std::unique_ptr<Region> R = analyseRegion(A, std::move(Blocks), Number);
      bool Use = planBranchy(*R, Opts);
      emitRegionEnds(*R, ORE, ReportedEnds);
      if (Use) {
        for (int C = 0; C < R->Plan.ncalls; ++C)
          if (R->Plan.calls[C].batch == 0)
            Covered.insert(R->Blocks[R->BlockOfCall[C]]);
        emitRemarks(*R, ORE, &Covered);
        Regions.push_back(std::move(R));
        continue;
      }
    }
    for (auto &R : analyseBlock(A, BB, Number)) {
      if (!planRegion(*R, Opts))
        continue;
      emitRemarks(*R, ORE);
      Regions.push_back(std::move(R));
    }
  }

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
        rewriteTockBatch(*R, B, RT, Replaced, ErasedCalls);
      else
        rewriteBatch(*R, B, RT, Opts.Config.fill, Replaced);
    }
  }
  for (CallInst *Call : ErasedCalls) {
    assert(Call->use_empty() && "a replaced Tock call still has users");
    Call->eraseFromParent();
  }
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
            // Before inlining and before SROA, at every -O level (the pass
            // is required, so -O0's optnone does not skip it).
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, compat::OptimizationLevel) {
                  MPM.addPass(createModuleToFunctionPassAdaptor(SysbatchPass()));
                });
          }};
}
