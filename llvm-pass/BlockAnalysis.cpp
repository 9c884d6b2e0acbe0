//===- BlockAnalysis.cpp - phase 1: calls, operands, gaps, barriers -------===//
//
// Describes the IR of a region to the core as events (core/include/sysbatch/
// core.h): one call event per candidate call (its catalogue row, the
// front end's objection to its IR shape, and every argument classified as a
// constant, a value available at the issue point, a result of an earlier
// call or a word an earlier call wrote), and one code event per stretch of
// code between calls (a barrier, or the later calls it does not commute
// with, found with alias analysis and the -O0 stack-slot forwarding).
// analyseBlock() does this for the straight-line regions of one basic
// block; Regions.cpp and TockAnalysis.cpp reuse the visit* functions for
// branchy regions and Tock chains.
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"

#include "sysbatch/libc.h"
#include "sysbatch/shape.h"

#include <optional>

#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

static bool isErrnoLocationCall(const Value *V) {
  const auto *CI = dyn_cast<CallInst>(V);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == "__errno_location";
}

bool isErrnoAccess(const Value *Ptr) {
  return isErrnoLocationCall(getUnderlyingObject(Ptr));
}

/// An alloca whose address is only ever loaded from or stored to directly
/// (plus lifetime markers): no call can read or write it, and the last store
/// in the block is what a load sees.
bool isNonEscapingAlloca(Analysis &A, const Value *Ptr) {
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

/// Does candidate call \p C change memory that exists before it through an
/// address argument?  The core decides (sb_call_addr_touches_memory) from
/// the arguments that are constants here: mmap(NULL, ..., MAP_PRIVATE, ...)
/// does not.
static bool addrTouchesMemory(const CandidateCall &C) {
  bool IsConst[SB_MAX_ARGS] = {};
  long Consts[SB_MAX_ARGS] = {};
  int N = std::min<int>(C.RawRow->libc_argc, SB_MAX_ARGS);
  for (int K = 0; K < N && C.FirstArg + K < C.Call->arg_size(); ++K) {
    Value *V = C.Call->getArgOperand(C.FirstArg + K);
    if (auto *CI = dyn_cast<ConstantInt>(V)) {
      if (CI->getBitWidth() <= 64) {
        IsConst[K] = true;
        Consts[K] = (long)CI->getSExtValue();
      }
    } else if (isa<ConstantPointerNull>(V)) {
      IsConst[K] = true;
    }
  }
  return sb_call_addr_touches_memory(C.RawRow, N, IsConst, Consts);
}

ArgMemory visitCallArgMemory(const CandidateCall &C, unsigned K) {
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
    if (!addrTouchesMemory(C))
      return M;
    M.Effect = ArgMemory::Everything;
    return M;
  case SB_ARG_OPAQUE:
    M.Effect = ArgMemory::Everything;
    return M;
  case SB_ARG_IOVEC_OUT: // readv: writes buffers known only at run time
    M.Effect = ArgMemory::Everything;
    return M;
  case SB_ARG_IOVEC_IN:
    M.Effect = ArgMemory::ReadsAnything;
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
/// \p Writer: the first instruction found that may change it.
static bool visitLoadUnchanged(Analysis &A, Region &R, LoadInst *L,
                               Instruction **Writer = nullptr) {
  if (!L->isSimple())
    return false;
  MemoryLocation Loc = MemoryLocation::get(L);
  auto MayWrite = [&](Instruction *I) {
    auto CI = R.CallIndex.find(I);
    if (CI != R.CallIndex.end())
      return visitCallMayWrite(A, R.Calls[CI->second], Loc);
    return I->mayWriteToMemory() && isModSet(A.AA.getModRefInfo(I, Loc));
  };
  // The answer is the first writer found; the one named is a real write
  // where there is one (a lifetime start only makes the object undefined,
  // and the remark should name the call that wrote it).
  Instruction *Marker = nullptr;
  auto Found = [&](Instruction *I) {
    auto *II = dyn_cast<IntrinsicInst>(I);
    if (II && II->isLifetimeStartOrEnd()) {
      if (!Marker)
        Marker = I;
      return false;
    }
    if (Writer)
      *Writer = I;
    return true;
  };
  for (Instruction *I = L->getPrevNode(); I; I = I->getPrevNode()) {
    if (!R.inside(I))
      break;
    if (MayWrite(I) && Found(I))
      return false;
  }
  // Branchy region: every block on some path from the issue point to L.
  int B = R.branchy() ? R.blockOf(L) : -1;
  for (int P = 0; B > 0 && P < B; ++P) {
    if (!(R.Ancestors[B] >> P & 1))
      continue;
    for (Instruction &I : *R.Blocks[P])
      if (R.inside(&I) && MayWrite(&I) && Found(&I))
        return false;
  }
  if (Marker) {
    if (Writer)
      *Writer = Marker;
    return false;
  }
  return true;
}

static sb_operand operand(sb_operand_kind Kind, int Call = -1, long Value = 0);

/// Can the issue point (before the region's first call) make load \p L,
/// which stands in a later block of a branchy region and so runs on some
/// paths only, without faulting?  When its address is dereferenceable
/// anywhere (a global, a stack object at a constant offset), or when the
/// entry block already loads or stores that very address, at least as wide
/// and as aligned, before the issue point with no call in between that may
/// write memory (a free): LLVM's own rule, isSafeToLoadUnconditionally
/// scanning back from the first call (`fchdir(sp->fd)`, then `close(sp->fd)`
/// on both of its paths).  The GCC plugin decides the same
/// (block_scanner::load_cannot_trap_at_issue).
static bool earlierAccessCovers(Analysis &A, Region &R, LoadInst *L);

static bool loadSafeAtIssue(Analysis &A, Region &R, LoadInst *L) {
  if (R.Calls.empty())
    return false;
  const DataLayout &DL = L->getModule()->getDataLayout();
  Value *Ptr = L->getPointerOperand();
  return isDereferenceablePointer(Ptr, L->getType(), DL) ||
         isSafeToLoadUnconditionally(Ptr, L->getType(), L->getAlign(), DL,
                                     R.Calls.front().Call) ||
         earlierAccessCovers(A, R, L);
}

namespace {
/// The instructions that run on every path to the issue point, walking
/// back from it through its block and then through single predecessors,
/// up to the first call that may free memory (any call but a debug or
/// lifetime marker of another object) - most recent first.
struct EarlierChain {
  std::vector<Instruction *> Insts;
};

/// A pointer as object + constant byte offset + variable part: the sum of
/// scale * index over an inbounds GEP chain's variable indices.
struct DecomposedPtr {
  const Value *Object = nullptr;
  int64_t Offset = 0;
  SmallVector<std::pair<int64_t, Value *>, 2> Variable;
};
} // namespace

static EarlierChain earlierChain(Region &R) {
  EarlierChain C;
  Instruction *I = R.Calls.front().Call->getPrevNode();
  BasicBlock *BB = R.Calls.front().Call->getParent();
  for (int Blocks = 0; Blocks < 8 && C.Insts.size() < 256;) {
    for (; I; I = I->getPrevNode()) {
      if (auto *CB = dyn_cast<CallBase>(I)) {
        auto *II = dyn_cast<IntrinsicInst>(CB);
        if (!II || !(isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd()))
          return C;
      }
      C.Insts.push_back(I);
    }
    BB = BB->getSinglePredecessor();
    if (!BB || ++Blocks >= 8)
      break;
    I = &BB->back();
  }
  return C;
}

/// Do \p Early (met on the chain, before the issue point) and \p Late
/// (in the region) compute the same value?  The same value, the same GEP
/// or cast of such values, or two loads of one
/// non-escaping stack slot that nothing stores to between them (clang -O0
/// and -O2 before inlining reload a parameter from its slot each time).
static bool sameValue(Analysis &A, Region &R, const EarlierChain &C,
                      Value *Early, Value *Late, unsigned Depth = 0) {
  if (Early == Late)
    return true;
  if (Depth > 8 || Early->getType() != Late->getType())
    return false;
  if (auto *GE = dyn_cast<GEPOperator>(Early)) {
    auto *GL = dyn_cast<GEPOperator>(Late);
    if (!GL || GE->getSourceElementType() != GL->getSourceElementType() ||
        GE->getNumOperands() != GL->getNumOperands())
      return false;
    for (unsigned K = 0; K < GE->getNumOperands(); ++K)
      if (!sameValue(A, R, C, GE->getOperand(K), GL->getOperand(K),
                     Depth + 1))
        return false;
    return true;
  }
  if (auto *CE = dyn_cast<CastInst>(Early)) {
    auto *CL = dyn_cast<CastInst>(Late);
    return CL && CE->getOpcode() == CL->getOpcode() &&
           sameValue(A, R, C, CE->getOperand(0), CL->getOperand(0),
                     Depth + 1);
  }
  auto *LE = dyn_cast<LoadInst>(Early);
  auto *LL = dyn_cast<LoadInst>(Late);
  if (!LE || !LL || !LE->isSimple() || !LL->isSimple() ||
      LE->getPointerOperand() != LL->getPointerOperand() ||
      !isNonEscapingAlloca(A, LE->getPointerOperand()))
    return false;
  // Late reads what the slot holds at the issue point ...
  bool Ambiguous = false;
  if (!R.inside(LL) || reachingStore(R, LL, Ambiguous) || Ambiguous)
    return false;
  // ... and Early stands on the chain with no store to the slot after it.
  for (unsigned K = 0; K < C.Insts.size(); ++K) {
    if (auto *S = dyn_cast<StoreInst>(C.Insts[K]))
      if (S->getPointerOperand() == LE->getPointerOperand())
        return false;
    if (C.Insts[K] == LE)
      return true;
  }
  return false;
}

static bool decompose(const DataLayout &DL, Value *Ptr, DecomposedPtr &D) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    Ptr = Ptr->stripPointerCasts();
    auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP) {
      if (!isa<GlobalVariable>(Ptr) && !isa<AllocaInst>(Ptr))
        return false;
      D.Object = Ptr;
      return true;
    }
    if (!GEP->isInBounds())
      return false;
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI) {
      Value *Idx = GTI.getOperand();
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        unsigned Field = cast<ConstantInt>(Idx)->getZExtValue();
        D.Offset += (int64_t)DL.getStructLayout(ST)->getElementOffset(Field);
        continue;
      }
      TypeSize Size = DL.getTypeAllocSize(GTI.getIndexedType());
      if (Size.isScalable())
        return false;
      int64_t Scale = (int64_t)Size.getFixedValue();
      if (auto *CI = dyn_cast<ConstantInt>(Idx)) {
        if (CI->getBitWidth() > 64)
          return false;
        int64_t Index = CI->getSExtValue();
        if (Index > (1 << 24) || Index < -(1 << 24) || Scale > (1 << 24))
          return false;
        D.Offset += Index * Scale;
      } else {
        D.Variable.push_back({Scale, Idx});
      }
    }
    Ptr = GEP->getPointerOperand();
  }
  return false;
}

/// The alignment every address the decomposition can take has: the
/// object's, and the constant and every scale.
static uint64_t decomposedAlign(const DecomposedPtr &D) {
  uint64_t Align = 1;
  if (auto *G = dyn_cast<GlobalVariable>(D.Object))
    Align = G->getAlign() ? G->getAlign()->value() : 1;
  else if (auto *AI = dyn_cast<AllocaInst>(D.Object))
    Align = AI->getAlign().value();
  auto Gcd = [](uint64_t X, uint64_t Y) {
    while (Y) {
      uint64_t T = X % Y;
      X = Y;
      Y = T;
    }
    return X;
  };
  if (D.Offset)
    Align = Gcd(Align, (uint64_t)(D.Offset < 0 ? -D.Offset : D.Offset));
  for (const auto &V : D.Variable)
    Align = Gcd(Align, (uint64_t)V.first);
  return Align ? Align : 1;
}

/// The size of a global or stack object, or -1.
static int64_t objectSize(const DataLayout &DL, const Value *Object) {
  Type *Ty = nullptr;
  uint64_t Count = 1;
  if (auto *G = dyn_cast<GlobalVariable>(Object)) {
    if (!G->isDeclaration() && !G->hasDefinitiveInitializer())
      return -1; // may be replaced by another definition of another size
    Ty = G->getValueType();
  } else if (auto *AI = dyn_cast<AllocaInst>(Object)) {
    auto *N = dyn_cast<ConstantInt>(AI->getArraySize());
    if (!N)
      return -1;
    Count = N->getZExtValue();
    Ty = AI->getAllocatedType();
  }
  if (!Ty || !Ty->isSized())
    return -1;
  TypeSize Size = DL.getTypeAllocSize(Ty);
  if (Size.isScalable() || Count > (1u << 20))
    return -1;
  return (int64_t)(Size.getFixedValue() * Count);
}

/// Does an access on every path to the issue point prove that \p L cannot
/// fault there?  Either it reads or writes L's very address, at least as
/// wide (through the same computation: sameValue), or both address a
/// global or stack object of known size by one variable offset V (the same
/// indices, scaled alike) plus constants, so that the earlier access in
/// bounds, c1 + V in [0, size1 - n1], puts L's c2 + V in [0, size2 - n2]:
/// rtapelib's `to[n][0]` before the batch makes `to[n][1]` and `from[n][1]`
/// safe (arrays of the same shape).
static bool earlierAccessCovers(Analysis &A, Region &R, LoadInst *L) {
  const DataLayout &DL = L->getModule()->getDataLayout();
  EarlierChain C = earlierChain(R);
  uint64_t LSize = DL.getTypeStoreSize(L->getType()).getFixedValue();
  DecomposedPtr DL2;
  bool LDecomposed = decompose(DL, L->getPointerOperand(), DL2);
  int64_t Size2 = LDecomposed ? objectSize(DL, DL2.Object) : -1;
  for (unsigned K = 0; K < C.Insts.size(); ++K) {
    Instruction *I = C.Insts[K];
    Value *Ptr = nullptr;
    Type *Ty = nullptr;
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (LI->isSimple())
        Ptr = LI->getPointerOperand(), Ty = LI->getType();
    } else if (auto *SI = dyn_cast<StoreInst>(I)) {
      if (SI->isSimple())
        Ptr = SI->getPointerOperand(), Ty = SI->getValueOperand()->getType();
    }
    if (!Ptr || !Ty->isSized())
      continue;
    uint64_t ESize = DL.getTypeStoreSize(Ty).getFixedValue();
    Align EAlign = isa<LoadInst>(I) ? cast<LoadInst>(I)->getAlign()
                                    : cast<StoreInst>(I)->getAlign();
    if (ESize >= LSize && EAlign >= L->getAlign() &&
        sameValue(A, R, C, Ptr, L->getPointerOperand()))
      return true;
    if (Size2 < 0 || decomposedAlign(DL2) < L->getAlign().value())
      continue;
    DecomposedPtr D1;
    if (!decompose(DL, Ptr, D1) || D1.Variable.size() != DL2.Variable.size())
      continue;
    int64_t Size1 = objectSize(DL, D1.Object);
    if (Size1 < 0)
      continue;
    bool SameV = true;
    for (unsigned J = 0; J < D1.Variable.size() && SameV; ++J)
      SameV = D1.Variable[J].first == DL2.Variable[J].first &&
              sameValue(A, R, C, D1.Variable[J].second,
                        DL2.Variable[J].second);
    if (!SameV)
      continue;
    // V, a multiple of the scales' power-of-two factor, in [-c1, size1 -
    // n1 - c1]; then c2 + V must lie in [0, size2 - n2] (the core's rule).
    int64_t Factor = 0;
    for (const auto &V : D1.Variable)
      Factor |= V.first;
    if (sb_offset_in_bounds_after(Factor & -Factor, D1.Offset,
                                  (int64_t)ESize, Size1, DL2.Offset,
                                  (int64_t)LSize, Size2))
      return true;
  }
  return false;
}

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
    // A writer that does not run on every path to the load cannot feed it
    // a word copy: the load reads memory code wrote (as GCC sees it too).
    if (CB != LB && !(R.Dominators[LB] >> CB & 1)) {
      if (visitCallMayWrite(A, C, Word))
        return operand(SB_OPND_LOCAL);
      continue;
    }
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
      // side of every call in between: none of those calls may write it.
      // The consumers are the region calls that take the load itself; calls
      // after the last of them run after every copy (munmap(p, st.st_size)
      // after mmap(NULL, st.st_size, ...)).
      unsigned LastUse = 0;
      bool CallUsers = false;
      for (User *U : L->users())
        if (auto *UC = dyn_cast<CallInst>(U))
          if (R.CallIndex.count(UC)) {
            LastUse = std::max(LastUse, R.Position.lookup(UC));
            CallUsers = true;
          }
      for (const CandidateCall &Later : R.Calls) {
        unsigned Pos = R.Position.lookup(Later.Call);
        if (Pos > LoadPos && (!CallUsers || Pos < LastUse) &&
            visitCallMayWrite(A, Later, Word))
          return operand(SB_OPND_LOCAL);
      }
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
StoreInst *reachingStore(Region &R, LoadInst *L, bool &Ambiguous) {
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

/// Classify \p V as seen by a call of region \p R (phase 1 of the core).
/// A signed max of \p X and a constant \p Floor: the smax intrinsic, or
/// the select clang 14 leaves for an inlined `if (x < 0) return -1;
/// return x;` (`select (icmp sgt X, -1), X, -1`).
static bool signedMaxFloor(Instruction *I, Value *&X, long &Floor) {
  const APInt *C = nullptr;
  Value *V = nullptr;
  if (!PatternMatch::match(I, PatternMatch::m_SMax(PatternMatch::m_Value(V),
                                                   PatternMatch::m_APInt(C))) ||
      C->getBitWidth() > 64)
    return false;
  X = V;
  Floor = (long)C->getSExtValue();
  return true;
}

/// A division or remainder by a constant that cannot trap (not 0, and not
/// -1 for a signed one): libtock-c's alarm ticks, `(uint64_t)ms * frequency
/// / 1000`, which clang sinks below the subscribe before the series' last
/// command.  Tock only: GCC computes them before the series there.
static bool cannotTrapDivRem(const Instruction *I) {
  if (!I->isIntDivRem())
    return false;
  const auto *D = dyn_cast<ConstantInt>(I->getOperand(1));
  if (!D || D->isZero())
    return false;
  bool Signed = I->getOpcode() == Instruction::SDiv ||
                I->getOpcode() == Instruction::SRem;
  return !(Signed && D->isMinusOne());
}

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
  Value *MaxOf = nullptr;
  long MaxFloor = 0;
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
  } else if (signedMaxFloor(I, MaxOf, MaxFloor)) {
    // An inlined `if (fd < 0) return -1; return fd;`: smax(fd, -1) is the
    // result itself when the core says so (sb_max_keeps_result).
    sb_operand Src = visitOperand(A, R, MaxOf, Depth + 1);
    if (Src.kind == SB_OPND_RESULT && !Src.narrowest_bits &&
        sb_max_keeps_result(R.Abi, &R.Events[R.Calls[Src.call].Event].u.call,
                            MaxFloor))
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
               (R.blockOf(L) <= 0 || loadSafeAtIssue(A, R, L)) &&
               visitLoadUnchanged(A, R, L)) {
      // In a later block of a branchy region the load runs only on some
      // paths, and repeating it at the issue point might fault (a pointer
      // valid only on that path) unless loadSafeAtIssue proves it cannot.
      Result = operand(SB_OPND_AVAILABLE);
    } else if (R.Abi == SB_ABI_TOCK &&
               visitOperand(A, R, Ptr, Depth + 1).kind == SB_OPND_AVAILABLE &&
               visitTockUnchangedPrivateLoad(A, R, L)) {
      Result = operand(SB_OPND_AVAILABLE);
    } else {
      Result = visitMemoryWord(A, R, L);
    }
  } else if (isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
             isa<SelectInst>(I) || isa<FreezeInst>(I) ||
             (isa<BinaryOperator>(I) && !I->isIntDivRem()) ||
             (R.Abi == SB_ABI_TOCK && cannotTrapDivRem(I))) {
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

/// Is a branch condition \p V available where the batch is issued (the
/// issue point, before the region's first call)?  What call arguments may
/// be (visitOperand: defined before, or pure code and unchanged loads that
/// materialize() repeats there), and also a load in a later block whose
/// address is dereferenceable anywhere in the function (a global, a stack
/// object at a constant offset): repeating it at the issue point cannot
/// fault, and visitLoadUnchanged proves it reads the same value.  \p What
/// names the call or the code that makes it unavailable.
sb_pred_avail visitBranchCondition(Analysis &A, Region &R, Value *V,
                                   const char *&What, unsigned Depth) {
  sb_operand O = visitOperand(A, R, V);
  if (O.kind == SB_OPND_CONST || O.kind == SB_OPND_AVAILABLE)
    return SB_PA_AVAILABLE;
  if (O.kind == SB_OPND_RESULT || O.kind == SB_OPND_MEMORY) {
    CallInst *Call = R.Calls[O.call].Call;
    std::string Name = Call->getCalledFunction()
                           ? Call->getCalledFunction()->getName().str()
                           : "?";
    What = R.keep(O.kind == SB_OPND_RESULT ? Name : "a call to " + Name);
    return O.kind == SB_OPND_RESULT ? SB_PA_RESULT : SB_PA_WRITTEN;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 16)
    return SB_PA_COMPUTED;
  if (auto *L = dyn_cast<LoadInst>(I)) {
    if (!L->isSimple())
      return SB_PA_COMPUTED;
    Value *Ptr = L->getPointerOperand();
    sb_pred_avail P = visitBranchCondition(A, R, Ptr, What, Depth + 1);
    if (P != SB_PA_AVAILABLE)
      return P;
    if (!loadSafeAtIssue(A, R, L))
      return SB_PA_UNSAFE_LOAD;
    Instruction *Writer = nullptr;
    if (!visitLoadUnchanged(A, R, L, &Writer)) {
      What = Writer ? R.keep(describe(*Writer)) : nullptr;
      return SB_PA_WRITTEN;
    }
    return SB_PA_AVAILABLE;
  }
  // Integer and pointer code only: a floating-point compare made early
  // could raise an exception flag the program never raised.
  if (I->getType()->isFPOrFPVectorTy() ||
      (isa<CmpInst>(I) && !isa<ICmpInst>(I)))
    return SB_PA_COMPUTED;
  if (isa<ICmpInst>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I) ||
      isa<CastInst>(I) || isa<GetElementPtrInst>(I) ||
      (isa<BinaryOperator>(I) && !I->isIntDivRem())) {
    for (Value *Op : I->operands()) {
      sb_pred_avail P = visitBranchCondition(A, R, Op, What, Depth + 1);
      if (P != SB_PA_AVAILABLE)
        return P;
    }
    return SB_PA_AVAILABLE;
  }
  return SB_PA_COMPUTED;
}

/// A call the catalogue knows, or null.  Only declarations count: a function
/// defined in this module is not the libc wrapper the row describes.
/// On Tock, rows of that ABI only (libtock-c's names); syscall(NR, ...) is
/// a Linux entry point there is no Tock counterpart of.
const sb_syscall *visitCallee(CallInst &CI, bool &RawSyscall,
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

bool isCandidate(CallInst &CI, sb_abi Abi) {
  // A call site a loop or region rewrite already batched is no candidate.
  if (CI.getMetadata(LoopBatchedMD) || CI.getMetadata(RegionBatchedMD))
    return false;
  bool Raw;
  return visitCallee(CI, Raw, Abi) || Raw;
}

/// Does \p CI return its struct through an sret pointer (operand 0)?
bool hasSretResult(const CallInst &CI) {
  return CI.arg_size() > 0 && CI.paramHasAttr(0, Attribute::StructRet);
}

/// An IR type as the core sees a value.
static sb_value_shape valueShape(Type *T, const DataLayout &DL) {
  sb_value_shape V = {SB_VALUE_OTHER, 0};
  if (T->isVoidTy()) {
    V.kind = SB_VALUE_VOID;
    return V;
  }
  if (T->isIntegerTy() || T->isPointerTy()) {
    V.kind = T->isPointerTy() ? SB_VALUE_POINTER : SB_VALUE_INTEGER;
    V.bits = T->isPointerTy() ? DL.getPointerTypeSizeInBits(T)
                              : T->getIntegerBitWidth();
    return V;
  }
  if (T->isAggregateType())
    V.kind = SB_VALUE_AGGREGATE;
  if (T->isSized())
    V.bits = (uint32_t)DL.getTypeStoreSize(T) * 8;
  return V;
}

/// What the core needs to know of a catalogue call's IR: its result (an
/// sret slot counts as a result in memory), its arguments, its function.
static sb_call_shape describeShape(const CandidateCall &C) {
  CallInst *Call = C.Call;
  const DataLayout &DL = Call->getModule()->getDataLayout();
  sb_call_shape S = {};
  if (hasSretResult(*Call)) {
    Type *Slot = compat::sretType(*Call, 0);
    S.result.kind = SB_VALUE_AGGREGATE;
    S.result.bits =
        Slot && Slot->isSized() ? (uint32_t)DL.getTypeAllocSize(Slot) * 8 : 0;
    S.result_in_memory = true;
  } else {
    S.result = valueShape(Call->getType(), DL);
  }
  S.nargs = std::min<int>(Call->arg_size() - C.EventBase, SB_SHAPE_MAX_ARGS);
  for (int K = 0; K < S.nargs; ++K)
    S.args[K] = valueShape(Call->getArgOperand(C.EventBase + K)->getType(), DL);
  S.function_returns_twice = Call->getFunction()->callsFunctionThatReturnsTwice();
  return S;
}

/// The core's objection to the call's shape (sysbatch/shape.h), or empty.
std::string visitCallShape(const CandidateCall &C) {
  sb_call_shape S = describeShape(C);
  char Buf[160];
  const char *Why = sb_call_shape_objection(
      C.RawRow && C.RawRow->abi == SB_ABI_TOCK ? SB_ABI_TOCK
                                               : SB_ABI_LINUX_X86_64,
      C.RawRow, &S, Buf, sizeof Buf);
  return Why ? Why : "";
}

/// The non-escaping stack slot \p V is a plain load of (clang before
/// SROA keeps `fd` there), or null.
static const Value *stackSlotOf(Analysis &A, const Value *V) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L || !L->isSimple() || !isNonEscapingAlloca(A, L->getPointerOperand()))
    return nullptr;
  return L->getPointerOperand();
}

/// Does an instruction in [\p From, \p To) store to \p Slot?
static bool storesTo(const Value *Slot, const Instruction *From,
                     const Instruction *To) {
  for (const Instruction *I = From; I && I != To; I = I->getNextNode())
    if (const auto *S = dyn_cast<StoreInst>(I))
      if (S->getPointerOperand() == Slot)
        return true;
  return false;
}

/// The compare a block's conditional branch tests (its condition), or
/// null; \p Br gets the branch (null when the block ends otherwise).
static const ICmpInst *branchCompare(const BasicBlock *BB,
                                     const BranchInst *&Br) {
  Br = dyn_cast<BranchInst>(BB->getTerminator());
  return Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition())
                                   : nullptr;
}

/// Is the int \p V in 0..INT32_MAX wherever \p Call runs?  True when a
/// branch on the way to the call (up its chain of single predecessors) left
/// on a negative value: fd = name ? open(name, O_RDONLY) : 0; if (fd < 0)
/// return; fstat(fd, &st).  The compared value is V itself, or a load of
/// the same stack slot with no store to it in between.
static bool provenNonNegative(Analysis &A, Value *V, CallInst *Call) {
  if (!V->getType()->isIntegerTy(32))
    return false;
  const Value *Slot = stackSlotOf(A, V);
  const BasicBlock *BB = Call->getParent();
  const Instruction *Until = Call;
  for (int Depth = 0; Depth < 8; ++Depth) {
    if (Slot && storesTo(Slot, &BB->front(), Until))
      return false;
    const BasicBlock *Pred = BB->getSinglePredecessor();
    if (!Pred)
      return false;
    const BranchInst *Br;
    const ICmpInst *Cmp = branchCompare(Pred, Br);
    const auto *C = Cmp ? dyn_cast<ConstantInt>(Cmp->getOperand(1)) : nullptr;
    Value *Lhs = Cmp ? Cmp->getOperand(0) : nullptr;
    bool Same = Lhs && (Lhs == V || (Slot && stackSlotOf(A, Lhs) == Slot &&
                                     !storesTo(Slot, cast<Instruction>(Lhs),
                                               Pred->getTerminator())));
    if (Same && C && Br->getSuccessor(0) != Br->getSuccessor(1)) {
      CmpInst::Predicate P = Br->getSuccessor(0) == BB
                                 ? Cmp->getPredicate()
                                 : Cmp->getInversePredicate();
      int64_t K = C->getSExtValue();
      if ((P == CmpInst::ICMP_SGE && K >= 0) ||
          (P == CmpInst::ICMP_SGT && K >= -1) ||
          (P == CmpInst::ICMP_EQ && K >= 0))
        return true;
    }
    if (Slot && storesTo(Slot, &Pred->front(), nullptr))
      return false;
    BB = Pred;
    Until = nullptr;
  }
  return false;
}

/// Is pointer \p V not null wherever \p Call runs?  LLVM's own facts
/// (isKnownNonZero with the call as context: the address of an object, a
/// nonnull parameter, a dominating compare with null or dereference of the
/// same value), or - for clang -O0 and before inlining, where each use
/// reloads the pointer from its stack slot - the same facts about a load of
/// that slot with no store to it in between: a load or store through it,
/// or a call whose parameter is declared nonnull (strlen), before the call
/// in its block or up its chain of single predecessors, or a branch there
/// that left when it was null.
static bool provenNonNull(Analysis &A, Value *V, CallInst *Call) {
  if (!V->getType()->isPointerTy())
    return false;
  const DataLayout &DL = Call->getModule()->getDataLayout();
  auto KnownNonNull = [&](const Value *P, const Instruction *At) {
    // The address of an object: a string constant, a global, a local.
    const Value *Base = P->stripInBoundsOffsets();
    if ((isa<GlobalVariable>(Base) || isa<Function>(Base)) &&
        !cast<GlobalValue>(Base)->hasExternalWeakLinkage())
      return true;
    return isa<AllocaInst>(Base) || compat::knownNonZeroAt(P, DL, At, A.DT);
  };
  if (KnownNonNull(V, Call))
    return true;
  const Value *Slot = stackSlotOf(A, V);
  if (!Slot)
    return false;
  // The slot is stored to once, with a value known not to be null (a
  // parameter declared nonnull, spilled at -O0), before the call.
  const StoreInst *Only = nullptr;
  unsigned Stores = 0;
  for (const User *U : Slot->users())
    if (const auto *S = dyn_cast<StoreInst>(U)) {
      Stores += S->getPointerOperand() == Slot ? 1 : 100;
      Only = S;
    }
  if (Stores == 1 && A.DT && A.DT->dominates(Only, Call) &&
      KnownNonNull(Only->getValueOperand(), Only))
    return true;
  // A reload of the slot at \p At, not stored to again before \p To.
  auto SameReload = [&](const Value *P, const Instruction *To) {
    const auto *L = dyn_cast<LoadInst>(P);
    return L && stackSlotOf(A, L) == Slot && L->getParent() == To->getParent() &&
           !storesTo(Slot, L, To);
  };
  const BasicBlock *BB = Call->getParent();
  const Instruction *I = Call->getPrevNode();
  for (int Depth = 0; Depth < 8; ++Depth) {
    for (; I; I = I->getPrevNode()) {
      if (const auto *S = dyn_cast<StoreInst>(I))
        if (S->getPointerOperand() == Slot)
          return false;
      if (const Value *P = getLoadStorePointerOperand(I))
        if (SameReload(P, I) && !NullPointerIsDefined(I->getFunction()))
          return true;
      if (const auto *CB = dyn_cast<CallBase>(I)) {
        // A parameter declared nonnull, or a string a function of the
        // core's libc table reads up to its NUL (strlen(path)).
        const Function *F = CB->getCalledFunction();
        const sb_libc_function *Fn =
            F ? sb_libc_lookup(F->getName().str().c_str()) : nullptr;
        for (unsigned K = 0; K < CB->arg_size(); ++K)
          if (SameReload(CB->getArgOperand(K), I) &&
              (CB->paramHasAttr(K, Attribute::NonNull) ||
               (Fn && K < Fn->argc &&
                Fn->args[K].access == SB_LIBC_READS &&
                Fn->args[K].size_arg < 0 && Fn->args[K].fixed_size == 0)))
            return true;
      }
    }
    const BasicBlock *Pred = BB->getSinglePredecessor();
    if (!Pred)
      return false;
    const BranchInst *Br;
    const ICmpInst *Cmp = branchCompare(Pred, Br);
    if (Cmp && Cmp->isEquality() && isa<ConstantPointerNull>(Cmp->getOperand(1)) &&
        SameReload(Cmp->getOperand(0), Cmp) &&
        !storesTo(Slot, Cmp, nullptr) &&
        Br->getSuccessor(0) != Br->getSuccessor(1)) {
      bool NonNullEdge = Cmp->getPredicate() == CmpInst::ICMP_NE
                             ? Br->getSuccessor(0) == BB
                             : Br->getSuccessor(1) == BB;
      if (NonNullEdge)
        return true;
    }
    BB = Pred;
    I = &Pred->back();
  }
  return false;
}

/// Does instruction \p I give, where it stands, the value it would give
/// at the issue point (the region's first call)?  Inside the region: when
/// visitOperand found it available (materialize() makes it again there;
/// its memory is unchanged since the issue point).  Before the issue
/// point in the issue block: pure code, or a load whose memory nothing
/// between it and the issue point may write.
static bool asAtIssue(Analysis &A, Region &R, Instruction *I) {
  if (R.inside(I))
    return visitOperand(A, R, I).kind == SB_OPND_AVAILABLE;
  Instruction *First = R.Calls.front().Call;
  if (I->getParent() != First->getParent() || !I->comesBefore(First))
    return false;
  auto *L = dyn_cast<LoadInst>(I);
  if (!L)
    return !I->mayReadOrWriteMemory();
  if (!L->isSimple())
    return false;
  MemoryLocation Loc = MemoryLocation::get(L);
  for (Instruction *J = L->getNextNode(); J && J != First; J = J->getNextNode())
    if (J->mayWriteToMemory() && isModSet(A.AA.getModRefInfo(J, Loc)))
      return false;
  return true;
}

/// Do \p X and \p Y compute the same value where the batch is issued?
/// The same value, or the same operation on such values where each gives
/// its value at the issue point (asAtIssue): loads of memory nothing
/// changes in between, pure arithmetic, casts, addresses.  Two loads
/// before the issue point with a store in between are different values.
static bool sameAtIssue(Analysis &A, Region &R, Value *X, Value *Y,
                        unsigned Depth = 0) {
  for (Value **V : {&X, &Y}) {
    auto Fwd = R.Forwarded.find(*V);
    if (Fwd != R.Forwarded.end())
      *V = Fwd->second;
  }
  if (X == Y)
    return true;
  auto *IX = dyn_cast<Instruction>(X), *IY = dyn_cast<Instruction>(Y);
  if (Depth > 8 || !IX || !IY || X->getType() != Y->getType() ||
      IX->getOpcode() != IY->getOpcode() ||
      IX->getNumOperands() != IY->getNumOperands() || !asAtIssue(A, R, IX) ||
      !asAtIssue(A, R, IY))
    return false;
  if (auto *LX = dyn_cast<LoadInst>(IX)) {
    if (!LX->isSimple() || !cast<LoadInst>(IY)->isSimple())
      return false;
  } else if (auto *GX = dyn_cast<GetElementPtrInst>(IX)) {
    if (GX->getSourceElementType() !=
        cast<GetElementPtrInst>(IY)->getSourceElementType())
      return false;
  } else if (!isa<CastInst>(IX) && !isa<BinaryOperator>(IX)) {
    return false;
  }
  for (unsigned K = 0; K < IX->getNumOperands(); ++K)
    if (!sameAtIssue(A, R, IX->getOperand(K), IY->getOperand(K), Depth + 1))
      return false;
  return true;
}

/// The value number of fd \p V (sb_operand.same) in region \p R.
static uint16_t valueNumber(Analysis &A, Region &R, Value *V) {
  for (size_t K = 0; K < R.SameValues.size(); ++K)
    if (sameAtIssue(A, R, R.SameValues[K], V))
      return (uint16_t)(K + 1);
  if (R.SameValues.size() >= 65535)
    return 0;
  R.SameValues.push_back(V);
  return (uint16_t)R.SameValues.size();
}

/// One call event: the row, and every written argument classified.
void visitCall(Analysis &A, Region &R, unsigned Index) {
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
  // glibc's negative-fd precheck: an fd checked before the call passes.
  if (C.Row && C.Row == C.RawRow && C.Row->precheck == SB_PRE_FD_NONNEG &&
      C.Row->precheck_arg < CE.nargs) {
    sb_operand &Fd = CE.args[C.Row->precheck_arg];
    Fd.nonneg = Fd.kind == SB_OPND_AVAILABLE &&
                provenNonNegative(
                    A, C.Call->getArgOperand(C.EventBase + C.Row->precheck_arg),
                    C.Call);
  }
  // glibc's NULL-path precheck: a path known not to be NULL passes.
  if (C.Row && C.Row == C.RawRow && C.Row->precheck == SB_PRE_NONNULL &&
      C.Row->precheck_arg < CE.nargs) {
    sb_operand &Path = CE.args[C.Row->precheck_arg];
    Path.nonnull =
        Path.kind == SB_OPND_AVAILABLE &&
        provenNonNull(
            A, C.Call->getArgOperand(C.EventBase + C.Row->precheck_arg),
            C.Call);
  }
  // The fd a call takes first: an earlier call of the batch on the same
  // fd may prove it for glibc's negative-fd precheck (the core decides).
  if (C.Row && C.Row == C.RawRow && C.Row->libc_argc > 0 &&
      C.Row->libc_args[0].kind == SB_ARG_FD && CE.nargs > 0 &&
      CE.args[0].kind == SB_OPND_AVAILABLE)
    CE.args[0].same =
        valueNumber(A, R, C.Call->getArgOperand(C.EventBase));
  std::string Why = visitCallShape(C);
  CE.why_not = Why.empty() ? nullptr : R.keep(Why);
  if (CE.why_not)
    LLVM_DEBUG(dbgs() << "sysbatch: " << CE.symbol << ": " << Why << "\n");
  R.Events.push_back(E);
}

/// Which barrier code \p I is (sysbatch/shape.h), if it must stay on its
/// side of every later call; the text is the core's.
static std::optional<sb_barrier> visitBarrierKind(Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm())
      return SB_BARRIER_INLINE_ASM;
    if (isErrnoLocationCall(CB))
      return std::nullopt;
    if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
      if (isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd() ||
          II->getIntrinsicID() == Intrinsic::assume)
        return std::nullopt;
      if (auto *MI = dyn_cast<MemIntrinsic>(II))
        return MI->isVolatile()
                   ? std::optional<sb_barrier>(
                         SB_BARRIER_VOLATILE_MEMORY_INTRINSIC)
                   : std::nullopt;
      if (!II->mayReadOrWriteMemory() &&
          isGuaranteedToTransferExecutionToSuccessor(II))
        return std::nullopt;
    }
    return CB->getCalledFunction() ? SB_BARRIER_CALL
                                   : SB_BARRIER_INDIRECT_CALL;
  }
  if (isa<FenceInst>(I))
    return SB_BARRIER_FENCE;
  if (I.isAtomic())
    return SB_BARRIER_ATOMIC;
  if (auto *L = dyn_cast<LoadInst>(&I))
    if (L->isVolatile())
      return SB_BARRIER_VOLATILE_LOAD;
  if (auto *S = dyn_cast<StoreInst>(&I))
    if (S->isVolatile())
      return SB_BARRIER_VOLATILE_STORE;
  if (!isGuaranteedToTransferExecutionToSuccessor(&I))
    return SB_BARRIER_MAY_NOT_RETURN;
  return std::nullopt;
}

/// A call to a function of the core's libc table (sysbatch/libc.h): its
/// row and its accesses, one per argument.  Null when \p I is no such call
/// or the core says it stays a barrier (\p Why then holds the reason).
const sb_libc_function *visitLibcCall(const Instruction &I, sb_abi Abi,
                                      sb_libc_access *Acc, std::string *Why) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *F = CB ? CB->getCalledFunction() : nullptr;
  // glibc's functions: Tock apps link newlib, which the table does not
  // describe.
  if (!F || Abi != SB_ABI_LINUX_X86_64 || CB->isInlineAsm())
    return nullptr;
  const sb_libc_function *Fn = sb_libc_lookup(F->getName().str().c_str());
  if (!Fn)
    return nullptr;
  std::string Format;
  bool HaveFormat = false;
  if ((Fn->flags & SB_LIBC_PRINTF) && Fn->format_arg < (int)CB->arg_size()) {
    StringRef Str;
    if (getConstantStringInfo(CB->getArgOperand(Fn->format_arg), Str)) {
      Format = Str.str();
      HaveFormat = true;
    }
  }
  char Buf[160];
  const char *No = sb_libc_call_effects(Fn, (int)CB->arg_size(),
                                        HaveFormat ? Format.c_str() : nullptr,
                                        Acc, Buf, sizeof Buf);
  if (No) {
    if (Why)
      *Why = No;
    return nullptr;
  }
  return Fn;
}

/// The barrier text of \p I, or null when it is not a barrier.
const char *visitBarrier(Instruction &I, std::string &Why, sb_abi Abi) {
  // libtock-c's converters are code of known effect (the Tock memory rule
  // sees their pointer arguments: visitTockSharedAccess).
  if (Abi == SB_ABI_TOCK && tockConverter(I))
    return nullptr;
  sb_libc_access Acc[SB_LIBC_MAX_ARGS];
  std::string LibcWhy;
  if (visitLibcCall(I, Abi, Acc, &LibcWhy))
    return nullptr;
  if (!LibcWhy.empty()) {
    char Buf[256];
    Why = sb_libc_barrier_text(
        cast<CallBase>(I).getCalledFunction()->getName().str().c_str(),
        LibcWhy.c_str(), Buf, sizeof Buf);
    return Why.c_str();
  }
  std::optional<sb_barrier> Kind = visitBarrierKind(I);
  if (!Kind)
    return nullptr;
  std::string Callee;
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (Function *F = CB->getCalledFunction())
      Callee = F->getName().str();
  char Buf[256];
  Why = sb_barrier_text(*Kind, Callee.c_str(), Buf, sizeof Buf);
  return Why.c_str();
}

/// Before SROA a pointer argument reaches a call through the stack slot
/// clang spills it to (`store %path, %path.addr` once, in the entry block):
/// the argument itself, so alias analysis sees a pointer from outside the
/// function rather than a load that might yield any escaped address.
static Value *spilledArgument(Analysis &A, Value *Ptr) {
  auto *L = dyn_cast<LoadInst>(Ptr->stripPointerCasts());
  if (!L || !L->isSimple() || !isNonEscapingAlloca(A, L->getPointerOperand()))
    return Ptr;
  StoreInst *Only = nullptr;
  for (User *U : L->getPointerOperand()->users())
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (Only)
        return Ptr;
      Only = S;
    }
  if (!Only || !isa<Argument>(Only->getValueOperand()) ||
      !Only->getParent()->isEntryBlock())
    return Ptr;
  if (L->getParent() == Only->getParent() && !Only->comesBefore(L))
    return Ptr;
  return Only->getValueOperand();
}

/// Does the call \p CB to the libc-table function \p Fn, with accesses
/// \p Acc, touch what candidate call \p C's kernel side touches in a way
/// that does not commute (sb_access_conflicts)?
static bool visitLibcConflict(Analysis &A, const CallBase &CB,
                              const sb_libc_function &Fn,
                              const sb_libc_access *Acc,
                              const CandidateCall &C) {
  if (!C.RowDescribesOperands)
    return true;
  for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
    ArgMemory M = visitCallArgMemory(C, K);
    if (M.Effect == ArgMemory::None)
      continue;
    if (M.Effect == ArgMemory::Everything)
      return true;
    if (M.Effect == ArgMemory::ReadsAnything) {
      for (unsigned Op = 0; Op < CB.arg_size(); ++Op)
        if ((Acc[Op].access & SB_LIBC_WRITES) &&
            !isa<ConstantPointerNull>(CB.getArgOperand(Op)))
          return true;
      continue;
    }
    // errno is stored in program order by the call sites and by this
    // function alike; only a kernel buffer that is errno conflicts.
    if ((Fn.flags & SB_LIBC_SETS_ERRNO) && isErrnoAccess(M.Loc.Ptr))
      return true;
    for (unsigned Op = 0; Op < CB.arg_size(); ++Op) {
      const sb_libc_access &D = Acc[Op];
      if (D.access == SB_LIBC_NO_ACCESS)
        continue;
      Value *Ptr = spilledArgument(A, CB.getArgOperand(Op));
      if (isa<ConstantPointerNull>(Ptr))
        continue; // snprintf(NULL, 0, ...), strtol(s, NULL, 10)
      if (!Ptr->getType()->isPointerTy())
        return true;
      LocationSize Size = LocationSize::beforeOrAfterPointer();
      if (D.size_arg >= 0 && (unsigned)D.size_arg < CB.arg_size()) {
        if (auto *N = dyn_cast<ConstantInt>(CB.getArgOperand(D.size_arg)))
          Size = LocationSize::precise(N->getZExtValue());
      } else if (D.size_arg < 0 && D.fixed_size) {
        Size = LocationSize::precise(D.fixed_size);
      }
      if (!A.AA.isNoAlias(MemoryLocation(Ptr, Size), M.Loc) &&
          sb_access_conflicts(D.access, M.Effect == ArgMemory::Writes))
        return true;
    }
  }
  return false;
}

/// Does code instruction \p I fail to commute with candidate call \p C?
static bool visitCodeConflict(Analysis &A, Instruction &I,
                              const CandidateCall &C) {
  if (!I.mayReadOrWriteMemory())
    return false;
  sb_libc_access Acc[SB_LIBC_MAX_ARGS];
  if (const sb_libc_function *Fn = visitLibcCall(I, A.Abi, Acc))
    return visitLibcConflict(A, cast<CallBase>(I), *Fn, Acc, C);
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
    if (M.Effect == ArgMemory::ReadsAnything) {
      if (!Errno && I.mayWriteToMemory())
        return true;
      continue;
    }
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

std::string describe(const Instruction &I) {
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

/// Is \p Marker's the only lifetime of its object in its block (no end and
/// start again there)?  Then moving a start up cannot revive a dead object.
static bool onlyLifetimeOf(const IntrinsicInst &Marker) {
  const Value *Obj = Marker.getArgOperand(1)->stripPointerCasts();
  unsigned Starts = 0, Ends = 0;
  bool EndFirst = false;
  for (const Instruction &I : *Marker.getParent()) {
    auto *II = dyn_cast<IntrinsicInst>(&I);
    if (!II || !II->isLifetimeStartOrEnd() ||
        II->getArgOperand(1)->stripPointerCasts() != Obj)
      continue;
    bool Start = II->getIntrinsicID() == Intrinsic::lifetime_start;
    EndFirst |= !Start && !Starts;
    ++(Start ? Starts : Ends);
  }
  return Starts <= 1 && Ends <= 1 && !(Starts && EndFirst);
}

/// `if (fd >= 0) { struct stat st; if (fstat(fd, &st) ...` at -O1 and up:
/// st's lifetime starts in the branch, after the issue point, where the
/// batch's fstat already wrote it; left there, the start would make that
/// write dead.  Moving the start up to the issue point only makes the
/// lifetime longer when nothing can end it on the way: the object is a
/// static alloca whose only start this is, reached straight or through one
/// cast (which the rewrite repeats at the issue point), and no lifetime.end
/// of it lies on any path from the issue block to the start.
bool isHoistableLifetimeStart(const Region &R, const IntrinsicInst &Start) {
  if (!R.branchy() || Start.getIntrinsicID() != Intrinsic::lifetime_start)
    return false;
  const BasicBlock *IssueBlock = R.Blocks.front();
  const BasicBlock *StartBlock = Start.getParent();
  if (StartBlock == IssueBlock || R.blockOf(&Start) < 0)
    return false;
  const Value *Addr = Start.getArgOperand(1);
  auto *Obj = dyn_cast<AllocaInst>(Addr->stripPointerCasts());
  if (!Obj || !Obj->isStaticAlloca())
    return false;
  if (Addr != Obj) {
    auto *AddrI = dyn_cast<Instruction>(Addr);
    if (!AddrI || !(isa<CastInst>(AddrI) || isa<GetElementPtrInst>(AddrI)) ||
        AddrI->getOperand(0) != Obj)
      return false;
  }
  // Every lifetime marker of the object, through address casts.
  SmallVector<const Value *, 8> Work{Obj};
  SmallPtrSet<const BasicBlock *, 8> EndBlocks;
  unsigned Starts = 0;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (auto *II = dyn_cast<IntrinsicInst>(U)) {
        if (II->getIntrinsicID() == Intrinsic::lifetime_start)
          ++Starts;
        else if (II->getIntrinsicID() == Intrinsic::lifetime_end)
          EndBlocks.insert(II->getParent());
      } else if (isa<CastInst>(U) || isa<GetElementPtrInst>(U)) {
        Work.push_back(U); // a part's marker counts as the object's
      }
    }
  }
  if (Starts != 1 || EndBlocks.count(IssueBlock))
    return false;
  if (EndBlocks.count(StartBlock))
    for (const Instruction &I : *StartBlock) {
      if (&I == &Start)
        break;
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::lifetime_end &&
            II->getArgOperand(1)->stripPointerCasts() == Obj)
          return false;
    }
  // No end on a path from the issue block that has not passed the start.
  SmallVector<const BasicBlock *, 16> Blocks(succ_begin(IssueBlock),
                                             succ_end(IssueBlock));
  SmallPtrSet<const BasicBlock *, 16> Seen;
  while (!Blocks.empty()) {
    const BasicBlock *BB = Blocks.pop_back_val();
    if (BB == StartBlock || !Seen.insert(BB).second)
      continue;
    if (EndBlocks.count(BB))
      return false;
    Blocks.append(succ_begin(BB), succ_end(BB));
  }
  return true;
}

/// One code event for the instructions from \p From up to (not including)
/// \p End (null: the block's terminator), which follow region call
/// \p After (-1: none) and so may have to stay before every later call.
void visitGap(Analysis &A, Region &R, Instruction *From,
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
  BasicBlock *IssueBlock = R.branchy() ? R.Blocks.front() : R.BB;
  for (Instruction *I = From; I && I != End; I = I->getNextNode()) {
    if (!isCode(*I))
      continue;
    // A lifetime marker touches no memory anyone can observe; in the issue
    // block, and where isHoistableLifetimeStart allows it in a later block
    // of a branchy region, the rewrite moves a start above the batch
    // (hoistLifetimeStarts); elsewhere it stays an access of its object.
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->isLifetimeStartOrEnd() &&
          ((I->getParent() == IssueBlock && onlyLifetimeOf(*II)) ||
           isHoistableLifetimeStart(R, *II)))
        continue;
    std::string Tmp;
    if (const char *B = visitBarrier(*I, Tmp, R.Abi)) {
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
void visitCode(Analysis &A, Region &R, unsigned Before) {
  visitGap(A, R, R.Calls[Before].Call->getNextNode(), R.Calls[Before + 1].Call,
           Before);
}

/// Does the block hold code between \p From and \p End (null: the end)?
bool hasCode(Instruction *From, Instruction *End) {
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

CandidateCall makeCandidate(CallInst *Call, sb_abi Abi) {
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

unsigned countCandidates(BasicBlock &BB, sb_abi Abi) {
  unsigned N = 0;
  for (Instruction &I : BB)
    if (auto *CI = dyn_cast<CallInst>(&I))
      N += isCandidate(*CI, Abi);
  return N;
}

/// Phase 1 for one basic block: its regions (one per SB_MAX_REGION_CALLS
/// candidate calls), empty when it has none.
std::vector<std::unique_ptr<Region>>
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

} // namespace detail
} // namespace sysbatch
