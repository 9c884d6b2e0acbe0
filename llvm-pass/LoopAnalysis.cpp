//===- LoopAnalysis.cpp - a loop around one call site as the core's sb_loop ===//
//
// Recognises the IR facts core/loop.c decides on (sysbatch/loop.h, rules
// 1-5), for the innermost loop of each catalogued call site:
//
//   for (i = 0; i < n; i++)              call close, a0 = induction (a load
//       close(fd[i]);                    of fd + 4*i, memory the loop does
//                                        not write); every class: next; the
//                                        exit test i+1 < n repeated
//
// - each argument: invariant, induction (recomputable from induction
//   variables - header phis SCEV knows as affine AddRecs, or -O0 stack
//   slots bumped once per iteration - invariants and loads of memory no
//   code in the loop writes, by code without effects), carried (reaches the
//   call's own result) or unrepeatable (anything else, with what it is);
// - the guard: the call's block is on every path through the loop, or
//   under conditions the inspector repeats (on such values only) that
//   alone decide whether the iteration reaches it;
// - exits: a test the inspector can repeat (on such values only) before the
//   call or after it on every path; any other way out "leaves";
// - per sign class of the result, where it leads before the next
//   iteration's call: code that may not move above a later iteration's call
//   (a barrier, an access to memory the call touches) is a conflict, an
//   exit that is not repeated leaves;
// - rule 4: loads the inspector repeats that are not proven dereferenceable.
//
// Nothing here decides: the sb_loop goes to sb_plan_loop() (LoopPass.cpp).
//
//===----------------------------------------------------------------------===//

#include "LoopBatching.h"

#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

#define DEBUG_TYPE "sysbatch"

namespace sysbatch {
namespace detail {

namespace {

struct Verdict {
  // INVARIANT < INDUCTION < CHECKED < UNREPEATABLE < CARRIED
  sb_loop_value Kind;
  std::string Why;
};

static int rank(sb_loop_value K) {
  switch (K) {
  case SB_LV_INVARIANT: return 0;
  case SB_LV_INDUCTION: return 1;
  case SB_LV_CHECKED: return 2;
  case SB_LV_UNREPEATABLE: return 3;
  default: return 4;
  }
}

/// Repeatable by the inspector (with or without rule 7's check).
static bool repeatable(sb_loop_value K) { return rank(K) <= 2; }

static bool match0(const Value *V) {
  auto *C = dyn_cast<ConstantInt>(V);
  return C && C->isZero();
}

static bool isCodeInst(const Instruction &I) {
  return !I.isTerminator() && !isa<PHINode>(I) && !isa<DbgInfoIntrinsic>(I);
}

/// The byte count of buffer argument \p D of \p C (the core's
/// sb_arg_extent): its size argument's operand in \p SizeArg, or a fixed
/// \p Size; false when not known.
static bool bufferExtent(const CandidateCall &C, const sb_arg_desc &D,
                         Value *&SizeArg, uint64_t &Size) {
  struct sb_arg_extent E =
      sb_arg_extent(&D, (int)C.Call->arg_size() - (int)C.FirstArg);
  if (E.kind == SB_EXTENT_ARG)
    SizeArg = C.Call->getArgOperand(C.FirstArg + E.arg);
  else if (E.kind == SB_EXTENT_FIXED)
    Size = (uint64_t)E.bytes;
  return E.kind != SB_EXTENT_UNKNOWN;
}

/// The facts of one loop around call \p S.Call.
class LoopFacts {
public:
  LoopFacts(LoopSite &S, Analysis &A, ScalarEvolution &SE, DominatorTree &DT)
      : S(S), L(*S.L), A(A), SE(SE), DT(DT),
        DL(S.Call->getModule()->getDataLayout()) {}

  void describe();

private:
  LoopSite &S;
  Loop &L;
  Analysis &A;
  ScalarEvolution &SE;
  DominatorTree &DT;
  const DataLayout &DL;
  DenseMap<const Value *, Verdict> Memo;
  SmallVector<LoadInst *, 8> InspectorLoads;
  std::vector<Instruction *> Writers; // code in the loop that may write
  int PrivateArg = -1; // the invariant output buffer the core privatises
  int BuiltArg = -1;   // the buffer the inspector builds again (rule 6)

  Verdict classify(Value *V, unsigned Depth = 0);
  Verdict classifyLibcCall(CallBase &CB, unsigned Depth);
  // Rule 8: pointers per iteration a repeated libc call reads through.
  SmallVector<std::pair<CallBase *, Value *>, 4> LibcReads;
  bool dependsOnCall(Value *V, unsigned Depth = 0);
  bool phiInduction(PHINode *P);
  bool phiChase(PHINode *P);
  bool slotInduction(LoadInst *LI);
  Verdict chaseVerdict(ArrayRef<Instruction *> Leaves, LoadInst *Link,
                       unsigned Depth);
  // Rule 10: the links of the pointer chases the inspector follows.
  DenseSet<const LoadInst *> ChaseLinks;
  Instruction *writerOf(LoadInst *LI);
  bool checkWrites(LoadInst *LI, std::string &Why, unsigned Depth);
  bool addCheckedWrite(Value *Ptr, uint64_t Size, Value *SizeArg,
                       unsigned Depth, bool Kernel = false);
  bool coveredByCheck(Instruction &I, unsigned K, const ArgMemory &M);
  bool stringCoveredByCheck(StoreInst *St, unsigned K);
  bool callMayWrite(const MemoryLocation &Loc);
  SmallVector<MemoryLocation, 2>
  iterationLocations(Value *Ptr, LocationSize Size,
                     const AAMDNodes &AA = AAMDNodes());
  const Value *slotValue(const Value *V);
  bool bumpedBefore(StoreInst *Bump, LoadInst *LI);
  bool proven(LoadInst *LI);
  bool slotIndexInBounds(LoadInst *LI);
  void describeArguments();
  void describeBuiltArguments();
  std::string builderObjection(Instruction *W, AllocaInst *Obj,
                               const DenseSet<Instruction *> &Builders,
                               sb_loop_build_step &Step);
  std::string readObjection(Value *Op, AllocaInst *Obj,
                            const DenseSet<Instruction *> &Builders);
  bool mayPointInto(Value *Ptr, AllocaInst *Obj);
  bool describeGuardAndExits(DenseSet<BasicBlock *> &Repeated,
                             DenseSet<BasicBlock *> &Unrepeated);
  bool describeGuards(std::string &Why);
  void describePaths(const DenseSet<BasicBlock *> &Repeated);
  const char *conflict(Instruction &I, bool SameIteration);
  bool ownElement(Instruction &I, Value *Buf, const ArgMemory &M);
  int classMask(BranchInst *Br, bool &OnTrueFirst);
  bool isCallResult(Value *V, bool &Widened);
};

} // namespace

/// The locations an argument pointer may name in any iteration: its own
/// when it is loop-invariant, else the whole of every object it may be in.
/// A pointer loaded from a constant table of constant objects (`static
/// const char *const names[] = {"a", "b"}`): the objects it may point to,
/// which no code can write; empty otherwise.
static SmallVector<const Value *, 8> constantTableTargets(const Value *V) {
  SmallVector<const Value *, 8> Targets;
  auto *Ld = dyn_cast<LoadInst>(V);
  auto *Table = Ld ? dyn_cast<GlobalVariable>(
                         getUnderlyingObject(Ld->getPointerOperand()))
                   : nullptr;
  if (!Table || !Table->isConstant() || !Table->hasDefinitiveInitializer())
    return Targets;
  // Every pointer of the initializer, through nested aggregates (clang
  // writes a partly initialised table as a packed struct with a zero tail).
  SmallVector<const Constant *, 16> Work{Table->getInitializer()};
  while (!Work.empty()) {
    const Constant *C = Work.pop_back_val();
    if (isa<ConstantAggregateZero>(C) || isa<ConstantPointerNull>(C))
      continue; // the loop never reads through null: its call would fault
    if (isa<ConstantAggregate>(C)) {
      for (const Use &E : C->operands())
        Work.push_back(cast<Constant>(E.get()));
      continue;
    }
    auto *Obj = C->getType()->isPointerTy()
                    ? dyn_cast<GlobalVariable>(getUnderlyingObject(C))
                    : nullptr;
    if (!Obj || !Obj->isConstant() || Targets.size() > 1024) {
      Targets.clear();
      return Targets;
    }
    Targets.push_back(Obj);
  }
  return Targets;
}

/// What an access's type says (TBAA) holds for any offset in the object, so
/// the whole-object locations keep the access's \p AA tags.
SmallVector<MemoryLocation, 2>
LoopFacts::iterationLocations(Value *Ptr, LocationSize Size,
                              const AAMDNodes &AA) {
  SmallVector<MemoryLocation, 2> Locs;
  if (L.isLoopInvariant(Ptr)) {
    Locs.push_back(MemoryLocation(Ptr, Size, AA));
    return Locs;
  }
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr);
  // -O0: a pointer read back from the stack slot clang spilled it to
  // (a parameter stored once at entry) is that pointer's object.
  for (unsigned K = 0; K < Objects.size() && K < 16; ++K)
    if (const Value *Fwd = slotValue(Objects[K])) {
      SmallVector<const Value *, 4> More;
      getUnderlyingObjects(Fwd, More, nullptr);
      Objects.erase(Objects.begin() + K);
      Objects.insert(Objects.begin() + K, More.begin(), More.end());
    }
  for (const Value *O : Objects) {
    SmallVector<const Value *, 8> Table = constantTableTargets(O);
    if (!Table.empty()) {
      for (const Value *T : Table)
        Locs.push_back(MemoryLocation(T, LocationSize::beforeOrAfterPointer()));
      continue;
    }
    // A phi of the loop stands for every pointer the walk reaches: the
    // objects of its start value (getUnderlyingObjects stops there).
    if (auto *P = dyn_cast<PHINode>(O))
      if (P->getParent() == L.getHeader()) {
        for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
          if (L.contains(P->getIncomingBlock(In)))
            continue;
          SmallVector<const Value *, 4> Start;
          getUnderlyingObjects(P->getIncomingValue(In), Start, nullptr);
          for (const Value *SO : Start)
            Locs.push_back(
                MemoryLocation(SO, LocationSize::beforeOrAfterPointer(), AA));
        }
        continue;
      }
    Locs.push_back(MemoryLocation(O, LocationSize::beforeOrAfterPointer(), AA));
  }
  return Locs;
}

/// -O0: the value a load of a stack slot reads when the function stores
/// that slot exactly once, before the load (a spilled parameter), or null.
const Value *LoopFacts::slotValue(const Value *V) {
  auto *Ld = dyn_cast<LoadInst>(V);
  if (!Ld || !Ld->isSimple() || !isNonEscapingAlloca(A, Ld->getPointerOperand()))
    return nullptr;
  const StoreInst *Only = nullptr;
  for (const User *U : Ld->getPointerOperand()->users())
    if (auto *St = dyn_cast<StoreInst>(U)) {
      if (Only)
        return nullptr;
      Only = St;
    }
  return Only && DT.dominates(Only, Ld) ? Only->getValueOperand() : nullptr;
}

/// May the call, in some iteration, write \p Loc (an output buffer, or
/// memory the catalogue does not describe)?
bool LoopFacts::callMayWrite(const MemoryLocation &Loc) {
  const CandidateCall &C = S.C;
  if (!C.RowDescribesOperands)
    return true;
  for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
    ArgMemory M = visitCallArgMemory(C, K);
    // readv's buffers are pointers the program stored in the iovec: never
    // a stack slot whose address no instruction takes (-O0's locals).
    if (M.Effect == ArgMemory::Everything &&
        C.RawRow->libc_args[K].kind == SB_ARG_IOVEC_OUT && Loc.Ptr &&
        isNonEscapingAlloca(A, Loc.Ptr))
      continue;
    if (M.Effect == ArgMemory::Everything)
      return true;
    if (M.Effect != ArgMemory::Writes)
      continue;
    for (const MemoryLocation &CL : iterationLocations(
             C.Call->getArgOperand(C.FirstArg + K), M.Loc.Size))
      if (!A.AA.isNoAlias(CL, Loc))
        return true;
  }
  return false;
}

/// Code in the loop that may write what \p LI reads in some iteration, or
/// null (the call itself when only it may).
Instruction *LoopFacts::writerOf(LoadInst *LI) {
  SmallVector<MemoryLocation, 2> Locs = iterationLocations(
      LI->getPointerOperand(),
      LocationSize::precise(DL.getTypeStoreSize(LI->getType())),
      LI->getAAMetadata());
  for (Instruction *W : Writers)
    for (const MemoryLocation &Loc : Locs)
      if (isModSet(A.AA.getModRefInfo(W, Loc)))
        return W;
  for (const MemoryLocation &Loc : Locs)
    if (callMayWrite(Loc))
      return S.Call;
  return nullptr;
}

/// Rule 7: a write the run-time check computes per iteration; false when
/// its address is not one the inspector repeats without a check itself.
bool LoopFacts::addCheckedWrite(Value *Ptr, uint64_t Size, Value *SizeArg,
                                unsigned Depth, bool Kernel) {
  if (!Ptr->getType()->isPointerTy() ||
      rank(classify(Ptr, Depth + 1).Kind) > 1 ||
      (SizeArg && rank(classify(SizeArg, Depth + 1).Kind) > 1))
    return false;
  for (const CheckedRange &W : S.CheckedWrites)
    if (W.Ptr == Ptr && W.Size == Size && W.SizeArg == SizeArg &&
        W.Kernel == Kernel)
      return true;
  CheckedRange R;
  R.Ptr = Ptr;
  R.Size = Size;
  R.SizeArg = SizeArg;
  R.Kernel = Kernel;
  S.CheckedWrites.push_back(R);
  return true;
}

/// Rule 7 on the paths: may the check cover code \p I, between two
/// iterations' calls, against buffer argument \p K of the later calls
/// (effect \p M)?  A load the inspector repeats is (its writes are the
/// check's already); a simple store at an address the inspector computes,
/// against a buffer of known size, joins the check.
bool LoopFacts::coveredByCheck(Instruction &I, unsigned K, const ArgMemory &M) {
  const CandidateCall &C = S.C;
  Value *Buf = C.Call->getArgOperand(C.FirstArg + K);
  if (auto *Ld = dyn_cast<LoadInst>(&I)) {
    bool Checked = false, BufIn = false;
    for (const CheckedRange &R : S.CheckedReads)
      Checked |= R.Load == Ld;
    for (const CheckedRange &R : S.CheckedWrites)
      BufIn |= R.Kernel && R.Ptr == Buf;
    return Checked && BufIn && M.Effect == ArgMemory::Writes;
  }
  auto *St = dyn_cast<StoreInst>(&I);
  const sb_arg_desc &D = C.RawRow->libc_args[K];
  if (D.kind == SB_ARG_PATH)
    return stringCoveredByCheck(St, K);
  if (!St || !St->isSimple() || sb_call_is_raw_syscall(&S.Model.call) ||
      (D.kind != SB_ARG_IN_BUF && D.kind != SB_ARG_OUT_BUF) ||
      rank(classify(Buf).Kind) > 1 ||
      // Two places that never move meet every time or never.
      (L.isLoopInvariant(Buf) && L.isLoopInvariant(St->getPointerOperand())))
    return false;
  Value *SizeArg = nullptr;
  uint64_t Size = 0;
  if (!bufferExtent(C, D, SizeArg, Size))
    return false;
  if (auto *N = dyn_cast_or_null<ConstantInt>(SizeArg)) {
    Size = N->getZExtValue();
    SizeArg = nullptr;
  }
  if ((SizeArg && rank(classify(SizeArg).Kind) > 1) ||
      !addCheckedWrite(St->getPointerOperand(),
                       DL.getTypeStoreSize(St->getValueOperand()->getType()),
                       nullptr, 0))
    return false;
  bool Known = false;
  for (const CheckedRange &R : S.CheckedReads)
    Known |= R.Kernel && R.Ptr == Buf;
  if (!Known) {
    CheckedRange R;
    R.Ptr = Buf;
    R.Size = Size;
    R.SizeArg = SizeArg;
    R.Kernel = true;
    S.CheckedReads.push_back(R);
  }
  ++S.Model.checked_paths;
  return true;
}

/// Rule 7 for names: may the check cover store \p St, between two
/// iterations' calls, against the string name argument \p K of the later
/// calls points to?  The inspector takes SB_LOOP_NAME_MAX bytes from each
/// later name (never reading it) and compares those bytes with every write of the group - this store at
/// its address per iteration, and the call's output buffers (a kernel
/// write of iteration t < j may change name j's bytes before a store of
/// the loop would, so without them the measured bytes would not be the
/// ones the kernel reads).  The core decides whether measuring is allowed
/// (no class may stop the group).
bool LoopFacts::stringCoveredByCheck(StoreInst *St, unsigned K) {
  const CandidateCall &C = S.C;
  Value *Name = C.Call->getArgOperand(C.FirstArg + K);
  if (!St || !St->isSimple() || sb_call_is_raw_syscall(&S.Model.call) ||
      !Name->getType()->isPointerTy() || !repeatable(classify(Name).Kind) ||
      // Two places that never move meet every time or never.
      (L.isLoopInvariant(Name) && L.isLoopInvariant(St->getPointerOperand())))
    return false;
  size_t Before = S.CheckedWrites.size();
  auto Fail = [&] {
    S.CheckedWrites.resize(Before);
    return false;
  };
  if (!addCheckedWrite(St->getPointerOperand(),
                       DL.getTypeStoreSize(St->getValueOperand()->getType()),
                       nullptr, 0))
    return Fail();
  for (unsigned W = 0; W < C.RawRow->libc_argc && W < SB_MAX_ARGS; ++W) {
    ArgMemory M = visitCallArgMemory(C, W);
    if (M.Effect == ArgMemory::Everything)
      return Fail();
    if (M.Effect != ArgMemory::Writes)
      continue;
    Value *SizeArg = nullptr;
    uint64_t Size = 0;
    if (!bufferExtent(C, C.RawRow->libc_args[W], SizeArg, Size))
      return Fail();
    if (auto *N = dyn_cast_or_null<ConstantInt>(SizeArg)) {
      Size = N->getZExtValue();
      SizeArg = nullptr;
    }
    if (!addCheckedWrite(C.Call->getArgOperand(C.FirstArg + W), Size, SizeArg,
                         0, /*Kernel=*/true))
      return Fail();
  }
  bool Known = false;
  for (const CheckedRange &R : S.CheckedReads)
    Known |= R.StringArg == (int)K;
  if (!Known) {
    CheckedRange R;
    R.Ptr = Name;
    R.StringArg = (int)K;
    S.CheckedReads.push_back(R);
  }
  S.Model.checked_strings |= 1u << K;
  ++S.Model.checked_paths;
  return true;
}

/// Rule 7: can every write in the loop that may reach what \p LI reads be
/// computed per iteration (simple stores at repeatable addresses, the
/// call's output buffers)?  Then the load is repeatable under the run-time
/// check and joins its reads.  \p Why: the writes, for the model.
bool LoopFacts::checkWrites(LoadInst *LI, std::string &Why, unsigned Depth) {
  if (!S.C.RowDescribesOperands || sb_call_is_raw_syscall(&S.Model.call))
    return false;
  SmallVector<MemoryLocation, 2> Locs = iterationLocations(
      LI->getPointerOperand(),
      LocationSize::precise(DL.getTypeStoreSize(LI->getType())),
      LI->getAAMetadata());
  size_t Before = S.CheckedWrites.size();
  auto Fail = [&] {
    S.CheckedWrites.resize(Before);
    return false;
  };
  for (Instruction *W : Writers) {
    bool Mods = false;
    for (const MemoryLocation &Loc : Locs)
      Mods |= isModSet(A.AA.getModRefInfo(W, Loc));
    if (!Mods)
      continue;
    // A store of the call's result at the very address a later iteration
    // loads (`fd = dup(fd)` in a stack slot) is carried; at addresses that
    // differ per iteration, only a run-time check can tell.
    auto *St = dyn_cast<StoreInst>(W);
    if (St && dependsOnCall(St->getValueOperand()) &&
        (L.isLoopInvariant(St->getPointerOperand()) ||
         St->getPointerOperand() == LI->getPointerOperand()))
      return Fail();
    // Two places that never move (a flag the loop sets, `done = 1`, read
    // through a stack slot) overlap every time or never: nothing to check.
    if (St && L.isLoopInvariant(St->getPointerOperand()) &&
        L.isLoopInvariant(LI->getPointerOperand()))
      return Fail();
    if (!St || !St->isSimple() ||
        !addCheckedWrite(St->getPointerOperand(),
                         DL.getTypeStoreSize(St->getValueOperand()->getType()),
                         nullptr, Depth))
      return Fail();
    if (!Why.empty())
      Why += ", ";
    Why += sysbatch::detail::describe(*W);
  }
  const CandidateCall &C = S.C;
  for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
    ArgMemory M = visitCallArgMemory(C, K);
    if (M.Effect == ArgMemory::Everything)
      return Fail();
    if (M.Effect != ArgMemory::Writes)
      continue;
    Value *Buf = C.Call->getArgOperand(C.FirstArg + K);
    bool Mods = false;
    for (const MemoryLocation &CL : iterationLocations(Buf, M.Loc.Size))
      for (const MemoryLocation &Loc : Locs)
        Mods |= !A.AA.isNoAlias(CL, Loc);
    if (!Mods)
      continue;
    const sb_arg_desc &D = C.RawRow->libc_args[K];
    Value *SizeArg = nullptr;
    uint64_t Size = 0;
    if (!bufferExtent(C, D, SizeArg, Size))
      return Fail();
    if (auto *N = dyn_cast_or_null<ConstantInt>(SizeArg)) {
      Size = N->getZExtValue();
      SizeArg = nullptr;
    }
    if (!addCheckedWrite(Buf, Size, SizeArg, Depth, /*Kernel=*/true))
      return Fail();
    if (!Why.empty())
      Why += ", ";
    Why += "the call's output buffer";
  }
  if (S.CheckedWrites.size() == Before && Before == 0)
    return false;
  CheckedRange R;
  R.Ptr = LI->getPointerOperand();
  R.Size = DL.getTypeStoreSize(LI->getType());
  R.Load = LI;
  S.CheckedReads.push_back(R);
  return true;
}

bool LoopFacts::dependsOnCall(Value *V, unsigned Depth) {
  DenseSet<const Value *> Seen;
  SmallVector<Value *, 16> Work{V};
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    if (X == S.Call)
      return true;
    auto *I = dyn_cast<Instruction>(X);
    if (!I || !L.contains(I) || !Seen.insert(I).second || Seen.size() > 256)
      continue;
    for (Value *Op : I->operands())
      Work.push_back(Op);
    // -O0: through the stack slot the loop stores it in.
    if (auto *Ld = dyn_cast<LoadInst>(I))
      for (User *U : Ld->getPointerOperand()->users())
        if (auto *St = dyn_cast<StoreInst>(U))
          if (St->getPointerOperand() == Ld->getPointerOperand() &&
              L.contains(St))
            Work.push_back(St->getValueOperand());
  }
  (void)Depth;
  return false;
}

/// A header phi SCEV knows as {start,+,constant step} of this loop.
bool LoopFacts::phiInduction(PHINode *P) {
  if (P->getParent() != L.getHeader() || !SE.isSCEVable(P->getType()))
    return false;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(P));
  if (!AR || AR->getLoop() != &L || !AR->isAffine())
    return false;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || Step->getAPInt().isSignedIntN(64) == false)
    return false;
  InductionLeaf Leaf;
  Leaf.Phi = P;
  Leaf.Step = Step->getAPInt().getSExtValue();
  S.Leaves[P] = Leaf;
  return true;
}

/// Rule 10: \p Link loads the address of the next node from the node
/// \p From points to (`p->next`: From plus a constant).
static bool linkFrom(const LoadInst *Link, const Value *From,
                     const DataLayout &DL) {
  if (!Link->isSimple() || !Link->getType()->isPointerTy())
    return false;
  APInt Off(DL.getIndexTypeSizeInBits(Link->getPointerOperand()->getType()),
            0);
  return Link->getPointerOperand()->stripAndAccumulateConstantOffsets(
             DL, Off, /*AllowNonInbounds=*/true) == From;
}

/// Rule 10: a header phi whose value in the next iteration is loaded from
/// the node it points to in this one (`for (p = head; p; p = p->next)`).
bool LoopFacts::phiChase(PHINode *P) {
  BasicBlock *Latch = L.getLoopLatch();
  if (P->getParent() != L.getHeader() || !Latch ||
      !P->getType()->isPointerTy() || P->getNumIncomingValues() != 2 ||
      !L.contains(Latch))
    return false;
  auto *Link = dyn_cast<LoadInst>(P->getIncomingValueForBlock(Latch));
  if (!Link || !L.contains(Link) || !linkFrom(Link, P, DL))
    return false;
  for (const Loop *Sub : L.getSubLoops())
    if (Sub->contains(Link))
      return false;
  InductionLeaf Leaf;
  Leaf.Phi = P;
  Leaf.Link = Link;
  S.Leaves[P] = Leaf;
  return true;
}

/// Rule 10: a chase is an induction when its link is a load the inspector
/// repeats (of memory nothing in the loop writes, or under rule 7's check,
/// from iteration 0 on).  \p Leaves stand for the node in each iteration;
/// they are inductions while the link is classified (the link's address is
/// computed from them).  Otherwise the chase is no induction and the
/// verdict says why.
Verdict LoopFacts::chaseVerdict(ArrayRef<Instruction *> Leaves,
                                LoadInst *Link, unsigned Depth) {
  for (Instruction *I : Leaves)
    Memo[I] = {SB_LV_INDUCTION, ""};
  ChaseLinks.insert(Link);
  Verdict V = classify(Link, Depth + 1);
  if (repeatable(V.Kind))
    return {SB_LV_INDUCTION, ""};
  // Everything classified from the leaves assumed them repeatable.
  ChaseLinks.erase(Link);
  for (Instruction *I : Leaves)
    S.Leaves.erase(I);
  Memo.clear();
  V.Why = "the node of the list the loop walks (p = p->next): " + V.Why;
  return V;
}

/// -O0: a load of a stack slot only ever loaded and stored, which the loop
/// stores exactly once per iteration, never before that load, with
/// `load + constant` (`i++`, `fd--`, `p++`): in iteration k it reads
/// start + k * step.  A load that does not dominate the call reads what
/// the slot holds at the call site (Late).
bool LoopFacts::slotInduction(LoadInst *LI) {
  auto *Slot = dyn_cast<AllocaInst>(LI->getPointerOperand());
  if (!Slot || !LI->isSimple() || !isNonEscapingAlloca(A, Slot))
    return false;
  auto InSubloop = [&](const Instruction *I) {
    for (const Loop *Sub : L.getSubLoops())
      if (Sub->contains(I))
        return true;
    return false;
  };
  StoreInst *Bump = nullptr;
  for (User *U : Slot->users())
    if (auto *St = dyn_cast<StoreInst>(U))
      if (L.contains(St)) {
        if (Bump)
          return false;
        Bump = St;
      }
  // Once in every iteration (not in an inner loop, on every path to the
  // latch), and never before LI in it.
  if (!Bump || InSubloop(Bump) || InSubloop(LI) ||
      !DT.dominates(Bump->getParent(), L.getLoopLatch()) ||
      bumpedBefore(Bump, LI))
    return false;
  Value *New = Bump->getValueOperand();
  int64_t Step = 0;
  Value *From = nullptr;
  if (auto *BO = dyn_cast<BinaryOperator>(New)) {
    auto *K = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!K || K->getBitWidth() > 64)
      return false;
    if (BO->getOpcode() == Instruction::Add)
      Step = K->getSExtValue();
    else if (BO->getOpcode() == Instruction::Sub)
      Step = -K->getSExtValue();
    else
      return false;
    From = BO->getOperand(0);
  } else if (auto *Link = dyn_cast<LoadInst>(New)) {
    // Rule 10: `p = p->next`, the link loaded from the node the slot held.
    APInt Off(DL.getIndexTypeSizeInBits(Link->getPointerOperand()->getType()),
              0);
    auto *Old = dyn_cast<LoadInst>(
        const_cast<Value *>(Link->getPointerOperand()
                                ->stripAndAccumulateConstantOffsets(
                                    DL, Off, /*AllowNonInbounds=*/true)));
    if (!Old || Old->getPointerOperand() != Slot || !Old->isSimple() ||
        Old->getType() != LI->getType() || !LI->getType()->isPointerTy() ||
        !linkFrom(Link, Old, DL) || !L.contains(Link) || InSubloop(Link) ||
        InSubloop(Old))
      return false;
    InductionLeaf Leaf;
    Leaf.Slot = Slot;
    Leaf.Link = Link;
    Leaf.Late = !DT.dominates(LI, S.Call);
    S.Leaves[LI] = Leaf;
    Leaf.Late = !DT.dominates(Old, S.Call);
    S.Leaves[Old] = Leaf;
    return true;
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(New)) {
    APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    if (GEP->getNumIndices() != 1 ||
        !GEP->accumulateConstantOffset(DL, Off) ||
        !Off.isSignedIntN(64))
      return false;
    Step = Off.getSExtValue();
    From = GEP->getPointerOperand();
  } else {
    return false;
  }
  auto *Old = dyn_cast<LoadInst>(From);
  if (!Old || Old->getPointerOperand() != Slot ||
      Old->getType() != LI->getType())
    return false;
  InductionLeaf Leaf;
  Leaf.Slot = Slot;
  Leaf.Step = Step;
  Leaf.Late = !DT.dominates(LI, S.Call);
  S.Leaves[LI] = Leaf;
  return true;
}

/// Can \p Bump run before \p LI in one iteration (a path from it to LI that
/// does not go round the loop)?
bool LoopFacts::bumpedBefore(StoreInst *Bump, LoadInst *LI) {
  BasicBlock *From = Bump->getParent(), *To = LI->getParent();
  if (From == To)
    return Bump->comesBefore(LI);
  SmallVector<BasicBlock *, 8> Work{From};
  DenseSet<BasicBlock *> Seen{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    for (BasicBlock *Succ : successors(BB)) {
      if (Succ == L.getHeader())
        continue; // the next iteration
      if (Succ == To)
        return true;
      if (L.contains(Succ) && Seen.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  return false;
}

Verdict LoopFacts::classify(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return {SB_LV_INVARIANT, ""};
  auto Known = Memo.find(I);
  if (Known != Memo.end())
    return Known->second;
  Verdict R{SB_LV_UNREPEATABLE, "code the inspector does not repeat"};
  if (Depth > 24) {
    R.Why = "an expression too deep to repeat";
  } else if (I == S.Call) {
    R = {SB_LV_CARRIED, "the call's result in an earlier iteration"};
  } else if (auto *P = dyn_cast<PHINode>(I)) {
    if (phiInduction(P))
      R = {SB_LV_INDUCTION, ""};
    else if (phiChase(P))
      R = chaseVerdict({P}, S.Leaves[P].Link, Depth);
    else if (dependsOnCall(P))
      R = {SB_LV_CARRIED,
           "a value the loop carries from the call's result to the next "
           "iteration"};
    else
      R.Why = P->getParent() == L.getHeader()
                  ? "a value the loop carries to the next iteration that is "
                    "not an induction variable"
                  : "a value chosen by a branch in the loop";
  } else if (auto *LI = dyn_cast<LoadInst>(I)) {
    if (slotInduction(LI)) {
      R = {SB_LV_INDUCTION, ""};
      const InductionLeaf &Leaf = S.Leaves[LI];
      if (Leaf.Link) {
        APInt Off(DL.getIndexTypeSizeInBits(
                      Leaf.Link->getPointerOperand()->getType()),
                  0);
        auto *Old = cast<LoadInst>(const_cast<Value *>(
            Leaf.Link->getPointerOperand()->stripAndAccumulateConstantOffsets(
                DL, Off, /*AllowNonInbounds=*/true)));
        SmallVector<Instruction *, 2> Leaves{LI};
        if (Old != LI)
          Leaves.push_back(Old);
        R = chaseVerdict(Leaves, Leaf.Link, Depth);
      }
    } else if (!LI->isSimple()) {
      R.Why = "a volatile or atomic load";
    } else {
      Verdict Addr = classify(LI->getPointerOperand(), Depth + 1);
      // Rule 10: a chase's link, reached before its phi, was classified
      // with the phi just now.
      auto Linked = Memo.find(I);
      if (Linked != Memo.end())
        return Linked->second;
      std::string CheckWhy;
      if (!repeatable(Addr.Kind)) {
        R = Addr;
      } else if (Instruction *W = writerOf(LI)) {
        // Only a load made before the call in its iteration: one after it
        // (an exit test on fd[i] after fd[i] = open(...)) may read what the
        // iteration's own code stores from the call's result.
        // Rule 10: a chase's link is loaded after the call; its range
        // counts from iteration 0 (CheckedRange::FromFirst).
        bool Link = ChaseLinks.count(LI);
        if ((DT.dominates(LI, S.Call) || Link) &&
            checkWrites(LI, CheckWhy, Depth)) {
          if (Link)
            S.CheckedReads.back().FromFirst = true;
          InspectorLoads.push_back(LI);
          R = {SB_LV_CHECKED, ""};
          if (!S.Model.checked_why)
            S.Model.checked_why = S.keep(CheckWhy);
        } else if (W == S.Call)
          R = {SB_LV_CARRIED, "a load of memory the call writes"};
        else if (isa<StoreInst>(W) &&
                 dependsOnCall(cast<StoreInst>(W)->getValueOperand()))
          R = {SB_LV_CARRIED,
               "a load of memory the loop stores the call's result in"};
        else
          R.Why = "a load of memory the loop writes (" +
                  sysbatch::detail::describe(*W) + ")";
      } else {
        InspectorLoads.push_back(LI);
        R = {Addr.Kind, ""};
      }
    }
  } else if (isa<CastInst>(I) || isa<GetElementPtrInst>(I) ||
             isa<CmpInst>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I) ||
             (isa<BinaryOperator>(I) && !I->isIntDivRem())) {
    R = {SB_LV_INVARIANT, ""};
    for (Value *Op : I->operands()) {
      Verdict O = classify(Op, Depth + 1);
      if (rank(O.Kind) > rank(R.Kind))
        R = O;
    }
  } else if (auto *CB = dyn_cast<CallBase>(I)) {
    R = classifyLibcCall(*CB, Depth);
  } else {
    R.Why = std::string("a ") + I->getOpcodeName() + " in the loop";
  }
  Memo[I] = R;
  return R;
}

/// A table function that writes nothing and leaves errno alone (rule 8):
/// the inspector may call it again.
static const sb_libc_function *readOnlyLibcCall(const Instruction &I,
                                                sb_abi Abi) {
  sb_libc_access Acc[SB_LIBC_MAX_ARGS] = {};
  const sb_libc_function *Fn = isa<CallInst>(I) ? visitLibcCall(I, Abi, Acc)
                                                : nullptr;
  return Fn && !sb_loop_libc_repeatable(Fn) ? Fn : nullptr;
}

/// Rule 8: a call to a libc function that only reads its arguments'
/// memory (`strlen(parts[i])`) is repeatable when its inputs are and no
/// code in the loop, nor the call, writes what it reads: exactly what
/// makes a load repeatable.  What it reads for a later iteration through
/// a pointer that changes per iteration is a load ahead (rule 4), proven
/// only for the strings of a constant table.
Verdict LoopFacts::classifyLibcCall(CallBase &CB, unsigned Depth) {
  Function *F = CB.getCalledFunction();
  Verdict R{SB_LV_UNREPEATABLE,
            "the result of " + (F ? "a call to " + F->getName().str()
                                  : std::string("a call"))};
  sb_libc_access Acc[SB_LIBC_MAX_ARGS] = {};
  const sb_libc_function *Fn =
      isa<CallInst>(CB) && CB.arg_size() <= SB_LIBC_MAX_ARGS
          ? visitLibcCall(CB, A.Abi, Acc)
          : nullptr;
  if (!Fn)
    return R;
  if (const char *No = sb_loop_libc_repeatable(Fn)) {
    R.Why = No;
    return R;
  }
  for (unsigned K = 0; K < CB.arg_size(); ++K) {
    Value *Op = CB.getArgOperand(K);
    Verdict V = classify(Op, Depth + 1);
    if (rank(V.Kind) > 1)
      return V.Kind == SB_LV_CARRIED ? V : Verdict{SB_LV_UNREPEATABLE,
                                                   F->getName().str() +
                                                       " takes " +
                                                       (V.Why.empty()
                                                            ? "a value"
                                                            : V.Why)};
    if (!Op->getType()->isPointerTy() || !(Acc[K].access & SB_LIBC_READS))
      continue;
    for (const MemoryLocation &Loc :
         iterationLocations(Op, LocationSize::beforeOrAfterPointer())) {
      for (Instruction *W : Writers)
        if (isModSet(A.AA.getModRefInfo(W, Loc)))
          return {SB_LV_UNREPEATABLE,
                  F->getName().str() + " reads memory " +
                      sysbatch::detail::describe(*W) + " in the loop writes"};
      if (callMayWrite(Loc))
        return {SB_LV_UNREPEATABLE,
                F->getName().str() + " reads memory the call writes"};
    }
    if (!L.isLoopInvariant(Op))
      LibcReads.push_back({&CB, Op});
  }
  if (S.Model.repeated_calls < SB_LOOP_MAX_REPEATED_CALLS)
    S.Model.repeated_call[S.Model.repeated_calls] = S.keep(F->getName().str());
  ++S.Model.repeated_calls;
  return {SB_LV_INDUCTION, ""};
}

/// Rule 4 for what a libc call reads through \p Ptr for a later
/// iteration: a pointer loaded from a constant table whose every entry is
/// the start of a NUL-terminated constant array (a string literal).
static bool pointsToConstantString(const Value *Ptr, const DataLayout &DL) {
  SmallVector<const Value *, 8> Targets = constantTableTargets(Ptr);
  if (Targets.empty())
    return false;
  auto *Ld = cast<LoadInst>(Ptr);
  auto *Table = cast<GlobalVariable>(getUnderlyingObject(Ld->getPointerOperand()));
  SmallVector<const Constant *, 16> Work{Table->getInitializer()};
  while (!Work.empty()) {
    const Constant *C = Work.pop_back_val();
    if (isa<ConstantAggregateZero>(C) || isa<ConstantPointerNull>(C))
      continue;
    if (isa<ConstantAggregate>(C)) {
      for (const Use &E : C->operands())
        Work.push_back(cast<Constant>(E.get()));
      continue;
    }
    APInt Off(DL.getIndexTypeSizeInBits(C->getType()), 0);
    auto *G = dyn_cast<GlobalVariable>(
        C->stripAndAccumulateConstantOffsets(DL, Off, true));
    auto *Str = G && G->hasDefinitiveInitializer()
                    ? dyn_cast<ConstantDataSequential>(G->getInitializer())
                    : nullptr;
    if (!Str || !Off.isZero() || !Str->isCString())
      return false;
  }
  return true;
}

/// Rule 4 at -O0, where SCEV does not see induction variables in stack
/// slots: `a[i]` of a global array or a local one (an alloca of the entry
/// block, there for the whole call) of N elements, i a slot the loop bumps
/// by a positive step from a constant >= 0 (its one store before the
/// loop, or the last store of the loop's preheader when the slot's address
/// goes nowhere: a counter several loops share, `int i; for (i = 0; ...)`),
/// and an exit test the inspector repeats before the call, `i < C` or
/// `i <= C` on that slot with the last index below N: every iteration the
/// inspector looks at has i within the array (GCC's load_in_bounds).
bool LoopFacts::slotIndexInBounds(LoadInst *LI) {
  auto *GEP = dyn_cast<GetElementPtrInst>(LI->getPointerOperand());
  // (A table initialised in part is a global of a packed struct type that
  // the GEP sees through a cast as the declared array.)
  Value *Object = GEP ? GEP->getPointerOperand()->stripPointerCasts() : nullptr;
  auto *G = dyn_cast_or_null<GlobalVariable>(Object);
  auto *Local = dyn_cast_or_null<AllocaInst>(Object);
  if (Local && (!Local->isStaticAlloca() || Local->isArrayAllocation()))
    Local = nullptr;
  Type *ObjectTy = G ? G->getValueType() : Local ? Local->getAllocatedType() : nullptr;
  auto *ArrTy = ObjectTy ? dyn_cast<ArrayType>(GEP->getSourceElementType()) : nullptr;
  MaybeAlign ObjectAlign = G ? G->getAlign() : Local ? MaybeAlign(Local->getAlign())
                                                     : MaybeAlign();
  if (!ArrTy || GEP->getNumIndices() != 2 || !ObjectTy->isSized() ||
      DL.getTypeAllocSize(ObjectTy) < DL.getTypeAllocSize(ArrTy) ||
      !match0(GEP->getOperand(1)) ||
      DL.getTypeStoreSize(LI->getType()) >
          DL.getTypeAllocSize(ArrTy->getElementType()) ||
      ObjectAlign.valueOrOne() < LI->getAlign() ||
      DL.getTypeAllocSize(ArrTy->getElementType()) % LI->getAlign().value())
    return false;
  Value *Idx = GEP->getOperand(2);
  if (auto *Ext = dyn_cast<CastInst>(Idx))
    if (isa<SExtInst>(Ext) || isa<ZExtInst>(Ext))
      Idx = Ext->getOperand(0);
  auto *IdxLoad = dyn_cast<LoadInst>(Idx);
  auto Leaf = IdxLoad ? S.Leaves.find(IdxLoad) : S.Leaves.end();
  if (Leaf == S.Leaves.end() || !Leaf->second.Slot || Leaf->second.Step <= 0)
    return false;
  AllocaInst *Slot = Leaf->second.Slot;
  // The start: the slot's one store outside the loop, a constant >= 0.
  const StoreInst *Init = nullptr;
  bool Several = false, Escapes = false;
  for (User *U : Slot->users()) {
    auto *St = dyn_cast<StoreInst>(U);
    if (St && St->getPointerOperand() == Slot && St->getValueOperand() != Slot) {
      if (!L.contains(St)) {
        Several |= Init != nullptr;
        Init = St;
      }
    } else if (!isa<LoadInst>(U)) {
      Escapes = true;
    }
  }
  if (Several) {
    // Only the preheader's last store reaches the header: nothing else
    // writes a slot whose address is only loaded from and stored to.
    Init = nullptr;
    BasicBlock *Pre = L.getLoopPreheader();
    if (Escapes || !Pre)
      return false;
    for (Instruction &I : llvm::reverse(*Pre))
      if (auto *St = dyn_cast<StoreInst>(&I))
        if (St->getPointerOperand() == Slot) {
          Init = St;
          break;
        }
  }
  auto *Start = Init ? dyn_cast<ConstantInt>(Init->getValueOperand()) : nullptr;
  if (!Start || Start->isNegative() || !DT.dominates(Init, L.getHeader()))
    return false;
  for (const ExitTest &E : S.Exits) {
    auto *Cmp = dyn_cast<ICmpInst>(E.Br->getCondition());
    if (E.AfterCall || !E.StayOnTrue || !Cmp)
      continue;
    auto *Lhs = dyn_cast<LoadInst>(Cmp->getOperand(0));
    auto *C = dyn_cast<ConstantInt>(Cmp->getOperand(1));
    auto Bound = Lhs ? S.Leaves.find(Lhs) : S.Leaves.end();
    if (!C || Bound == S.Leaves.end() || Bound->second.Slot != Slot ||
        C->getBitWidth() > 64)
      continue;
    int64_t Last;
    switch (Cmp->getPredicate()) {
    case CmpInst::ICMP_SLT: Last = C->getSExtValue() - 1; break;
    case CmpInst::ICMP_SLE: Last = C->getSExtValue(); break;
    case CmpInst::ICMP_ULT: Last = (int64_t)C->getZExtValue() - 1; break;
    case CmpInst::ICMP_ULE: Last = (int64_t)C->getZExtValue(); break;
    default: continue;
    }
    if (Last >= 0 && (uint64_t)Last < ArrTy->getNumElements())
      return true;
  }
  return false;
}

/// Rule 4: is the inspector's repeat of \p LI for a later iteration known
/// not to fault?
bool LoopFacts::proven(LoadInst *LI) {
  if (slotIndexInBounds(LI))
    return true;
  Value *Ptr = LI->getPointerOperand();
  if (L.isLoopInvariant(Ptr))
    return DT.dominates(LI, S.Call) ||
           compat::dereferenceableAt(Ptr, LI->getType(), LI->getAlign(), DL,
                                     S.Call, &DT);
  if (isDereferenceableAndAlignedInLoop(LI, &L, SE, DT))
    return true;
  // A field of each element of a global array (parts[i].p: a stride larger
  // than the load), which LLVM's helper does not cover: every address of
  // the loop's at most MaxBTC + 1 iterations lies inside the object.
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ptr));
  if (!AR || AR->getLoop() != &L || !AR->isAffine())
    return false;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  auto *Max = dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(&L));
  const SCEV *Start = AR->getStart();
  auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(Start));
  auto *G = Base ? dyn_cast<GlobalVariable>(Base->getValue()) : nullptr;
  if (!Step || !Max || !G || !G->getValueType()->isSized() ||
      !G->hasDefinitiveInitializer())
    return false;
  auto *Off = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Start, Base));
  if (!Off || Step->getAPInt().isNegative() || Off->getAPInt().isNegative() ||
      Max->getAPInt().getActiveBits() > 32 ||
      Step->getAPInt().getActiveBits() > 32)
    return false;
  uint64_t Last = Off->getAPInt().getZExtValue() +
                  Max->getAPInt().getZExtValue() * Step->getAPInt().getZExtValue();
  uint64_t Size = DL.getTypeStoreSize(LI->getType());
  return Last + Size <= DL.getTypeAllocSize(G->getValueType()) &&
         isAligned(LI->getAlign(), Off->getAPInt().getZExtValue()) &&
         isAligned(LI->getAlign(), Step->getAPInt().getZExtValue()) &&
         G->getAlign().valueOrOne() >= LI->getAlign();
}

void LoopFacts::describeArguments() {
  sb_call_event &CE = S.Model.call;
  for (int K = 0; K < CE.nargs; ++K) {
    Value *V = S.Call->getArgOperand(S.C.EventBase + K);
    Verdict R = classify(V);
    S.Model.arg_value[K] = R.Kind;
    S.Model.arg_why[K] = R.Why.empty() ? nullptr : S.keep(R.Why);
  }
  S.Model.checked_writes = (int)S.CheckedWrites.size();
  // The buffer the core makes private per slot (rule 3): kernel writes go
  // there, so the code's accesses to the shared one commute.
  if (S.C.RowDescribesOperands && !sb_call_is_raw_syscall(&CE))
    for (int K = 0; K < CE.nargs && K < (int)S.C.RawRow->libc_argc; ++K)
      if (S.C.RawRow->libc_args[K].kind == SB_ARG_OUT_BUF &&
          S.Model.arg_value[K] == SB_LV_INVARIANT &&
          CE.args[K].kind != SB_OPND_CONST)
        PrivateArg = PrivateArg < 0 ? K : PrivateArg;
  describeBuiltArguments();
}

/// The constant byte offset of \p Ptr into \p Obj, or -1 when it is not
/// one.
static int64_t offsetInto(Value *Ptr, AllocaInst *Obj, const DataLayout &DL) {
  APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Off, true);
  if (Base->stripPointerCasts() != Obj || Off.isNegative() ||
      !Off.isSignedIntN(32))
    return -1;
  return Off.getSExtValue();
}

/// Could \p Ptr, a pointer an input of a builder reads through, point into
/// the function's own buffer \p Obj?  Not when it comes from an argument
/// or a global (they exist before this frame), a constant table, or
/// another object; otherwise only if the buffer's address may have been
/// captured.
bool LoopFacts::mayPointInto(Value *Ptr, AllocaInst *Obj) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr);
  for (const Value *O : Objects) {
    if (O == Obj)
      return true;
    if (isa<Argument>(O) || isa<GlobalValue>(O) || isa<AllocaInst>(O) ||
        isa<Constant>(O) || !constantTableTargets(O).empty() ||
        (slotValue(O) && isa<Argument>(slotValue(O))))
      continue;
    if (PointerMayBeCaptured(Obj, /*ReturnCaptures=*/true,
                             /*StoreCaptures=*/true))
      return true;
  }
  return false;
}

/// Why \p W may not be repeated by the inspector into a private copy of
/// \p Obj, or "" (rule 6).
std::string LoopFacts::builderObjection(Instruction *W, AllocaInst *Obj,
                                        const DenseSet<Instruction *> &Builders,
                                        sb_loop_build_step &Step) {
  std::string What = sysbatch::detail::describe(*W);
  if (!DT.dominates(W, S.Call))
    return What + " does not run before the call in every iteration";
  for (const Loop *Sub : L.getSubLoops())
    if (Sub->contains(W))
      return What + " runs in an inner loop";
  if (auto *St = dyn_cast<StoreInst>(W)) {
    // A store of a repeatable value at a constant place in the buffer
    // (clang -O2 writes a short memcpy so).
    if (!St->isSimple() || offsetInto(St->getPointerOperand(), Obj, DL) < 0)
      return What + " writes it at a place not known";
    Step.kind = SB_BUILD_FIXED;
    Step.offset = (long)offsetInto(St->getPointerOperand(), Obj, DL);
    Step.bytes = (long)(uint64_t)DL.getTypeStoreSize(
        St->getValueOperand()->getType());
    Verdict V = classify(St->getValueOperand());
    if (rank(V.Kind) >= 2)
      return What + " stores " + (V.Why.empty() ? "a value" : V.Why);
    return St->getValueOperand()->getType()->isPointerTy()
               ? What + " stores a pointer in it"
               : "";
  }
  auto *CI = dyn_cast<CallInst>(W);
  sb_libc_access Acc[SB_LIBC_MAX_ARGS] = {};
  const sb_libc_function *Fn = nullptr;
  std::string Why;
  if (auto *MI = dyn_cast_or_null<MemIntrinsic>(CI)) {
    // llvm.memcpy / memmove / memset: what their libc rows say.
    if (MI->isVolatile())
      return What + " is volatile";
    Acc[0].access = SB_LIBC_WRITES;
    if (isa<MemTransferInst>(MI))
      Acc[1].access = SB_LIBC_READS;
    auto *Len = dyn_cast<ConstantInt>(MI->getLength());
    Step.kind = SB_BUILD_FIXED;
    Step.bytes = Len && Len->getZExtValue() <= 65536 ? (long)Len->getZExtValue()
                                                     : 0;
  } else if (!CI || !(Fn = visitLibcCall(*CI, A.Abi, Acc, &Why))) {
    return What + " also writes it";
  }
  if (CI->arg_size() == 0 || CI->arg_size() > SB_LIBC_MAX_ARGS ||
      !(Acc[0].access & SB_LIBC_WRITES) ||
      offsetInto(CI->getArgOperand(0), Obj, DL) < 0)
    return What + " writes it other than as its destination at a known place";
  long Off = (long)offsetInto(CI->getArgOperand(0), Obj, DL);
  if (isa<MemIntrinsic>(CI)) {
    Step.offset = Off;
  } else {
    long Count = -1;
    if (Acc[0].size_arg >= 0 && (unsigned)Acc[0].size_arg < CI->arg_size())
      if (auto *C = dyn_cast<ConstantInt>(CI->getArgOperand(Acc[0].size_arg)))
        Count = C->getValue().getLimitedValue(65537);
    Step = sb_loop_libc_build_step(Fn, Off, Count);
  }
  for (unsigned K = 1; K < CI->arg_size(); ++K) {
    Value *Op = CI->getArgOperand(K);
    if (Acc[K].access & SB_LIBC_WRITES)
      return What + " writes other memory too";
    Verdict V = classify(Op);
    if (rank(V.Kind) >= 2)
      return What + " takes " + (V.Why.empty() ? "a value" : V.Why);
    if (Op->getType()->isPointerTy() && (Acc[K].access & SB_LIBC_READS)) {
      std::string No = readObjection(Op, Obj, Builders);
      if (!No.empty())
        return What + No;
    }
  }
  return "";
}

/// Why the memory a builder reads through \p Op may differ when the
/// inspector builds again ahead, or "".
std::string LoopFacts::readObjection(Value *Op, AllocaInst *Obj,
                                     const DenseSet<Instruction *> &Builders) {
  if (mayPointInto(Op, Obj))
    return " reads what may be the buffer it builds";
  for (const MemoryLocation &Loc :
       iterationLocations(Op, LocationSize::beforeOrAfterPointer())) {
    for (Instruction *X : Writers) {
      if (Builders.count(X))
        continue; // they write only the buffer
      if (auto *II = dyn_cast<IntrinsicInst>(X))
        if (II->isLifetimeStartOrEnd())
          continue;
      if (auto *St = dyn_cast<StoreInst>(X))
        if (!mayPointInto(Op, Obj) && St->isSimple() &&
            isNonEscapingAlloca(A, St->getPointerOperand()))
          continue; // a stack slot no pointer reaches
      if (isModSet(A.AA.getModRefInfo(X, Loc)))
        return " reads memory " + sysbatch::detail::describe(*X) +
               " in the loop writes";
    }
    if (callMayWrite(Loc))
      return " reads memory the call writes";
  }
  return "";
}

/// Rule 6: a buffer the call only reads (a path, an input buffer) that the
/// loop builds each iteration before the call (snprintf(path, ...),
/// strcpy/strcat, memcpy into it): SB_LV_BUILT when only such code of the
/// libc table writes it, from inputs the inspector repeats.
void LoopFacts::describeBuiltArguments() {
  sb_call_event &CE = S.Model.call;
  if (!S.C.RowDescribesOperands || sb_call_is_raw_syscall(&CE))
    return;
  for (int K = 0; K < CE.nargs && K < (int)S.C.RawRow->libc_argc; ++K) {
    uint8_t Kind = S.C.RawRow->libc_args[K].kind;
    if ((Kind != SB_ARG_PATH && Kind != SB_ARG_IN_BUF) ||
        S.Model.arg_value[K] != SB_LV_INVARIANT ||
        CE.args[K].kind == SB_OPND_CONST)
      continue;
    Value *Arg = S.Call->getArgOperand(S.C.EventBase + K);
    auto *Obj = dyn_cast<AllocaInst>(getUnderlyingObject(Arg));
    if (!Obj || !Obj->isStaticAlloca())
      continue;
    MemoryLocation ObjLoc(Obj, LocationSize::beforeOrAfterPointer());
    DenseSet<Instruction *> Candidates;
    SmallVector<Instruction *, 4> Builders;
    DenseMap<Instruction *, sb_loop_build_step> Steps;
    std::string Why;
    for (Instruction *W : Writers) {
      if (auto *II = dyn_cast<IntrinsicInst>(W))
        if (II->isLifetimeStartOrEnd())
          continue;
      // -O0: a store through a pointer that cannot be the buffer's
      // (++*count of a parameter) though the buffer escaped to libc.
      if (auto *St = dyn_cast<StoreInst>(W))
        if (!mayPointInto(St->getPointerOperand(), Obj))
          continue;
      if (isModSet(A.AA.getModRefInfo(W, ObjLoc)))
        Candidates.insert(W);
    }
    if (Candidates.empty())
      continue; // nothing in the loop writes it: it stays invariant
    for (Instruction *W : Writers) {
      if (!Candidates.count(W) || !Why.empty())
        continue;
      sb_loop_build_step Step = {SB_BUILD_OTHER, 0, 0};
      Why = builderObjection(W, Obj, Candidates, Step);
      if (Why.empty()) {
        Builders.push_back(W);
        Steps[W] = Step;
      }
    }
    if (Why.empty() && offsetInto(Arg, Obj, DL) < 0)
      Why = "the call's argument is not at a constant place in it";
    auto *Count = dyn_cast<ConstantInt>(Obj->getArraySize());
    uint64_t Bytes = DL.getTypeAllocSize(Obj->getAllocatedType());
    S.Model.arg_value[K] = Why.empty() ? SB_LV_BUILT : SB_LV_BUILT_OTHERWISE;
    S.Model.arg_why[K] =
        Why.empty() ? nullptr
                    : S.keep("the buffer is built in the loop, but " + Why);
    S.Model.built_size[K] =
        Count && Count->getZExtValue() <= 65536 && Bytes <= 65536
            ? (long)(Bytes * Count->getZExtValue())
            : 0;
    if (Why.empty() && BuiltArg < 0) {
      llvm::sort(Builders, [&](Instruction *X, Instruction *Y) {
        return X != Y && DT.dominates(X, Y);
      });
      BuiltArg = K;
      S.Built.Arg = K;
      S.Built.Obj = Obj;
      S.Built.Builders.assign(Builders.begin(), Builders.end());
      // Rule 6's steps, in the order every iteration runs them.
      S.Model.build_steps = (int)Builders.size();
      for (size_t B = 0; B < Builders.size() && B < SB_LOOP_MAX_BUILD_STEPS; ++B)
        S.Model.build_step[B] = Steps[Builders[B]];
    }
  }
}

/// Is \p V the call's value (through sign extensions and, at -O0, the
/// stack slot it was stored in within the block)?
bool LoopFacts::isCallResult(Value *V, bool &Widened) {
  Widened = false;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (V == S.Call)
      return true;
    if (auto *SX = dyn_cast<SExtInst>(V)) {
      Widened = true;
      V = SX->getOperand(0);
    } else if (auto *Ld = dyn_cast<LoadInst>(V)) {
      if (!Ld->isSimple() || !isNonEscapingAlloca(A, Ld->getPointerOperand()))
        return false;
      StoreInst *Last = nullptr;
      for (Instruction *P = Ld->getPrevNode(); P && !Last; P = P->getPrevNode())
        if (auto *St = dyn_cast<StoreInst>(P))
          if (St->getPointerOperand() == Ld->getPointerOperand())
            Last = St;
      if (!Last)
        return false;
      V = Last->getValueOperand();
    } else {
      return false;
    }
  }
  return false;
}

/// The classes (bit c: sign class c) for which \p Br goes to successor 0,
/// or -1 when the branch is not the call's result compared with a
/// constant.
int LoopFacts::classMask(BranchInst *Br, bool &Swapped) {
  Swapped = false;
  if (!Br->isConditional())
    return -1;
  Value *Cond = Br->getCondition();
  while (auto *X = dyn_cast<BinaryOperator>(Cond)) {
    auto *One = dyn_cast<ConstantInt>(X->getOperand(1));
    if (X->getOpcode() != Instruction::Xor || !One || !One->isOne())
      break;
    Cond = X->getOperand(0);
    Swapped = !Swapped;
  }
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return -1;
  Value *Lhs = Cmp->getOperand(0), *Rhs = Cmp->getOperand(1);
  CmpInst::Predicate Pred = Cmp->getPredicate();
  if (isa<Constant>(Lhs)) {
    std::swap(Lhs, Rhs);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  APInt K;
  if (auto *CI = dyn_cast<ConstantInt>(Rhs))
    K = CI->getValue();
  else if (isa<ConstantPointerNull>(Rhs))
    K = APInt(64, 0);
  else if (auto *CE = dyn_cast<ConstantExpr>(Rhs);
           CE && CE->getOpcode() == Instruction::IntToPtr &&
           isa<ConstantInt>(CE->getOperand(0)))
    K = cast<ConstantInt>(CE->getOperand(0))->getValue().sextOrTrunc(64);
  else
    return -1;
  bool Widened;
  if (!isCallResult(Lhs, Widened) || K.getBitWidth() > 64)
    return -1;
  sb_cmp Op;
  switch (Pred) {
  case CmpInst::ICMP_EQ: Op = SB_CMP_EQ; break;
  case CmpInst::ICMP_NE: Op = SB_CMP_NE; break;
  case CmpInst::ICMP_SLT: Op = SB_CMP_SLT; break;
  case CmpInst::ICMP_SLE: Op = SB_CMP_SLE; break;
  case CmpInst::ICMP_SGT: Op = SB_CMP_SGT; break;
  case CmpInst::ICMP_SGE: Op = SB_CMP_SGE; break;
  case CmpInst::ICMP_ULT: Op = SB_CMP_ULT; break;
  case CmpInst::ICMP_ULE: Op = SB_CMP_ULE; break;
  case CmpInst::ICMP_UGT: Op = SB_CMP_UGT; break;
  case CmpInst::ICMP_UGE: Op = SB_CMP_UGE; break;
  default: return -1;
  }
  bool Unsigned = CmpInst::isUnsigned(Pred);
  Type *Ty = S.Call->getType();
  unsigned W = Ty->isPointerTy() ? DL.getPointerSizeInBits()
               : Ty->isIntegerTy() ? Ty->getIntegerBitWidth() : 0;
  const sb_call_event &CE = S.Model.call;
  if (!W || W != (unsigned)sb_call_result_bits(S.Model.abi, &CE) ||
      (Widened && (Unsigned || !K.isSignedIntN(W))))
    return -1;
  long Constant = Unsigned ? (long)K.getZExtValue() : (long)K.getSExtValue();
  return sb_cond_classes(sb_call_ret_conv(S.Model.abi, &CE), W, Op, Constant);
}

/// Why code \p I may not move above a later iteration's call, or null.
/// Does code \p I, after the call in the same iteration, access only this
/// iteration's element of the call's per-iteration output buffer \p Buf
/// (`if (fstat(fds[i], &sts[i]) == 0) total += sts[i].st_size`)?  With
/// {B,+,S} the buffer, Z <= |S| its size and {B+d,+,S} the access, 0 <= d
/// and d + size <= Z: later iterations' buffers start |S| or more away.
bool LoopFacts::ownElement(Instruction &I, Value *Buf, const ArgMemory &M) {
  Value *Ptr = nullptr;
  Type *Ty = nullptr;
  if (auto *Ld = dyn_cast<LoadInst>(&I)) {
    Ptr = Ld->getPointerOperand();
    Ty = Ld->getType();
  } else if (auto *St = dyn_cast<StoreInst>(&I)) {
    Ptr = St->getPointerOperand();
    Ty = St->getValueOperand()->getType();
  }
  if (!Ptr || !M.Loc.Size.hasValue() || !SE.isSCEVable(Buf->getType()) ||
      !SE.isSCEVable(Ptr->getType()))
    return false;
  auto *BufAR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Buf));
  auto *AccAR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ptr));
  if (!BufAR || !AccAR || BufAR->getLoop() != &L || AccAR->getLoop() != &L ||
      !BufAR->isAffine() || !AccAR->isAffine() ||
      BufAR->getStepRecurrence(SE) != AccAR->getStepRecurrence(SE))
    return false;
  auto *Step = dyn_cast<SCEVConstant>(BufAR->getStepRecurrence(SE));
  auto *D = dyn_cast<SCEVConstant>(
      SE.getMinusSCEV(AccAR->getStart(), BufAR->getStart()));
  if (!Step || !D || D->getAPInt().isNegative() ||
      D->getAPInt().getActiveBits() > 32 ||
      Step->getAPInt().isSignedIntN(32) == false)
    return false;
  uint64_t Z = M.Loc.Size.getValue();
  uint64_t AbsStep = Step->getAPInt().abs().getZExtValue();
  return Z <= AbsStep &&
         D->getAPInt().getZExtValue() + DL.getTypeStoreSize(Ty) <= Z;
}

const char *LoopFacts::conflict(Instruction &I, bool SameIteration) {
  if (!isCodeInst(I))
    return nullptr;
  std::string Why;
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (II->isLifetimeStartOrEnd()) {
      // A lifetime marker ends or starts what the object holds: a conflict
      // only for memory a later call writes directly.
      MemoryLocation Obj(II->getArgOperand(1)->stripPointerCasts(),
                         LocationSize::beforeOrAfterPointer());
      return callMayWrite(Obj) && !(PrivateArg >= 0 &&
                                    getUnderlyingObject(S.Call->getArgOperand(
                                        S.C.EventBase + PrivateArg)) ==
                                        Obj.Ptr)
                 ? S.keep("the end of a buffer's lifetime")
                 : nullptr;
    }
  }
  if (const char *B = visitBarrier(I, Why, A.Abi))
    return S.keep(B);
  if (!I.mayReadOrWriteMemory())
    return nullptr;
  Value *Ptr = nullptr;
  if (auto *Ld = dyn_cast<LoadInst>(&I))
    Ptr = Ld->getPointerOperand();
  else if (auto *St = dyn_cast<StoreInst>(&I))
    Ptr = St->getPointerOperand();
  if (Ptr && (isNonEscapingAlloca(A, Ptr) || isErrnoAccess(Ptr)))
    return nullptr; // no call sees it; errno is set at each call site
  const CandidateCall &C = S.C;
  std::string Sym = C.Call->getCalledFunction()->getName().str();
  if (!C.RowDescribesOperands)
    return S.keep(sysbatch::detail::describe(I) +
                  " while the call's memory is not described");
  for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
    ArgMemory M = visitCallArgMemory(C, K);
    if (M.Effect == ArgMemory::None || (int)K == PrivateArg ||
        (int)K == BuiltArg)
      continue;
    if (M.Effect == ArgMemory::Everything)
      return S.keep(sysbatch::detail::describe(I) +
                    " while later calls may touch any memory");
    if (M.Effect == ArgMemory::ReadsAnything) {
      if (I.mayWriteToMemory())
        return S.keep(sysbatch::detail::describe(I) +
                      " while later calls read buffers known only at run "
                      "time");
      continue;
    }
    if (M.Effect == ArgMemory::Writes && SameIteration &&
        ownElement(I, C.Call->getArgOperand(C.FirstArg + K), M))
      continue;
    SmallVector<MemoryLocation, 2> BufLocs = iterationLocations(
        C.Call->getArgOperand(C.FirstArg + K), M.Loc.Size);
    // The objects the access may touch in any iteration, through -O0's
    // spilled parameters (what the inspector's own loads are judged by):
    // apart from every object of the buffer, it commutes.
    if (Ptr && !L.isLoopInvariant(Ptr)) {
      bool Apart = true;
      for (const MemoryLocation &Own :
           iterationLocations(Ptr, LocationSize::beforeOrAfterPointer(),
                              I.getAAMetadata()))
        for (const MemoryLocation &Loc : BufLocs)
          Apart &= A.AA.isNoAlias(Own, Loc);
      if (Apart)
        continue;
    }
    for (const MemoryLocation &Loc : BufLocs) {
      ModRefInfo MRI = A.AA.getModRefInfo(&I, Loc);
      if (M.Effect == ArgMemory::Reads ? isModSet(MRI) : isModOrRefSet(MRI)) {
        if (coveredByCheck(I, K, M))
          break;
        return S.keep(sysbatch::detail::describe(I) +
                      " that may alias a buffer of a later " + Sym);
      }
    }
  }
  return nullptr;
}

/// The guard (the call on every path through the loop) and the exit tests
/// the inspector repeats; false when the guard is unknown (the model says
/// why).  \p Repeated: exiting blocks whose exit the inspector predicts;
/// \p Unrepeated: exits before the call it cannot (every class leaves).
bool LoopFacts::describeGuardAndExits(DenseSet<BasicBlock *> &Repeated,
                                      DenseSet<BasicBlock *> &Unrepeated) {
  BasicBlock *CallBB = S.Call->getParent();
  BasicBlock *Latch = L.getLoopLatch();
  auto Unknown = [&](std::string Why) {
    S.Model.guard = SB_LG_UNKNOWN;
    S.Model.guard_why = S.keep(std::move(Why));
    return false;
  };
  bool Guarded = !DT.dominates(CallBB, Latch);
  if (Guarded) {
    std::string Why;
    if (!describeGuards(Why))
      return Unknown(Why);
  }
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  std::vector<std::pair<BasicBlock *, ExitTest>> Tests;
  for (BasicBlock *E : Exiting) {
    bool Before = E != CallBB && DT.dominates(E, CallBB);
    // Under a guard, a test every iteration makes after the guard's join
    // (the rotated loop's latch) is evaluated after the call when there is
    // one: the inspector repeats it for iteration t - 1 as well.
    bool AfterEveryPath =
        DT.dominates(E, Latch) && (Guarded ? !Before : DT.dominates(CallBB, E));
    if (!Before && !DT.dominates(CallBB, E) && !(Guarded && AfterEveryPath))
      return Unknown("the loop may be left before the call on some paths");
    // The inspector makes the exit tests before the guards: a test the
    // original makes only when a guard holds may load what is valid only
    // then.
    if (Before)
      for (const GuardTest &G : S.Guards)
        if (DT.dominates(G.Br->getParent(), E))
          return Unknown("the loop's exit test is under the call's condition");
    auto *Br = dyn_cast<BranchInst>(E->getTerminator());
    bool Simple = Br && Br->isConditional() &&
                  L.contains(Br->getSuccessor(0)) !=
                      L.contains(Br->getSuccessor(1));
    // The inspector repeats a test on invariants and induction values;
    // after the call, only one every path to the next iteration passes.
    bool Repeatable = Simple && (Before || AfterEveryPath) &&
                      repeatable(classify(Br->getCondition()).Kind);
    if (Repeatable) {
      Repeated.insert(E);
      Tests.push_back({E, {Br, L.contains(Br->getSuccessor(0)), !Before}});
    } else if (Before) {
      Unrepeated.insert(E);
    }
  }
  // Dominance order: after-call tests (of iteration t-1) first.
  llvm::sort(Tests, [&](const std::pair<BasicBlock *, ExitTest> &X,
                        const std::pair<BasicBlock *, ExitTest> &Y) {
    if (X.second.AfterCall != Y.second.AfterCall)
      return X.second.AfterCall;
    return X.first != Y.first && DT.dominates(X.first, Y.first);
  });
  for (auto &T : Tests)
    S.Exits.push_back(T.second);
  S.Model.guard = Guarded ? SB_LG_REPEATED : SB_LG_ALWAYS;
  return true;
}

/// The call runs in some iterations only: it must be under conditions the
/// inspector repeats (each a branch above the call with one edge that
/// leads only to it and one that leads round the loop without it), and
/// those must be all that decide it: with their other edges removed,
/// every way through the iteration reaches the call.
bool LoopFacts::describeGuards(std::string &Why) {
  BasicBlock *CallBB = S.Call->getParent();
  SmallVector<GuardTest, 4> Found;
  DenseSet<std::pair<BasicBlock *, BasicBlock *>> Skips;
  for (DomTreeNode *N = DT.getNode(CallBB)->getIDom();
       N && L.contains(N->getBlock()); N = N->getIDom()) {
    BasicBlock *BB = N->getBlock();
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    BasicBlock *S0 = Br->getSuccessor(0), *S1 = Br->getSuccessor(1);
    if (!L.contains(S0) || !L.contains(S1))
      continue; // an exit test, described with the exits
    bool To0 = DT.dominates(BasicBlockEdge(BB, S0), CallBB);
    bool To1 = DT.dominates(BasicBlockEdge(BB, S1), CallBB);
    if (To0 == To1)
      continue; // both ways may reach the call: checked below
    Verdict V = classify(Br->getCondition());
    if (rank(V.Kind) >= 2) {
      Why = "the call runs under a condition on " + V.Why;
      return false;
    }
    Found.push_back({Br, To0});
    Skips.insert({BB, To0 ? S1 : S0});
  }
  if (Found.empty()) {
    Why = "the call does not run in every iteration";
    return false;
  }
  // Every way from the header to the latch that takes no guard's other
  // edge must pass the call.
  SmallVector<BasicBlock *, 8> Work{L.getHeader()};
  DenseSet<BasicBlock *> Seen{L.getHeader()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == CallBB)
      continue;
    if (BB == L.getLoopLatch()) {
      Why = "the call is skipped on a path no condition the inspector "
            "repeats decides";
      return false;
    }
    for (BasicBlock *Succ : successors(BB))
      if (L.contains(Succ) && Succ != L.getHeader() &&
          !Skips.count({BB, Succ}) && Seen.insert(Succ).second)
        Work.push_back(Succ);
  }
  // Dominance order: the outermost condition first.
  std::reverse(Found.begin(), Found.end());
  S.Guards.assign(Found.begin(), Found.end());
  return true;
}

/// Rule 2: per sign class, where the result leads before the next
/// iteration's call.
void LoopFacts::describePaths(const DenseSet<BasicBlock *> &Repeated) {
  BasicBlock *Header = L.getHeader();
  BasicBlock *CallBB = S.Call->getParent();
  std::string Sym = S.Call->getCalledFunction()->getName().str();
  for (int Class = 0; Class < 3; ++Class) {
    uint8_t Path = SB_LP_NEXT;
    const char *Why = nullptr;
    // Some path of this class comes round to the header (or may: a
    // terminator the walk does not follow); else every one leaves.
    bool Round = false;
    auto Mark = [&](uint8_t P, const char *W) {
      if (Path == SB_LP_NEXT || (P == SB_LP_CONFLICT && Path != P)) {
        Path = P;
        Why = W;
      }
    };
    // (block, before the call of the next iteration?)
    SmallVector<std::pair<BasicBlock *, bool>, 16> Work;
    DenseSet<std::pair<BasicBlock *, unsigned>> Seen;
    auto Scan = [&](BasicBlock *BB, Instruction *From, bool Next) {
      for (Instruction *I = From; I; I = I->getNextNode()) {
        if (Next && I == S.Call)
          return false; // the next iteration's call: the path ends
        S.ClassCode[Class].insert(I);
        if (const char *W = conflict(*I, !Next))
          Mark(SB_LP_CONFLICT, W);
      }
      Instruction *T = BB->getTerminator();
      auto *Br = dyn_cast<BranchInst>(T);
      if (!Br && !isa<SwitchInst>(T) && !isa<UnreachableInst>(T)) {
        Mark(SB_LP_CONFLICT, S.keep(std::string("a ") + T->getOpcodeName()));
        Round = true;
        return false;
      }
      SmallVector<BasicBlock *, 2> Succs;
      bool Swapped;
      int Mask = Br && !Next ? classMask(Br, Swapped) : -1;
      if (Mask >= 0) {
        bool First = (Mask >> Class & 1) != Swapped;
        Succs.push_back(Br->getSuccessor(First ? 0 : 1));
      } else {
        for (BasicBlock *Succ : successors(BB))
          Succs.push_back(Succ);
      }
      for (BasicBlock *Succ : Succs) {
        if (!L.contains(Succ)) {
          if (!Repeated.count(BB))
            Mark(SB_LP_LEAVES,
                 S.keep(Mask >= 0 ? "a test on " + Sym +
                                        "'s result that leaves the loop"
                                  : std::string("a branch that leaves the "
                                                "loop on a condition the "
                                                "inspector does not repeat")));
          continue;
        }
        Round |= Succ == Header;
        bool SuccNext = Next || (Succ == Header && BB == L.getLoopLatch());
        if (Seen.insert({Succ, SuccNext ? 1u : 0u}).second)
          Work.push_back({Succ, SuccNext});
      }
      return true;
    };
    Scan(CallBB, S.Call->getNextNode(), false);
    while (!Work.empty()) {
      auto [BB, Next] = Work.pop_back_val();
      Scan(BB, &BB->front(), Next);
    }
    (void)CallBB;
    S.Model.class_path[Class] = Path;
    S.Model.class_why[Class] = Why;
    if (!Round)
      S.Model.class_exits |= 1u << Class;
  }
  S.PathsKnown = true;
}

void LoopFacts::describe() {
  sb_loop &M = S.Model;
  M.abi = A.Abi;
  sb_call_event &CE = M.call;
  CE.row = S.C.Row;
  CE.symbol = S.keep(S.Call->getCalledFunction()->getName().str());
  CE.nargs = std::min<int>(S.Call->arg_size() - S.C.EventBase, SB_MAX_ARGS + 1);
  for (int K = 0; K < CE.nargs; ++K) {
    Value *V = S.Call->getArgOperand(S.C.EventBase + K);
    sb_operand O = {};
    O.call = -1;
    O.kind = SB_OPND_AVAILABLE;
    if (auto *CI = dyn_cast<ConstantInt>(V)) {
      if (CI->getBitWidth() <= 64) {
        O.kind = SB_OPND_CONST;
        O.value = (long)CI->getSExtValue();
      }
    } else if (isa<ConstantPointerNull>(V)) {
      O.kind = SB_OPND_CONST;
    }
    CE.args[K] = O;
  }
  std::string Shape = visitCallShape(S.C);
  if (Shape.empty() && !L.getLoopLatch())
    Shape = "the loop has more than one latch";
  CE.why_not = Shape.empty() ? nullptr : S.keep(Shape);

  // (A table function that only reads writes nothing, whatever its
  // declaration says at -O0; rule 9's writes are left out.)
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (&I != S.Call && I.mayWriteToMemory() && !S.StopWriters.count(&I) &&
          !readOnlyLibcCall(I, A.Abi))
        Writers.push_back(&I);
  describeArguments();
  if (CE.why_not)
    return;
  DenseSet<BasicBlock *> Repeated, Unrepeated;
  if (!describeGuardAndExits(Repeated, Unrepeated))
    return;
  describePaths(Repeated);
  if (!Unrepeated.empty())
    for (int Class = 0; Class < 3; ++Class)
      if (S.Model.class_path[Class] == SB_LP_NEXT) {
        S.Model.class_path[Class] = SB_LP_LEAVES;
        S.Model.class_why[Class] =
            "the loop's exit test before the call is not one the inspector "
            "repeats";
      }
  M.checked_writes = (int)S.CheckedWrites.size();
  M.checked_reads = (int)S.CheckedReads.size();
  // Rule 10: the chases, and whether an iteration may leave after its call
  // before loading its link (the inspector loads it once the iteration's
  // slot is filled).
  DenseSet<const LoadInst *> Links;
  for (auto &Leaf : S.Leaves)
    if (Leaf.second.Link && Links.insert(Leaf.second.Link).second)
      for (const ExitTest &E : S.Exits)
        if (E.AfterCall && !M.chase_early &&
            !DT.dominates(Leaf.second.Link, E.Br))
          M.chase_early = "a test after the call may leave the loop before "
                          "the next node's address (p->next) is loaded";
  M.chases = (int)Links.size();
  for (LoadInst *LI : InspectorLoads)
    if (!M.unproven_loads && !proven(LI)) {
      M.unproven_loads = true;
      std::string Name = LI->getPointerOperand()->getName().str();
      M.loads_why = S.keep(
          "a load for a later iteration" +
          (Name.empty() ? std::string() : " (" + Name + ")") +
          " is not known to be dereferenceable");
      break;
    }
  for (auto &Read : LibcReads)
    if (!M.unproven_loads && !pointsToConstantString(Read.second, DL)) {
      M.unproven_loads = true;
      M.loads_why = S.keep(
          Read.first->getCalledFunction()->getName().str() +
          " reads, for a later iteration, memory not known to be "
          "dereferenceable");
    }
}

/// A call site loop batching looks at: catalogued, and not one a region
/// rewrite put there (its batch call, by the runtime's prefix).
static bool isLoopCandidate(CallInst &CI, sb_abi Abi) {
  Function *Callee = CI.getCalledFunction();
  return isCandidate(CI, Abi) &&
         !(Callee && compat::startsWith(Callee->getName(), "sysbatch_"));
}

/// Rule 9: a loop refused as described, with writes in it that some sign
/// class of the result never reaches (a diagnostic after a failed call),
/// described again without them; null unless in the new description every
/// class that reaches one of them stops the group (the core checks that
/// again) and it batches.  A write a class that goes on reaches is put back, and the loop
/// described once more, a few times at most.
static std::unique_ptr<LoopSite>
describeWithoutStopWrites(const LoopSite &First, Analysis &A,
                          ScalarEvolution &SE, DominatorTree &DT) {
  if (!First.PathsKnown)
    return nullptr;
  sb_loop_plan Plan;
  if (sb_plan_loop(&First.Model, nullptr, &Plan) != 0 ||
      Plan.why == SB_WHY_NONE)
    return nullptr;
  auto Reaching = [](const LoopSite &S, const Instruction *I) {
    uint8_t Classes = 0;
    for (int Class = 0; Class < 3; ++Class)
      if (S.ClassCode[Class].count(I))
        Classes |= 1u << Class;
    return Classes;
  };
  auto GoesOn = [&](const LoopSite &S, const Instruction *I) {
    for (int Class = 0; Class < 3; ++Class)
      if ((Reaching(S, I) >> Class & 1) &&
          S.Model.class_path[Class] == SB_LP_NEXT)
        return true;
    return false;
  };
  // Which classes reach what is the shape of the loop, not its verdicts.
  std::vector<const Instruction *> Left;
  for (BasicBlock *BB : First.L->blocks())
    for (Instruction &I : *BB)
      if (&I != First.Call && I.mayWriteToMemory() &&
          !readOnlyLibcCall(I, A.Abi) && Reaching(First, &I) != 7)
        Left.push_back(&I);
  for (int Round = 0; Round < 3 && !Left.empty(); ++Round) {
    auto S = std::make_unique<LoopSite>();
    S->L = First.L;
    S->Call = First.Call;
    S->C = First.C;
    S->Number = First.Number;
    S->Model.other_call_sites = First.Model.other_call_sites;
    S->Model.several_barrier =
        First.Model.several_barrier ? S->keep(First.Model.several_barrier)
                                    : nullptr;
    S->StopWriters.insert(Left.begin(), Left.end());
    LoopFacts(*S, A, SE, DT).describe();
    if (!S->PathsKnown)
      return nullptr;
    std::vector<const Instruction *> Kept;
    uint8_t Classes = 0;
    for (const Instruction *I : Left)
      if (!GoesOn(*S, I)) {
        Kept.push_back(I);
        Classes |= Reaching(*S, I);
      }
    if (Kept.size() == Left.size()) {
      S->Model.stop_writes = (int)Left.size();
      S->Model.stop_write_classes = Classes;
      S->Model.stop_write_why =
          S->keep(sysbatch::detail::describe(*Left.front()) +
                  " writes on the path of a class that goes on");
      // Only a loop this batches: a refusal keeps the first description's
      // reason (what the loop's code does), not one found without it.
      sb_loop_plan Again;
      if (sb_plan_loop(&S->Model, nullptr, &Again) != 0 ||
          Again.why != SB_WHY_NONE)
        return nullptr;
      return S;
    }
    Left.swap(Kept);
  }
  return nullptr;
}

std::vector<std::unique_ptr<LoopSite>>
analyseLoops(Function &F, Analysis &A, LoopInfo &LI, ScalarEvolution &SE,
             DominatorTree &DT) {
  std::vector<std::unique_ptr<LoopSite>> Sites;
  DenseSet<const Loop *> Done;
  for (BasicBlock &BB : F) {
    Loop *L = LI.getLoopFor(&BB);
    if (!L)
      continue;
    for (Instruction &I : BB) {
      auto *CI = dyn_cast<CallInst>(&I);
      if (!CI || !isLoopCandidate(*CI, A.Abi) || !Done.insert(L).second)
        continue;
      auto S = std::make_unique<LoopSite>();
      S->L = L;
      S->Call = CI;
      S->C = makeCandidate(CI, A.Abi);
      S->Number = Sites.size();
      int Others = -1;
      for (BasicBlock *LB : L->blocks())
        for (Instruction &J : *LB)
          if (auto *Other = dyn_cast<CallInst>(&J))
            Others += isLoopCandidate(*Other, A.Abi);
      S->Model.other_call_sites = Others;
      // Several call sites: the first code the calls of later iterations
      // could not move above, for the refusal's text.
      for (BasicBlock *LB : L->blocks()) {
        for (Instruction &J : *LB) {
          auto *Other = dyn_cast<CallInst>(&J);
          std::string Why;
          if (Others > 0 && !(Other && isLoopCandidate(*Other, A.Abi)) &&
              visitBarrier(J, Why, A.Abi)) {
            S->Model.several_barrier = S->keep(Why);
            break;
          }
        }
        if (S->Model.several_barrier)
          break;
      }
      LoopFacts(*S, A, SE, DT).describe();
      if (auto Again = describeWithoutStopWrites(*S, A, SE, DT))
        S = std::move(Again);
      Sites.push_back(std::move(S));
    }
  }
  return Sites;
}

} // namespace detail
} // namespace sysbatch
