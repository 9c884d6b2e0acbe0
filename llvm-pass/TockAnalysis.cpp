//===- TockAnalysis.cpp - Tock memory rule, call shape, stop tests, chains ===//
//
// What only target=tock needs (docs/llvm.md, "Tock"): the memory rule (only
// private stack slots commute with the kernel and with upcalls:
// isTockPrivate, visitTockSharedAccess), where a libtock-c call's struct
// lands and which loads read it (tockResultTemp, visitTockResultLoad), the
// front end's objection to a libtock-c call's IR shape, and checked chains
// (docs/llvm.md, "Checked chains"): blocks linked by exact stop tests on a
// call's result (visitTockStopTest), formed by formTockChain() and
// described as one straight-line region by analyseChain().
//
//===----------------------------------------------------------------------===//

#include "SysbatchInternal.h"

#include "sysbatch/tock.h"

#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

//===----------------------------------------------------------------------===//
// The Tock memory rule and call shape
//===----------------------------------------------------------------------===//

/// Tock: the stack slot call \p C's libtock-c struct lands in, its sret
/// slot or the slot a register-returned struct is stored to right after
/// the call (clang's RV32 memop); null otherwise.
const Value *tockResultTemp(const CandidateCall &C) {
  if (hasSretResult(*C.Call))
    return getUnderlyingObject(C.Call->getArgOperand(0));
  if (C.Call->getType()->isVoidTy() || !C.Call->hasOneUse())
    return nullptr;
  if (auto *S = dyn_cast<StoreInst>(C.Call->user_back()))
    if (S->getValueOperand() == C.Call)
      return getUnderlyingObject(S->getPointerOperand());
  return nullptr;
}

/// Tock: the libtock-c converter (core table, sysbatch/tock.h) \p I calls,
/// or null.  A converter reads its struct argument, writes only its
/// pointer arguments after it and makes no system call.
const sb_tock_converter *tockConverter(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *F = CB ? CB->getCalledFunction() : nullptr;
  if (!F || !F->isDeclaration() || CB->isInlineAsm())
    return nullptr;
  return sb_tock_converter_lookup(F->getName().str().c_str());
}

/// Tock memory rule: is \p Ptr inside a stack slot only this function can
/// reach?  Its address is only loaded from, stored to (never stored itself),
/// copied with a memory intrinsic, or passed as the sret slot of a libtock-c
/// call (the result temporaries of the Tock calls count as private).
bool isTockPrivate(Analysis &A, const Value *Ptr) {
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
        // A converter reads its struct and writes its out pointers, and
        // keeps neither address.
        Ok &= CI->isArgOperand(&U) &&
              (tockConverter(*CI) ||
               (U.getOperandNo() == 0 && hasSretResult(*CI) &&
                visitCallee(*const_cast<CallInst *>(CI), Raw, SB_ABI_TOCK)));
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
bool visitTockSharedAccess(Analysis &A, Instruction &I) {
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
  // A converter touches only what its pointer arguments point to.
  if (tockConverter(I)) {
    for (const Use &Arg : cast<CallBase>(I).args())
      if (Arg->getType()->isPointerTy() && !isTockPrivate(A, Arg.get()))
        return true;
    return false;
  }
  return true;
}

/// Tock: the region call whose result temporary load \p L reads (the
/// latest one before L that writes that slot), or -1.  Also -1 when
/// anything else may write the slot in between (`r.data[0] = 7;`): then
/// the load is computed code, not the call's result.
int visitTockResultLoad(Analysis &A, Region &R, LoadInst *L) {
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
              getUnderlyingObject(Call->getArgOperand(0)) == Obj) &&
            !(tockConverter(*Call) &&
              llvm::any_of(Call->args(), [&](const Use &Arg) {
                return getUnderlyingObject(Arg.get()) == Obj;
              })))
          continue;
    if (isModSet(A.AA.getModRefInfo(I, Loc)))
      return -1;
  }
  return J;
}

/// Tock: does \p L read a private stack slot (isTockPrivate) that nothing
/// writes from the region's first call to \p L?  Then the issue point can
/// load it instead: a converter's out value of a call before the region
/// (libtock_alarm_command_read (&now), a subscribe, command (0, 6, now,
/// dt)).  Only this function's stores, memory intrinsics, converters and
/// sret arguments reach such a slot, and loading a stack slot cannot fault,
/// so a later block of a chain may repeat it too.  GCC decides the same
/// (tock_result_operand).
bool visitTockUnchangedPrivateLoad(Analysis &A, Region &R, LoadInst *L) {
  const Value *Obj = getUnderlyingObject(L->getPointerOperand());
  if (!L->isSimple() || !R.inside(L) || !isTockPrivate(A, Obj))
    return false;
  unsigned LoadPos = R.Position.lookup(L);
  SmallVector<const Value *, 8> Work{Obj};
  DenseSet<const Value *> Seen{Obj};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const auto *W = dyn_cast<Instruction>(U.getUser());
      if (!W)
        return false;
      if (isa<BitCastInst>(W) || isa<GetElementPtrInst>(W)) {
        if (Seen.insert(W).second)
          Work.push_back(W);
        continue;
      }
      if (isa<LoadInst>(W) || !W->mayWriteToMemory())
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(W))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      // A writer between the issue point and the load (stores, memory
      // intrinsics, converters, sret slots: isTockPrivate allows no more).
      auto Pos = R.Position.find(W);
      if (Pos != R.Position.end() && Pos->second >= R.StartPos &&
          Pos->second < LoadPos)
        return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Tock checked chains (on by default, no-tock-chains turns them off;
// docs/llvm.md, "Checked chains")
//===----------------------------------------------------------------------===//

/// LLVM's integer predicate \p P in the core's terms.
static sb_cmp coreCompare(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ: return SB_CMP_EQ;
  case CmpInst::ICMP_NE: return SB_CMP_NE;
  case CmpInst::ICMP_SLT: return SB_CMP_SLT;
  case CmpInst::ICMP_SLE: return SB_CMP_SLE;
  case CmpInst::ICMP_SGT: return SB_CMP_SGT;
  case CmpInst::ICMP_SGE: return SB_CMP_SGE;
  case CmpInst::ICMP_ULT: return SB_CMP_ULT;
  case CmpInst::ICMP_ULE: return SB_CMP_ULE;
  case CmpInst::ICMP_UGT: return SB_CMP_UGT;
  default: return SB_CMP_UGE;
  }
}

/// How block \p BB's conditional branch tests the libtock-c result of its
/// last candidate call: the successor taken exactly when the call's return
/// variant is a Failure* (the series' stop condition) and the one taken
/// exactly on success.  False (with \p Why) when the test is anything else:
/// `r.type != TOCK_SYSCALL_SUCCESS` leaves on a Success-u32 too, while the
/// kernel goes on.  This walks from the branch back to the load of word 0
/// (integer casts, `xor i1 %c, true`); which tests are exact is the core's
/// rule (sb_tock_stop_test; GCC asks the same).  `if (r.success)` is
/// clang's trunc of the bool to i1, a test `!= 0` of that bit.
/// Is converter call \p Conv's struct argument the result call \p Last left
/// in its slot \p Temp, unchanged?  clang passes the struct as an array of
/// words loaded from the slot (Cortex-M) or as a copy made with a memcpy
/// from it (RV32); between the two calls nothing else writes memory.
static bool convertsResultOf(CallInst *Conv, CallInst *Last, const Value *Temp,
                             const DataLayout &DL) {
  if (Conv->getParent() != Last->getParent() || !Last->comesBefore(Conv) ||
      Conv->arg_size() < 1 || !Temp)
    return false;
  Value *Arg = Conv->getArgOperand(0);
  const MemTransferInst *Copy = nullptr;
  if (Arg->getType()->isPointerTy()) {
    const Value *Obj = getUnderlyingObject(Arg);
    if (Obj == Temp)
      Copy = nullptr;
    else
      for (Instruction *I = Last->getNextNode(); I != Conv; I = I->getNextNode())
        if (auto *MT = dyn_cast<MemTransferInst>(I))
          if (getUnderlyingObject(MT->getRawDest()) == Obj &&
              getUnderlyingObject(MT->getRawSource()) == Temp)
            Copy = MT;
    if (Obj != Temp) {
      auto *Len = Copy ? dyn_cast<ConstantInt>(Copy->getLength()) : nullptr;
      const auto *AI = dyn_cast<AllocaInst>(Obj);
      if (!Len || !AI || Copy->isVolatile() ||
          Arg->stripPointerCasts() != Obj ||
          Copy->getRawDest()->stripPointerCasts() != Obj ||
          Copy->getRawSource()->stripPointerCasts() != Temp ||
          Len->getZExtValue() != DL.getTypeAllocSize(AI->getAllocatedType()))
        return false;
    }
  } else if (auto *Whole = dyn_cast<LoadInst>(Arg)) {
    // One load of the whole slot as the argument's type (-O0).
    if (!Whole->isSimple() || Whole->getParent() != Conv->getParent() ||
        !Last->comesBefore(Whole) ||
        Whole->getPointerOperand()->stripPointerCasts() != Temp)
      return false;
  } else {
    // insertvalue chain: element k is the k-th word of the slot.
    Value *V = Arg;
    auto *AT = dyn_cast<ArrayType>(Arg->getType());
    if (!AT)
      return false;
    unsigned Seen = 0;
    while (auto *IV = dyn_cast<InsertValueInst>(V)) {
      if (IV->getNumIndices() != 1)
        return false;
      unsigned K = IV->getIndices()[0];
      auto *L = dyn_cast<LoadInst>(IV->getInsertedValueOperand());
      int64_t Offset = 0;
      if (!L || !L->isSimple() || L->getParent() != Conv->getParent() ||
          !Last->comesBefore(L) ||
          getUnderlyingObject(GetPointerBaseWithConstantOffset(
              L->getPointerOperand(), Offset, DL)) != Temp ||
          Offset != (int64_t)(K * DL.getTypeAllocSize(AT->getElementType())))
        return false;
      Seen |= 1u << K;
      V = IV->getAggregateOperand();
    }
    if (!isa<PoisonValue>(V) && !isa<UndefValue>(V))
      return false;
    if (AT->getNumElements() > 8 || Seen != (1u << AT->getNumElements()) - 1)
      return false;
  }
  for (Instruction *I = Last->getNextNode(); I != Conv; I = I->getNextNode()) {
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
        continue;
    if (I == Copy)
      continue;
    auto *S = dyn_cast<StoreInst>(I);
    if (I->mayWriteToMemory() && !(S && S->getValueOperand() == Last))
      return false;
  }
  return true;
}

static bool visitTockStopTest(BasicBlock &BB, BasicBlock *&OnFailure,
                              BasicBlock *&OnSuccess, const char *&Why,
                              std::string &WhyText) {
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
  if (sb_tock_stop_test(C.RawRow, nullptr) == SB_TOCK_TEST_NONE)
    return false;
  Why = sb_tock_stop_test_why();
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
  sb_tock_test Test = {};
  // The loaded field: word 0 of the call's own result slot, read after the
  // call with nothing writing memory in between; the casts on the way are
  // the test's steps.
  const DataLayout &DL = BB.getModule()->getDataLayout();
  // A test of a libtock-c converter's result (`rc = tock_*_to_returncode(r);
  // if (rc != RETURNCODE_SUCCESS)`): the core classes it for that converter.
  const sb_tock_converter *Conv = nullptr;
  auto FieldZero = [&](Value *V) -> Instruction * {
    SmallVector<Instruction *, SB_TOCK_MAX_STEPS> Casts;
    while (isa<ZExtInst>(V) || isa<TruncInst>(V) || isa<SExtInst>(V)) {
      if (Casts.size() == SB_TOCK_MAX_STEPS / 2)
        return nullptr;
      Casts.push_back(cast<Instruction>(V));
      V = cast<Instruction>(V)->getOperand(0);
    }
    auto Steps = [&](Instruction *Field) -> Instruction * {
      // LLVM integers have no sign: every value reads unsigned, and sext
      // first reads its source signed.
      Test.field_bits = (uint8_t)Field->getType()->getIntegerBitWidth();
      Test.field_signed = false;
      for (auto It = Casts.rbegin(); It != Casts.rend(); ++It) {
        unsigned To = (*It)->getType()->getIntegerBitWidth();
        if (To > 64)
          return nullptr;
        if (isa<SExtInst>(*It)) {
          unsigned From = (*It)->getOperand(0)->getType()->getIntegerBitWidth();
          Test.steps[Test.nsteps++] = {SB_TOCK_STEP_CONVERT, (uint8_t)From, true};
        }
        Test.steps[Test.nsteps++] = {SB_TOCK_STEP_CONVERT, (uint8_t)To, false};
      }
      return Field;
    };
    // Before mem2reg (-O0, the early look) rc lives in its stack slot: the
    // load right after its store is the converter's result.
    if (auto *L = dyn_cast<LoadInst>(V))
      if (L->isSimple() && Temp &&
          getUnderlyingObject(L->getPointerOperand()) != Temp)
        for (Instruction *I = L->getPrevNode(); I; I = I->getPrevNode()) {
          auto *S = dyn_cast<StoreInst>(I);
          if (S && S->isSimple() &&
              S->getPointerOperand() == L->getPointerOperand()) {
            auto *CC = dyn_cast<CallInst>(S->getValueOperand());
            if (CC && tockConverter(*CC))
              V = CC;
            break;
          }
          if (auto *II = dyn_cast<IntrinsicInst>(I))
            if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
              continue;
          if (I->mayWriteToMemory())
            break;
        }
    if (auto *CC = dyn_cast<CallInst>(V)) {
      Conv = tockConverter(*CC);
      if (!Conv || !CC->getType()->isIntegerTy() ||
          CC->getType()->getIntegerBitWidth() > 64 ||
          !convertsResultOf(CC, Last, Temp, DL)) {
        Conv = nullptr;
        return nullptr;
      }
      return Steps(CC);
    }
    auto *L = dyn_cast<LoadInst>(V);
    if (!L || !L->isSimple() || L->getParent() != &BB || !Temp ||
        !L->getType()->isIntegerTy() ||
        L->getType()->getIntegerBitWidth() > 64)
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
    if (I != L)
      return nullptr;
    return Steps(L);
  };
  if (auto *Cmp = dyn_cast<ICmpInst>(Cond)) {
    Value *Lhs = Cmp->getOperand(0), *Rhs = Cmp->getOperand(1);
    CmpInst::Predicate P = Cmp->getPredicate();
    if (isa<ConstantInt>(Lhs)) {
      std::swap(Lhs, Rhs);
      P = CmpInst::getSwappedPredicate(P);
    }
    auto *K = dyn_cast<ConstantInt>(Rhs);
    if (!K || K->getBitWidth() > 64 || !FieldZero(Lhs))
      return false;
    Test.cmp = coreCompare(P);
    Test.constant = K->getSExtValue();
  } else if (isa<TruncInst>(Cond)) {
    if (!FieldZero(Cond))
      return false;
    Test.cmp = SB_CMP_NE;
    Test.constant = 0;
  } else {
    return false;
  }
  sb_tock_stop_class Class;
  if (Conv) {
    char Buf[320];
    const char *ConvWhy = nullptr;
    Class = sb_tock_converter_test(Conv, C.RawRow, &Test, &ConvWhy, Buf,
                                   sizeof Buf);
    if (ConvWhy) {
      WhyText = ConvWhy;
      Why = WhyText.c_str();
    }
  } else {
    Class = sb_tock_stop_test(C.RawRow, &Test);
  }
  if (Class != SB_TOCK_TEST_TRUE_IS_FAILURE &&
      Class != SB_TOCK_TEST_TRUE_IS_SUCCESS)
    return false;
  bool TrueIsSuccess = Class == SB_TOCK_TEST_TRUE_IS_SUCCESS;
  OnSuccess = TrueIsSuccess ? OnTrue : OnFalse;
  OnFailure = TrueIsSuccess ? OnFalse : OnTrue;
  Why = nullptr;
  return OnSuccess != OnFailure;
}

/// The chain of blocks entered at \p Order[EntryIdx]: while the current
/// block ends in an exact stop test on its last call, the success edge leads
/// to a block that only this one enters and that holds candidate calls,
/// that block joins.  Empty unless two blocks join.
std::vector<BasicBlock *>
formTockChain(const std::vector<BasicBlock *> &Order, size_t EntryIdx,
              const DenseSet<const BasicBlock *> &Covered,
              OptimizationRemarkEmitter &ORE) {
  CfgDescription D(Order, EntryIdx, Covered, SB_ABI_TOCK);
  std::vector<BasicBlock *> Chain{Order[EntryIdx]};
  std::vector<int> Numbers{static_cast<int>(EntryIdx)};
  int Calls = D.Blocks[EntryIdx].candidates;
  while (Chain.size() < SB_MAX_REGION_BLOCKS) {
    BasicBlock *OnFailure = nullptr, *OnSuccess = nullptr;
    const char *Why = nullptr;
    std::string WhyText;
    if (!visitTockStopTest(*Chain.back(), OnFailure, OnSuccess, Why, WhyText)) {
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
    int Next = D.Number.count(OnSuccess) ? D.Number.lookup(OnSuccess) : -1;
    // The core's rule for who joins (sysbatch/cfg.h).
    if (!sb_cfg_chain_joins(&D.Cfg, Numbers.data(),
                            static_cast<int>(Numbers.size()), Calls, Next))
      break;
    Chain.push_back(OnSuccess);
    Numbers.push_back(Next);
    Calls += D.Blocks[Next].candidates;
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
std::unique_ptr<Region> analyseChain(Analysis &A,
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

} // namespace detail
} // namespace sysbatch
