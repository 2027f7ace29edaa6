//===- HostPositions.cpp - which element of a container an expression names -----------===//
//
// See HostPositions.h. Three steps: the candidates (containers of loan-carrying values declared
// empty in the body), the containers followed (every mention is a known call), and a forward
// dataflow of their lengths over the CFG, whose fixpoint gives the positions.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/HostPositions.h"

#include "tilecc/Analysis/HostPlaces.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/PostOrderIterator.h"

#include <vector>

using namespace clang;
using namespace tilecc::host;

namespace {

/// A container's length at a point: unreached, unknown, or known.
constexpr int Unreached = -2;
constexpr int Unknown = -1;

/// What a call does to a followed container.
struct Mention {
  enum Kind { Fill, Pop, Clear, Index, Front, Back, Other } kind = Other;
  const VarDecl *container = nullptr;
  std::optional<uint64_t> index; // Index: the constant index, if it is one
};

bool isSequenceContainer(QualType type) {
  const CXXRecordDecl *record = type->getAsCXXRecordDecl();
  if (!record || !record->getIdentifier() || !record->isInStdNamespace())
    return false;
  return record->getName() == "vector" || record->getName() == "deque";
}

/// The variable `object` names, through parentheses and const conversions.
const VarDecl *namedVariable(const Expr *object) {
  for (unsigned guard = 0; object && guard < 16; ++guard) {
    object = object->IgnoreParens();
    const auto *cast = dyn_cast<ImplicitCastExpr>(object);
    if (!cast || cast->getCastKind() != CK_NoOp)
      break;
    object = cast->getSubExpr();
  }
  const auto *ref = dyn_cast_or_null<DeclRefExpr>(object);
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

std::optional<uint64_t> constantIndex(const Expr *e, ASTContext &context) {
  Expr::EvalResult result;
  if (!e || e->isValueDependent() || !e->EvaluateAsInt(result, context) ||
      result.Val.getInt().isNegative())
    return std::nullopt;
  return result.Val.getInt().getLimitedValue();
}

/// The call `s` as a mention of a container variable, if it is one of the calls that are
/// followed.
std::optional<Mention> mentionOf(const Stmt *s, ASTContext &context) {
  Mention m;
  if (const auto *call = dyn_cast<CXXMemberCallExpr>(s)) {
    const CXXMethodDecl *method = call->getMethodDecl();
    if (!method || !method->getIdentifier())
      return std::nullopt;
    m.container = namedVariable(call->getImplicitObjectArgument());
    StringRef name = method->getName();
    if (name == "push_back" || name == "emplace_back")
      m.kind = Mention::Fill;
    else if (name == "pop_back")
      m.kind = Mention::Pop;
    else if (name == "clear")
      m.kind = Mention::Clear;
    else if (name == "front")
      m.kind = Mention::Front;
    else if (name == "back")
      m.kind = Mention::Back;
    else if (name == "at" && call->getNumArgs() == 1)
      m.kind = Mention::Index, m.index = constantIndex(call->getArg(0), context);
    else if (name != "size" && name != "empty" && name != "capacity" && name != "reserve")
      return std::nullopt;
  } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s)) {
    if (op->getOperator() != OO_Subscript || op->getNumArgs() != 2)
      return std::nullopt;
    m.container = namedVariable(op->getArg(0));
    m.kind = Mention::Index;
    m.index = constantIndex(op->getArg(1), context);
  } else {
    return std::nullopt;
  }
  if (!m.container)
    return std::nullopt;
  return m;
}

/// Finds the candidates and keeps those every mention of which is a followed call or the range
/// of a range-for, outside any lambda.
class Survey {
public:
  Survey(ASTContext &context, HostTypes &types) : context(context), types(types) {}

  /// The followed containers, or none when the body is too deep to survey.
  std::vector<const VarDecl *> run(const Stmt *body) {
    walk(body, 0, false);
    std::vector<const VarDecl *> followed;
    if (tooDeep)
      return followed;
    for (const VarDecl *var : candidates)
      if (!spoiled.count(var) && known[var] == mentions[var])
        followed.push_back(var);
    return followed;
  }

private:
  void walk(const Stmt *s, unsigned depth, bool inLambda) {
    if (!s || tooDeep)
      return;
    if (depth > 512) {
      tooDeep = true;
      return;
    }
    if (const auto *decls = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decls->decls())
        if (const auto *var = dyn_cast<VarDecl>(d); var && !inLambda && isCandidate(var))
          candidates.push_back(var);
    if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
        ++mentions[var];
        if (inLambda)
          spoiled.insert(var);
      }
    } else if (std::optional<Mention> m = mentionOf(s, context)) {
      ++known[m->container];
    } else if (const auto *range = dyn_cast<CXXForRangeStmt>(s)) {
      if (const VarDecl *var = namedVariable(range->getRangeInit()))
        ++known[var];
    }
    bool lambda = inLambda || isa<LambdaExpr>(s) || isa<BlockExpr>(s);
    for (const Stmt *child : s->children())
      walk(child, depth + 1, lambda);
    if (const auto *l = dyn_cast<LambdaExpr>(s)) // its body is not among its children
      walk(l->getBody(), depth + 1, true);
  }

  bool isCandidate(const VarDecl *var) const {
    if (!var->hasLocalStorage() || var->getType()->isReferenceType() ||
        !isSequenceContainer(var->getType()) || !types.classify(var->getType()).carriesLoans)
      return false;
    const Expr *init = var->getInit();
    if (!init)
      return true;
    init = init->IgnoreImplicit();
    if (const auto *construct = dyn_cast<CXXConstructExpr>(init))
      return construct->getNumArgs() == 0;
    if (const auto *list = dyn_cast<InitListExpr>(init))
      return list->getNumInits() == 0;
    return false;
  }

  ASTContext &context;
  HostTypes &types;
  std::vector<const VarDecl *> candidates;
  llvm::DenseMap<const VarDecl *, unsigned> mentions, known;
  llvm::DenseSet<const VarDecl *> spoiled;
  bool tooDeep = false;
};

} // namespace

ContainerPositions ContainerPositions::compute(ASTContext &context, const CFG &cfg,
                                               const Stmt *body, HostTypes &types) {
  ContainerPositions result;
  std::vector<const VarDecl *> followed = Survey(context, types).run(body);
  if (followed.empty())
    return result;
  llvm::DenseMap<const VarDecl *, unsigned> slot;
  for (unsigned i = 0; i < followed.size(); ++i)
    slot[followed[i]] = i;

  using Lengths = std::vector<int>;
  // Applies `s` to `lengths`; records the positions it names when `record`.
  auto step = [&](const Stmt *s, Lengths &lengths, bool record) {
    if (const auto *decls = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : decls->decls())
        if (auto it = slot.find(dyn_cast<VarDecl>(d)); it != slot.end())
          lengths[it->second] = 0;
      return;
    }
    std::optional<Mention> m = mentionOf(s, context);
    if (!m)
      return;
    auto it = slot.find(m->container);
    if (it == slot.end())
      return;
    int &length = lengths[it->second];
    auto name = [&](uint64_t index) {
      if (record && length >= 0 && index < uint64_t(length))
        result.positions[cast<Expr>(s)] = Position{m->container, unsigned(index)};
    };
    switch (m->kind) {
    case Mention::Fill:
      if (record && length >= 0)
        result.positions[cast<Expr>(s)] = Position{m->container, unsigned(length)};
      if (length >= 0)
        ++length;
      break;
    case Mention::Pop:
      if (length > 0) {
        name(uint64_t(length) - 1);
        --length;
      } else {
        length = Unknown; // popping an empty vector is undefined
      }
      break;
    case Mention::Clear:
      length = 0;
      break;
    case Mention::Index:
      if (m->index)
        name(*m->index);
      break;
    case Mention::Front:
      name(0);
      break;
    case Mention::Back:
      if (length > 0)
        name(uint64_t(length) - 1);
      break;
    case Mention::Other:
      break;
    }
  };
  auto apply = [&](const CFGBlock &block, Lengths lengths, bool record) {
    for (const CFGElement &element : block)
      if (std::optional<CFGStmt> s = element.getAs<CFGStmt>())
        step(s->getStmt(), lengths, record);
    return lengths;
  };

  // Block entry lengths, to a fixpoint in reverse post-order.
  std::vector<Lengths> entry(cfg.getNumBlockIDs(), Lengths(followed.size(), Unreached));
  entry[cfg.getEntry().getBlockID()].assign(followed.size(), Unknown);
  llvm::ReversePostOrderTraversal<const CFG *> order(&cfg);
  for (bool changed = true; changed;) {
    changed = false;
    for (const CFGBlock *block : order) {
      if (llvm::all_of(entry[block->getBlockID()], [](int l) { return l == Unreached; }))
        continue;
      Lengths exit = apply(*block, entry[block->getBlockID()], false);
      for (const CFGBlock *succ : block->succs()) {
        if (!succ)
          continue;
        Lengths &into = entry[succ->getBlockID()];
        for (unsigned i = 0; i < exit.size(); ++i) {
          int joined = into[i] == Unreached ? exit[i]
                       : exit[i] == Unreached || exit[i] == into[i] ? into[i]
                                                                    : Unknown;
          if (joined != into[i])
            into[i] = joined, changed = true;
        }
      }
    }
  }
  for (const CFGBlock *block : order)
    if (!llvm::all_of(entry[block->getBlockID()], [](int l) { return l == Unreached; }))
      apply(*block, entry[block->getBlockID()], true);
  return result;
}

std::optional<Position> ContainerPositions::of(const Expr *expr) const {
  auto it = positions.find(expr);
  if (it == positions.end())
    return std::nullopt;
  return it->second;
}
