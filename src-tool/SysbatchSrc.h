//===- SysbatchSrc.h - what sysbatch-src's files share ----------*- C++ -*-===//
//
// sysbatch-src is the third front end over the core (core/include/sysbatch):
// it describes the C source of every function - Clang's AST and clang::CFG
// - to the core as the same sb_region events and blocks the two compiler
// plugins describe from IR, and acts on the plans the core returns: report
// them as diagnostics or JSON (Report.cpp), offer fix-its, or rewrite a
// batch as calls of the public runtime API (Rewrite.cpp).  It decides
// nothing about batching itself.
//
// The data model: one SrcRegion per straight-line block or branchy region,
// holding the events the core reads and, per event, the source it came
// from, so every decision can be said in source terms.
//
//===----------------------------------------------------------------------===//
#ifndef SYSBATCH_SRC_H
#define SYSBATCH_SRC_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"

#include "sysbatch/config.h"
#include "sysbatch/core.h"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sysbatch_src {

/// One candidate call: a catalogue function or syscall(NR, ...).
struct SrcCall {
  const clang::CallExpr *Call = nullptr;
  const sb_syscall *Row = nullptr;    // the callee's row ("syscall" for syscall())
  const sb_syscall *RawRow = nullptr; // the row whose kernel call is issued
  bool Raw = false;                   // syscall(NR, ...)
  bool RowDescribesOperands = false;
  int Block = 0;       // region block index (0 for straight-line regions)
  unsigned Pos = 0;    // position in the region's element order
  unsigned Event = 0;  // its call event
  // Per libc argument: why the operand is not available at the issue
  // point, in source terms (empty when it is).
  std::string ArgWhy[SB_MAX_ARGS + 1];
};

/// One CFG element of a region, in evaluation order.
struct Element {
  const clang::Stmt *S;
  int Block;
};

struct SrcRegion {
  const clang::FunctionDecl *Fn = nullptr;
  unsigned BlockNo = 0, Part = 0;
  sb_abi Abi = SB_ABI_LINUX_X86_64;
  std::vector<const clang::CFGBlock *> Blocks; // entry first; 1 for straight
  bool Branchy = false;
  std::vector<Element> Elems;  // every element of every block, in order
  std::vector<unsigned> BlockBegin, BlockEnd; // element range per block
  unsigned StartPos = 0;       // element of the region's first call
  std::vector<SrcCall> Calls;
  std::vector<sb_event> Events;
  std::vector<const clang::Stmt *> EventStmt; // code events: the statement
                                              // that conflicts, or null
  std::vector<sb_block> SBBlocks;
  std::vector<uint64_t> Ancestors, Dominators;
  std::vector<const char *> TermWhy;
  std::vector<const clang::Stmt *> TermStmt;
  std::deque<std::string> Texts;
  sb_plan Plan = {};
  bool Planned = false;

  SrcRegion() = default;
  SrcRegion(const SrcRegion &) = delete;
  SrcRegion &operator=(const SrcRegion &) = delete;
  ~SrcRegion() {
    if (Planned)
      sb_plan_free(&Plan);
  }
  const char *keep(std::string S) {
    Texts.push_back(std::move(S));
    return Texts.back().c_str();
  }
  sb_region describe() const {
    sb_region D = {};
    D.abi = Abi;
    D.nevents = (int)Events.size();
    D.events = const_cast<sb_event *>(Events.data());
    D.nblocks = Branchy ? (int)SBBlocks.size() : 0;
    D.blocks = Branchy ? const_cast<sb_block *>(SBBlocks.data()) : nullptr;
    return D;
  }
  int callOf(const clang::Stmt *S) const {
    for (unsigned I = 0; I < Calls.size(); ++I)
      if (Calls[I].Call == S)
        return (int)I;
    return -1;
  }
};

/// Every planned region of one function, in the plugins' order.
struct FunctionPlans {
  const clang::FunctionDecl *Fn;
  std::vector<std::unique_ptr<SrcRegion>> Regions;
};

/// Describe and plan every function with a body in the main file.
std::vector<FunctionPlans> planTranslationUnit(clang::ASTContext &Ctx,
                                               const sb_config &Cfg);

/// Is \p CE a call the catalogue knows (or syscall())?
bool isCandidateCall(const clang::CallExpr *CE, sb_abi Abi);
/// The callee's name as the linker sees it (an asm label wins).
std::string calleeSymbol(const clang::CallExpr *CE);

/// Output (Report.cpp).
enum class Format { Text, Json };
struct Fix {
  std::string File;
  unsigned Offset, Length;
  std::string Text;
};
struct ReportOptions {
  Format Fmt = Format::Text;
  bool PrintPlan = false;
  bool CollectFixes = false;
};
/// Write the report of one translation unit to \p Out; the fix-its found
/// are appended to \p Fixes.
void reportUnit(clang::ASTContext &Ctx, std::vector<FunctionPlans> &Plans,
                const ReportOptions &Opts, std::string &Out,
                std::vector<Fix> &Fixes, bool &FirstJson);
/// The fix-its for one region (declarations moved above the first call).
void findFixes(clang::ASTContext &Ctx, SrcRegion &R, std::vector<Fix> &Fixes,
               std::vector<std::string> &Notes,
               std::vector<clang::SourceLocation> &NoteLocs);

/// Rewrite (Rewrite.cpp): the main file with every rewritable batch as
/// runtime calls; notes say why a batch stays as it is.
bool rewriteUnit(clang::ASTContext &Ctx, std::vector<FunctionPlans> &Plans,
                 std::string &Out, std::string &Notes);

/// The full statement \p S belongs to: the child of a CompoundStmt (or of
/// a label) that contains it, and that compound.
const clang::Stmt *fullStatement(clang::ASTContext &Ctx, const clang::Stmt *S,
                                 const clang::CompoundStmt **Parent);
/// The call \p C's source position, "file:line:col".
std::string where(clang::ASTContext &Ctx, clang::SourceLocation L);

} // namespace sysbatch_src

#endif // SYSBATCH_SRC_H
