//===- Describe.cpp - phase 1 from C source: AST + CFG -> sb_region -------===//
//
// Describes every function of the main file to the core the way the two
// plugins describe IR (llvm-pass/BlockAnalysis.cpp and Regions.cpp): a
// call event per catalogue call with each argument classified, a code event
// per stretch of code between calls (a barrier, or the later calls it does
// not commute with), and for branchy regions the blocks and terminators of
// clang::CFG.  The CFG is built fully linearised (every subexpression is an
// element, in evaluation order), so an element is one load, store, call or
// compare, like an instruction of -O0 IR.  The memory model is the one a C
// reader can check: a local whose address is never taken is private (the
// non-escaping stack slot), other objects are told apart by name, anything
// reached through a pointer may be any object whose address escaped.
//
//===----------------------------------------------------------------------===//

#include "SysbatchSrc.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

#include "sysbatch/cfg.h"
#include "sysbatch/shape.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace sysbatch_src {

//===----------------------------------------------------------------------===//
// Callees
//===----------------------------------------------------------------------===//

std::string calleeSymbol(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return "";
  if (const auto *A = FD->getAttr<AsmLabelAttr>())
    return A->getLabel().str();
  return FD->getNameAsString();
}

/// The catalogue row of \p CE's callee, or null; \p Raw for syscall().
/// Only declarations count, as in both plugins: a function this file
/// defines is not the libc wrapper the row describes.
static const sb_syscall *calleeRow(const CallExpr *CE, sb_abi Abi, bool &Raw) {
  Raw = false;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || FD->isDefined() || !FD->getIdentifier())
    return nullptr;
  std::string Name = calleeSymbol(CE);
  if (Abi == SB_ABI_LINUX_X86_64 &&
      sb_catalog_is_raw_syscall_symbol(Name.c_str())) {
    Raw = true;
    return nullptr;
  }
  return sb_catalog_lookup(Abi, Name.c_str());
}

bool isCandidateCall(const CallExpr *CE, sb_abi Abi) {
  bool Raw;
  return calleeRow(CE, Abi, Raw) || Raw;
}

static bool isErrnoLocationCall(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  return CE && calleeSymbol(CE) == "__errno_location";
}

//===----------------------------------------------------------------------===//
// Which locals are private: address never taken
//===----------------------------------------------------------------------===//

namespace {
/// Variables whose address escapes: `&x`, or an array used other than by
/// subscript.  The others are the -O0 stack slots only loaded and stored.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  std::set<const VarDecl *> Escaping;
  std::set<const Expr *> SubscriptBases;
  bool ReturnsTwice = false;

  static const VarDecl *baseVar(const Expr *E) {
    E = E->IgnoreParens();
    while (true) {
      if (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (ME->isArrow())
          return nullptr;
        E = ME->getBase()->IgnoreParens();
      } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
        const auto *Cast = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
        if (!Cast || Cast->getCastKind() != CK_ArrayToPointerDecay)
          return nullptr;
        E = Cast->getSubExpr()->IgnoreParens();
      } else {
        break;
      }
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    SubscriptBases.insert(AS->getBase()->IgnoreParens());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = baseVar(UO->getSubExpr()))
        Escaping.insert(V);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
    if (IC->getCastKind() == CK_ArrayToPointerDecay &&
        !SubscriptBases.count(IC))
      if (const VarDecl *V = baseVar(IC->getSubExpr()))
        Escaping.insert(V);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      std::string N = FD->getNameAsString();
      if (FD->hasAttr<ReturnsTwiceAttr>() || N == "setjmp" || N == "_setjmp" ||
          N == "sigsetjmp" || N == "__sigsetjmp" || N == "vfork" ||
          N == "savectx" || N == "getcontext")
        ReturnsTwice = true;
    }
    return true;
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Memory locations in source terms
//===----------------------------------------------------------------------===//

namespace {
struct Loc {
  enum Kind { Private, Object, Errno, Literal, Unknown } K = Unknown;
  const VarDecl *V = nullptr;
};

struct FnFacts {
  ASTContext &Ctx;
  std::set<const VarDecl *> Escaping;
  bool ReturnsTwice = false;
  bool isPrivate(const VarDecl *V) const {
    return V->hasLocalStorage() && !Escaping.count(V) &&
           !V->getType().isVolatileQualified();
  }
};
} // namespace

static bool mayAlias(const Loc &A, const Loc &B) {
  if (A.K == Loc::Private || B.K == Loc::Private)
    return A.K == B.K && A.V == B.V;
  if (A.K == Loc::Errno || B.K == Loc::Errno)
    return A.K == B.K;
  if (A.K == Loc::Literal || B.K == Loc::Literal)
    return false;
  if (A.K == Loc::Object && B.K == Loc::Object)
    return A.V == B.V;
  return true;
}

/// The object an lvalue names.
static Loc lvalueLoc(const FnFacts &F, const Expr *E) {
  E = E->IgnoreParens();
  Loc L;
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref) {
      const Expr *P = UO->getSubExpr()->IgnoreParenImpCasts();
      if (isErrnoLocationCall(P)) {
        L.K = Loc::Errno;
        return L;
      }
      if (const auto *A = dyn_cast<UnaryOperator>(P))
        if (A->getOpcode() == UO_AddrOf)
          return lvalueLoc(F, A->getSubExpr());
    }
    return L;
  }
  if (isa<StringLiteral>(E)) {
    L.K = Loc::Literal;
    return L;
  }
  if (const VarDecl *V = EscapeFinder::baseVar(E)) {
    L.V = V;
    L.K = F.isPrivate(V) ? Loc::Private : Loc::Object;
  }
  return L;
}

/// The object a pointer argument points into.
static Loc pointeeLoc(const FnFacts &F, const Expr *P) {
  P = P->IgnoreParens();
  while (true) {
    if (const auto *C = dyn_cast<CastExpr>(P)) {
      if (C->getCastKind() == CK_ArrayToPointerDecay)
        return lvalueLoc(F, C->getSubExpr());
      P = C->getSubExpr()->IgnoreParens();
    } else if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (!B->isAdditiveOp() || !B->getLHS()->getType()->isPointerType())
        break;
      P = B->getLHS()->IgnoreParens();
    } else {
      break;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    if (UO->getOpcode() == UO_AddrOf)
      return lvalueLoc(F, UO->getSubExpr());
  if (isa<StringLiteral>(P)) {
    Loc L;
    L.K = Loc::Literal;
    return L;
  }
  if (isErrnoLocationCall(P)) {
    Loc L;
    L.K = Loc::Errno;
    return L;
  }
  return Loc();
}

//===----------------------------------------------------------------------===//
// What one element does
//===----------------------------------------------------------------------===//

namespace {
struct Access {
  Loc Where;
  bool Write;
  std::string What; // "a store", "a load", "a call to memset"
};
struct Effect {
  bool Barrier = false;
  std::string BarrierWhy;
  std::vector<Access> Accesses;
};
} // namespace

static bool isPureBuiltin(unsigned ID) {
  switch (ID) {
  case Builtin::BI__builtin_expect:
  case Builtin::BI__builtin_constant_p:
  case Builtin::BI__builtin_assume:
    return true;
  default:
    return false;
  }
}

/// What element \p S does to memory and control, apart from candidate
/// calls (call events of their own).
static Effect elementEffect(const FnFacts &F, const Stmt *S) {
  Effect E;
  char Buf[256];
  auto barrier = [&](sb_barrier K, const std::string &Callee = "") {
    E.Barrier = true;
    E.BarrierWhy = sb_barrier_text(K, Callee.c_str(), Buf, sizeof Buf);
  };
  if (isa<AsmStmt>(S)) {
    barrier(SB_BARRIER_INLINE_ASM);
    return E;
  }
  if (isa<AtomicExpr>(S)) {
    barrier(SB_BARRIER_ATOMIC);
    return E;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (isErrnoLocationCall(CE))
      return E;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD) {
      barrier(SB_BARRIER_INDIRECT_CALL);
      return E;
    }
    unsigned ID = FD->getBuiltinID();
    std::string N = FD->getNameAsString();
    if (ID && isPureBuiltin(ID))
      return E;
    // memset/memcpy/memmove are memory accesses (the IR's memory
    // intrinsics), named as the source calls them.
    bool Set = N == "memset" || N == "__builtin_memset";
    bool Copy = N == "memcpy" || N == "memmove" || N == "__builtin_memcpy" ||
                N == "__builtin_memmove";
    if ((Set || Copy) && CE->getNumArgs() == 3) {
      std::string What = std::string("a call to ") +
                         (Set ? "memset" : N.find("memmove") != std::string::npos
                                               ? "memmove" : "memcpy");
      E.Accesses.push_back({pointeeLoc(F, CE->getArg(0)), true, What});
      if (Copy)
        E.Accesses.push_back({pointeeLoc(F, CE->getArg(1)), false, What});
      return E;
    }
    barrier(SB_BARRIER_CALL, calleeSymbol(CE));
    return E;
  }
  auto volatileOrAtomic = [&](const Expr *L, bool Write) {
    QualType T = L->getType();
    if (T.isVolatileQualified()) {
      barrier(Write ? SB_BARRIER_VOLATILE_STORE : SB_BARRIER_VOLATILE_LOAD);
      return true;
    }
    if (T->isAtomicType()) {
      barrier(SB_BARRIER_ATOMIC);
      return true;
    }
    return false;
  };
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
    if (IC->getCastKind() == CK_LValueToRValue ||
        IC->getCastKind() == CK_AtomicToNonAtomic) {
      if (!volatileOrAtomic(IC->getSubExpr(), false))
        E.Accesses.push_back({lvalueLoc(F, IC->getSubExpr()), false, "a load"});
    }
    return E;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp() && !volatileOrAtomic(BO->getLHS(), true))
      E.Accesses.push_back({lvalueLoc(F, BO->getLHS()), true, "a store"});
    return E;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() &&
        !volatileOrAtomic(UO->getSubExpr(), true))
      E.Accesses.push_back({lvalueLoc(F, UO->getSubExpr()), true, "a store"});
    return E;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->hasInit() || !V->hasLocalStorage())
        continue;
      if (V->getType().isVolatileQualified()) {
        barrier(SB_BARRIER_VOLATILE_STORE);
        return E;
      }
      Loc L;
      L.V = V;
      L.K = F.isPrivate(V) ? Loc::Private : Loc::Object;
      E.Accesses.push_back({L, true, "a store"});
    }
  }
  return E;
}

//===----------------------------------------------------------------------===//
// Regions: elements, calls
//===----------------------------------------------------------------------===//

namespace {
struct Describer {
  ASTContext &Ctx;
  FnFacts &F;
  SrcRegion &R;
  std::map<const Stmt *, unsigned> PosOf;

  Describer(ASTContext &Ctx, FnFacts &F, SrcRegion &R)
      : Ctx(Ctx), F(F), R(R) {}

  bool inside(unsigned Pos) const { return Pos >= R.StartPos; }
  int callAt(unsigned Pos) const {
    for (unsigned I = 0; I < R.Calls.size(); ++I)
      if (R.Calls[I].Pos == Pos)
        return (int)I;
    return -1;
  }
  int callOf(const Expr *E) const {
    auto It = PosOf.find(E);
    return It == PosOf.end() ? -1 : callAt(It->second);
  }

  // ---- what may write a location

  /// Does call \p C's kernel effect (or errno) write \p L?
  bool callMayWrite(const SrcCall &C, const Loc &L) {
    if (!C.RowDescribesOperands || L.K == Loc::Errno)
      return true;
    if (L.K == Loc::Private)
      return false;
    unsigned First = C.Raw ? 1 : 0;
    for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
      const sb_arg_desc &D = C.RawRow->libc_args[K];
      if (First + K >= C.Call->getNumArgs())
        continue;
      const Expr *A = C.Call->getArg(First + K);
      if (D.kind == SB_ARG_ADDR || D.kind == SB_ARG_OPAQUE ||
          D.kind == SB_ARG_IOVEC_OUT)
        return true;
      if (D.kind == SB_ARG_OUT_BUF) {
        if (!A->getType()->isPointerType())
          return true;
        if (mayAlias(pointeeLoc(F, A), L))
          return true;
      }
    }
    return false;
  }
  bool elementMayWrite(unsigned Pos, const Loc &L) {
    int C = callAt(Pos);
    if (C >= 0)
      return callMayWrite(R.Calls[C], L);
    Effect E = elementEffect(F, R.Elems[Pos].S);
    if (E.Barrier)
      return true;
    for (const Access &A : E.Accesses)
      if (A.Write && mayAlias(A.Where, L))
        return true;
    return false;
  }

  // ---- reaching definitions of private variables

  /// Is element \p S a definition of \p V?  \p Value: the stored value
  /// (null for ++, --, compound assignments).
  static bool definesVar(const Stmt *S, const VarDecl *V, const Expr *&Value) {
    Value = nullptr;
    auto isV = [&](const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
      return DRE && DRE->getDecl() == V;
    };
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (!BO->isAssignmentOp() || !isV(BO->getLHS()))
        return false;
      if (BO->getOpcode() == BO_Assign)
        Value = BO->getRHS();
      return true;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      return UO->isIncrementDecrementOp() && isV(UO->getSubExpr());
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == V && V->hasInit()) {
          Value = V->getInit();
          return true;
        }
    return false;
  }
  /// The last definition of \p V in block \p B before \p Before, or -1.
  int lastDefIn(int B, unsigned Before, const VarDecl *V) {
    for (int P = (int)std::min(Before, R.BlockEnd[B]) - 1;
         P >= (int)R.BlockBegin[B]; --P) {
      const Expr *Value;
      if (definesVar(R.Elems[P].S, V, Value))
        return P;
    }
    return -1;
  }
  /// reachingStore() of the LLVM pass, over CFG elements: the definition of
  /// private \p V that element \p Pos sees, -1 when none in the region
  /// (\p Ambiguous: different ones on different paths).
  int reachingDef(unsigned Pos, const VarDecl *V, bool &Ambiguous) {
    Ambiguous = false;
    int B = R.Elems[Pos].Block;
    int D = lastDefIn(B, Pos, V);
    if (D >= 0)
      return D;
    if (B <= 0)
      return -1;
    uint64_t Storing = 0;
    for (int P = 0; P < B; ++P) {
      if (!(R.Ancestors[B] >> P & 1))
        continue;
      int S = lastDefIn(P, R.BlockEnd[P], V);
      if (S >= 0 && inside(S))
        Storing |= 1ull << P;
    }
    if (!Storing)
      return -1;
    for (int Dm = B - 1; Dm >= 0; --Dm) {
      if (!(Storing >> Dm & 1))
        continue;
      if (!(R.Dominators[B] >> Dm & 1))
        break;
      for (int X = Dm + 1; X < B; ++X)
        if ((Storing >> X & 1) && (R.Ancestors[X] >> Dm & 1)) {
          Ambiguous = true;
          return -1;
        }
      return lastDefIn(Dm, R.BlockEnd[Dm], V);
    }
    Ambiguous = true;
    return -1;
  }

  // ---- operands

  static sb_operand operand(sb_operand_kind K, int Call = -1, long V = 0) {
    sb_operand O = {};
    O.kind = K;
    O.call = Call;
    O.value = V;
    return O;
  }
  std::string text(const Expr *E) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
    return OS.str();
  }
  static sb_operand combine(const sb_operand &A, const sb_operand &B) {
    auto rank = [](const sb_operand &O) {
      return O.kind == SB_OPND_CONST ? 0 : O.kind == SB_OPND_AVAILABLE ? 1 : 2;
    };
    if (rank(A) == 2 || rank(B) == 2)
      return operand(SB_OPND_LOCAL);
    return rank(A) || rank(B) ? operand(SB_OPND_AVAILABLE) : A;
  }

  /// The value a load of \p L at element \p Pos reads.
  sb_operand classifyLoad(const Expr *L, unsigned Pos, int Depth,
                          std::string &Why) {
    L = L->IgnoreParens();
    const auto *DRE = dyn_cast<DeclRefExpr>(L);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (V && F.isPrivate(V)) {
      bool Ambiguous;
      int D = reachingDef(Pos, V, Ambiguous);
      if (Ambiguous) {
        Why = "'" + V->getNameAsString() +
              "' holds different values on different paths";
        return operand(SB_OPND_LOCAL);
      }
      if (D < 0 || !inside(D))
        return operand(SB_OPND_AVAILABLE); // nothing stored since the issue point
      const Expr *Value;
      definesVar(R.Elems[D].S, V, Value);
      if (!Value) {
        Why = "'" + V->getNameAsString() + "' is modified after the first call";
        return operand(SB_OPND_LOCAL);
      }
      sb_operand O = classify(Value, D, Depth + 1, Why);
      if (O.kind == SB_OPND_LOCAL && Why.empty())
        Why = "'" + V->getNameAsString() + "' is assigned '" + text(Value) +
              "' after the first call";
      return O;
    }
    // Memory: re-read at the issue point only in the region's first block
    // (elsewhere the load runs on some paths only), and only when nothing
    // since the issue point may have written it.
    std::string AddrWhy;
    sb_operand Addr = classifyAddress(L, Pos, Depth + 1, AddrWhy);
    Loc Where = lvalueLoc(F, L);
    bool Unchanged = Addr.kind == SB_OPND_AVAILABLE && R.Elems[Pos].Block <= 0;
    for (unsigned P = R.StartPos; Unchanged && P < Pos; ++P)
      Unchanged = !elementMayWrite(P, Where);
    if (Unchanged)
      return operand(SB_OPND_AVAILABLE);
    sb_operand Word = memoryWord(L, Pos);
    if (Word.kind == SB_OPND_LOCAL && Why.empty())
      Why = R.Elems[Pos].Block > 0 && Addr.kind == SB_OPND_AVAILABLE
                ? "'" + text(L) + "' is read from memory on a path the batch "
                  "cannot read it early"
                : "'" + text(L) + "' may be written after the first call";
    return Word;
  }

  /// The variable lvalue \p L lies in and its constant byte offset there
  /// (x, s.f, a[3], s.a[2].f), or null.
  const VarDecl *fixedOffset(const Expr *L, int64_t &Off) {
    L = L->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
      Off = 0;
      return dyn_cast<VarDecl>(DRE->getDecl());
    }
    if (const auto *ME = dyn_cast<MemberExpr>(L)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (ME->isArrow() || !FD || FD->isBitField())
        return nullptr;
      const VarDecl *V = fixedOffset(ME->getBase(), Off);
      if (!V)
        return nullptr;
      const ASTRecordLayout &RL = Ctx.getASTRecordLayout(FD->getParent());
      Off += (int64_t)(RL.getFieldOffset(FD->getFieldIndex()) / 8);
      return V;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L)) {
      const auto *Base = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
      Expr::EvalResult Res;
      if (!Base || Base->getCastKind() != CK_ArrayToPointerDecay ||
          AS->getIdx()->isValueDependent() ||
          !AS->getIdx()->EvaluateAsInt(Res, Ctx))
        return nullptr;
      const VarDecl *V = fixedOffset(Base->getSubExpr(), Off);
      if (!V)
        return nullptr;
      Off += Res.Val.getInt().getExtValue() *
             (int64_t)Ctx.getTypeSizeInChars(AS->getType()).getQuantity();
      return V;
    }
    return nullptr;
  }
  /// The same for the object a pointer argument points at (&x, &s.f, a).
  const VarDecl *pointerOffset(const Expr *P, int64_t &Off) {
    P = P->IgnoreParens();
    while (const auto *C = dyn_cast<CastExpr>(P)) {
      if (C->getCastKind() == CK_ArrayToPointerDecay)
        return fixedOffset(C->getSubExpr(), Off);
      if (C->getCastKind() != CK_BitCast && C->getCastKind() != CK_NoOp)
        return nullptr;
      P = C->getSubExpr()->IgnoreParens();
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P))
      if (UO->getOpcode() == UO_AddrOf)
        return fixedOffset(UO->getSubExpr(), Off);
    return nullptr;
  }

  /// visitMemoryWord() of the LLVM pass: a load of an 8-byte word an
  /// earlier call of the region wrote through an output buffer
  /// (`read(fd, buf, st.st_size)` after `fstat(fd, &st)`), nothing writing
  /// it in between or in the later calls: MEMORY (a word copy in a batch).
  sb_operand memoryWord(const Expr *L, unsigned Pos) {
    QualType T = L->getType();
    int64_t Offset = 0;
    const VarDecl *Base = fixedOffset(L, Offset);
    if (!Base || Base->getType().isVolatileQualified() ||
        !(T->isIntegerType() || T->isPointerType()) ||
        Ctx.getTypeSizeInChars(T).getQuantity() != 8)
      return operand(SB_OPND_LOCAL);
    Loc Word;
    Word.K = F.isPrivate(Base) ? Loc::Private : Loc::Object;
    Word.V = Base;
    int LB = R.Elems[Pos].Block;
    auto keeps = [&](unsigned From, unsigned To) {
      for (unsigned P = From; P < To; ++P)
        if (elementMayWrite(P, Word))
          return false;
      return true;
    };
    for (int J = (int)R.Calls.size() - 1; J >= 0; --J) {
      const SrcCall &C = R.Calls[J];
      int CB = C.Block;
      if (CB != LB && !(R.Ancestors[LB] >> CB & 1))
        continue;
      if (C.Pos >= Pos || !C.RowDescribesOperands)
        continue;
      unsigned First = C.Raw ? 1 : 0;
      for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
        unsigned Op = First + K;
        if (C.RawRow->libc_args[K].kind != SB_ARG_OUT_BUF ||
            Op >= C.Call->getNumArgs())
          continue;
        int64_t BufOffset = 0;
        const VarDecl *BufBase = pointerOffset(C.Call->getArg(Op), BufOffset);
        if (BufBase != Base || Offset < BufOffset)
          continue;
        if (CB == LB) {
          if (!keeps(C.Pos + 1, Pos))
            return operand(SB_OPND_LOCAL);
        } else {
          if (!keeps(C.Pos + 1, R.BlockEnd[CB]) ||
              !keeps(R.BlockBegin[LB], Pos))
            return operand(SB_OPND_LOCAL);
          for (int X = CB + 1; X < LB; ++X)
            if ((R.Ancestors[LB] >> X & 1) && (R.Ancestors[X] >> CB & 1) &&
                !keeps(R.BlockBegin[X], R.BlockEnd[X]))
              return operand(SB_OPND_LOCAL);
        }
        for (const SrcCall &Later : R.Calls)
          if (Later.Pos > Pos && callMayWrite(Later, Word))
            return operand(SB_OPND_LOCAL);
        sb_operand O = operand(SB_OPND_MEMORY, J, (long)(Offset - BufOffset));
        O.arg = (int)Op;
        return O;
      }
      if (callMayWrite(C, Word))
        return operand(SB_OPND_LOCAL);
    }
    return operand(SB_OPND_LOCAL);
  }

  /// The address of lvalue \p L.
  sb_operand classifyAddress(const Expr *L, unsigned Pos, int Depth,
                             std::string &Why) {
    L = L->IgnoreParens();
    if (Depth > 16)
      return operand(SB_OPND_LOCAL);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(L))
      return isa<VarDecl>(DRE->getDecl()) || isa<FunctionDecl>(DRE->getDecl())
                 ? operand(SB_OPND_AVAILABLE)
                 : operand(SB_OPND_LOCAL);
    if (isa<StringLiteral>(L) || isa<CompoundLiteralExpr>(L))
      return operand(SB_OPND_AVAILABLE);
    if (const auto *ME = dyn_cast<MemberExpr>(L))
      return ME->isArrow() ? classify(ME->getBase(), Pos, Depth + 1, Why)
                           : classifyAddress(ME->getBase(), Pos, Depth + 1, Why);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
      return combine(classify(AS->getBase(), Pos, Depth + 1, Why),
                     classify(AS->getIdx(), Pos, Depth + 1, Why));
    if (const auto *UO = dyn_cast<UnaryOperator>(L))
      if (UO->getOpcode() == UO_Deref)
        return classify(UO->getSubExpr(), Pos, Depth + 1, Why);
    return operand(SB_OPND_LOCAL);
  }

  /// Classify rvalue \p E, evaluated at element \p Pos (phase 1).
  sb_operand classify(const Expr *E, unsigned Pos, int Depth,
                      std::string &Why) {
    E = E->IgnoreParens();
    if (Depth > 16)
      return operand(SB_OPND_LOCAL);
    int C = callOf(E);
    if (C >= 0 && R.Calls[C].Pos < Pos)
      return operand(SB_OPND_RESULT, C);
    if (!E->isValueDependent() && !E->HasSideEffects(Ctx)) {
      Expr::EvalResult Res;
      if (E->getType()->isIntegerType() && E->EvaluateAsInt(Res, Ctx) &&
          Res.Val.getInt().getMinSignedBits() <= 64)
        return operand(SB_OPND_CONST, -1, (long)Res.Val.getInt().getExtValue());
      if (E->getType()->isPointerType() &&
          E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        return operand(SB_OPND_CONST, -1, 0);
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      const Expr *Sub = CE->getSubExpr();
      switch (CE->getCastKind()) {
      case CK_LValueToRValue:
        return classifyLoad(Sub, Pos, Depth, Why);
      case CK_ArrayToPointerDecay:
      case CK_FunctionToPointerDecay:
        return classifyAddress(Sub, Pos, Depth + 1, Why);
      case CK_NoOp:
      case CK_BitCast:
      case CK_IntegralCast:
      case CK_IntegralToBoolean:
      case CK_IntegralToPointer:
      case CK_PointerToIntegral:
      case CK_NullToPointer: {
        sb_operand S = classify(Sub, Pos, Depth + 1, Why);
        if (S.kind == SB_OPND_CONST || S.kind == SB_OPND_AVAILABLE)
          return operand(SB_OPND_AVAILABLE);
        uint64_t From = Ctx.getTypeSize(Sub->getType());
        uint64_t To = Ctx.getTypeSize(CE->getType());
        // A word a call wrote passes only conversions that are no
        // instruction (off_t to size_t), as in IR.
        if (S.kind == SB_OPND_MEMORY)
          return From == To && (CE->getCastKind() == CK_NoOp ||
                                CE->getCastKind() == CK_BitCast ||
                                CE->getCastKind() == CK_IntegralCast)
                     ? S
                     : operand(SB_OPND_LOCAL);
        if (S.kind != SB_OPND_RESULT)
          return operand(SB_OPND_LOCAL);
        if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_BitCast)
          return S;
        if (CE->getCastKind() == CK_IntegralCast) {
          if (To < From && (!S.narrowest_bits || To < S.narrowest_bits))
            S.narrowest_bits = (uint8_t)To;
          return S;
        }
        Why = "'" + text(E) + "' converts the result of " +
              calleeSymbol(R.Calls[S.call].Call) + " between integer and pointer";
        return operand(SB_OPND_LOCAL);
      }
      default:
        return operand(SB_OPND_LOCAL);
      }
    }
    if (isa<StringLiteral>(E))
      return operand(SB_OPND_AVAILABLE);
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      switch (UO->getOpcode()) {
      case UO_AddrOf:
        return classifyAddress(UO->getSubExpr(), Pos, Depth + 1, Why);
      case UO_Minus:
      case UO_Plus:
      case UO_Not:
      case UO_LNot: {
        sb_operand S = classify(UO->getSubExpr(), Pos, Depth + 1, Why);
        if (S.kind == SB_OPND_RESULT && Why.empty())
          Why = "'" + text(E) + "' is computed from the result of " +
                calleeSymbol(R.Calls[S.call].Call);
        return combine(S, operand(SB_OPND_CONST));
      }
      default:
        return operand(SB_OPND_LOCAL);
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      BinaryOperatorKind Op = BO->getOpcode();
      if (BO->isAssignmentOp() || Op == BO_Comma || Op == BO_Div ||
          Op == BO_Rem || Op == BO_LAnd || Op == BO_LOr)
        return operand(SB_OPND_LOCAL);
      sb_operand A = classify(BO->getLHS(), Pos, Depth + 1, Why);
      sb_operand B = classify(BO->getRHS(), Pos, Depth + 1, Why);
      for (const sb_operand *O : {&A, &B})
        if (O->kind == SB_OPND_RESULT && Why.empty())
          Why = "'" + text(E) + "' is computed from the result of " +
                calleeSymbol(R.Calls[O->call].Call);
      return combine(A, B);
    }
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return operand(SB_OPND_AVAILABLE);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (isa<EnumConstantDecl>(DRE->getDecl()) ||
          isa<FunctionDecl>(DRE->getDecl()))
        return operand(SB_OPND_AVAILABLE);
    if (Why.empty())
      Why = "'" + text(E) + "' is computed between the calls";
    return operand(SB_OPND_LOCAL);
  }

  // ---- events

  sb_value_shape valueShape(QualType T) {
    sb_value_shape V = {SB_VALUE_OTHER, 0};
    T = T.getCanonicalType();
    if (T->isVoidType()) {
      V.kind = SB_VALUE_VOID;
      return V;
    }
    if (T->isIntegralOrEnumerationType() || T->isPointerType()) {
      V.kind = T->isPointerType() ? SB_VALUE_POINTER : SB_VALUE_INTEGER;
      V.bits = (uint32_t)Ctx.getTypeSize(T);
      return V;
    }
    if (T->isRecordType() || T->isArrayType())
      V.kind = SB_VALUE_AGGREGATE;
    if (!T->isIncompleteType())
      V.bits = (uint32_t)Ctx.getTypeSize(T);
    return V;
  }

  void visitCall(unsigned Index) {
    SrcCall &C = R.Calls[Index];
    sb_event E = {};
    E.kind = SB_EV_CALL;
    C.Event = R.Events.size();
    sb_call_event &CE = E.u.call;
    CE.row = C.Row;
    CE.symbol = R.keep(calleeSymbol(C.Call));
    CE.nargs = std::min<int>(C.Call->getNumArgs(), SB_MAX_ARGS + 1);
    for (int A = 0; A < CE.nargs; ++A) {
      std::string Why;
      CE.args[A] = classify(C.Call->getArg(A), C.Pos, 0, Why);
      if (CE.args[A].kind == SB_OPND_LOCAL)
        C.ArgWhy[A] = Why.empty() ? "it is computed between the calls" : Why;
    }
    sb_call_shape S = {};
    S.result = valueShape(C.Call->getType());
    S.nargs = std::min<int>(C.Call->getNumArgs(), SB_SHAPE_MAX_ARGS);
    for (int K = 0; K < S.nargs; ++K)
      S.args[K] = valueShape(C.Call->getArg(K)->getType());
    S.function_returns_twice = F.ReturnsTwice;
    char Buf[160];
    const char *Why = sb_call_shape_objection(R.Abi, C.RawRow, &S, Buf,
                                              sizeof Buf);
    CE.why_not = Why ? R.keep(Why) : nullptr;
    R.Events.push_back(E);
    R.EventStmt.push_back(C.Call);
  }

  /// Does access \p A of gap code fail to commute with call \p C?
  bool conflicts(const Access &A, const SrcCall &C) {
    if (A.Where.K == Loc::Private)
      return false;
    if (!C.RowDescribesOperands)
      return true;
    unsigned First = C.Raw ? 1 : 0;
    for (unsigned K = 0; K < C.RawRow->libc_argc && K < SB_MAX_ARGS; ++K) {
      const sb_arg_desc &D = C.RawRow->libc_args[K];
      // writev's buffers are known only at run time: a write commutes only
      // when it is errno (set at each call site in program order).
      if (D.kind == SB_ARG_IOVEC_IN) {
        if (A.Write && A.Where.K != Loc::Errno)
          return true;
        continue;
      }
      // readv's buffers are known only at run time and written: every
      // access but a private one conflicts.
      if (D.kind == SB_ARG_IOVEC_OUT)
        return true;
      if (D.kind != SB_ARG_PATH && D.kind != SB_ARG_IN_BUF &&
          D.kind != SB_ARG_OUT_BUF && D.kind != SB_ARG_ADDR &&
          D.kind != SB_ARG_OPAQUE)
        continue;
      if (First + K >= C.Call->getNumArgs())
        continue;
      const Expr *Arg = C.Call->getArg(First + K);
      if (D.kind == SB_ARG_ADDR || D.kind == SB_ARG_OPAQUE ||
          !Arg->getType()->isPointerType())
        return true;
      Loc Buf = pointeeLoc(F, Arg);
      // errno is set at each call site in program order, never by the
      // kernel: accesses to it commute unless the buffer is errno.
      if (A.Where.K == Loc::Errno) {
        if (Buf.K == Loc::Errno)
          return true;
        continue;
      }
      bool Reads = D.kind == SB_ARG_PATH || D.kind == SB_ARG_IN_BUF;
      if ((Reads ? A.Write : true) && mayAlias(A.Where, Buf))
        return true;
    }
    return false;
  }

  /// One code event for elements [From, End) following call \p After.
  void visitGap(unsigned From, unsigned End, int After) {
    sb_event E = {};
    E.kind = SB_EV_CODE;
    sb_code_event &CE = E.u.code;
    std::string Why;
    const Stmt *First = nullptr;
    for (unsigned P = From; P < End; ++P) {
      const Stmt *S = R.Elems[P].S;
      Effect Eff = elementEffect(F, S);
      if (Eff.Barrier) {
        CE.barrier = true;
        CE.conflicts = ~0ull;
        CE.why = R.keep(Eff.BarrierWhy);
        R.Events.push_back(E);
        R.EventStmt.push_back(S);
        return;
      }
      for (const Access &A : Eff.Accesses)
        for (unsigned J = After + 1; J < R.Calls.size(); ++J) {
          if (CE.conflicts & (1ull << J))
            continue;
          if (conflicts(A, R.Calls[J])) {
            CE.conflicts |= 1ull << J;
            if (Why.empty()) {
              Why = A.What + " that may alias a buffer of " +
                    calleeSymbol(R.Calls[J].Call);
              First = S;
            }
          }
        }
    }
    CE.why = R.keep(CE.conflicts ? Why
                                 : "code that commutes with the later calls");
    R.Events.push_back(E);
    R.EventStmt.push_back(First);
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Branch conditions
//===----------------------------------------------------------------------===//

static bool mapCompare(BinaryOperatorKind Op, bool Unsigned, sb_cmp &Out) {
  switch (Op) {
  case BO_EQ: Out = SB_CMP_EQ; return true;
  case BO_NE: Out = SB_CMP_NE; return true;
  case BO_LT: Out = Unsigned ? SB_CMP_ULT : SB_CMP_SLT; return true;
  case BO_LE: Out = Unsigned ? SB_CMP_ULE : SB_CMP_SLE; return true;
  case BO_GT: Out = Unsigned ? SB_CMP_UGT : SB_CMP_SGT; return true;
  case BO_GE: Out = Unsigned ? SB_CMP_UGE : SB_CMP_SGE; return true;
  default: return false;
  }
}

static BinaryOperatorKind swapCompare(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT: return BO_GT;
  case BO_GT: return BO_LT;
  case BO_LE: return BO_GE;
  case BO_GE: return BO_LE;
  default: return Op;
  }
}

/// A compare operand as an integer constant (null and `(void *)-1`
/// included: `p == MAP_FAILED`).
static bool compareConstant(ASTContext &Ctx, const Expr *E, llvm::APSInt &K) {
  E = E->IgnoreParens();
  if (E->isValueDependent())
    return false;
  Expr::EvalResult Res;
  if (E->getType()->isIntegerType()) {
    if (!E->EvaluateAsInt(Res, Ctx))
      return false;
    K = Res.Val.getInt();
    return true;
  }
  if (E->getType()->isPointerType()) {
    if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
      K = llvm::APSInt(llvm::APInt(64, 0), false);
      return true;
    }
    const Expr *Sub = E->IgnoreParenCasts();
    if (Sub != E && Sub->getType()->isIntegerType() &&
        Sub->EvaluateAsInt(Res, Ctx)) {
      K = llvm::APSInt(Res.Val.getInt().sextOrTrunc(64), false);
      return true;
    }
  }
  return false;
}

namespace {
struct TermVisitor {
  ASTContext &Ctx;
  Describer &D;
  SrcRegion &R;
  std::map<const CFGBlock *, int> Index;

  int laterBlock(int B, const CFGBlock *To) {
    auto It = Index.find(To);
    return It != Index.end() && It->second > B ? It->second : SB_BLOCK_EXIT;
  }

  /// Is \p E the value of call \p Call (itself, or a private variable
  /// whose definition in this block is the call, through widening casts)?
  bool isCallValue(int B, const Expr *E, int Call, bool &Widened) {
    Widened = false;
    const CallExpr *CE = R.Calls[Call].Call;
    for (int Depth = 0; Depth < 16; ++Depth) {
      E = E->IgnoreParens();
      if (E == CE)
        return true;
      // `(fd = open(...)) < 0`: the assignment's value is the stored call
      // (IR compares the call's own value).
      if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
        if (BO->getOpcode() == BO_Comma) {
          E = BO->getRHS();
          continue;
        }
        const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
        const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
        if (BO->getOpcode() != BO_Assign || !V || !D.F.isPrivate(V) ||
            Ctx.getTypeSize(V->getType()) != Ctx.getTypeSize(CE->getType()))
          return false;
        E = BO->getRHS();
        continue;
      }
      const auto *Cast = dyn_cast<CastExpr>(E);
      if (Cast && Cast->getCastKind() == CK_LValueToRValue) {
        const auto *DRE = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens());
        const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
        auto PIt = D.PosOf.find(E);
        if (!V || !D.F.isPrivate(V) || PIt == D.PosOf.end())
          return false;
        int Def = D.lastDefIn(B, PIt->second, V);
        const Expr *Value;
        if (Def < 0 || !Describer::definesVar(R.Elems[Def].S, V, Value) ||
            !Value)
          return false;
        // The stored value must be the call at the variable's own width.
        if (Ctx.getTypeSize(V->getType()) != Ctx.getTypeSize(CE->getType()))
          return false;
        E = Value;
        continue;
      }
      if (Cast && (Cast->getCastKind() == CK_IntegralCast ||
                   Cast->getCastKind() == CK_NoOp)) {
        QualType From = Cast->getSubExpr()->getType(), To = Cast->getType();
        uint64_t FB = Ctx.getTypeSize(From), TB = Ctx.getTypeSize(To);
        if (TB == FB) {
          // Same width: no instruction in IR, unless the sign changes the
          // compare; the caller reads signedness from the compare itself.
        } else if (TB > FB && From->isSignedIntegerType()) {
          Widened = true; // a sign extension
        } else {
          return false; // truncation or zero extension
        }
        E = Cast->getSubExpr();
        continue;
      }
      return false;
    }
    return false;
  }

  /// The region block number of \p To, or -1 outside the region.
  int regionBlock(const CFGBlock *To) {
    auto It = Index.find(To);
    return It != Index.end() ? It->second : -1;
  }

  /// The condition of block \p B's two-way branch after its last call
  /// \p Call, as the core's terminator shape describes it.
  void describeCond(int B, int Call, const Expr *Cond, const CFGBlock *OnTrue,
                    const CFGBlock *OnFalse, sb_term_shape &Shape) {
    const sb_call_event &CE = R.Events[R.Calls[Call].Event].u.call;
    Cond = Cond->IgnoreParens();
    while (const auto *UO = dyn_cast<UnaryOperator>(Cond)) {
      if (UO->getOpcode() != UO_LNot)
        break;
      Cond = UO->getSubExpr()->IgnoreParens();
      std::swap(OnTrue, OnFalse);
    }
    Shape.succ[0] = OnTrue ? regionBlock(OnTrue) : -1;
    Shape.succ[1] = OnFalse ? regionBlock(OnFalse) : -1;
    const Expr *Lhs = Cond, *Rhs = nullptr;
    BinaryOperatorKind Op = BO_NE;
    llvm::APSInt K(llvm::APInt(64, 0), false);
    bool Unsigned = false;
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
      if (!BO->isComparisonOp())
        return;
      Lhs = BO->getLHS();
      Rhs = BO->getRHS();
      Op = BO->getOpcode();
      if (compareConstant(Ctx, Lhs, K)) {
        std::swap(Lhs, Rhs);
        Op = swapCompare(Op);
      }
      if (!compareConstant(Ctx, Rhs, K))
        return;
      Unsigned = BO->getLHS()->getType()->isUnsignedIntegerType() ||
                 (Lhs->getType()->isPointerType());
    } else {
      // `if (x)`: x != 0 (a pointer compares unsigned in IR, but only == and
      // != are taken, where signedness does not matter).
      if (const auto *IC = dyn_cast<ImplicitCastExpr>(Lhs))
        if (IC->getCastKind() == CK_IntegralToBoolean ||
            IC->getCastKind() == CK_PointerToBoolean)
          Lhs = IC->getSubExpr();
    }
    sb_cmp Cmp;
    if (!mapCompare(Op, Unsigned, Cmp) ||
        (K.getMinSignedBits() > 64 && !(Unsigned && K.getActiveBits() <= 64)))
      return;
    Shape.is_compare = true;
    Shape.op = Cmp;
    long Constant = Unsigned ? (long)K.getZExtValue() : (long)K.getExtValue();
    if (!Unsigned && K.isUnsigned())
      Constant = (long)K.getZExtValue();
    Shape.constant = Constant;
    bool Widened;
    const CallExpr *CallE = R.Calls[Call].Call;
    unsigned W = (unsigned)Ctx.getTypeSize(CallE->getType());
    if (!isCallValue(B, Lhs, Call, Widened) ||
        (!CallE->getType()->isIntegerType() &&
         !CallE->getType()->isPointerType()) ||
        W != (unsigned)sb_call_result_bits(R.Abi, &CE))
      return;
    // Only a signed result is followed through a (sign) extension.
    Shape.value = Widened ? SB_CV_EXTENDED : SB_CV_RESULT;
    Shape.unsigned_result = false;
    Shape.constant_fits = !Widened || K.getMinSignedBits() <= W;
  }

  /// Block \p B's terminator, decided by the core's sb_describe_terminator
  /// (the rule and texts both plugins use).
  void visit(int B) {
    const CFGBlock *Blk = R.Blocks[B];
    const Stmt *T = Blk->getTerminatorStmt();
    R.TermStmt[B] = T;
    int Call = -1;
    for (int C = 0; C < (int)R.Calls.size(); ++C)
      if (R.Calls[C].Block == B)
        Call = C;
    std::vector<const CFGBlock *> Succ;
    for (const CFGBlock::AdjacentBlock &A : Blk->succs())
      Succ.push_back(A.getReachableBlock());
    sb_term_shape Shape = sb_term_shape();
    Shape.succ[0] = Shape.succ[1] = -1;
    if (T && isa<SwitchStmt>(T)) {
      Shape.kind = SB_TS_SWITCH;
    } else if (Succ.size() == 1 || (T && isa<GotoStmt>(T))) {
      if (!Succ.empty() && Succ[0]) {
        Shape.kind = SB_TS_JUMP;
        Shape.succ[0] = regionBlock(Succ[0]);
      }
    } else if (Succ.size() == 2) {
      Shape.kind = SB_TS_BRANCH;
      Shape.succ[0] = Succ[0] ? regionBlock(Succ[0]) : -1;
      Shape.succ[1] = Succ[1] ? regionBlock(Succ[1]) : -1;
      const Expr *Cond =
          dyn_cast_or_null<Expr>(Blk->getTerminatorCondition(false));
      if (Call >= 0 && Cond) {
        // `a && b && c` is `(a && b) && c`: the block that evaluates b ends
        // in the outer operator, whose condition CFG gives as `a && b`; the
        // value branched on is the last operand evaluated.
        while (const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParens())) {
          if (!BO->isLogicalOp())
            break;
          Cond = BO->getRHS();
        }
        describeCond(B, Call, Cond, Succ[0], Succ[1], Shape);
      }
    }
    sb_region Region{R.Abi, static_cast<int>(R.Events.size()), R.Events.data(),
                     static_cast<int>(R.SBBlocks.size()), R.SBBlocks.data(), {}};
    char Buf[512];
    const char *Why = sb_describe_terminator(&Region, B, Call, &Shape,
                                             &R.SBBlocks[B], Buf, sizeof Buf);
    R.TermWhy[B] = Why == Buf ? R.keep(Buf) : Why;
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Region formation and planning, in the plugins' order
//===----------------------------------------------------------------------===//

static void collectElements(SrcRegion &R, Describer &D, sb_abi Abi) {
  bool Started = false;
  for (unsigned B = 0; B < R.Blocks.size(); ++B) {
    R.BlockBegin.push_back(R.Elems.size());
    for (const CFGElement &E : *R.Blocks[B]) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      unsigned Pos = R.Elems.size();
      R.Elems.push_back({S, (int)B});
      D.PosOf[S] = Pos;
      const auto *CE = dyn_cast<CallExpr>(S);
      if (!CE || !isCandidateCall(CE, Abi))
        continue;
      if (!Started)
        R.StartPos = Pos;
      Started = true;
      SrcCall C;
      C.Call = CE;
      C.Row = calleeRow(CE, Abi, C.Raw);
      C.Block = B;
      C.Pos = Pos;
      if (C.Raw) {
        C.Row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "syscall");
        Expr::EvalResult Res;
        const Expr *NR = CE->getNumArgs() ? CE->getArg(0) : nullptr;
        if (NR && !NR->isValueDependent() && NR->EvaluateAsInt(Res, D.Ctx))
          C.RawRow = sb_catalog_by_nr(SB_ABI_LINUX_X86_64,
                                      (long)Res.Val.getInt().getExtValue());
        bool Through = C.RawRow && C.RawRow->libc_argc == C.RawRow->raw_argc;
        for (unsigned I = 0; Through && I < C.RawRow->raw_argc; ++I)
          Through = C.RawRow->raw_args[I].from == SB_RAW_LIBC_ARG &&
                    C.RawRow->raw_args[I].index == (int)I;
        C.RowDescribesOperands = Through;
      } else {
        C.RawRow = C.Row;
        C.RowDescribesOperands = true;
      }
      R.Calls.push_back(C);
    }
    R.BlockEnd.push_back(R.Elems.size());
  }
}

static unsigned countCandidates(const CFGBlock *B, sb_abi Abi) {
  unsigned N = 0;
  for (const CFGElement &E : *B)
    if (auto CS = E.getAs<CFGStmt>())
      if (const auto *CE = dyn_cast<CallExpr>(CS->getStmt()))
        N += isCandidateCall(CE, Abi);
  return N;
}

/// Blocks in reverse post-order, a then-branch before its else-branch (the
/// order clang lays out -O0 IR in, so calls and blocks number alike).
static std::vector<const CFGBlock *> blockOrder(const CFG &G,
                                                const SourceManager &SM) {
  std::vector<const CFGBlock *> Post;
  std::set<const CFGBlock *> Seen;
  std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
  Stack.push_back({&G.getEntry(), 0});
  Seen.insert(&G.getEntry());
  while (!Stack.empty()) {
    auto &Top = Stack.back();
    const CFGBlock *B = Top.first;
    std::vector<const CFGBlock *> Succ;
    for (const CFGBlock::AdjacentBlock &A : B->succs())
      if (const CFGBlock *S = A.getReachableBlock())
        Succ.push_back(S);
    // A switch's cases come in source order, as clang lays them out (the
    // CFG lists them back to front); a successor without a label (the
    // exit when there is no default) last.
    if (B->getTerminatorStmt() && isa<SwitchStmt>(B->getTerminatorStmt()))
      std::stable_sort(Succ.begin(), Succ.end(),
                       [&](const CFGBlock *X, const CFGBlock *Y) {
                         const Stmt *LX = X->getLabel(), *LY = Y->getLabel();
                         if (!LX || !LY)
                           return LX && !LY;
                         return SM.isBeforeInTranslationUnit(LX->getBeginLoc(),
                                                             LY->getBeginLoc());
                       });
    // Visit successors last-first, so the first one ends up first in RPO.
    if (Top.second < Succ.size()) {
      const CFGBlock *S = Succ[Succ.size() - 1 - Top.second++];
      if (Seen.insert(S).second)
        Stack.push_back({S, 0});
      continue;
    }
    Post.push_back(B);
    Stack.pop_back();
  }
  return std::vector<const CFGBlock *>(Post.rbegin(), Post.rend());
}

/// The blocks of the region entered at \p Order[EntryIdx], as the core's
/// sb_cfg_form_region() picks them (the rule both plugins use).
static std::vector<const CFGBlock *>
formRegion(const std::vector<const CFGBlock *> &Order, size_t EntryIdx,
           const std::set<const CFGBlock *> &Covered, sb_abi Abi) {
  if (countCandidates(Order[EntryIdx], Abi) == 0)
    return {};
  std::map<const CFGBlock *, int> Number;
  for (size_t K = 0; K < Order.size(); ++K)
    Number[Order[K]] = static_cast<int>(K);
  std::vector<sb_cfg_block> Blocks(Order.size());
  std::vector<std::vector<int>> Preds(Order.size());
  std::unique_ptr<bool[]> IsCovered(new bool[Order.size()]);
  for (size_t K = 0; K < Order.size(); ++K) {
    const CFGBlock *BB = Order[K];
    IsCovered[K] = Covered.count(BB) > 0;
    sb_cfg_block &B = Blocks[K];
    B = sb_cfg_block();
    B.candidates = K >= EntryIdx ? static_cast<int>(countCandidates(BB, Abi)) : 0;
    for (const CFGBlock::AdjacentBlock &P : BB->preds())
      if (const CFGBlock *PB = P.getReachableBlock()) {
        auto It = Number.find(PB);
        Preds[K].push_back(It == Number.end() ? -1 : It->second);
      }
    B.npreds = static_cast<int>(Preds[K].size());
    B.preds = Preds[K].data();
    B.unreachable = K != 0 && Preds[K].empty();
  }
  sb_cfg Cfg{static_cast<int>(Order.size()), Blocks.data(), IsCovered.get()};
  int Out[SB_MAX_REGION_BLOCKS];
  int N = sb_cfg_form_region(&Cfg, static_cast<int>(EntryIdx), Out);
  std::vector<const CFGBlock *> Region;
  for (int I = 0; I < N; ++I)
    Region.push_back(Order[Out[I]]);
  return Region;
}

static std::unique_ptr<SrcRegion>
analyseRegion(ASTContext &Ctx, FnFacts &F, const FunctionDecl *Fn,
              std::vector<const CFGBlock *> Blocks, unsigned BlockNo,
              sb_abi Abi) {
  auto R = std::make_unique<SrcRegion>();
  R->Fn = Fn;
  R->Abi = Abi;
  R->BlockNo = BlockNo;
  R->Branchy = true;
  R->Blocks = std::move(Blocks);
  Describer D(Ctx, F, *R);
  collectElements(*R, D, Abi);
  TermVisitor T{Ctx, D, *R, {}};
  const unsigned NB = R->Blocks.size();
  for (unsigned B = 0; B < NB; ++B)
    T.Index[R->Blocks[B]] = B;
  R->Ancestors.assign(NB, 0);
  R->Dominators.assign(NB, 0);
  R->Dominators[0] = 1;
  for (unsigned B = 1; B < NB; ++B) {
    uint64_t Dom = ~0ull;
    for (const CFGBlock::AdjacentBlock &P : R->Blocks[B]->preds()) {
      const CFGBlock *PB = P.getReachableBlock();
      if (!PB)
        continue;
      int PI = T.Index.at(PB);
      R->Ancestors[B] |= R->Ancestors[PI] | 1ull << PI;
      Dom &= R->Dominators[PI];
    }
    R->Dominators[B] = Dom | 1ull << B;
  }
  R->SBBlocks.assign(NB, sb_block());
  R->TermWhy.assign(NB, nullptr);
  R->TermStmt.assign(NB, nullptr);
  for (unsigned B = 0; B < NB; ++B) {
    sb_block &SB = R->SBBlocks[B];
    SB.first_event = R->Events.size();
    std::vector<unsigned> Own;
    int Before = 0;
    for (unsigned C = 0; C < R->Calls.size(); ++C) {
      if (R->Calls[C].Block == (int)B)
        Own.push_back(C);
      else if (R->Calls[C].Block < (int)B)
        ++Before;
    }
    if (B > 0) {
      unsigned End = Own.empty() ? R->BlockEnd[B] : R->Calls[Own.front()].Pos;
      if (End > R->BlockBegin[B])
        D.visitGap(R->BlockBegin[B], End, Before - 1);
    }
    for (unsigned K = 0; K < Own.size(); ++K) {
      if (K > 0)
        D.visitGap(R->Calls[Own[K] - 1].Pos + 1, R->Calls[Own[K]].Pos,
                   Own[K] - 1);
      D.visitCall(Own[K]);
    }
    if (!Own.empty()) {
      unsigned From = R->Calls[Own.back()].Pos + 1;
      if (From < R->BlockEnd[B])
        D.visitGap(From, R->BlockEnd[B], Own.back());
    }
    SB.nevents = R->Events.size() - SB.first_event;
  }
  for (unsigned B = 0; B < NB; ++B)
    T.visit(B);
  return R;
}

/// Straight-line regions of one block (one per SB_MAX_REGION_CALLS calls).
static std::vector<std::unique_ptr<SrcRegion>>
analyseBlock(ASTContext &Ctx, FnFacts &F, const FunctionDecl *Fn,
             const CFGBlock *Blk, unsigned BlockNo, sb_abi Abi) {
  std::vector<std::unique_ptr<SrcRegion>> Out;
  auto Whole = std::make_unique<SrcRegion>();
  Whole->Blocks = {Blk};
  Describer Probe(Ctx, F, *Whole);
  collectElements(*Whole, Probe, Abi);
  for (size_t First = 0; First < Whole->Calls.size();
       First += SB_MAX_REGION_CALLS) {
    auto R = std::make_unique<SrcRegion>();
    R->Fn = Fn;
    R->Abi = Abi;
    R->BlockNo = BlockNo;
    R->Part = First / SB_MAX_REGION_CALLS;
    R->Blocks = {Blk};
    R->Elems = Whole->Elems;
    R->BlockBegin = Whole->BlockBegin;
    R->BlockEnd = Whole->BlockEnd;
    R->Ancestors.assign(1, 0);
    R->Dominators.assign(1, 1);
    size_t Last = std::min(Whole->Calls.size(), First + SB_MAX_REGION_CALLS);
    for (size_t K = First; K < Last; ++K)
      R->Calls.push_back(Whole->Calls[K]);
    R->StartPos = R->Calls.front().Pos;
    Describer D(Ctx, F, *R);
    D.PosOf = Probe.PosOf;
    for (unsigned K = 0; K < R->Calls.size(); ++K) {
      if (K > 0)
        D.visitGap(R->Calls[K - 1].Pos + 1, R->Calls[K].Pos, K - 1);
      D.visitCall(K);
    }
    Out.push_back(std::move(R));
  }
  return Out;
}

static bool planBranchy(SrcRegion &R, const sb_options &Opts) {
  sb_region Desc = R.describe();
  if (sb_plan_region(&Desc, &Opts, &R.Plan) != 0)
    return false;
  R.Planned = true;
  std::vector<int> BlockOfCall;
  for (const auto &C : R.Calls)
    BlockOfCall.push_back(C.Block);
  return sb_plan_spans_blocks(&R.Plan, BlockOfCall.data()) &&
         !sb_plan_check_hazards(&R.Plan);
}

static bool planStraight(SrcRegion &R, const sb_options &Opts) {
  sb_region Desc = R.describe();
  if (sb_plan_region(&Desc, &Opts, &R.Plan) != 0)
    return false;
  R.Planned = true;
  return !sb_plan_check_hazards(&R.Plan);
}

std::vector<FunctionPlans> planTranslationUnit(ASTContext &Ctx,
                                               const sb_config &Cfg) {
  std::vector<FunctionPlans> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  const sb_abi Abi = SB_ABI_LINUX_X86_64;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *Fn = dyn_cast<FunctionDecl>(D);
    if (!Fn || !Fn->doesThisDeclarationHaveABody() ||
        !SM.isInMainFile(SM.getExpansionLoc(Fn->getLocation())))
      continue;
    CFG::BuildOptions BO;
    BO.setAllAlwaysAdd();
    std::unique_ptr<CFG> G = CFG::buildCFG(Fn, Fn->getBody(), &Ctx, BO);
    if (!G)
      continue;
    FnFacts F{Ctx, {}, false};
    EscapeFinder EF;
    EF.TraverseStmt(Fn->getBody());
    F.Escaping = EF.Escaping;
    F.ReturnsTwice = EF.ReturnsTwice;
    FunctionPlans FP{Fn, {}};
    std::vector<const CFGBlock *> Order = blockOrder(*G, SM);
    std::set<const CFGBlock *> Covered;
    unsigned BlockNo = 0;
    for (size_t K = 0; K < Order.size(); ++K) {
      const CFGBlock *BB = Order[K];
      if (!countCandidates(BB, Abi))
        continue;
      unsigned Number = BlockNo++;
      if (Covered.count(BB))
        continue;
      std::vector<const CFGBlock *> Blocks = formRegion(Order, K, Covered, Abi);
      if (!Blocks.empty()) {
        auto R = analyseRegion(Ctx, F, Fn, std::move(Blocks), Number, Abi);
        if (planBranchy(*R, Cfg.plan)) {
          for (int C = 0; C < R->Plan.ncalls; ++C)
            if (R->Plan.calls[C].batch == 0)
              Covered.insert(R->Blocks[R->Calls[C].Block]);
          FP.Regions.push_back(std::move(R));
          continue;
        }
      }
      for (auto &R : analyseBlock(Ctx, F, Fn, BB, Number, Abi))
        if (planStraight(*R, Cfg.plan))
          FP.Regions.push_back(std::move(R));
    }
    Out.push_back(std::move(FP));
  }
  return Out;
}

} // namespace sysbatch_src
