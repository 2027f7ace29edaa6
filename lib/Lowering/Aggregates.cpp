//===- Aggregates.cpp - variables, and the user's classes of scalars and tiles ------===//
//
// A kernel may use its own small classes: a struct of scalars and tiles built by aggregate
// initialization (`P p{1.0f, t}`), by constructors (member initializers and a body), copied,
// assigned, passed to and returned from device functions, decomposed by structured bindings,
// with methods and operators (`operator*` of a user's vector type) inlined on their object.
//
// An expression of such a class lowers to an `Aggregate` (one value per field). A variable of
// one is stored field by field: each field has its own key in `values`, nested classes in
// turn, so that an `if` yields and a loop carries exactly the fields it changes, as scalars
// and tiles. `this` inside a method or constructor is the key of its object: a variable (so
// that a method changes it in place) or a temporary.
//
// Classes that hold views, references or pointers, have virtual functions, bases with fields
// or a destructor that runs are not aggregates here; they keep a located error.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

//===----------------------------------------------------------------------===//
// Which classes
//===----------------------------------------------------------------------===//

/// Why values of `record` (a user's class) are not aggregates; empty when they are.
std::string KernelLowerer::notAggregate(const clang::CXXRecordDecl *record, clang::QualType type) {
  if (record->isLambda())
    return "a lambda";
  if (record->isPolymorphic())
    return "which has virtual functions";
  if (record->isUnion())
    return "a union";
  if (destroyedClass(type))
    return "whose destructor runs code";
  for (const clang::CXXBaseSpecifier &base : record->bases())
    if (const clang::CXXRecordDecl *b = base.getType()->getAsCXXRecordDecl();
        !b || base.isVirtual() || !b->hasDefinition() || !b->isEmpty())
      return "which has a base class with fields";
  for (const clang::FieldDecl *field : record->fields()) {
    clang::QualType ft = field->getType();
    std::optional<TileClass> cls = getTileClass(ft);
    if (field->isBitField() || ft->isReferenceType() ||
        !(convertScalarType(ft) || (cls && cls->is(TileClassKind::Tile)) || aggregateRecord(ft)))
      return "whose field '" + field->getNameAsString() +
             "' is not a scalar, a tile or such a class";
  }
  return "";
}

const clang::CXXRecordDecl *KernelLowerer::aggregateRecord(clang::QualType type) {
  type = type.getNonReferenceType().getCanonicalType();
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || getTileClass(type) || convertScalarType(type))
    return nullptr;
  record = record->getDefinition();
  return notAggregate(record, type).empty() ? record : nullptr;
}

std::string KernelLowerer::classNotValue(clang::QualType type) {
  type = type.getNonReferenceType().getCanonicalType();
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  std::string name = "an object of class '" + type.getUnqualifiedType().getAsString() + "'";
  if (!record || !record->hasDefinition())
    return name;
  std::string why = notAggregate(record->getDefinition(), type);
  return why.empty() ? name : name + ", " + why;
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

const void *KernelLowerer::fieldKey(const void *base, const clang::FieldDecl *field) {
  std::unique_ptr<char> &key = fieldKeys[{base, field}];
  if (!key)
    key = std::make_unique<char>();
  fieldBase[key.get()] = base;
  return key.get();
}

const void *KernelLowerer::rootOf(const void *key) const {
  for (auto it = fieldBase.find(key); it != fieldBase.end(); it = fieldBase.find(key))
    key = it->second;
  return key;
}

bool KernelLowerer::isWithin(const void *key, const void *base) const {
  while (key != base) {
    auto it = fieldBase.find(key);
    if (it == fieldBase.end())
      return false;
    key = it->second;
  }
  return true;
}

void KernelLowerer::bind(const void *key, Lowered value) {
  const auto *aggregate = std::get_if<AggregatePtr>(&value);
  if (!aggregate) {
    aggregateKeys.erase(key);
    values[key] = std::move(value);
    return;
  }
  if (values.count(key))
    values.erase(key);
  aggregateKeys[key] = (*aggregate)->record;
  auto slot = slots.find(key);
  std::optional<SlotKind> kind;
  if (slot != slots.end())
    kind = slot->second;
  for (auto [field, fieldValue] : llvm::zip((*aggregate)->record->fields(), (*aggregate)->fields)) {
    const void *k = fieldKey(key, field);
    if (kind)
      slots[k] = *kind; // the fields of a returned value are slots too
    bind(k, fieldValue);
  }
}

std::optional<Lowered> KernelLowerer::lookupVariable(const void *key) {
  if (auto it = values.find(key); it != values.end())
    return it->second;
  auto record = aggregateKeys.find(key);
  if (record == aggregateKeys.end())
    return std::nullopt;
  auto aggregate = std::make_shared<Aggregate>();
  aggregate->record = record->second;
  for (const clang::FieldDecl *field : record->second->fields()) {
    std::optional<Lowered> value = lookupVariable(fieldKey(key, field));
    if (!value)
      return std::nullopt;
    aggregate->fields.push_back(*value);
  }
  return Lowered(AggregatePtr(std::move(aggregate)));
}

bool KernelLowerer::isBound(const void *key) {
  return values.count(key) || aggregateKeys.count(key);
}

void KernelLowerer::unbind(const void *key) {
  if (auto record = aggregateKeys.find(key); record != aggregateKeys.end()) {
    const clang::CXXRecordDecl *r = record->second;
    aggregateKeys.erase(record);
    for (const clang::FieldDecl *field : r->fields()) {
      const void *k = fieldKey(key, field);
      unbind(k);
      slots.erase(k);
    }
  }
  if (values.count(key))
    values.erase(key);
}

const void *KernelLowerer::lvalueKey(const clang::Expr *expr) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
    if (const auto *binding = dyn_cast<clang::BindingDecl>(ref->getDecl()))
      return binding->getBinding() ? lvalueKey(binding->getBinding()) : nullptr;
    const void *key = resolve(ref->getDecl());
    return isBound(key) ? key : nullptr;
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr);
      unary && unary->getOpcode() == clang::UO_Deref &&
      isa<clang::CXXThisExpr>(unary->getSubExpr()->IgnoreParenImpCasts()))
    return thisKeys.empty() ? nullptr : thisKeys.back();
  const auto *member = dyn_cast<clang::MemberExpr>(expr);
  const auto *field = member ? dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
  if (!field)
    return nullptr;
  const void *base = nullptr;
  if (!member->isArrow())
    base = lvalueKey(member->getBase());
  else if (isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()) && !thisKeys.empty())
    base = thisKeys.back();
  auto record = base ? aggregateKeys.find(base) : aggregateKeys.end();
  if (record == aggregateKeys.end() ||
      record->second->getCanonicalDecl() != field->getParent()->getCanonicalDecl())
    return nullptr;
  return fieldKey(base, field);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

LoweredOr KernelLowerer::lowerMember(const clang::MemberExpr *member) {
  if (const void *key = lvalueKey(member))
    if (std::optional<Lowered> value = lookupVariable(key))
      return *value;
  const auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  if (!field || member->isArrow()) {
    (void)unsupported(member, "the member '" + member->getMemberDecl()->getNameAsString() + "'");
    return failure();
  }
  LoweredOr base = lowerExpr(member->getBase());
  if (failed(base))
    return failure();
  const auto *aggregate = std::get_if<AggregatePtr>(&*base);
  if (!aggregate || field->getFieldIndex() >= (*aggregate)->fields.size()) {
    (void)unsupported(member, "the member '" + field->getNameAsString() + "' of this object");
    return failure();
  }
  return (*aggregate)->fields[field->getFieldIndex()];
}

LoweredOr KernelLowerer::zeroValue(clang::QualType type, const clang::Stmt *where) {
  if (const clang::CXXRecordDecl *record = aggregateRecord(type)) {
    auto aggregate = std::make_shared<Aggregate>();
    aggregate->record = record;
    for (const clang::FieldDecl *field : record->fields()) {
      LoweredOr value = zeroValue(field->getType(), where);
      if (failed(value))
        return failure();
      aggregate->fields.push_back(*value);
    }
    return Lowered(AggregatePtr(std::move(aggregate)));
  }
  Type t = convertType(type);
  if (!t || !(isa<RankedTensorType>(t) || convertScalarType(type))) {
    (void)unsupported(where, "a zero value of type '" + type.getAsString() + "'");
    return failure();
  }
  return Lowered(zeroOf(t, loc(where)));
}

LoweredOr KernelLowerer::defaultAggregate(const clang::CXXRecordDecl *record,
                                          const clang::Expr *where) {
  auto aggregate = std::make_shared<Aggregate>();
  aggregate->record = record;
  for (const clang::FieldDecl *field : record->fields()) {
    LoweredOr value = field->hasInClassInitializer() && field->getInClassInitializer()
                          ? lowerExpr(field->getInClassInitializer())
                          : zeroValue(field->getType(), where);
    if (failed(value))
      return failure();
    aggregate->fields.push_back(*value);
  }
  return Lowered(AggregatePtr(std::move(aggregate)));
}

LoweredOr KernelLowerer::lowerAggregateInit(const clang::InitListExpr *init) {
  const clang::CXXRecordDecl *record = aggregateRecord(init->getType());
  const unsigned bases = record ? record->getNumBases() : 0;
  const unsigned fields =
      record ? unsigned(std::distance(record->field_begin(), record->field_end())) : 0;
  if (!record || init->getNumInits() != bases + fields) {
    (void)unsupported(init, "this initializer list");
    return failure();
  }
  auto aggregate = std::make_shared<Aggregate>();
  aggregate->record = record;
  for (const clang::FieldDecl *field : record->fields()) {
    const clang::Expr *e = init->getInit(bases + field->getFieldIndex());
    LoweredOr value = isa<clang::ImplicitValueInitExpr>(e) ? zeroValue(field->getType(), e)
                                                           : lowerExpr(e);
    if (failed(value))
      return failure();
    aggregate->fields.push_back(*value);
  }
  return Lowered(AggregatePtr(std::move(aggregate)));
}

LoweredOr KernelLowerer::lowerAggregateConstruct(const clang::CXXConstructExpr *construct) {
  const clang::CXXRecordDecl *record = aggregateRecord(construct->getType());
  const clang::CXXConstructorDecl *ctor = construct->getConstructor();
  if (construct->getNumArgs() == 0 && !ctor->isUserProvided())
    return defaultAggregate(record, construct);
  if (construct->getNumArgs() == 1 && ctor->isCopyOrMoveConstructor() && !ctor->isUserProvided())
    return lowerExpr(construct->getArg(0));
  KernelCall call;
  call.kind = KernelCall::Kind::Inline;
  call.callee = ctor;
  call.definition = visibleBody(ctor);
  call.args.assign(construct->arg_begin(), construct->arg_end());
  if (!call.definition) {
    (void)error(construct->getBeginLoc(), Rule::KernelExternalCall,
                ctor->getQualifiedNameAsString());
    return failure();
  }
  // The object starts with its fields default-initialized; the member initializers and the
  // body then set them.
  LoweredOr initial = defaultAggregate(record, construct);
  if (failed(initial))
    return failure();
  temporaries.push_back(std::make_unique<char>());
  const void *object = temporaries.back().get();
  bind(object, *initial);
  LoweredOr done = inlineOnObject(object, call, construct);
  std::optional<Lowered> result = lookupVariable(object);
  unbind(object);
  temporaries.pop_back();
  if (failed(done))
    return failure();
  if (!result) {
    (void)unsupported(construct, "a constructor that leaves a field without a value");
    return failure();
  }
  return *result;
}

LoweredOr KernelLowerer::inlineOnObject(const void *object, const KernelCall &call,
                                        const clang::Expr *expr) {
  thisKeys.push_back(object);
  LoweredOr result = inlineCall(call.callee, call.args, nullptr, expr);
  thisKeys.pop_back();
  return result;
}

std::optional<LoweredOr> KernelLowerer::lowerAggregateMethod(const KernelCall &call,
                                                             const clang::Expr *expr) {
  const clang::Expr *object = call.object;
  const bool isThis = isa<clang::CXXThisExpr>(object->IgnoreParenImpCasts());
  clang::QualType type = call.arrow ? object->getType()->getPointeeType() : object->getType();
  if (!aggregateRecord(type) || (call.arrow && !isThis))
    return std::nullopt;
  const auto *method = dyn_cast<clang::CXXMethodDecl>(call.callee);
  if (method && (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator()) &&
      !method->isUserProvided() && call.args.size() == 1) {
    // The implicit `a = b` of a class: the whole value.
    LoweredOr value = lowerExpr(call.args[0]);
    if (failed(value) || failed(assignTo(object, *value)))
      return LoweredOr(failure());
    return value;
  }
  if (!call.definition) {
    (void)error(expr->getBeginLoc(), Rule::KernelExternalCall,
                call.callee->getQualifiedNameAsString());
    return LoweredOr(failure());
  }
  const void *key = isThis ? (thisKeys.empty() ? nullptr : thisKeys.back()) : lvalueKey(object);
  if (key)
    return inlineOnObject(key, call, expr);
  // A temporary object (`make().norm()`): the method runs on a copy that then disappears.
  LoweredOr value = lowerExpr(object);
  if (failed(value))
    return LoweredOr(failure());
  temporaries.push_back(std::make_unique<char>());
  key = temporaries.back().get();
  bind(key, *value);
  LoweredOr result = inlineOnObject(key, call, expr);
  unbind(key);
  temporaries.pop_back();
  return result;
}

LogicalResult KernelLowerer::lowerMemberInits(const clang::CXXConstructorDecl *ctor) {
  for (const clang::CXXCtorInitializer *init : ctor->inits()) {
    if (init->isBaseInitializer()) {
      const clang::CXXRecordDecl *base =
          init->getBaseClass() ? init->getBaseClass()->getAsCXXRecordDecl() : nullptr;
      if (base && base->isEmpty())
        continue; // constructing an empty base sets nothing
    }
    const clang::FieldDecl *field = init->getMember();
    if (!field || !init->getInit())
      return error(init->getSourceLocation().isValid() ? init->getSourceLocation()
                                                       : ctor->getLocation(),
                   Rule::Unsupported, "this constructor initializer");
    LoweredOr value = isa<clang::ImplicitValueInitExpr>(init->getInit())
                          ? zeroValue(field->getType(), init->getInit())
                          : lowerExpr(init->getInit());
    if (failed(value))
      return failure();
    bind(fieldKey(thisKeys.back(), field), *value);
  }
  return success();
}
