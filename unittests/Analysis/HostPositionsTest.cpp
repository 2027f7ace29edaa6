//===- HostPositionsTest.cpp - positions of elements in followed containers ---===//
//
// ContainerPositions on small functions: each element call of the body, in source order, with
// the index the analysis gives it ("back=1") or none ("back=?").
//
//===----------------------------------------------------------------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/HostFacts.h"
#include "tilecc/Analysis/HostPositions.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "gtest/gtest.h"
#include <functional>

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;
using namespace tilecc::testing;

namespace {

const char *const kPrelude = R"(
#include <utility>
#include <vector>
TILE_KERNEL void inc(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }
using Arr = tile::Array<float>;
using IncFuture = decltype(tile::launch<inc>(std::declval<tile::PartitionRef<float, 128>>()).async());
inline Arr make() { return tile::zeros<float>({1000}); }
inline IncFuture start(Arr& a) { return tile::launch<inc>(a.partition_mut<128>()).async(); }
void extend(std::vector<IncFuture>& fs);
)";

/// "name=index" or "name=?" for each push_back, emplace_back, pop_back, back, front, at and
/// operator[] call of `f`'s body, in source order.
std::string positionsIn(const std::string &code) {
  std::unique_ptr<ASTUnit> ast = parseTileCode(kPrelude + code);
  if (!ast || ast->getDiagnostics().hasErrorOccurred())
    return "the snippet does not compile";
  ASTContext &context = ast->getASTContext();
  const FunctionDecl *fn = findFunction(context, "f");
  if (!fn)
    return "no f";
  AnalysisDeclContextManager manager(context);
  AnalysisDeclContext *adc = manager.getContext(fn);
  adc->getCFGBuildOptions() = hostCFGOptions();
  HostTypes types;
  ContainerPositions positions =
      ContainerPositions::compute(context, *adc->getCFG(), fn->getBody(), types);
  std::string out;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s)
      return;
    std::string name;
    if (const auto *call = dyn_cast<CXXMemberCallExpr>(s)) {
      if (const CXXMethodDecl *m = call->getMethodDecl(); m && m->getIdentifier())
        name = m->getName().str();
    } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s);
               op && op->getOperator() == OO_Subscript) {
      name = "[]";
    }
    if (name == "push_back" || name == "emplace_back" || name == "pop_back" || name == "back" ||
        name == "front" || name == "at" || name == "[]") {
      std::optional<Position> at = positions.of(cast<Expr>(s));
      out += (out.empty() ? "" : " ") + name + "=" + (at ? std::to_string(at->index) : "?");
    }
    for (const Stmt *child : s->children())
      walk(child);
  };
  walk(fn->getBody());
  return out;
}

TEST(HostPositions, FillsCountFromZero) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, Arr& b) {
    std::vector<IncFuture> fs;
    fs.push_back(start(a));
    fs.emplace_back(start(b));
    fs.back().wait();
    fs.front().wait();
    fs[1].wait();
    fs.at(0).wait();
  })"),
            "push_back=0 emplace_back=1 back=1 front=0 []=1 at=0");
}

TEST(HostPositions, IndexPastTheEndHasNoPosition) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, int k) {
    std::vector<IncFuture> fs;
    fs.push_back(start(a));
    fs[1].wait();
    fs[k].wait();
  })"),
            "push_back=0 []=? []=?");
}

TEST(HostPositions, ClearStartsAgain) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, Arr& b) {
    std::vector<IncFuture> fs;
    fs.push_back(start(a));
    fs.clear();
    fs.push_back(start(b));
    fs.back().wait();
  })"),
            "push_back=0 push_back=0 back=0");
}

TEST(HostPositions, PopRemovesTheLast) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, Arr& b) {
    std::vector<IncFuture> fs;
    fs.push_back(start(a));
    fs.push_back(start(b));
    fs.pop_back();
    fs.back().wait();
    fs.pop_back();
    fs.pop_back();
    fs.push_back(start(a));
  })"),
            "push_back=0 push_back=1 pop_back=1 back=0 pop_back=0 pop_back=? push_back=?");
}

TEST(HostPositions, PathsThatDisagreeLoseTheCount) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, Arr& b, bool more) {
    std::vector<IncFuture> fs;
    if (more)
      fs.push_back(start(a));
    fs.push_back(start(b));
    fs.back().wait();
  })"),
            "push_back=0 push_back=? back=?");
}

TEST(HostPositions, PathsThatAgreeKeepIt) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, Arr& b, bool which) {
    std::vector<IncFuture> fs;
    if (which)
      fs.push_back(start(a));
    else
      fs.push_back(start(b));
    fs.back().wait();
  })"),
            "push_back=0 push_back=0 back=0");
}

TEST(HostPositions, LoopsLoseTheCount) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, int n) {
    std::vector<IncFuture> fs;
    for (int i = 0; i < n; ++i)
      fs.push_back(start(a));
    fs.front().wait();
  })"),
            "push_back=? front=?");
}

TEST(HostPositions, DeclaredInALoopStartsEachRunEmpty) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, int n) {
    for (int i = 0; i < n; ++i) {
      std::vector<IncFuture> fs;
      fs.push_back(start(a));
      fs.back().wait();
    }
  })"),
            "push_back=0 back=0");
}

TEST(HostPositions, ContainerGivenToAFunctionIsNotFollowed) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a) {
    std::vector<IncFuture> fs;
    fs.push_back(start(a));
    fs.back().wait();
    extend(fs);
  })"),
            "push_back=? back=?");
}

TEST(HostPositions, ContainerMentionedInALambdaIsNotFollowed) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a) {
    std::vector<IncFuture> fs;
    auto size = [&] { return fs.size(); };
    fs.push_back(start(a));
    fs.back().wait();
    (void)size;
  })"),
            "push_back=? back=?");
}

TEST(HostPositions, ContainerFilledFromTheStartIsNotFollowed) {
  EXPECT_EQ(positionsIn(R"(void f(Arr& a, std::vector<IncFuture> other) {
    std::vector<IncFuture> fs(std::move(other));
    fs.push_back(start(a));
    fs.back().wait();
  })"),
            "push_back=? back=?");
}

} // namespace
