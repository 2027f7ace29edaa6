//===- KernelAccessCorpusTest.cpp - the kernel-*.cpp lit corpus, in-process ---===//
//
// Runs the kernel checks (kernel rules and checkKernelAccess) on every test/Analysis/kernel-*.cpp
// file and compares what they report with the file's `// expected-error {{...}}`,
// `// expected-note@+N {{...}}` and `// expected-no-diagnostics` comments, as
// `tilecc check -verify` does. This keeps the corpus honest under the sanitizer build too.
// The examples must stay clean.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/Checks.h"
#include "tilecc/Analysis/KernelRules.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

using namespace clang;
using namespace tilecc;

namespace {

struct Diag {
  std::string level; // "error", "warning", "note"
  unsigned line;
  std::string message;
};

/// Collects the diagnostics reported in the main file.
class Collector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    std::string name = level == DiagnosticsEngine::Error     ? "error"
                       : level == DiagnosticsEngine::Warning ? "warning"
                       : level == DiagnosticsEngine::Note    ? "note"
                                                             : "other";
    unsigned line = 0;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager &sm = info.getSourceManager();
      SourceLocation loc = sm.getFileLoc(info.getLocation());
      if (sm.isInMainFile(loc))
        line = sm.getPresumedLineNumber(loc);
    }
    diags.push_back({name, line, std::string(text)});
  }
  std::vector<Diag> diags;
};

/// Every kernel instantiation the file compiles (as KernelDiscovery finds them).
class Kernels : public RecursiveASTVisitor<Kernels> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *fn) {
    if (!fn->isThisDeclarationADefinition() || fn->isDependentContext() || !isTileKernel(fn))
      return true;
    TemplateSpecializationKind tsk = fn->getTemplateSpecializationKind();
    if (tsk == TSK_Undeclared || tsk == TSK_ExplicitInstantiationDefinition ||
        tsk == TSK_ExplicitSpecialization)
      found.insert(fn);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    const auto *fn = dyn_cast<FunctionDecl>(ref->getDecl());
    if (!fn || !fn->getDeclName().isIdentifier() || fn->getName() != "launch" || !isInTileNamespace(fn))
      return true;
    if (const TemplateArgumentList *args = fn->getTemplateSpecializationArgs())
      for (const TemplateArgument &arg : args->asArray())
        if (arg.getKind() == TemplateArgument::Declaration)
          if (const auto *kernel = dyn_cast<FunctionDecl>(arg.getAsDecl()))
            if (const FunctionDecl *def = kernel->getDefinition(); def && isTileKernel(def))
              found.insert(def);
    return true;
  }
  llvm::SetVector<const FunctionDecl *> found;
};

struct Result {
  bool parsed = false;
  unsigned kernels = 0;
  std::string parseErrors;
  std::vector<Diag> diags;
};

Result runKernelChecks(const std::string &path) {
  Result result;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return result;
  std::string dir = llvm::sys::path::parent_path(path).str();
  std::vector<std::string> args = {"-std=c++20", "-isystem", TILECC_TILE_INCLUDE, "-I", dir,
                                   "-resource-dir=" TILECC_CLANG_RESOURCE_DIR};
  Collector parseErrors;
  std::unique_ptr<ASTUnit> ast = tooling::buildASTFromCodeWithArgs(
      (*buffer)->getBuffer(), args, path, "tilecc-corpus", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), tooling::FileContentMappings(), &parseErrors);
  if (!ast)
    return result;
  for (const Diag &d : parseErrors.diags)
    if (d.level == "error")
      result.parseErrors += "line " + std::to_string(d.line) + ": " + d.message + "\n";
  result.parsed = result.parseErrors.empty();
  Collector collector;
  ast->getDiagnostics().setClient(&collector, /*ShouldOwnClient=*/false);
  Kernels kernels;
  kernels.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  for (const FunctionDecl *k : kernels.found) {
    checkKernelRules(ast->getASTContext(), k);
    checkKernelAccess(ast->getASTContext(), k);
  }
  result.kernels = kernels.found.size();
  result.diags = collector.diags;
  return result;
}

struct Expectation {
  std::string level;
  unsigned line;
  std::string text;
  bool matched = false;
};

std::vector<Expectation> readExpectations(const std::string &path, bool &noDiagnostics) {
  std::vector<Expectation> out;
  noDiagnostics = false;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return out;
  static const std::regex directive(R"(expected-(error|warning|note)(@([+-]?[0-9]+))?\s*\{\{(.*?)\}\})");
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (unsigned i = 0; i < lines.size(); ++i) {
    std::string line = lines[i].str();
    if (line.find("expected-no-diagnostics") != std::string::npos)
      noDiagnostics = true;
    for (std::sregex_iterator it(line.begin(), line.end(), directive), end; it != end; ++it) {
      const std::smatch &m = *it;
      unsigned target = i + 1;
      if (m[3].matched) {
        std::string offset = m[3].str();
        int delta = std::stoi(offset);
        target = (offset[0] == '+' || offset[0] == '-') ? static_cast<unsigned>(static_cast<int>(i + 1) + delta)
                                                         : static_cast<unsigned>(delta);
      }
      out.push_back({m[1].str(), target, m[4].str()});
    }
  }
  return out;
}

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(TILECC_ANALYSIS_TEST_DIR, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.starts_with("kernel-") && name.ends_with(".cpp"))
      files.push_back(name.str());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class KernelAccessCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelAccessCorpus, MatchesExpectations) {
  std::string path = std::string(TILECC_ANALYSIS_TEST_DIR) + "/" + GetParam();
  Result result = runKernelChecks(path);
  ASSERT_TRUE(result.parsed) << GetParam() << " does not compile:\n" << result.parseErrors;
  bool noDiagnostics = false;
  std::vector<Expectation> expected = readExpectations(path, noDiagnostics);
  if (noDiagnostics)
    EXPECT_TRUE(expected.empty()) << "expected-no-diagnostics with expectations";
  else
    EXPECT_FALSE(expected.empty()) << "no expectations: add expected-no-diagnostics";
  for (const Diag &d : result.diags) {
    auto it = std::find_if(expected.begin(), expected.end(), [&](const Expectation &e) {
      return !e.matched && e.level == d.level && e.line == d.line && d.message.find(e.text) != std::string::npos;
    });
    if (it != expected.end())
      it->matched = true;
    else
      ADD_FAILURE() << GetParam() << ":" << d.line << ": unexpected " << d.level << ": " << d.message;
  }
  for (const Expectation &e : expected)
    if (!e.matched)
      ADD_FAILURE() << GetParam() << ":" << e.line << ": expected " << e.level << " not seen: " << e.text;
}

INSTANTIATE_TEST_SUITE_P(Files, KernelAccessCorpus, ::testing::ValuesIn(corpusFiles()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           std::string name = info.param;
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

/// The shipped examples and the lowering tests are valid kernels: nothing to report.
TEST(KernelAccessCorpus, ExamplesAndLoweringTestsAreClean) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const char *root : {TILECC_EXAMPLES_DIR, TILECC_LOWERING_TEST_DIR})
    for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".cpp"))
        files.push_back(it->path());
  ASSERT_FALSE(files.empty());
  unsigned kernels = 0, exampleKernels = 0;
  for (const std::string &file : files) {
    Result result = runKernelChecks(file);
    if (!result.parsed)
      continue; // (lowering inputs that need flags the test passes on its RUN line)
    kernels += result.kernels;
    if (llvm::StringRef(file).starts_with(TILECC_EXAMPLES_DIR))
      exampleKernels += result.kernels;
    for (const Diag &d : result.diags)
      ADD_FAILURE() << file << ":" << d.line << ": " << d.level << ": " << d.message;
  }
  EXPECT_GE(exampleKernels, 3u); // add, saxpy, matrix_relu
  EXPECT_GE(kernels, exampleKernels + 8);
}

} // namespace
