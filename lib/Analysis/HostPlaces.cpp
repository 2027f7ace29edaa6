//===- HostPlaces.cpp - types, places and place expressions of host code ------===//
#include "tilecc/Analysis/HostPlaces.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;

// ---- types
// ---------------------------------------------------------------------------------------

namespace {
/// The host API's classes (namespace tile) and what the checker tracks them as.
struct HostClass {
  llvm::StringLiteral name;
  HostKind kind;
};
constexpr HostClass kHostClasses[] = {
    {"Array", HostKind::Array},
    {"Partition", HostKind::Partition},
    // Borrows of an array: a view, shared or exclusive.
    {"PartitionRef", HostKind::PartitionRef},
    {"ArrayView", HostKind::PartitionRef},
    {"ArrayViewMut", HostKind::PartitionRef},
    // Ops: a launch and what composes launches.
    {"DeviceOp", HostKind::DeviceOp},
    {"ThenOp", HostKind::DeviceOp},
    {"ZipOp", HostKind::DeviceOp},
    {"SharedOp", HostKind::DeviceOp},
    {"UnzipOp", HostKind::DeviceOp},
    {"AutotunedOp", HostKind::DeviceOp},
    {"Future", HostKind::Future},
    {"Graph", HostKind::Graph},
    // What an op holds for an array passed by lvalue.
    {"ArrayBorrow", HostKind::OtherTile},
};
/// A class of the tile library that derives from tile::detail::OpTag, the base of every op.
bool isOpClass(const CXXRecordDecl *record, unsigned depth = 0) {
  const CXXRecordDecl *definition = record->getDefinition();
  if (!definition || depth > 8)
    return false;
  if (definition->getIdentifier() && definition->getName() == "OpTag" &&
      isInTileNamespace(definition))
    return true;
  for (const CXXBaseSpecifier &base : definition->bases())
    if (const CXXRecordDecl *b = base.getType()->getAsCXXRecordDecl(); b && isOpClass(b, depth + 1))
      return true;
  return false;
}
} // namespace

HostKind HostTypes::hostKind(QualType type) {
  if (type.isNull())
    return HostKind::None;
  const CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!record || !record->getIdentifier())
    return HostKind::None;
  StringRef name = record->getName();
  if (record->isInStdNamespace())
    return name == "thread" || name == "jthread" || name == "future" || name == "shared_future"
               ? HostKind::Thread
               : HostKind::None;
  if (!isInTileNamespace(record))
    return HostKind::None;
  for (const HostClass &hostClass : kHostClasses)
    if (name == hostClass.name)
      return hostClass.kind;
  // Every other op of the library (copies, fills, collectives) derives from detail::OpTag.
  return isOpClass(record) ? HostKind::DeviceOp : HostKind::None;
}

TypeFacts HostTypes::classify(QualType type) {
  if (type.isNull())
    return {};
  type = type.getNonReferenceType();
  const Type *canonical = type.getCanonicalType().getTypePtr();
  return classifyUncached(canonical, 0);
}

TypeFacts HostTypes::classifyUncached(const Type *canonical, unsigned depth) {
  auto it = memo.find(canonical);
  if (it != memo.end())
    return it->second;
  if (depth > 12 || canonical->isDependentType())
    return {};
  memo[canonical] = TypeFacts(); // provisional answer for recursive types
  TypeFacts facts;
  auto merge = [&](QualType member) {
    if (member.isNull() || member->isReferenceType() || member->isPointerType() ||
        member->isMemberPointerType())
      return; // references and pointers do not own what they point to
    TypeFacts inner = classifyUncached(member.getCanonicalType().getTypePtr(), depth + 1);
    facts.carriesLoans |= inner.carriesLoans || inner.kind == HostKind::Partition;
    facts.containsArrays |= inner.containsArrays;
  };

  if (const auto *array = dyn_cast<ConstantArrayType>(canonical)) {
    merge(array->getElementType());
  } else if (const CXXRecordDecl *record = canonical->getAsCXXRecordDecl()) {
    facts.kind = hostKind(QualType(canonical, 0));
    switch (facts.kind) {
    case HostKind::Array:
      facts.containsArrays = true;
      break;
    case HostKind::Partition: // owns its array; holds no loan, but moves like one
      break;
    case HostKind::PartitionRef:
    case HostKind::DeviceOp:
    case HostKind::Future:
    case HostKind::Graph:
    case HostKind::OtherTile:
    case HostKind::Thread:
      facts.carriesLoans = true;
      break;
    case HostKind::None:
      if (isInTileNamespace(record))
        break; // Shape, Device, Tile, Tensor, ...: plain values
      if (const auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(record)) {
        for (const TemplateArgument &arg : spec->getTemplateArgs().asArray()) {
          if (arg.getKind() == TemplateArgument::Type)
            merge(arg.getAsType());
          else if (arg.getKind() == TemplateArgument::Pack)
            for (const TemplateArgument &p : arg.pack_elements())
              if (p.getKind() == TemplateArgument::Type)
                merge(p.getAsType());
        }
      }
      if (record->hasDefinition()) {
        const CXXRecordDecl *def = record->getDefinition();
        for (const FieldDecl *field : def->fields())
          merge(field->getType());
        for (const CXXBaseSpecifier &base : def->bases())
          merge(base.getType());
      }
      break;
    }
  }
  memo[canonical] = facts;
  return facts;
}

// ---- places
// --------------------------------------------------------------------------------------

PlaceId PlaceTable::add(Place place) {
  PlaceId id = static_cast<PlaceId>(places.size());
  if (place.parent != NoPlace)
    kids[place.parent].push_back(id);
  places.push_back(std::move(place));
  kids.emplace_back();
  return id;
}

PlaceId PlaceTable::variable(const VarDecl *var, TypeFacts type, Storage storage) {
  auto it = roots.find(var);
  if (it != roots.end())
    return it->second;
  Place p{PlaceKind::Variable};
  p.var = var;
  p.type = type;
  p.storage = storage;
  p.name = var->getName().str();
  if (const auto *decomposition = dyn_cast<DecompositionDecl>(var)) { // auto [x, y] = ...
    p.name = "[";
    for (const BindingDecl *binding : decomposition->bindings())
      p.name += (p.name.size() > 1 ? ", " : "") + binding->getName().str();
    p.name += "]";
  }
  if (p.name.empty())
    p.name = "<unnamed>";
  PlaceId id = add(std::move(p));
  roots[var] = id;
  return id;
}

PlaceId PlaceTable::field(PlaceId parent, const FieldDecl *fieldDecl, TypeFacts type) {
  auto key = std::make_pair(parent, static_cast<const void *>(fieldDecl));
  auto it = children.find(key);
  if (it != children.end())
    return it->second;
  Place p{PlaceKind::Field};
  p.parent = parent;
  p.field = fieldDecl;
  p.type = type;
  p.storage = places[parent].storage;
  const Place &base = places[parent];
  p.name = base.kind == PlaceKind::This ? fieldDecl->getName().str()
                                        : base.name + "." + fieldDecl->getName().str();
  PlaceId id = add(std::move(p));
  children[key] = id;
  return id;
}

PlaceId PlaceTable::thisObject(TypeFacts type) {
  auto it = roots.find(nullptr);
  if (it != roots.end()) {
    if (type.tracked() && !places[it->second].type.tracked())
      places[it->second].type = type;
    return it->second;
  }
  Place p{PlaceKind::This};
  p.type = type;
  p.storage = Storage::Outer;
  p.name = "*this";
  PlaceId id = add(std::move(p));
  roots[nullptr] = id;
  return id;
}

PlaceId PlaceTable::element(PlaceId container, TypeFacts type) {
  auto key = std::make_pair(container, static_cast<const void *>(nullptr));
  auto it = children.find(key);
  if (it != children.end())
    return it->second;
  Place p{PlaceKind::Element};
  p.parent = container;
  p.type = type;
  p.storage = places[container].storage;
  p.name = "an element of '" + places[container].name + "'";
  PlaceId id = add(std::move(p));
  children[key] = id;
  return id;
}

PlaceId PlaceTable::nthElement(PlaceId container, unsigned index, TypeFacts type) {
  auto key = std::make_pair(container, index);
  auto it = nthChildren.find(key);
  if (it != nthChildren.end())
    return it->second;
  Place p{PlaceKind::NthElement};
  p.parent = container;
  p.type = type;
  p.index = index;
  p.storage = places[container].storage;
  p.name = places[container].name + "[" + std::to_string(index) + "]";
  PlaceId id = add(std::move(p));
  nthChildren[key] = id;
  return id;
}

PlaceId PlaceTable::kept(const Expr *call, const std::string &callee) {
  auto it = keptRoots.find(call);
  if (it != keptRoots.end())
    return it->second;
  Place p{PlaceKind::Kept};
  p.expr = call;
  p.type.kind = HostKind::Thread;
  p.type.carriesLoans = true;
  p.storage = Storage::Outer;
  p.name = callee;
  PlaceId id = add(std::move(p));
  keptRoots[call] = id;
  return id;
}

PlaceId PlaceTable::temporary(const Expr *expr, TypeFacts type) {
  auto it = roots.find(expr);
  if (it != roots.end())
    return it->second;
  Place p{PlaceKind::Temporary};
  p.expr = expr;
  p.type = type;
  p.storage = Storage::Temporary;
  p.name = "a temporary";
  PlaceId id = add(std::move(p));
  roots[expr] = id;
  return id;
}

std::optional<PlaceId> PlaceTable::findTemporary(const Expr *expr) const {
  auto it = roots.find(expr);
  if (it == roots.end() || places[it->second].kind != PlaceKind::Temporary)
    return std::nullopt;
  return it->second;
}

PlaceId PlaceTable::root(PlaceId id) const {
  while (places[id].parent != NoPlace)
    id = places[id].parent;
  return id;
}

bool PlaceTable::isWithin(PlaceId inner, PlaceId outer) const {
  for (PlaceId p = inner; p != NoPlace; p = places[p].parent)
    if (p == outer)
      return true;
  return false;
}

// ---- resolving expressions
// -----------------------------------------------------------------------

static bool isScopeStmt(const Stmt *s) {
  return isa<CompoundStmt, ForStmt, CXXForRangeStmt, IfStmt, WhileStmt, SwitchStmt, CXXCatchStmt>(
      s);
}

PlaceResolver::PlaceResolver(const Decl *function, const Stmt *body, PlaceTable &places,
                             HostTypes &types)
    : fn(function), places(places), types(types) {
  if (body)
    indexScopes(body, body, 0);
}

void PlaceResolver::indexScopes(const Stmt *stmt, const Stmt *scope, unsigned depth) {
  if (!stmt || isa<LambdaExpr>(stmt) || depth > 1024)
    return; // a lambda's body is a function of its own
  const Stmt *inner = scope;
  if (stmt != scope && isScopeStmt(stmt)) {
    scopeParent[stmt] = scope;
    inner = stmt;
  }
  if (const auto *decls = dyn_cast<DeclStmt>(stmt))
    for (const Decl *d : decls->decls())
      if (const auto *var = dyn_cast<VarDecl>(d))
        scopeOf[var] = {inner, ++declCounter};
  if (const auto *range = dyn_cast<CXXForRangeStmt>(stmt))
    if (const VarDecl *loopVar = range->getLoopVariable())
      rangeInit[loopVar] = range->getRangeInit();
  for (const Stmt *child : stmt->children())
    indexScopes(child, inner, depth + 1);
}

const Expr *PlaceResolver::rvalueCastOperand(const Expr *expr) {
  expr = expr->IgnoreParens();
  if (const auto *call = dyn_cast<CallExpr>(expr)) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (callee && call->getNumArgs() == 1 && callee->getIdentifier() &&
        callee->isInStdNamespace() &&
        (callee->getName() == "move" || callee->getName() == "forward"))
      return call->getArg(0);
    return nullptr;
  }
  if (const auto *cast = dyn_cast<CXXStaticCastExpr>(expr))
    if (cast->isXValue())
      return cast->getSubExpr();
  return nullptr;
}

const Expr *PlaceResolver::skipWrappers(const Expr *expr) {
  for (unsigned guard = 0; expr && guard < 64; ++guard) {
    expr = expr->IgnoreParens();
    if (const auto *cast = dyn_cast<ImplicitCastExpr>(expr)) {
      expr = cast->getSubExpr();
    } else if (const auto *mt = dyn_cast<MaterializeTemporaryExpr>(expr)) {
      expr = mt->getSubExpr();
    } else if (const auto *bind = dyn_cast<CXXBindTemporaryExpr>(expr)) {
      expr = bind->getSubExpr();
    } else if (const auto *full = dyn_cast<FullExpr>(expr)) {
      expr = full->getSubExpr();
    } else if (const auto *cast = dyn_cast<ExplicitCastExpr>(expr);
               cast &&
               (cast->getCastKind() == CK_NoOp ||
                cast->getCastKind() == CK_ConstructorConversion) &&
               !cast->isXValue()) {
      expr = cast->getSubExpr();
    } else if (const Expr *operand = rvalueCastOperand(expr)) {
      expr = operand;
    } else if (const auto *construct = dyn_cast<CXXConstructExpr>(expr);
               construct && construct->isElidable() && construct->getNumArgs() >= 1) {
      expr = construct->getArg(0);
    } else {
      break;
    }
  }
  return expr;
}

Storage PlaceResolver::storageOf(const VarDecl *var) const {
  auto declaredInside = [&](const DeclContext *dc) {
    const auto *fnContext = dyn_cast_or_null<DeclContext>(fn);
    for (; dc; dc = dc->getParent())
      if (dc == fnContext)
        return true;
    return false;
  };
  if (!var->hasLocalStorage() || !declaredInside(var->getDeclContext()))
    return Storage::Outer;
  if (var->getType()->isReferenceType())
    return isa<ParmVarDecl>(var) ? Storage::Outer : Storage::Local;
  return isa<ParmVarDecl>(var) ? Storage::ValueParam : Storage::Local;
}

std::optional<PlaceId> PlaceResolver::rangeElement(const VarDecl *loopVar) const {
  auto it = rangeInit.find(loopVar);
  if (it == rangeInit.end() || !loopVar->getType()->isReferenceType())
    return std::nullopt;
  std::optional<PlaceRef> container = resolveImpl(it->second, 1);
  if (!container || !places[container->place].type.carriesLoans)
    return std::nullopt;
  return places.element(container->place, types.classify(loopVar->getType()));
}

/// The element type of a std::vector or std::deque.
static QualType elementType(QualType container) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      container.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getTemplateArgs().size() == 0 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return spec->getTemplateArgs()[0].getAsType();
}

std::optional<PlaceId> PlaceResolver::elementOfCall(const Expr *call) const {
  std::optional<Position> at = positions.of(call);
  if (!at)
    return std::nullopt;
  std::optional<PlaceId> container = placeOfVariable(at->container);
  QualType element = elementType(at->container->getType());
  if (!container || element.isNull())
    return std::nullopt;
  return places.nthElement(*container, at->index, types.classify(element));
}

std::optional<PlaceId> PlaceResolver::placeOfVariable(const VarDecl *var) const {
  return variableImpl(var, 0);
}

std::optional<PlaceId> PlaceResolver::variableImpl(const VarDecl *var, unsigned depth) const {
  if (depth > 8)
    return std::nullopt;
  TypeFacts type = types.classify(var->getType());
  if (!type.tracked())
    return std::nullopt;
  if (var->getType()->isReferenceType() && !isa<ParmVarDecl>(var) &&
      storageOf(var) == Storage::Local) {
    if (std::optional<PlaceId> element = rangeElement(var))
      return element;
    const Expr *init = var->getInit();
    if (!init)
      return std::nullopt;
    const Expr *bare = init->IgnoreImplicit()->IgnoreParens();
    if (isa<MaterializeTemporaryExpr>(bare) || init->isPRValue())
      return places.variable(var, type, Storage::Local); // the temporary it extends
    if (std::optional<PlaceRef> target = resolveImpl(init, depth + 1))
      return target->place; // an alias
    return std::nullopt;
  }
  return places.variable(var, type, storageOf(var));
}

bool tilecc::host::isStdPair(QualType type) {
  const CXXRecordDecl *record = type.isNull() ? nullptr : type->getAsCXXRecordDecl();
  return record && record->isInStdNamespace() && record->getIdentifier() &&
         record->getName() == "pair";
}

std::optional<PlaceRef> PlaceResolver::pairMember(const BindingDecl *binding, bool rvalue,
                                                  unsigned depth) const {
  const auto *decomposition = dyn_cast_or_null<DecompositionDecl>(binding->getDecomposedDecl());
  if (!decomposition || !isStdPair(decomposition->getType()))
    return std::nullopt;
  std::optional<PlaceId> whole = variableImpl(decomposition, depth + 1);
  if (!whole)
    return std::nullopt;
  auto bindings = decomposition->bindings();
  size_t index = static_cast<size_t>(llvm::find(bindings, binding) - bindings.begin());
  const CXXRecordDecl *record = decomposition->getType()->getAsCXXRecordDecl();
  size_t at = 0;
  for (const FieldDecl *field : record->fields())
    if (at++ == index)
      return PlaceRef{places.field(*whole, field, types.classify(field->getType())), rvalue};
  return std::nullopt;
}

std::optional<PlaceRef> PlaceResolver::resolve(const Expr *expr) const {
  return resolveImpl(expr, 0);
}

std::optional<PlaceRef> PlaceResolver::resolveImpl(const Expr *expr, unsigned depth) const {
  bool rvalue = false;
  for (unsigned guard = 0; expr && guard < 64; ++guard) {
    expr = expr->IgnoreParens();
    if (const auto *cast = dyn_cast<ImplicitCastExpr>(expr)) {
      switch (cast->getCastKind()) {
      case CK_NoOp:
      case CK_LValueToRValue:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
        expr = cast->getSubExpr();
        continue;
      default:
        return std::nullopt;
      }
    }
    if (const Expr *operand = rvalueCastOperand(expr)) {
      rvalue = true;
      expr = operand;
      continue;
    }
    break;
  }
  if (!expr)
    return std::nullopt;
  if (const auto *ref = dyn_cast<DeclRefExpr>(expr)) {
    // A structured binding of a struct or an array names a part of the hidden object, and so
    // does one of a std::pair (its own reference variable, from get<I>); one of another
    // tuple-like type is not followed.
    if (const auto *binding = dyn_cast<BindingDecl>(ref->getDecl())) {
      if (depth > 8)
        return std::nullopt;
      if (binding->getHoldingVar())
        return pairMember(binding, rvalue, depth);
      if (!binding->getBinding())
        return std::nullopt;
      std::optional<PlaceRef> part = resolveImpl(binding->getBinding(), depth + 1);
      if (part)
        part->rvalue |= rvalue;
      return part;
    }
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var)
      return std::nullopt;
    if (std::optional<PlaceId> place = variableImpl(var, depth + 1))
      return PlaceRef{*place, rvalue};
    return std::nullopt;
  }
  if (const auto *member = dyn_cast<MemberExpr>(expr)) {
    const auto *fieldDecl = dyn_cast<FieldDecl>(member->getMemberDecl());
    if (!fieldDecl)
      return std::nullopt;
    TypeFacts type = types.classify(fieldDecl->getType());
    const Expr *base = member->getBase()->IgnoreParenImpCasts();
    // A reference member names a place of its own only seen from the object's methods (a
    // method's summary maps it to what the object was made with).
    if (!type.tracked() ||
        (fieldDecl->getType()->isReferenceType() && !(member->isArrow() && isa<CXXThisExpr>(base))))
      return std::nullopt;
    PlaceId parent;
    if (member->isArrow()) {
      if (!isa<CXXThisExpr>(base))
        return std::nullopt;
      parent = places.thisObject();
    } else {
      std::optional<PlaceRef> baseRef = resolveImpl(base, depth + 1);
      if (!baseRef)
        return std::nullopt;
      rvalue |= baseRef->rvalue;
      parent = baseRef->place;
    }
    return PlaceRef{places.field(parent, fieldDecl, type), rvalue};
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(expr))
    if (unary->getOpcode() == UO_Deref &&
        isa<CXXThisExpr>(unary->getSubExpr()->IgnoreParenImpCasts()))
      return PlaceRef{places.thisObject(), rvalue};
  // The one value a std::optional or a smart pointer holds (`*o`, `o->`, `o.value()`) is the
  // holder's place: its loans are the holder's.
  const Expr *holder = nullptr;
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(expr)) {
    if ((op->getOperator() == OO_Star || op->getOperator() == OO_Arrow) && op->getNumArgs() == 1)
      holder = op->getArg(0);
  } else if (const auto *call = dyn_cast<CXXMemberCallExpr>(expr)) {
    if (const CXXMethodDecl *method = call->getMethodDecl();
        method && method->getIdentifier() && method->getName() == "value")
      holder = call->getImplicitObjectArgument();
  }
  if (holder && holdsOneValue(holder->getType()))
    if (std::optional<PlaceRef> ref = resolveImpl(holder, depth + 1))
      return PlaceRef{ref->place, rvalue || ref->rvalue};
  // `c[k]`, `c.at(k)`, `c.front()`, `c.back()` where the index is known.
  if (std::optional<Position> at = positions.of(expr))
    if (std::optional<PlaceId> container = variableImpl(at->container, depth + 1))
      return PlaceRef{places.nthElement(*container, at->index, types.classify(expr->getType())),
                      rvalue};
  return std::nullopt;
}

bool PlaceResolver::holdsOneValue(QualType type) {
  const CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!record || !record->getIdentifier() || !record->isInStdNamespace())
    return false;
  StringRef name = record->getName();
  return name == "optional" || name == "unique_ptr" || name == "shared_ptr";
}

bool PlaceResolver::outlives(PlaceId holder, PlaceId array) const {
  const Place &a = places[places.root(array)];
  if (a.kind != PlaceKind::Variable ||
      (a.storage != Storage::Local && a.storage != Storage::ValueParam))
    return false;
  const Place &h = places[places.root(holder)];
  switch (h.storage) {
  case Storage::Temporary:
    return false;
  case Storage::Outer:
    return true;
  case Storage::ValueParam:
    return a.storage == Storage::Local;
  case Storage::Local:
    break;
  }
  if (a.storage == Storage::ValueParam || h.kind != PlaceKind::Variable)
    return false;
  auto hs = scopeOf.find(h.var);
  auto as = scopeOf.find(a.var);
  if (hs == scopeOf.end() || as == scopeOf.end())
    return false;
  if (hs->second.first == as->second.first)
    return hs->second.second < as->second.second; // declared earlier: destroyed later
  for (auto it = scopeParent.find(as->second.first); it != scopeParent.end();
       it = scopeParent.find(it->second))
    if (it->second == hs->second.first)
      return true;
  return false;
}
