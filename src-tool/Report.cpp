//===- Report.cpp - plans as diagnostics, JSON and fix-its ----------------===//
//
// Says what the core decided for every system-call site of a translation
// unit, in source terms: a remark per site (batched, with its batch and
// slot, or not batched, with the core's reason), notes that point at the
// statement, argument or branch behind a refusal, and fix-its where moving
// a pure declaration above the first call removes the conflict.  The same
// facts go out as JSON (--format=json); --print-plan adds the core's plan
// text (sb_plan_print, the plugins' one format).
//
//===----------------------------------------------------------------------===//

#include "SysbatchSrc.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <cstdio>
#include <set>

using namespace clang;

namespace sysbatch_src {

std::string where(ASTContext &Ctx, SourceLocation L) {
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (P.isInvalid())
    return "<unknown>";
  return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn());
}

const Stmt *fullStatement(ASTContext &Ctx, const Stmt *S,
                          const CompoundStmt **Parent) {
  *Parent = nullptr;
  const Stmt *Cur = S;
  DynTypedNode Node = DynTypedNode::create(*S);
  for (int Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Ps = Ctx.getParents(Node);
    if (Ps.empty())
      return nullptr;
    Node = Ps[0];
    // A declaration's initializer: go on through the VarDecl to its
    // DeclStmt.
    if (Node.get<Decl>() && !Node.get<FunctionDecl>())
      continue;
    const Stmt *P = Node.get<Stmt>();
    if (!P)
      return nullptr;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      *Parent = CS;
      return Cur;
    }
    Cur = P;
  }
  return nullptr;
}

static std::string jsonEscape(const std::string &S) {
  std::string O;
  for (char C : S) {
    switch (C) {
    case '"': O += "\\\""; break;
    case '\\': O += "\\\\"; break;
    case '\n': O += "\\n"; break;
    case '\t': O += "\\t"; break;
    default:
      if ((unsigned char)C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof B, "\\u%04x", C);
        O += B;
      } else {
        O += C;
      }
    }
  }
  return O;
}

static std::string exprText(ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  StringRef T = Lexer::getSourceText(R, SM, Ctx.getLangOpts());
  std::string Out = T.str();
  for (char &C : Out)
    if (C == '\n' || C == '\t')
      C = ' ';
  if (Out.size() > 60)
    Out = Out.substr(0, 57) + "...";
  return Out;
}

//===----------------------------------------------------------------------===//
// Fix-its: a pure declaration moved above the first call
//===----------------------------------------------------------------------===//

namespace {
/// Does the initializer only compute from constants, addresses and private
/// variables nothing assigns between \p From and \p To?
class PureInit : public RecursiveASTVisitor<PureInit> {
public:
  ASTContext &Ctx;
  SourceLocation IssueBegin;
  bool Pure = true;
  explicit PureInit(ASTContext &Ctx, SourceLocation IssueBegin)
      : Ctx(Ctx), IssueBegin(IssueBegin) {}
  bool VisitStmt(Stmt *S) {
    if (isa<CallExpr>(S) || isa<StmtExpr>(S) || isa<AtomicExpr>(S))
      Pure = false;
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->getOpcode() == UO_Deref || UO->isIncrementDecrementOp())
        Pure = false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp() || BO->getOpcode() == BO_Div ||
          BO->getOpcode() == BO_Rem)
        Pure = false;
    if (isa<ArraySubscriptExpr>(S) || isa<MemberExpr>(S))
      Pure = false;
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(S))
      if (IC->getCastKind() == CK_LValueToRValue)
        Pure = false; // reads a variable: the first call may have changed it
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (isa<VarDecl>(DRE->getDecl()) &&
          !Ctx.getSourceManager().isBeforeInTranslationUnit(
              DRE->getDecl()->getLocation(), IssueBegin))
        Pure = false; // not yet declared above the first call
    return Pure;
  }
};

/// Is a variable named \p Name used in [Begin, End) of the compound?
class NameUse : public RecursiveASTVisitor<NameUse> {
public:
  std::string Name;
  bool Used = false;
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl()->getNameAsString() == Name)
      Used = true;
    return true;
  }
  bool VisitLabelStmt(LabelStmt *) {
    Used = true; // a jump into the moved range: leave it alone
    return true;
  }
};
} // namespace

/// The source range of a whole line-statement, newline included.
static CharSourceRange wholeLines(const SourceManager &SM, SourceRange R,
                                  const LangOptions &LO) {
  SourceLocation B = R.getBegin();
  SourceLocation E = Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO);
  // The ';' of a declaration follows its last token.
  auto Tok = Lexer::findNextToken(R.getEnd(), SM, LO);
  if (Tok && Tok->is(tok::semi))
    E = Tok->getEndLoc();
  unsigned BCol = SM.getSpellingColumnNumber(B);
  B = B.getLocWithOffset(-(int)(BCol - 1));
  bool Invalid = false;
  const char *P = SM.getCharacterData(E, &Invalid);
  unsigned Skip = 0;
  while (!Invalid && P[Skip] == ' ')
    ++Skip;
  if (!Invalid && P[Skip] == '\n')
    ++Skip;
  return CharSourceRange::getCharRange(B, E.getLocWithOffset(Skip));
}

//===----------------------------------------------------------------------===//
// Fix-its: a call that touches no memory moved after the call it separates
//===----------------------------------------------------------------------===//

namespace {
/// What a stretch of statements does to variables, for the move's checks.
class VarUse : public RecursiveASTVisitor<VarUse> {
public:
  std::set<const ValueDecl *> Named, Written, AddressTaken;
  std::set<std::string> Names;
  bool Control = false; // a jump, label, call through a pointer, asm...
  bool Memory = false;  // reads or writes through a pointer or an aggregate
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    Named.insert(D->getDecl());
    Names.insert(D->getDecl()->getNameAsString());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      if (auto *D = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
        Written.insert(D->getDecl());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (auto *D = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts())) {
      if (U->isIncrementDecrementOp())
        Written.insert(D->getDecl());
      if (U->getOpcode() == UO_AddrOf)
        AddressTaken.insert(D->getDecl());
    }
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    for (Decl *D : DS->decls())
      if (auto *V = dyn_cast<ValueDecl>(D)) {
        Written.insert(V);
        Names.insert(V->getNameAsString());
      }
    return true;
  }
  bool VisitStmt(Stmt *S) {
    if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
        isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<LabelStmt>(S) ||
        isa<AsmStmt>(S) || isa<StmtExpr>(S) || isa<SwitchCase>(S))
      Control = true;
    if (isa<ArraySubscriptExpr>(S) || isa<MemberExpr>(S))
      Memory = true;
    if (const auto *U = dyn_cast<UnaryOperator>(S))
      Memory |= U->getOpcode() == UO_Deref;
    return true;
  }
};
} // namespace

/// The barrier between two calls of the region is a call to a function
/// declared __attribute__((const)) - no memory read or written, no other
/// effect - whose statement is `f(...);`, `v = f(...);` or `T v = f(...);`
/// with v a scalar local whose address is never taken: moving that
/// statement after the statement of the next call is equivalent when the
/// statements it crosses are plain expressions or declarations that do
/// not name v, do not write what its arguments read, and do not jump.
/// Diagnostics (fprintf, perror, syslog) are never const: they write, and
/// moving them would reorder the program's own system calls.
static void findCallMoves(ASTContext &Ctx, SrcRegion &R,
                          const CompoundStmt *IssueParent,
                          std::vector<Fix> &Fixes,
                          std::vector<std::string> &Notes,
                          std::vector<SourceLocation> &NoteLocs) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  for (size_t EI = 0; EI < R.Events.size(); ++EI) {
    const sb_event &E = R.Events[EI];
    if (E.kind != SB_EV_CODE || !E.u.code.barrier)
      continue;
    const auto *Call = dyn_cast_or_null<CallExpr>(R.EventStmt[EI]);
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    if (!FD || !FD->hasAttr<ConstAttr>() || Call->getBeginLoc().isMacroID())
      continue;
    // The next call of the region, in the same block of statements.
    const CallExpr *Next = nullptr;
    for (size_t K = EI + 1; K < R.Events.size() && !Next; ++K)
      if (R.Events[K].kind == SB_EV_CALL)
        Next = dyn_cast<CallExpr>(R.EventStmt[K]);
    if (!Next)
      continue;
    const CompoundStmt *P1 = nullptr, *P2 = nullptr;
    const Stmt *From = fullStatement(Ctx, Call, &P1);
    const Stmt *To = fullStatement(Ctx, Next, &P2);
    if (!From || !To || P1 != IssueParent || P2 != IssueParent ||
        To->getEndLoc().isMacroID())
      continue;
    // The statement's shape, and the variable it sets.
    const ValueDecl *Set = nullptr;
    const Expr *Value = nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(From)) {
      const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                         : nullptr;
      if (V && V->hasLocalStorage() && V->getInit())
        Set = V, Value = V->getInit();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(From)) {
      if (BO->getOpcode() == BO_Assign)
        if (const auto *D = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
          if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
            if (V->hasLocalStorage())
              Set = V, Value = BO->getRHS();
    } else if (const auto *X = dyn_cast<Expr>(From)) {
      Value = X;
    }
    if (!Value || Value->IgnoreParenImpCasts() != Call)
      continue;
    if (Set && !Set->getType()->isScalarType())
      continue;
    bool PureArgs = true;
    VarUse Args;
    for (const Expr *A : Call->arguments()) {
      PureArgs &= !A->HasSideEffects(Ctx);
      Args.TraverseStmt(const_cast<Expr *>(A));
    }
    VarUse Whole;
    Whole.TraverseStmt(const_cast<CompoundStmt *>(IssueParent));
    if (!PureArgs || (Set && Whole.AddressTaken.count(Set)))
      continue;
    // The statements crossed: after From up to To, inclusive.
    VarUse Crossed;
    bool After = false, Reached = false, Plain = true;
    for (const Stmt *Child : IssueParent->body()) {
      if (Child == From) {
        After = true;
        continue;
      }
      if (!After)
        continue;
      Plain &= isa<Expr>(Child) || isa<DeclStmt>(Child);
      Crossed.TraverseStmt(const_cast<Stmt *>(Child));
      if (Child == To) {
        Reached = true;
        break;
      }
    }
    if (!Reached || !Plain || Crossed.Control ||
        (Set && Crossed.Names.count(Set->getNameAsString())))
      continue;
    // The arguments read only scalar locals nothing can reach through a
    // pointer, and the crossed statements do not write them.
    bool Clobbers = Args.Memory;
    for (const ValueDecl *D : Args.Named) {
      if (isa<EnumConstantDecl>(D) || isa<FunctionDecl>(D))
        continue;
      const auto *V = dyn_cast<VarDecl>(D);
      Clobbers |= !V || !V->hasLocalStorage() || !V->getType()->isScalarType() ||
                  Whole.AddressTaken.count(V) || Crossed.Written.count(V);
    }
    if (Clobbers)
      continue;
    CharSourceRange Cut = wholeLines(SM, From->getSourceRange(), LO);
    CharSourceRange Dest = wholeLines(SM, To->getSourceRange(), LO);
    bool Invalid = false;
    StringRef Text = Lexer::getSourceText(Cut, SM, LO, &Invalid);
    if (Invalid || Text.empty() || Text.back() != '\n')
      continue;
    std::string File = SM.getFilename(SM.getSpellingLoc(Cut.getBegin())).str();
    Fixes.push_back({File, SM.getFileOffset(SM.getSpellingLoc(Cut.getBegin())),
                     (unsigned)Text.size(), ""});
    Fixes.push_back({File, SM.getFileOffset(SM.getSpellingLoc(Dest.getEnd())), 0,
                     Text.str()});
    Notes.push_back("moving this call of '" + FD->getNameAsString() +
                    "' after the call of " + calleeSymbol(Next) +
                    " removes the barrier between them ('" +
                    FD->getNameAsString() +
                    "' is declared const: it touches no memory)");
    NoteLocs.push_back(From->getBeginLoc());
  }
}

void findFixes(ASTContext &Ctx, SrcRegion &R, std::vector<Fix> &Fixes,
               std::vector<std::string> &Notes,
               std::vector<SourceLocation> &NoteLocs) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  if (R.Calls.empty())
    return;
  const CompoundStmt *IssueParent = nullptr;
  const Stmt *Issue = fullStatement(Ctx, R.Calls[0].Call, &IssueParent);
  if (!Issue || !IssueParent || Issue->getBeginLoc().isMacroID())
    return;
  std::set<const Stmt *> Done;
  for (const sb_event &E : R.Events) {
    if (E.kind != SB_EV_CODE || E.u.code.barrier || !E.u.code.conflicts)
      continue;
    const Stmt *S = R.EventStmt[&E - R.Events.data()];
    // The conflicting store must be a declaration's initializer (the
    // DeclStmt element itself).
    const auto *DS = S ? dyn_cast<DeclStmt>(S) : nullptr;
    if (!DS || !DS->isSingleDecl() || Done.count(DS))
      continue;
    const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!V || !V->hasLocalStorage() || V->getType()->isVariablyModifiedType() ||
        V->getType().isVolatileQualified() || DS->getBeginLoc().isMacroID())
      continue;
    // The declaration must stand in the first call's compound, after it.
    bool After = false, Found = false;
    NameUse Uses;
    Uses.Name = V->getNameAsString();
    for (const Stmt *Child : IssueParent->body()) {
      if (Child == Issue)
        After = true;
      else if (Child == DS && After) {
        Found = true;
        break;
      } else if (After) {
        Uses.TraverseStmt(const_cast<Stmt *>(Child));
      }
    }
    if (!Found || Uses.Used)
      continue;
    if (V->hasInit()) {
      PureInit P(Ctx, Issue->getBeginLoc());
      P.TraverseStmt(const_cast<Expr *>(V->getInit()));
      if (!P.Pure)
        continue;
    }
    Done.insert(DS);
    CharSourceRange Cut = wholeLines(SM, DS->getSourceRange(), LO);
    bool Invalid = false;
    StringRef Text = Lexer::getSourceText(Cut, SM, LO, &Invalid);
    if (Invalid || Text.empty())
      continue;
    std::string Moved = Text.str();
    if (Moved.back() != '\n')
      Moved += '\n';
    SourceLocation IssueLine = Issue->getBeginLoc().getLocWithOffset(
        -(int)(SM.getSpellingColumnNumber(Issue->getBeginLoc()) - 1));
    std::string File = SM.getFilename(SM.getSpellingLoc(IssueLine)).str();
    Fixes.push_back({File, SM.getFileOffset(SM.getSpellingLoc(IssueLine)), 0,
                     Moved});
    Fixes.push_back({File, SM.getFileOffset(SM.getSpellingLoc(Cut.getBegin())),
                     (unsigned)Text.size(), ""});
    Notes.push_back("moving the declaration of '" + V->getNameAsString() +
                    "' above the first call lets the calls after it batch "
                    "(its initializer computes nothing the calls touch)");
    NoteLocs.push_back(DS->getBeginLoc());
  }
  findCallMoves(Ctx, R, IssueParent, Fixes, Notes, NoteLocs);
}

//===----------------------------------------------------------------------===//
// The report
//===----------------------------------------------------------------------===//

namespace {
struct Site {
  std::string Where, Callee, Function, Reason, Detail;
  int Batch = -1, Slot = -1;
  std::vector<std::pair<std::string, std::string>> Notes; // where, text
};
} // namespace

/// Notes that say in source terms why call \p C was refused.
static void explain(ASTContext &Ctx, SrcRegion &R, int C, Site &S) {
  const sb_call_plan &CP = R.Plan.calls[C];
  const SrcCall &Call = R.Calls[C];
  switch (CP.why) {
  case SB_WHY_CODE_CONFLICT:
  case SB_WHY_BARRIER:
    // The code event between the batch and the call that names it.
    for (int E = (int)Call.Event - 1; E >= 0; --E) {
      const sb_event &Ev = R.Events[E];
      if (Ev.kind != SB_EV_CODE)
        continue;
      if (Ev.u.code.barrier || (Ev.u.code.conflicts >> C & 1)) {
        if (const Stmt *St = R.EventStmt[E])
          S.Notes.push_back({where(Ctx, St->getBeginLoc()),
                             "'" + exprText(Ctx, St) + "' stands between " +
                                 "the calls: " + Ev.u.code.why});
        break;
      }
    }
    break;
  case SB_WHY_ARG_COMPUTED:
  case SB_WHY_ARG_FROM_UNBATCHED:
    for (unsigned A = 0; A < Call.Call->getNumArgs() && A <= SB_MAX_ARGS; ++A) {
      const sb_operand &O = R.Events[Call.Event].u.call.args[A];
      std::string Text;
      if (O.kind == SB_OPND_LOCAL && !Call.ArgWhy[A].empty())
        Text = "argument " + std::to_string(A + 1) + " ('" +
               exprText(Ctx, Call.Call->getArg(A)) + "'): " + Call.ArgWhy[A];
      else if (O.kind == SB_OPND_RESULT && O.call >= 0 &&
               R.Plan.calls[O.call].batch < 0 &&
               CP.why == SB_WHY_ARG_FROM_UNBATCHED)
        Text = "argument " + std::to_string(A + 1) + " ('" +
               exprText(Ctx, Call.Call->getArg(A)) +
               "') is the result of " + calleeSymbol(R.Calls[O.call].Call) +
               ", which is not batched";
      if (!Text.empty())
        S.Notes.push_back({where(Ctx, Call.Call->getArg(A)->getBeginLoc()), Text});
    }
    break;
  case SB_WHY_NOT_REACHED:
    for (unsigned B = 0; B < R.TermWhy.size(); ++B)
      if (R.TermWhy[B] && (int)B < Call.Block && R.TermStmt[B])
        S.Notes.push_back({where(Ctx, R.TermStmt[B]->getBeginLoc()),
                           std::string("branch ends the region: ") +
                               R.TermWhy[B]});
    break;
  default:
    break;
  }
}

static std::string regionPlanText(const std::string &Fn, SrcRegion &R) {
  char *Buf = nullptr;
  size_t Len = 0;
  FILE *M = open_memstream(&Buf, &Len);
  if (R.Part)
    std::fprintf(M, "function %s block %u part %u:\n", Fn.c_str(), R.BlockNo,
                 R.Part);
  else
    std::fprintf(M, "function %s block %u:\n", Fn.c_str(), R.BlockNo);
  sb_region Desc = R.describe();
  sb_plan_print(M, &Desc, &R.Plan);
  std::fclose(M);
  std::string Text(Buf, Len);
  std::free(Buf);
  return Text;
}

// Call C of R as a reported site: its batch and slot, or why not.
static Site callSite(ASTContext &Ctx, SrcRegion &R, int C,
                     const std::string &Fn) {
  const sb_call_plan &CP = R.Plan.calls[C];
  Site S;
  S.Where = where(Ctx, R.Calls[C].Call->getBeginLoc());
  S.Callee = calleeSymbol(R.Calls[C].Call);
  S.Function = Fn;
  if (CP.batch < 0) {
    S.Reason = sb_why_name(CP.why);
    S.Detail = sb_why_text(CP.why);
    if (CP.detail)
      S.Detail += std::string(": ") + CP.detail;
    explain(Ctx, R, C, S);
    return S;
  }
  S.Batch = CP.batch;
  S.Slot = CP.slot;
  const sb_batch_plan &BP = R.Plan.batches[CP.batch];
  std::string Names;
  for (int K = BP.first_call; K <= BP.last_call; ++K)
    if (R.Plan.calls[K].batch == CP.batch)
      Names += (Names.empty() ? "" : ", ") + calleeSymbol(R.Calls[K].Call);
  S.Detail = "batch of " + std::to_string(BP.ncalls) + " calls (" + Names +
             ") in " + std::to_string(BP.nslots) + " slots, " +
             std::to_string(BP.nchains) + " chains" +
             (BP.branchy ? ", branchy" : "") + "; slot " +
             std::to_string(CP.slot);
  return S;
}

// Every site region R reports: its calls, the branches that end it while
// it had more calls to offer, and its fix-its.
static void regionSites(ASTContext &Ctx, SrcRegion &R, const std::string &Fn,
                        const ReportOptions &Opts, std::vector<Fix> &Fixes,
                        std::vector<Site> &Sites) {
  // A branchy region reports its refusals only in blocks it batched in:
  // the other blocks are planned again on their own.
  std::set<int> CoveredBlocks;
  for (int C = 0; C < R.Plan.ncalls; ++C)
    if (R.Plan.calls[C].batch >= 0)
      CoveredBlocks.insert(R.Calls[C].Block);
  for (int C = 0; C < R.Plan.ncalls; ++C) {
    if (R.Branchy && R.Plan.calls[C].batch < 0 &&
        !CoveredBlocks.count(R.Calls[C].Block))
      continue;
    Sites.push_back(callSite(Ctx, R, C, Fn));
  }
  if (R.Branchy)
    for (unsigned B = 0; B < R.TermWhy.size(); ++B) {
      bool Later = false;
      for (const SrcCall &C : R.Calls)
        Later |= C.Block > (int)B;
      if (R.TermWhy[B] && Later && R.TermStmt[B]) {
        Site S;
        S.Where = where(Ctx, R.TermStmt[B]->getBeginLoc());
        S.Reason = "region-end";
        S.Detail = std::string("branch ends the region: ") + R.TermWhy[B];
        S.Batch = -3;
        Sites.push_back(std::move(S));
      }
    }
  if (!Opts.CollectFixes)
    return;
  std::vector<std::string> Notes;
  std::vector<SourceLocation> Locs;
  findFixes(Ctx, R, Fixes, Notes, Locs);
  for (size_t K = 0; K < Notes.size(); ++K) {
    Site S;
    S.Where = where(Ctx, Locs[K]);
    S.Reason = "fix-it";
    S.Detail = Notes[K];
    S.Batch = -2;
    Sites.push_back(std::move(S));
  }
}

static void sortByPosition(std::vector<Site> &Sites) {
  auto key = [](const std::string &W) {
    size_t A = W.rfind(':'), B = W.rfind(':', A - 1);
    return std::make_pair(std::stoul(W.substr(B + 1, A - B - 1)),
                          std::stoul(W.substr(A + 1)));
  };
  std::stable_sort(Sites.begin(), Sites.end(), [&](const Site &A, const Site &B) {
    return key(A.Where) < key(B.Where);
  });
}

static void writeText(const std::vector<Site> &Sites, std::string &Out) {
  for (const Site &S : Sites) {
    if (S.Batch == -2 || S.Batch == -3)
      Out += S.Where + ": note: " + S.Detail + "\n";
    else if (S.Batch >= 0)
      Out += S.Where + ": remark: '" + S.Callee + "' batched: " + S.Detail +
             " [sysbatch]\n";
    else
      Out += S.Where + ": remark: '" + S.Callee + "' not batched: " +
             S.Reason + " (" + S.Detail + ") [sysbatch-missed]\n";
    for (const auto &N : S.Notes)
      Out += N.first + ": note: " + N.second + "\n";
  }
}

static void writeJsonSite(const Site &S, std::string &Out) {
  size_t A = S.Where.rfind(':'), B = S.Where.rfind(':', A - 1);
  Out += "{\"file\": \"" + jsonEscape(S.Where.substr(0, B)) +
         "\", \"line\": " + S.Where.substr(B + 1, A - B - 1) +
         ", \"column\": " + S.Where.substr(A + 1);
  if (S.Batch == -2 || S.Batch == -3) {
    Out += std::string(", \"kind\": \"") +
           (S.Batch == -2 ? "fix-it" : "region-end") + "\", \"message\": \"" +
           jsonEscape(S.Detail) + "\"}";
    return;
  }
  Out += ", \"kind\": \"site\", \"function\": \"" + jsonEscape(S.Function) +
         "\", \"callee\": \"" + jsonEscape(S.Callee) + "\", \"batched\": " +
         (S.Batch >= 0 ? "true" : "false");
  if (S.Batch >= 0)
    Out += ", \"batch\": " + std::to_string(S.Batch) +
           ", \"slot\": " + std::to_string(S.Slot);
  else
    Out += ", \"reason\": \"" + jsonEscape(S.Reason) + "\"";
  Out += ", \"detail\": \"" + jsonEscape(S.Detail) + "\", \"notes\": [";
  for (size_t K = 0; K < S.Notes.size(); ++K) {
    const std::string &W = S.Notes[K].first;
    size_t NA = W.rfind(':'), NB = W.rfind(':', NA - 1);
    Out += std::string(K ? ", " : "") + "{\"line\": " +
           W.substr(NB + 1, NA - NB - 1) + ", \"column\": " +
           W.substr(NA + 1) + ", \"message\": \"" +
           jsonEscape(S.Notes[K].second) + "\"}";
  }
  Out += "]}";
}

void reportUnit(ASTContext &Ctx, std::vector<FunctionPlans> &Plans,
                const ReportOptions &Opts, std::string &Out,
                std::vector<Fix> &Fixes, bool &FirstJson) {
  std::vector<Site> Sites;
  std::string PlanText;
  for (FunctionPlans &FP : Plans) {
    std::string Fn = FP.Fn->getNameAsString();
    for (auto &RP : FP.Regions) {
      if (Opts.PrintPlan)
        PlanText += regionPlanText(Fn, *RP);
      regionSites(Ctx, *RP, Fn, Opts, Fixes, Sites);
    }
  }
  sortByPosition(Sites);
  if (Opts.Fmt == Format::Text) {
    writeText(Sites, Out);
  } else {
    for (const Site &S : Sites) {
      Out += FirstJson ? "  " : ",\n  ";
      FirstJson = false;
      writeJsonSite(S, Out);
    }
  }
  if (Opts.PrintPlan)
    Out += PlanText;
}

} // namespace sysbatch_src
