//===- Rewrite.cpp - a batch as readable calls of the runtime API ---------===//
//
// `sysbatch-src rewrite`: every batch the core planned whose source allows
// it becomes, right before the statement of its first call,
//
//     long sb1_rets[5];
//     struct sysbatch_slot sb1_slots[5] = { SYSBATCH_SLOT(SYS_openat, ...),
//                                           SYSBATCH_COPY(...), ... };
//     sb1_slots[0].jump_fail = -1;
//     long sb1_last = sysbatch_active ? sysbatch_run(sb1_rets, sb1_slots, 5, 0) : -1;
//
// and every batched call site becomes `(slot ran ? convert(rets[slot]) :
// original call)`, so the original calls stay as the fallback (and run
// when sysbatch_active is 0 or the batch stopped early).  The slots, copies
// and jumps are the core's plan, unchanged.  A batch is left as it is, with
// a note saying why, when its source does not let the fill move to the
// issue point: the first call is not the first thing its statement
// evaluates, an argument is not in scope or not free of side effects there,
// or a call site sits in a macro or outside the issue point's block.
//
//===----------------------------------------------------------------------===//

#include "SysbatchSrc.h"
#include "sysbatch/runtime-abi.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

using namespace clang;

namespace sysbatch_src {

static std::string sourceText(ASTContext &Ctx, SourceRange R) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R),
                              Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

/// Is \p L an lvalue whose address is a constant offset into a named
/// variable (x, s.f, a[3])?  Computing it reads no memory.
static bool fixedAddress(ASTContext &Ctx, const Expr *L) {
  L = L->IgnoreParens();
  if (isa<DeclRefExpr>(L))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(L))
    return !ME->isArrow() && fixedAddress(Ctx, ME->getBase());
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L)) {
    const auto *Base = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
    return Base && Base->getCastKind() == CK_ArrayToPointerDecay &&
           fixedAddress(Ctx, Base->getSubExpr()) &&
           AS->getIdx()->isEvaluatable(Ctx);
  }
  return false;
}

/// Is \p Call the first thing statement \p Full evaluates?  Then the batch
/// can be issued right before the statement.
static bool evaluatedFirst(ASTContext &Ctx, const Stmt *Full,
                           const Expr *Call) {
  const Stmt *S = Full;
  for (int Depth = 0; Depth < 16; ++Depth) {
    if (S == Call)
      return true;
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *In = E->IgnoreParenImpCasts();
      if (In != E) {
        S = In;
        continue;
      }
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (!DS->isSingleDecl())
        return false;
      const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
      if (!V || !V->getInit() || V->getType()->isVariablyModifiedType())
        return false;
      S = V->getInit();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      // x = CALL, CALL OP constant: nothing is evaluated before CALL.
      if (BO->getOpcode() == BO_Assign && fixedAddress(Ctx, BO->getLHS()))
        S = BO->getRHS();
      else if (BO->isLogicalOp() || BO->getOpcode() == BO_Comma)
        S = BO->getLHS();
      else if (BO->isComparisonOp() &&
               BO->getRHS()->IgnoreParenImpCasts()->isEvaluatable(Ctx))
        S = BO->getLHS();
      else
        return false;
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable())
        return false;
      S = If->getCond();
    } else if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (!R->getRetValue())
        return false;
      S = R->getRetValue();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->getOpcode() != UO_LNot)
        return false;
      S = UO->getSubExpr();
    } else {
      return false;
    }
  }
  return false;
}

namespace {
/// Every variable an expression names, for the scope check.
class Names : public RecursiveASTVisitor<Names> {
public:
  std::vector<const ValueDecl *> Decls;
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    Decls.push_back(D->getDecl());
    return true;
  }
};
} // namespace

namespace {
/// Where each variable is assigned in a block of statements.
class Writes : public RecursiveASTVisitor<Writes> {
public:
  std::vector<std::pair<const ValueDecl *, SourceLocation>> At;
  void note(const Expr *L, SourceLocation Where) {
    if (const auto *D = dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts()))
      At.push_back({D->getDecl(), Where});
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      note(B->getLHS(), B->getBeginLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      note(U->getSubExpr(), U->getBeginLoc());
    return true;
  }
};
} // namespace

namespace {
struct BatchRewriter {
  ASTContext &Ctx;
  Rewriter &RW;
  std::string &Notes;
  unsigned Counter = 0;

  bool refuse(SrcRegion &R, int B, const std::string &Why) {
    Notes += where(Ctx, R.Calls[R.Plan.batches[B].first_call].Call->getBeginLoc()) +
             ": note: batch left as it is: " + Why + "\n";
    return false;
  }

  /// The source text of libc argument \p K of call \p C as it can be
  /// evaluated at the issue point, or empty with \p Why.
  std::string argumentAtIssue(SrcRegion &R, int C, int K, const Stmt *Issue,
                              std::string &Why) {
    const SrcCall &Call = R.Calls[C];
    if (K >= (int)Call.Call->getNumArgs())
      return "0";
    const Expr *A = Call.Call->getArg(K);
    if (A->HasSideEffects(Ctx)) {
      Why = "argument '" + sourceText(Ctx, A->getSourceRange()) +
            "' of " + calleeSymbol(Call.Call) + " has side effects";
      return "";
    }
    Names N;
    N.TraverseStmt(const_cast<Expr *>(A));
    const SourceManager &SM = Ctx.getSourceManager();
    for (const ValueDecl *D : N.Decls)
      if (isa<VarDecl>(D) && !SM.isBeforeInTranslationUnit(D->getLocation(),
                                                            Issue->getBeginLoc())) {
        Why = "'" + D->getNameAsString() + "' (an argument of " +
              calleeSymbol(Call.Call) +
              ") is declared after the first call; move its declaration above it";
        return "";
      }
    // A variable assigned between the issue point and the call holds
    // another value at the issue point (the plan may have forwarded it).
    const CompoundStmt *Parent = nullptr;
    fullStatement(Ctx, Issue, &Parent);
    Writes W;
    if (Parent)
      W.TraverseStmt(const_cast<CompoundStmt *>(Parent));
    for (const ValueDecl *D : N.Decls)
      for (const auto &WA : W.At)
        if (WA.first == D &&
            !SM.isBeforeInTranslationUnit(WA.second, Issue->getBeginLoc()) &&
            SM.isBeforeInTranslationUnit(WA.second, Call.Call->getBeginLoc())) {
          Why = "'" + D->getNameAsString() + "' (an argument of " +
                calleeSymbol(Call.Call) +
                ") is assigned between the first call and this one";
          return "";
        }
    std::string T = sourceText(Ctx, A->getSourceRange());
    if (T.empty()) {
      Why = "an argument of " + calleeSymbol(Call.Call) + " is not in the file";
      return "";
    }
    return "(" + T + ")";
  }

  std::string retConvert(SrcRegion &R, int C, const std::string &Raw) {
    const SrcCall &Call = R.Calls[C];
    const sb_call_event &CE = R.Events[Call.Event].u.call;
    std::string Ty = Call.Call->getType().getAsString(
        PrintingPolicy(Ctx.getLangOpts()));
    switch (sb_call_ret_conv(R.Abi, &CE)) {
    case SB_RET_MAP_FAILED:
      return "sysbatch_ret_mmap(" + Raw + ")";
    case SB_RET_POSITIVE_ERROR:
      return "sysbatch_ret_positive_error(" + Raw + ")";
    case SB_RET_NEVER_FAILS:
      return "(" + Ty + ")(" + Raw + ")";
    default:
      return "(" + Ty + ")sysbatch_ret_errno(" + Raw + ")";
    }
  }

  /// Why the batched calls cannot be rewritten in place (or ""): each must
  /// be written outside macros, inside the block of the first call, and not
  /// as an argument of another batched call.
  std::string membersObjection(SrcRegion &R, const std::vector<int> &Members,
                               const CompoundStmt *Parent) {
    const SourceManager &SM = Ctx.getSourceManager();
    for (int C : Members) {
      const CallExpr *CE = R.Calls[C].Call;
      if (CE->getBeginLoc().isMacroID() || CE->getEndLoc().isMacroID())
        return "the call to " + calleeSymbol(CE) + " is written in a macro";
      if (!SM.isBeforeInTranslationUnit(Parent->getBeginLoc(), CE->getBeginLoc()) ||
          !SM.isBeforeInTranslationUnit(CE->getEndLoc(), Parent->getEndLoc()))
        return "the call to " + calleeSymbol(CE) +
               " is outside the block of the first call";
      for (int D : Members)
        if (D != C && SM.isBeforeInTranslationUnit(R.Calls[D].Call->getBeginLoc(),
                                                   CE->getBeginLoc()) &&
            SM.isBeforeInTranslationUnit(CE->getEndLoc(),
                                         R.Calls[D].Call->getEndLoc()))
          return "the call to " + calleeSymbol(CE) +
                 " is an argument of another batched call";
    }
    return "";
  }

  /// The slot initialisers of batch B (Fill) and the jump assignments after
  /// them (Jumps); false, with the batch refused, when an argument cannot be
  /// named where the batch is issued.
  bool fillSlots(SrcRegion &R, int B, const Stmt *Issue,
                 const std::string &Indent, const std::string &Rets,
                 const std::string &Slots, std::string &Fill,
                 std::string &Jumps) {
    const sb_batch_plan &BP = R.Plan.batches[B];
    for (int S = 0; S < BP.nslots; ++S) {
      const sb_slot_plan &SP = BP.slots[S];
      Fill += Indent + "    ";
      if (SP.kind == SB_SLOT_COPY) {
        std::string Src;
        if (SP.copy_src_arg >= 0) {
          int Writer = BP.slots[SP.copy_src_slot].call;
          std::string Why;
          std::string Buf = argumentAtIssue(R, Writer, SP.copy_src_arg, Issue, Why);
          if (Buf.empty())
            return refuse(R, B, Why);
          Src = "(char *)" + Buf + " + " + std::to_string(SP.copy_src_offset);
        } else {
          Src = "&" + Rets + "[" + std::to_string(SP.copy_src_slot) + "]";
        }
        Fill += "SYSBATCH_COPY(&" + Slots + "[" + std::to_string(SP.copy_dst_slot) +
                "].arg[" + std::to_string(SP.copy_dst_arg) + "], " + Src + "),\n";
        continue;
      }
      const sb_call_event &CE = R.Events[R.Calls[SP.call].Event].u.call;
      const sb_syscall *Row = sb_call_raw_row(R.Abi, &CE);
      std::string Args;
      for (int A = 0; A < SB_MAX_ARGS; ++A) {
        std::string V = "0";
        if (A < SP.argc) {
          const sb_fill_arg &FA = SP.args[A];
          switch (FA.fill) {
          case SB_FILL_CONST:
            V = std::to_string(FA.value);
            break;
          case SB_FILL_EMPTY_STRING:
            V = "sysbatch_empty_string";
            break;
          case SB_FILL_CHAINED:
            V = "0 /* chained */";
            break;
          case SB_FILL_LIBC_ARG: {
            std::string Why;
            V = argumentAtIssue(R, SP.call, FA.index, Issue, Why);
            if (V.empty())
              return refuse(R, B, Why);
            break;
          }
          }
        }
        Args += ", " + V;
      }
      Fill += "SYSBATCH_SLOT(SYS_" + std::string(Row ? Row->raw_name : "?") +
              ", " + std::to_string(SP.argc) + Args + "), /* " +
              calleeSymbol(R.Calls[SP.call].Call) + " */\n";
      static const char *const JumpNames[3] = {"jump_fail", "jump_zero",
                                               "jump_pos"};
      short Offs[3] = {SP.jump_fail, SP.jump_zero, SP.jump_pos};
      for (int J = 0; J < 3; ++J)
        if (Offs[J])
          Jumps += Indent + Slots + "[" + std::to_string(S) + "]." +
                   JumpNames[J] + " = " + std::to_string(Offs[J]) + ";\n";
    }
    return true;
  }

  bool rewrite(SrcRegion &R, int B) {
    const sb_batch_plan &BP = R.Plan.batches[B];
    const SourceManager &SM = Ctx.getSourceManager();
    const CallExpr *First = R.Calls[BP.first_call].Call;
    const CompoundStmt *Parent = nullptr;
    const Stmt *Issue = fullStatement(Ctx, First, &Parent);
    if (!Issue || !Parent)
      return refuse(R, B, "the first call is not in a statement of a block");
    if (!evaluatedFirst(Ctx, Issue, First))
      return refuse(R, B, "the statement of the first call evaluates other "
                          "code before it");
    std::vector<int> Members;
    for (int C = BP.first_call; C <= BP.last_call; ++C)
      if (R.Plan.calls[C].batch == B)
        Members.push_back(C);
    std::string Objection = membersObjection(R, Members, Parent);
    if (!Objection.empty())
      return refuse(R, B, Objection);
    std::string Id = "sb" + std::to_string(++Counter);
    std::string Rets = Id + "_rets", Slots = Id + "_slots", Last = Id + "_last";
    std::string Fill, Jumps;
    std::string Indent(SM.getSpellingColumnNumber(Issue->getBeginLoc()) - 1, ' ');
    if (!fillSlots(R, B, Issue, Indent, Rets, Slots, Fill, Jumps))
      return false;
    std::string N = std::to_string(BP.nslots);
    std::string Names;
    for (int C : Members)
      Names += (Names.empty() ? "" : ", ") + calleeSymbol(R.Calls[C].Call);
    std::string Head = "/* sysbatch: " + Names + " in one crossing (" + N +
                       " slots, " + std::to_string(BP.nchains) +
                       " chains); the original calls below are the fallback */\n";
    Head += Indent + "long " + Rets + "[" + N + "];\n";
    Head += Indent + "struct sysbatch_slot " + Slots + "[" + N + "] = {\n" + Fill +
            Indent + "};\n";
    if (!Jumps.empty())
      Head += Jumps;
    // Source the user may edit afterwards is not vouched for
    // (SYSBATCH_RUN_PLANNED): the runtime checks it; only the converted
    // slots a sigaction needs are announced.
    Head += Indent + "long " + Last + " = sysbatch_active ? sysbatch_run(" + Rets +
            ", " + Slots + ", " + N + ", " +
            std::to_string((sb_rt_run_flags(&BP) & SB_RT_RUN_CONVERTS)) + ") : -1;\n" + Indent;
    // Call sites: the slot's result when the slot ran, else the call.
    for (int C : Members) {
      const CallExpr *CE = R.Calls[C].Call;
      int Slot = R.Plan.calls[C].slot;
      std::string RetK = Rets + "[" + std::to_string(Slot) + "]";
      std::string Ran = BP.branchy
                            ? "(" + Last + " >= 0 && " + RetK + " != SYSBATCH_NOT_RUN)"
                            : "(" + Last + " >= " + std::to_string(Slot) + ")";
      std::string Orig = sourceText(Ctx, CE->getSourceRange());
      RW.ReplaceText(CE->getSourceRange(),
                     "(" + Ran + " ? " + retConvert(R, C, RetK) + " : " + Orig + ")");
    }
    RW.InsertTextBefore(Issue->getBeginLoc(), Head);
    return true;
  }
};
} // namespace

bool rewriteUnit(ASTContext &Ctx, std::vector<FunctionPlans> &Plans,
                 std::string &Out, std::string &Notes) {
  const SourceManager &SM = Ctx.getSourceManager();
  Rewriter RW(Ctx.getSourceManager(), Ctx.getLangOpts());
  BatchRewriter BR{Ctx, RW, Notes};
  for (FunctionPlans &FP : Plans)
    for (auto &R : FP.Regions)
      for (int B = 0; B < R->Plan.nbatches; ++B)
        BR.rewrite(*R, B);
  FileID Main = SM.getMainFileID();
  if (BR.Counter)
    RW.InsertTextBefore(SM.getLocForStartOfFile(Main),
                        "/* Batches written out by sysbatch-src rewrite: build "
                        "and link with libsysbatch (-lsysbatch). */\n"
                        "#include <sys/syscall.h>\n#include <sysbatch.h>\n");
  const clang::RewriteBuffer *Buf = RW.getRewriteBufferFor(Main);
  if (Buf)
    Out.assign(Buf->begin(), Buf->end());
  else
    Out = SM.getBufferData(Main).str();
  return true;
}

} // namespace sysbatch_src
