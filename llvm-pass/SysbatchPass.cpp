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
// Layout of this file: the data model (Region), the analysis that fills it
// (visit* functions: calls, operands, code between calls), the planner call,
// remarks, the one rewrite function, the pass's run(), and registration.
//
//===----------------------------------------------------------------------===//

#include "SysbatchPass.h"
#include "LLVMCompat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
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

#include "sysbatch/core.h"

#include <cstdio>
#include <deque>
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

namespace sysbatch {

//===----------------------------------------------------------------------===//
// Options: core defaults, then -mllvm flags, then pass parameters.
//===----------------------------------------------------------------------===//

static sb_options coreDefaults() {
  sb_options O;
  sb_options_default(&O);
  return O;
}

static cl::opt<int> MinBatchFlag(
    "sysbatch-min-batch", cl::init(coreDefaults().min_batch),
    cl::desc("sysbatch: smallest number of calls worth one batch"));
static cl::opt<int>
    MaxSlotsFlag("sysbatch-max-slots", cl::init(coreDefaults().max_slots),
                 cl::desc("sysbatch: most slots in one batch"));
static cl::opt<bool> NoBlockingFlag(
    "sysbatch-no-blocking", cl::init(!coreDefaults().allow_blocking),
    cl::desc("sysbatch: never batch calls that may sleep"));
static cl::opt<bool>
    PrintPlanFlag("sysbatch-print-plan", cl::init(false),
                  cl::desc("sysbatch: print the plan of every block to stderr"));
static cl::opt<SlotFill> FillFlag(
    "sysbatch-fill", cl::init(SlotFill::Stores),
    cl::desc("sysbatch: how slot arrays are filled"),
    cl::values(clEnumValN(SlotFill::Template, "template",
                          "memcpy from a constant template, then patch"),
               clEnumValN(SlotFill::Stores, "stores", "one store per word")));

SysbatchOptions::SysbatchOptions()
    : MinBatch(MinBatchFlag), MaxSlots(MaxSlotsFlag),
      AllowBlocking(!NoBlockingFlag), PrintPlan(PrintPlanFlag),
      Fill(FillFlag) {}

namespace {

//===----------------------------------------------------------------------===//
// Data model: one region per basic block (split every SB_MAX_REGION_CALLS
// calls), holding what the core reads and what the rewrite needs.
//===----------------------------------------------------------------------===//

struct CandidateCall {
  CallInst *Call;
  const sb_syscall *Row; // the row of the callee ("syscall" for syscall())
  const sb_syscall *RawRow; // the row whose kernel call is issued, or null
  unsigned FirstArg;     // 1 for syscall(NR, ...): row argument k is operand k+1
  bool RowDescribesOperands; // RawRow's libc arguments are the operands
  unsigned Event;            // index of its call event in Region::Events
};

struct Region {
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
};

struct Analysis {
  AAResults &AA;
  DenseMap<const AllocaInst *, bool> NonEscaping;
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
  for (Instruction *I = L->getPrevNode(); I; I = I->getPrevNode()) {
    if (!R.inside(I))
      break;
    auto CI = R.CallIndex.find(I);
    if (CI != R.CallIndex.end()) {
      if (visitCallMayWrite(A, R.Calls[CI->second], Loc))
        return false;
      continue;
    }
    if (I->mayWriteToMemory() && isModSet(A.AA.getModRefInfo(I, Loc)))
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
      // The word must still hold what call J wrote when L reads it.
      for (Instruction *I = C.Call->getNextNode(); I != L; I = I->getNextNode()) {
        auto CI = R.CallIndex.find(I);
        bool Writes = CI != R.CallIndex.end()
                          ? visitCallMayWrite(A, R.Calls[CI->second], Word)
                          : I->mayWriteToMemory() &&
                                isModSet(A.AA.getModRefInfo(I, Word));
        if (Writes)
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

static sb_operand operand(sb_operand_kind Kind, int Call, long Value) {
  sb_operand O = {};
  O.kind = Kind;
  O.call = Call;
  O.value = Value;
  return O;
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
  if (CI != R.CallIndex.end()) {
    Result = operand(SB_OPND_RESULT, CI->second);
  } else if (isa<SExtInst>(I) || isa<ZExtInst>(I) || isa<TruncInst>(I) ||
             isa<BitCastInst>(I) || isa<PtrToIntInst>(I) ||
             isa<IntToPtrInst>(I)) {
    sb_operand Src = visitOperand(A, R, I->getOperand(0), Depth + 1);
    bool ValuePreserving = isa<SExtInst>(I) || isa<ZExtInst>(I) ||
                           isa<TruncInst>(I);
    if (Src.kind == SB_OPND_AVAILABLE || Src.kind == SB_OPND_CONST ||
        (Src.kind == SB_OPND_RESULT && ValuePreserving))
      Result = Src.kind == SB_OPND_CONST ? operand(SB_OPND_AVAILABLE) : Src;
  } else if (auto *L = dyn_cast<LoadInst>(I)) {
    Value *Ptr = L->getPointerOperand();
    if (L->isSimple() && isNonEscapingAlloca(A, Ptr)) {
      // Store-to-load forwarding over the -O0 stack slots clang emits.
      StoreInst *Reaching = nullptr;
      for (Instruction *P = L->getPrevNode(); P && !Reaching;
           P = P->getPrevNode())
        if (auto *S = dyn_cast<StoreInst>(P))
          if (S->getPointerOperand() == Ptr)
            Reaching = S;
      if (Reaching && R.inside(Reaching) &&
          Reaching->getValueOperand()->getType() == L->getType()) {
        R.Forwarded[L] = Reaching->getValueOperand();
        Result = visitOperand(A, R, Reaching->getValueOperand(), Depth + 1);
      } else if (!Reaching || !R.inside(Reaching)) {
        Result = operand(SB_OPND_AVAILABLE); // no store since the issue point
      }
    } else if (visitOperand(A, R, Ptr, Depth + 1).kind == SB_OPND_AVAILABLE &&
               visitLoadUnchanged(A, R, L)) {
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
static const sb_syscall *visitCallee(CallInst &CI, bool &RawSyscall) {
  RawSyscall = false;
  Function *Callee = CI.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic())
    return nullptr;
  std::string Name = Callee->getName().str();
  if (sb_catalog_is_raw_syscall_symbol(Name.c_str())) {
    RawSyscall = true;
    return nullptr;
  }
  return sb_catalog_lookup(SB_ABI_LINUX_X86_64, Name.c_str());
}

static bool isCandidate(CallInst &CI) {
  bool Raw;
  return visitCallee(CI, Raw) || Raw;
}

/// The front end's own objection to a call the catalogue knows, or empty.
static std::string visitCallShape(const CandidateCall &C) {
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
  CE.nargs = std::min<int>(C.Call->arg_size(), SB_MAX_ARGS + 1);
  for (int Op = 0; Op < CE.nargs; ++Op)
    CE.args[Op] = visitOperand(A, R, C.Call->getArgOperand(Op));
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
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (Function *F = CB->getCalledFunction())
      return "a call to " + F->getName().str();
  return std::string("a ") + I.getOpcodeName();
}

/// One code event for the instructions strictly between calls \p Before and
/// \p Before + 1.
static void visitCode(Analysis &A, Region &R, unsigned Before) {
  sb_event E = {};
  E.kind = SB_EV_CODE;
  sb_code_event &CE = E.u.code;
  Instruction *End = R.Calls[Before + 1].Call;
  std::string Why;
  for (Instruction *I = R.Calls[Before].Call->getNextNode(); I != End;
       I = I->getNextNode()) {
    std::string Tmp;
    if (const char *B = visitBarrier(*I, Tmp)) {
      CE.barrier = true;
      CE.conflicts = ~0ull;
      CE.why = R.keep(B);
      LLVM_DEBUG(dbgs() << "sysbatch: barrier after call " << Before << ": "
                        << B << "\n");
      R.Events.push_back(E);
      return;
    }
    for (unsigned J = Before + 1; J < R.Calls.size(); ++J) {
      if (CE.conflicts & (1ull << J))
        continue;
      if (visitCodeConflict(A, *I, R.Calls[J])) {
        CE.conflicts |= 1ull << J;
        if (Why.empty())
          Why = describe(*I) + " that may alias a buffer of " +
                R.Calls[J].Call->getCalledFunction()->getName().str();
      }
    }
  }
  if (CE.conflicts) {
    CE.why = R.keep(Why);
    LLVM_DEBUG(dbgs() << "sysbatch: code after call " << Before << ": " << Why
                      << "\n");
  } else {
    CE.why = R.keep("code that commutes with the later calls");
  }
  R.Events.push_back(E);
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
      if (isCandidate(*CI))
        Candidates.push_back(CI);
  }
  for (size_t First = 0; First < Candidates.size();
       First += SB_MAX_REGION_CALLS) {
    auto R = std::make_unique<Region>();
    R->BB = &BB;
    R->BlockNo = BlockNo;
    R->Part = First / SB_MAX_REGION_CALLS;
    R->Position = Position;
    R->StartPos = Position[Candidates[First]];
    size_t Last = std::min(Candidates.size(), First + SB_MAX_REGION_CALLS);
    for (size_t K = First; K < Last; ++K) {
      bool Raw;
      CandidateCall C = {Candidates[K], visitCallee(*Candidates[K], Raw),
                         nullptr, Raw ? 1u : 0u, false, 0};
      if (Raw) {
        C.Row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "syscall");
        auto *NR = dyn_cast_or_null<ConstantInt>(
            C.Call->arg_size() ? C.Call->getArgOperand(0) : nullptr);
        C.RawRow = NR ? sb_catalog_by_nr(SB_ABI_LINUX_X86_64,
                                         NR->getSExtValue())
                      : nullptr;
        C.RowDescribesOperands = C.RawRow && rowPassesArgsThrough(C.RawRow);
      } else {
        C.RawRow = C.Row;
        C.RowDescribesOperands = true;
      }
      R->CallIndex[Candidates[K]] = K - First;
      R->Calls.push_back(C);
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
  default: break;
  }
}

static bool planRegion(Region &R, const SysbatchOptions &Opts) {
  sb_region Desc = {};  // nblocks = 0: the straight-line form
  Desc.abi = SB_ABI_LINUX_X86_64;
  Desc.nevents = R.Events.size();
  Desc.events = R.Events.data();
  sb_options CoreOpts;
  sb_options_default(&CoreOpts);
  CoreOpts.min_batch = Opts.MinBatch;
  CoreOpts.max_slots = Opts.MaxSlots;
  CoreOpts.allow_blocking = Opts.AllowBlocking;
  if (sb_plan_region(&Desc, &CoreOpts, &R.Plan) != 0) {
    LLVM_DEBUG(dbgs() << "sysbatch: planner out of memory, block left alone\n");
    return false;
  }
  R.Planned = true;
  if (const char *Hazard = sb_plan_check_hazards(&R.Plan)) {
    // A plan the kernel could misread is never emitted.
    LLVM_DEBUG(dbgs() << "sysbatch: plan rejected: " << Hazard << "\n");
    report_fatal_error(Twine("sysbatch: core produced a hazardous plan: ") +
                           Hazard,
                       false);
  }
  if (Opts.PrintPlan) {
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
  return true;
}

static void emitRemarks(Region &R, OptimizationRemarkEmitter &ORE) {
  for (int B = 0; B < R.Plan.nbatches; ++B) {
    const sb_batch_plan &BP = R.Plan.batches[B];
    CallInst *First = R.Calls[BP.first_call].Call;
    std::string Names;
    for (int C = BP.first_call; C <= BP.last_call; ++C)
      Names += (Names.empty() ? "" : ", ") +
               R.Calls[C].Call->getCalledFunction()->getName().str();
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Batched", First)
             << "batched " << ore::NV("Calls", BP.ncalls) << " calls ("
             << ore::NV("Callees", Names) << ") into "
             << ore::NV("Slots", BP.nslots) << " slots with "
             << ore::NV("Chains", BP.nchains) << " chains";
    });
  }
  for (int C = 0; C < R.Plan.ncalls; ++C) {
    const sb_call_plan &CP = R.Plan.calls[C];
    if (CP.batch >= 0)
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

private:
  FunctionCallee declare(StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
    FunctionCallee F =
        M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
    if (auto *Fn = dyn_cast<Function>(F.getCallee()))
      Fn->addFnAttr(Attribute::NoUnwind);
    return F;
  }
};

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

/// Rewrite batch \p BI of region \p R: slots and the versioned issue at the
/// first call, then `slot <= last ? convert(rets[slot]) : call` at each call.
static void rewriteBatch(Region &R, int BI, RuntimeABI &RT,
                         SlotFill Fill,
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
  if (Fill == SlotFill::Template) {
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
    // syscall() itself reports -1 and errno whatever NR's row says.
    unsigned Conv = sb_call_ret_conv(SB_ABI_LINUX_X86_64,
                                     &R.Events[C.Event].u.call);
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
    if (Call->getType()->isVoidTy())
      continue;
    Converted = asCallType(RB, Converted, Call->getType());
    PHINode *Result = PHINode::Create(Call->getType(), 2, "", &Tail->front());
    Result->takeName(Call);
    Call->setName(Result->getName() + ".orig");
    Call->replaceAllUsesWith(Result);
    Result->addIncoming(Converted, FromBatch->getParent());
    Result->addIncoming(Call, Original->getParent());
    Replaced[Call] = Result;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

PreservedAnalyses SysbatchPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  Triple T(F.getParent()->getTargetTriple());
  if (T.getArch() != Triple::x86_64 || !T.isOSLinux()) {
    LLVM_DEBUG(dbgs() << "sysbatch: " << F.getName()
                      << ": not x86_64 Linux, the only sys_batch ABI\n");
    return PreservedAnalyses::all();
  }
  if (F.getName().startswith("sysbatch_")) {
    LLVM_DEBUG(dbgs() << "sysbatch: " << F.getName()
                      << ": the runtime itself is never batched\n");
    return PreservedAnalyses::all();
  }

  bool HasCandidate = false;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      HasCandidate |= isCandidate(*CI);
  if (!HasCandidate)
    return PreservedAnalyses::all(); // functions without candidates untouched

  Analysis A{FAM.getResult<AAManager>(F), DenseMap<const AllocaInst *, bool>()};
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  std::vector<std::unique_ptr<Region>> Regions;
  unsigned BlockNo = 0;
  for (BasicBlock &BB : F) {
    auto Found = analyseBlock(A, BB, BlockNo);
    if (Found.empty())
      continue;
    ++BlockNo;
    for (auto &R : Found)
      Regions.push_back(std::move(R));
  }

  bool Changed = false;
  RuntimeABI RT(*F.getParent());
  DenseMap<Value *, Value *> Replaced;
  for (auto &R : Regions) {
    if (!planRegion(*R, Opts))
      continue;
    emitRemarks(*R, ORE);
    for (int B = 0; B < R->Plan.nbatches; ++B) {
      Changed = true;
      const sb_batch_plan &BP = R->Plan.batches[B];
      ++NumBatches;
      NumBatchedCalls += BP.ncalls;
      NumSlots += BP.nslots;
      NumChains += BP.nchains;
      rewriteBatch(*R, B, RT, Opts.Fill, Replaced);
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// `sysbatch<min-batch=N;max-slots=N;no-blocking;print-plan;fill=...>`
static Expected<SysbatchOptions> parseSysbatchParameters(StringRef Params) {
  SysbatchOptions O;
  while (!Params.empty()) {
    StringRef P;
    std::tie(P, Params) = Params.split(';');
    if (P == "print-plan") {
      O.PrintPlan = true;
    } else if (P == "no-print-plan") {
      O.PrintPlan = false;
    } else if (P == "no-blocking") {
      O.AllowBlocking = false;
    } else if (P.startswith("min-batch=") || P.startswith("max-slots=")) {
      StringRef Key, Value;
      std::tie(Key, Value) = P.split('=');
      int N;
      if (Value.getAsInteger(10, N) || N < 1 || N > SB_MAX_REGION_CALLS)
        return make_error<StringError>(
            "sysbatch: " + Key + " wants an integer in 1.." +
                Twine(SB_MAX_REGION_CALLS) + ", got '" + Value + "'",
            inconvertibleErrorCode());
      (Key == "min-batch" ? O.MinBatch : O.MaxSlots) = N;
    } else if (P.consume_front("fill=")) {
      if (P == "template")
        O.Fill = SlotFill::Template;
      else if (P == "stores")
        O.Fill = SlotFill::Stores;
      else
        return make_error<StringError>(
            "sysbatch: fill wants 'template' or 'stores', got '" + P + "'",
            inconvertibleErrorCode());
    } else {
      return make_error<StringError>(
          "sysbatch: unknown pass parameter '" + P +
              "' (known: min-batch=N, max-slots=N, no-blocking, print-plan, "
              "fill=template|stores)",
          inconvertibleErrorCode());
    }
  }
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
