//===- MapInjectivity.cpp - proving mapped partitions disjoint -------------===//
//
// See MapInjectivity.h. The affine reading of a map's body: every returned coordinate becomes
// a vector of integer coefficients over the program coordinates (terms free of them are
// constants and drop out of injectivity); the map is injective iff the square coefficient
// matrix has a non-zero determinant (fraction-free Gaussian elimination in 128-bit integers).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/MapInjectivity.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/HostPlaces.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <vector>

using namespace clang;
using namespace tilecc;

namespace {

/// Program coordinates along one axis are below this (tile_rt's launch check).
constexpr __int128 kMaxGridExtent = (__int128(1) << 31) - 1;

/// An affine form: sum coeff[k] * c[k] + (something free of c).
struct Affine {
  std::vector<__int128> coeff;
  /// The constant part is a known integer (needed to multiply by it).
  std::optional<__int128> constant;

  bool dependsOnProgram() const {
    for (__int128 c : coeff)
      if (c != 0)
        return true;
    return false;
  }
};

/// Reads the body of a map's call operator as affine forms of the program coordinates.
class AffineReader {
public:
  AffineReader(const ParmVarDecl *program, unsigned rank, const ASTContext &ctx)
      : program(program), rank(rank), ctx(ctx) {}

  std::optional<Affine> read(const Expr *e, std::string &why) {
    if (++depth > 64) {
      why = "the expression is too deep";
      return std::nullopt;
    }
    std::optional<Affine> r = readUncounted(e, why);
    --depth;
    // The value as the machine computes it: in the type of the operation and of every
    // conversion on the way out, each of which must hold it without wrapping.
    for (const Expr *at = e; r && at;) {
      if (!fits(*r, at->getType(), why))
        return std::nullopt;
      if (const auto *paren = dyn_cast<ParenExpr>(at))
        at = paren->getSubExpr();
      else if (const auto *cast = dyn_cast<ImplicitCastExpr>(at))
        at = cast->getSubExpr();
      else
        at = nullptr;
    }
    return r;
  }

private:
  /// Whether `type` holds every value `a` takes over the grid (each coordinate below
  /// kMaxGridExtent) without wrapping or rounding, up to the terms free of the program: they
  /// shift every value alike, which wrapping keeps distinct. It does when the form's span
  /// (the distance between its least and greatest value) is below 2^width.
  bool fits(const Affine &a, QualType type, std::string &why) const {
    if (!a.dependsOnProgram() || type.isNull() || type->isDependentType())
      return true;
    unsigned width;
    if (type->isIntegerType() && !type->isBooleanType())
      width = ctx.getIntWidth(type);
    else if (type->isRealFloatingType())
      width = llvm::APFloat::semanticsPrecision(ctx.getFloatTypeSemantics(type));
    else
      return true; // the std::array of coordinates, references: checked where read
    __int128 span = 0;
    for (__int128 c : a.coeff)
      span += (c < 0 ? -c : c) * (kMaxGridExtent - 1);
    if (width >= 100 || span < (__int128(1) << width))
      return true;
    why = "a coordinate may wrap around in '" + type.getAsString() +
          "' on a large grid (its values span more than 2^" + std::to_string(width) + ")";
    return false;
  }

  Affine constant(std::optional<__int128> value) const {
    return Affine{std::vector<__int128>(rank, 0), value};
  }

  /// `c[k]` (through std::array's operator[] or a built-in subscript) -> k.
  std::optional<unsigned> programCoordinate(const Expr *e) const {
    e = e->IgnoreParenImpCasts();
    const Expr *base = nullptr, *index = nullptr;
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(e)) {
      if (op->getOperator() != OO_Subscript || op->getNumArgs() != 2)
        return std::nullopt;
      base = op->getArg(0);
      index = op->getArg(1);
    } else if (const auto *sub = dyn_cast<ArraySubscriptExpr>(e)) {
      base = sub->getBase();
      index = sub->getIdx();
    } else {
      return std::nullopt;
    }
    const auto *ref = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
    if (!ref || ref->getDecl() != program)
      return std::nullopt;
    const auto *literal = dyn_cast<IntegerLiteral>(index->IgnoreParenImpCasts());
    if (!literal || literal->getValue().getZExtValue() >= rank)
      return std::nullopt;
    return static_cast<unsigned>(literal->getValue().getZExtValue());
  }

  /// Does `e` mention the program parameter at all?
  bool mentionsProgram(const Stmt *s) const {
    if (!s)
      return false;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
      if (ref->getDecl() == program)
        return true;
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (var->isLocalVarDecl() && var->getInit() && var->getInit() != s)
          return mentionsProgram(var->getInit());
    }
    for (const Stmt *child : s->children())
      if (mentionsProgram(child))
        return true;
    return false;
  }

  std::optional<Affine> readUncounted(const Expr *e, std::string &why) {
    e = e->IgnoreParenImpCasts();
    if (const auto *cast = dyn_cast<ExplicitCastExpr>(e))
      if (cast->getType()->isIntegerType())
        return read(cast->getSubExpr(), why);
    if (const auto *literal = dyn_cast<IntegerLiteral>(e))
      return constant(static_cast<__int128>(literal->getValue().getSExtValue()));
    if (std::optional<unsigned> k = programCoordinate(e)) {
      Affine a = constant(0);
      a.coeff[*k] = 1;
      return a;
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(e))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (var != program && var->isLocalVarDecl() && var->getInit() &&
            var->getType().isConstQualified())
          return read(var->getInit(), why); // `const int64_t row = c[0] * 2;`
    if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
      if (unary->getOpcode() == UO_Minus || unary->getOpcode() == UO_Plus) {
        std::optional<Affine> a = read(unary->getSubExpr(), why);
        if (a && unary->getOpcode() == UO_Minus) {
          for (__int128 &c : a->coeff)
            c = -c;
          if (a->constant)
            *a->constant = -*a->constant;
        }
        return a;
      }
    }
    if (const auto *binary = dyn_cast<BinaryOperator>(e)) {
      BinaryOperatorKind op = binary->getOpcode();
      if (op == BO_Add || op == BO_Sub || op == BO_Mul) {
        std::optional<Affine> l = read(binary->getLHS(), why);
        if (!l)
          return std::nullopt;
        std::optional<Affine> r = read(binary->getRHS(), why);
        if (!r)
          return std::nullopt;
        if (op == BO_Mul) {
          if (l->dependsOnProgram() && r->dependsOnProgram()) {
            why = "it multiplies program coordinates together";
            return std::nullopt;
          }
          const Affine &var = l->dependsOnProgram() ? *l : *r;
          const Affine &factor = l->dependsOnProgram() ? *r : *l;
          if (!var.dependsOnProgram())
            return constant(l->constant && r->constant
                                ? std::optional<__int128>(*l->constant * *r->constant)
                                : std::nullopt);
          if (!factor.constant) {
            why = "a program coordinate is scaled by a value known only at run time";
            return std::nullopt;
          }
          Affine a = constant(var.constant ? std::optional<__int128>(*var.constant * *factor.constant)
                                           : std::nullopt);
          for (unsigned k = 0; k < rank; ++k)
            a.coeff[k] = var.coeff[k] * *factor.constant;
          return a;
        }
        Affine a = constant(l->constant && r->constant
                                ? std::optional<__int128>(op == BO_Add ? *l->constant + *r->constant
                                                                       : *l->constant - *r->constant)
                                : std::nullopt);
        for (unsigned k = 0; k < rank; ++k)
          a.coeff[k] = op == BO_Add ? l->coeff[k] + r->coeff[k] : l->coeff[k] - r->coeff[k];
        return a;
      }
      if ((op == BO_Div || op == BO_Rem || op == BO_Shl || op == BO_Shr || op == BO_And ||
           op == BO_Or || op == BO_Xor) &&
          (mentionsProgram(binary->getLHS()) || mentionsProgram(binary->getRHS()))) {
        why = std::string("it applies '") + BinaryOperator::getOpcodeStr(op).str() +
              "' to a program coordinate";
        return std::nullopt;
      }
    }
    if (!mentionsProgram(e))
      return constant(std::nullopt); // captures, grid extents, calls on them: fixed per launch
    why = "a coordinate is not an affine function of the program's coordinates";
    return std::nullopt;
  }

  const ParmVarDecl *program;
  unsigned rank;
  const ASTContext &ctx;
  unsigned depth = 0;
};

/// The determinant of a square integer matrix is non-zero (fraction-free elimination).
bool nonSingular(std::vector<std::vector<__int128>> m) {
  size_t n = m.size();
  __int128 previous = 1;
  for (size_t k = 0; k < n; ++k) {
    size_t pivot = k;
    while (pivot < n && m[pivot][k] == 0)
      ++pivot;
    if (pivot == n)
      return false;
    std::swap(m[k], m[pivot]);
    for (size_t i = k + 1; i < n; ++i) {
      for (size_t j = k + 1; j < n; ++j)
        m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) / previous;
      m[i][k] = 0;
    }
    previous = m[k][k];
  }
  return true;
}

/// The returned coordinates of `body`: `return {a, b};` or `return std::array<...>{a, b};`,
/// after `const` locals.
const InitListExpr *returnedCoordinates(const Stmt *body, std::string &why) {
  const auto *compound = dyn_cast_or_null<CompoundStmt>(body);
  if (!compound || compound->body_empty()) {
    why = "the map's body is not visible";
    return nullptr;
  }
  const ReturnStmt *ret = nullptr;
  for (const Stmt *s : compound->body()) {
    if (const auto *r = dyn_cast<ReturnStmt>(s)) {
      ret = r;
      break;
    }
    if (!isa<DeclStmt>(s) && !isa<NullStmt>(s)) {
      why = "the map's body is more than declarations and one return";
      return nullptr;
    }
  }
  if (!ret || !ret->getRetValue()) {
    why = "the map does not return its coordinates directly";
    return nullptr;
  }
  const Expr *value = ret->getRetValue()->IgnoreImplicit();
  while (true) {
    value = value->IgnoreParenImpCasts();
    if (const auto *functional = dyn_cast<CXXFunctionalCastExpr>(value))
      value = functional->getSubExpr();
    else if (const auto *bind = dyn_cast<CXXBindTemporaryExpr>(value))
      value = bind->getSubExpr();
    else if (const auto *temp = dyn_cast<MaterializeTemporaryExpr>(value))
      value = temp->getSubExpr();
    else if (const auto *literal = dyn_cast<CompoundLiteralExpr>(value))
      value = literal->getInitializer();
    else
      break;
  }
  const auto *list = dyn_cast<InitListExpr>(value);
  if (list && list->isSemanticForm() && list->getNumInits() == 1)
    if (const auto *inner = dyn_cast<InitListExpr>(list->getInit(0)->IgnoreImplicit()))
      list = inner; // std::array's aggregate member
  if (!list) {
    why = "the map does not return a braced list of coordinates";
    return nullptr;
  }
  return list;
}

/// The call operator a map object runs.
const CXXMethodDecl *callOperatorOf(const CXXRecordDecl *record) {
  if (!record || !record->hasDefinition())
    return nullptr;
  if (record->isLambda())
    return record->getLambdaCallOperator();
  for (const CXXMethodDecl *method : record->getDefinition()->methods())
    if (method->getOverloadedOperator() == OO_Call && method->hasBody())
      return method;
  for (const Decl *d : record->getDefinition()->decls())
    if (const auto *tmpl = dyn_cast<FunctionTemplateDecl>(d))
      if (const auto *method = dyn_cast<CXXMethodDecl>(tmpl->getTemplatedDecl()))
        if (method->getOverloadedOperator() == OO_Call)
          return method;
  return nullptr;
}

class MapCallFinder : public RecursiveASTVisitor<MapCallFinder> {
public:
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *call) {
    const CXXMethodDecl *method = call->getMethodDecl();
    if (!method || !method->getIdentifier() || method->getName() != "map" || call->getNumArgs() != 1)
      return true;
    const Expr *object = call->getImplicitObjectArgument();
    host::HostKind kind = host::HostTypes::hostKind(object->getType());
    if (kind != host::HostKind::Partition && kind != host::HostKind::PartitionRef)
      return true;
    calls.push_back(call);
    return true;
  }
  // Lambdas' bodies are checked as functions of their own.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  std::vector<const CXXMemberCallExpr *> calls;
};

unsigned partitionRank(QualType type) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec)
    return 0;
  unsigned n = 0;
  for (const TemplateArgument &arg : spec->getTemplateArgs().asArray())
    if (arg.getKind() == TemplateArgument::Pack)
      n += arg.pack_size();
    else if (arg.getKind() == TemplateArgument::Integral)
      ++n;
  return n;
}

} // namespace

MapVerdict tilecc::proveMapInjective(const Expr *mapArgument, unsigned rank) {
  const Expr *e = mapArgument->IgnoreImplicit();
  if (const auto *construct = dyn_cast<CXXConstructExpr>(e))
    if (construct->getNumArgs() == 1)
      e = construct->getArg(0)->IgnoreImplicit();
  const CXXRecordDecl *record = e->getType()->getAsCXXRecordDecl();
  if (!record)
    return {false, "the map is not a function object whose body tilecc can read"};
  if (isInTileNamespace(record) && !record->isLambda())
    return {true, "a schedule of tile/schedule.hpp"};
  const CXXMethodDecl *call = callOperatorOf(record);
  if (!call || !call->hasBody() || call->getNumParams() < 1)
    return {false, "the map's call operator is not visible"};
  std::string why;
  const InitListExpr *coords = returnedCoordinates(call->getBody(), why);
  if (!coords)
    return {false, why};
  if (coords->getNumInits() != rank)
    return {false, "the map returns " + std::to_string(coords->getNumInits()) +
                       " coordinate(s) for a rank-" + std::to_string(rank) + " grid"};
  AffineReader reader(call->getParamDecl(0), rank, record->getASTContext());
  std::vector<std::vector<__int128>> matrix;
  for (unsigned k = 0; k < rank; ++k) {
    std::optional<Affine> form = reader.read(coords->getInit(k), why);
    if (!form)
      return {false, "tile coordinate " + std::to_string(k) + ": " + why};
    matrix.push_back(form->coeff);
  }
  if (!nonSingular(matrix))
    return {false, "the map is affine but singular: distinct programs reach the same tile"};
  return {true, "an affine map with a non-singular matrix"};
}

bool tilecc::checkMappedPartitions(ASTContext &context,
                                   llvm::ArrayRef<const FunctionDecl *> functions) {
  bool clean = true;
  llvm::DenseSet<SourceLocation> reported;
  for (const FunctionDecl *fn : functions) {
    if (hasAnnotation(fn, "tile.unsafe"))
      continue;
    MapCallFinder finder;
    finder.TraverseStmt(const_cast<Stmt *>(fn->getBody()));
    for (const CXXMemberCallExpr *call : finder.calls) {
      unsigned rank = partitionRank(call->getImplicitObjectArgument()->getType());
      MapVerdict verdict = proveMapInjective(call->getArg(0), rank);
      if (verdict.proven)
        continue;
      clean = false;
      SourceLocation loc = call->getExprLoc();
      if (!reported.insert(loc).second)
        continue;
      report(context.getDiagnostics(), loc, Rule::MappedNotInjective) << verdict.reason;
    }
  }
  return clean;
}
