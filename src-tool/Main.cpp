//===- Main.cpp - sysbatch-src: the command line ---------------------------===//
//
//   sysbatch-src report  [--format=text|json] [--fix] [--print-plan]
//                        FILE... [-p BUILD_DIR] [-- COMPILER FLAGS]
//   sysbatch-src rewrite [-o OUT] FILE [-p BUILD_DIR] [-- COMPILER FLAGS]
//
// Every file is parsed with Clang (libTooling: flags after --, or the
// compile_commands.json of -p).  Nothing is written until every file parsed
// without errors: a file that does not parse, an unknown flag or a missing
// file is an error that leaves every file as it was.  --fix applies the
// report's fix-its in place the way clang-tidy does; rewrite writes the
// rewritten source to OUT or stdout, never over its input.
//
//===----------------------------------------------------------------------===//

#include "SysbatchSrc.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace clang;
using namespace clang::tooling;
using namespace sysbatch_src;

static llvm::cl::OptionCategory Category("sysbatch-src options");
static llvm::cl::opt<std::string>
    FormatOpt("format", llvm::cl::desc("report format: text or json"),
              llvm::cl::init("text"), llvm::cl::cat(Category));
static llvm::cl::opt<bool>
    FixOpt("fix", llvm::cl::desc("apply the fix-its to the files in place"),
           llvm::cl::cat(Category));
static llvm::cl::opt<bool>
    PrintPlanOpt("print-plan",
                 llvm::cl::desc("also print every region's plan (the plugins' "
                                "print-plan format)"),
                 llvm::cl::cat(Category));
static llvm::cl::opt<std::string>
    OutOpt("o", llvm::cl::desc("rewrite: write the rewritten file here "
                               "(default: stdout)"),
           llvm::cl::value_desc("file"), llvm::cl::cat(Category));

namespace {
enum class Command { Report, Rewrite };

struct Results {
  Command Cmd;
  ReportOptions Opts;
  sb_config Cfg;
  std::string Out, Notes;
  std::vector<Fix> Fixes;
  std::vector<std::string> Failed;
  bool FirstJson = true;
};

class Consumer : public ASTConsumer {
public:
  Consumer(Results &Res, std::string File) : Res(Res), File(std::move(File)) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred()) {
      Res.Failed.push_back(File);
      return;
    }
    std::vector<FunctionPlans> Plans = planTranslationUnit(Ctx, Res.Cfg);
    if (Res.Cmd == Command::Report) {
      reportUnit(Ctx, Plans, Res.Opts, Res.Out, Res.Fixes, Res.FirstJson);
    } else {
      std::string Text;
      rewriteUnit(Ctx, Plans, Text, Res.Notes);
      Res.Out += Text;
    }
  }

private:
  Results &Res;
  std::string File;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(Results &Res) : Res(Res) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef File) override {
    return std::make_unique<Consumer>(Res, File.str());
  }

private:
  Results &Res;
};

class Factory : public FrontendActionFactory {
public:
  explicit Factory(Results &Res) : Res(Res) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Res);
  }

private:
  Results &Res;
};
} // namespace

static std::string readFile(const std::string &Path, bool &Ok) {
  std::ifstream In(Path, std::ios::binary);
  Ok = (bool)In;
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

static void lineColumn(const std::string &Text, unsigned Offset, unsigned &Line,
                       unsigned &Col) {
  Line = 1;
  Col = 1;
  for (unsigned I = 0; I < Offset && I < Text.size(); ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
  }
}

static std::string quoted(const std::string &S) {
  std::string O;
  for (char C : S) {
    if (C == '\n')
      O += "\\n";
    else if (C == '"' || C == '\\')
      O += std::string("\\") + C;
    else
      O += C;
  }
  return O;
}

static const char Usage[] =
    "usage: sysbatch-src report [--format=text|json] [--fix] "
    "[--print-plan] FILE... [-p DIR] [-- FLAGS]\n"
    "       sysbatch-src rewrite [-o OUT] FILE [-p DIR] [-- FLAGS]\n";

// Options libTooling's parser cannot check; 0 when they are consistent,
// else the exit status after the message.
static int checkOptions(Command Cmd, const std::vector<std::string> &Files) {
  if (FormatOpt != "text" && FormatOpt != "json") {
    std::fprintf(stderr, "sysbatch-src: error: --format must be text or json "
                         "(got '%s')\n", FormatOpt.c_str());
    return 2;
  }
  if (Cmd == Command::Rewrite && Files.size() != 1) {
    std::fprintf(stderr, "sysbatch-src: error: rewrite takes exactly one file\n");
    return 2;
  }
  if (Cmd == Command::Rewrite && (FixOpt || PrintPlanOpt)) {
    std::fprintf(stderr, "sysbatch-src: error: --fix and --print-plan belong "
                         "to 'report'\n");
    return 2;
  }
  // An unreadable file is an error before anything runs, not a file the
  // tool silently skips.
  for (const std::string &F : Files) {
    bool Ok;
    readFile(F, Ok);
    if (!Ok) {
      std::fprintf(stderr, "sysbatch-src: error: cannot read '%s'\n", F.c_str());
      return 1;
    }
  }
  return 0;
}

static int writeRewrite(const Results &Res) {
  if (!OutOpt.empty()) {
    std::ofstream O(OutOpt, std::ios::binary);
    O << Res.Out;
    if (!O) {
      std::fprintf(stderr, "sysbatch-src: error: cannot write '%s'\n",
                   OutOpt.c_str());
      return 1;
    }
  } else {
    std::fwrite(Res.Out.data(), 1, Res.Out.size(), stdout);
  }
  std::fputs(Res.Notes.c_str(), stderr);
  return 0;
}

// One fix-it per file offset: a header seen through several files is
// reported (and applied) once.
static void dedupFixes(std::vector<Fix> &Fixes) {
  std::sort(Fixes.begin(), Fixes.end(), [](const Fix &A, const Fix &B) {
    return std::tie(A.File, A.Offset, A.Length) < std::tie(B.File, B.Offset, B.Length);
  });
  Fixes.erase(std::unique(Fixes.begin(), Fixes.end(),
                          [](const Fix &A, const Fix &B) {
                            return A.File == B.File && A.Offset == B.Offset &&
                                   A.Length == B.Length && A.Text == B.Text;
                          }),
              Fixes.end());
}

static void printReport(const Results &Res,
                        std::map<std::string, std::string> &Contents) {
  if (Res.Opts.Fmt == Format::Json) {
    std::string Fixes;
    for (const Fix &X : Res.Fixes) {
      unsigned L1, C1, L2, C2;
      lineColumn(Contents[X.File], X.Offset, L1, C1);
      lineColumn(Contents[X.File], X.Offset + X.Length, L2, C2);
      Fixes += std::string(Fixes.empty() ? "" : ",\n  ") + "{\"file\": \"" +
               quoted(X.File) + "\", \"from\": [" + std::to_string(L1) + ", " +
               std::to_string(C1) + "], \"to\": [" + std::to_string(L2) + ", " +
               std::to_string(C2) + "], \"text\": \"" + quoted(X.Text) + "\"}";
    }
    std::printf("{\"sites\": [\n%s\n], \"fixits\": [\n  %s\n]}\n", Res.Out.c_str(),
                Fixes.c_str());
    return;
  }
  std::fputs(Res.Out.c_str(), stdout);
  for (const Fix &X : Res.Fixes) {
    unsigned L1, C1, L2, C2;
    lineColumn(Contents[X.File], X.Offset, L1, C1);
    lineColumn(Contents[X.File], X.Offset + X.Length, L2, C2);
    std::printf("fix-it:\"%s\":{%u:%u-%u:%u}:\"%s\"\n", X.File.c_str(), L1, C1,
                L2, C2, quoted(X.Text).c_str());
  }
}

static int applyFixes(const std::vector<Fix> &Fixes,
                      const std::map<std::string, std::string> &Contents) {
  for (const auto &FC : Contents) {
    std::string Text = FC.second;
    std::vector<const Fix *> Mine;
    for (const Fix &X : Fixes)
      if (X.File == FC.first)
        Mine.push_back(&X);
    // From the end of the file, so that earlier offsets stay valid.
    std::sort(Mine.begin(), Mine.end(), [](const Fix *A, const Fix *B) {
      return A->Offset > B->Offset;
    });
    for (const Fix *X : Mine)
      Text.replace(X->Offset, X->Length, X->Text);
    std::ofstream O(FC.first, std::ios::binary);
    O << Text;
    if (!O) {
      std::fprintf(stderr, "sysbatch-src: error: cannot write '%s'\n",
                   FC.first.c_str());
      return 1;
    }
    std::fprintf(stderr, "sysbatch-src: applied %zu fix-its to %s\n",
                 Mine.size() / 2, FC.first.c_str());
  }
  return 0;
}

int main(int argc, const char **argv) {
  if (argc < 2 || (std::string(argv[1]) != "report" &&
                   std::string(argv[1]) != "rewrite")) {
    std::fprintf(stderr,
                 "sysbatch-src: error: the first argument must be 'report' or "
                 "'rewrite'%s%s%s\n%s",
                 argc >= 2 ? " (got '" : "", argc >= 2 ? argv[1] : "",
                 argc >= 2 ? "')" : "", Usage);
    return 2;
  }
  Results Res;
  Res.Cmd = std::string(argv[1]) == "report" ? Command::Report : Command::Rewrite;
  // The subcommand is not a file: hand the rest to libTooling's parser.
  std::vector<const char *> Args{argv[0]};
  for (int I = 2; I < argc; ++I)
    Args.push_back(argv[I]);
  int N = (int)Args.size();
  auto Parser = CommonOptionsParser::create(N, Args.data(), Category,
                                            llvm::cl::OneOrMore);
  if (!Parser) {
    std::fprintf(stderr, "sysbatch-src: error: %s\n",
                 llvm::toString(Parser.takeError()).c_str());
    return 2;
  }
  std::vector<std::string> Files = Parser->getSourcePathList();
  if (int RC = checkOptions(Res.Cmd, Files))
    return RC;
  sb_config_default(&Res.Cfg);
  Res.Opts.Fmt = FormatOpt == "json" ? Format::Json : Format::Text;
  Res.Opts.PrintPlan = PrintPlanOpt;
  Res.Opts.CollectFixes = true;

  ClangTool Tool(Parser->getCompilations(), Files);
  // The tool's own diagnostics name the file; the batching model needs
  // the builtins of the real compiler (memset, ...), so no -fno-builtin.
  Factory F(Res);
  int RC = Tool.run(&F);
  if (RC != 0 || !Res.Failed.empty()) {
    std::string Which;
    for (const std::string &W : Res.Failed)
      Which += (Which.empty() ? "" : ", ") + W;
    std::fprintf(stderr, "sysbatch-src: error: %s did not parse; nothing was "
                         "written\n",
                 Which.empty() ? "the input" : Which.c_str());
    return 1;
  }
  if (Res.Cmd == Command::Rewrite)
    return writeRewrite(Res);

  dedupFixes(Res.Fixes);
  std::map<std::string, std::string> Contents;
  for (const Fix &X : Res.Fixes) {
    bool Ok;
    if (!Contents.count(X.File))
      Contents[X.File] = readFile(X.File, Ok);
  }
  printReport(Res, Contents);
  if (FixOpt && !Res.Fixes.empty())
    return applyFixes(Res.Fixes, Contents);
  return 0;
}
