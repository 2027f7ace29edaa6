//===- EmitExchange.cpp - ops that move elements between threads ---------------===//
//
// Reductions, scans and the shape ops (broadcast, reshape, permute, cat, extract) as CUDA.
// Their elements cross threads, so most stage a tile in the kernel's dynamic shared memory
// at the offset the SharedMemoryPlanner chose (`tilegpu.smem_offset`, parts laid out by
// tilegpu::getScratch): writes, a barrier (`__syncthreads()`, or the program's named barrier
// in a block with producer warps), reads, with a barrier before the
// writes unless tilegpu-place-barriers found the bytes free (`tilegpu.needs_no_barrier`):
//
//  * reduce (as tilegpu::planReduce decided from the operand's linear layout): each thread
//    combines its registers along the axis, then the lanes along the axis combine by xor
//    shuffles. When no warps spread the axis and the result's layout is the slice the
//    shuffles leave, that is all; otherwise one thread per group of copies writes each warp's
//    partial, and every thread reads and combines the partials of its result registers.
//  * scan: the tile goes to shared memory; each line along the axis is cut into chunks that
//    threads scan in place; one thread per line scans the chunk totals into carries; each
//    thread reads its result registers and applies its chunk's carry.
//  * shape ops: the source goes to shared memory at its row-major indices; each thread reads
//    the source element of each of its result registers (tile_dev::*_index).
//  * tile.mma (shapes that are not whole instruction tiles): both inputs and the accumulator
//    go to shared memory; the warps run mma.sync on the 16 x 8 output tiles in turn
//    (tile_dev::mma_shared), updating the accumulator in place, which every thread then reads
//    in the result's layout. tilegpu.mma needs no shared memory: its operands are already in
//    fragment registers (tile_dev::mma_frag).
//  * shape ops and convert_layout that keep elements within warps (tilegpu::planShapeMovement)
//    copy registers or exchange them by warp shuffles, with no shared memory.
//  * convert_layout: otherwise the owners write the tile at its row-major indices and every
//    thread reads its registers of the new layout. To 16-bit mma operands, rows are padded by 8 elements and the fragments
//    read with ldmatrix; between layouts whose lanes run along different axes (a transpose),
//    rows are padded by one 4-byte word; both keep the accesses free of bank conflicts.
//
// The combiner region of reduce and scan becomes a C++ lambda `(acc&..., next...)` that
// updates the accumulators in place.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::codegen;

static std::string ixList(ArrayRef<int64_t> xs) {
  std::string s = "tile_dev::Ix<";
  for (auto [k, x] : llvm::enumerate(xs))
    s += cat(k ? ", " : "", x);
  return s + ">";
}

/// The device type of a staging (tile_dev::Staging).
std::string codegen::stagingText(const tilegpu::Staging &s) {
  std::string blocks = s.block ? cat(", ", s.block, ", ", s.rows) : std::string();
  if (s.tileCols) // a column-major stage
    blocks = cat(", ", s.block ? s.block : s.cols, ", ", s.rows, ", ", s.tileCols);
  return cat("tile_dev::Staging<", s.cols, ", ", s.pad, ", ", s.vec, ", ", s.perPhase, ", ",
             s.maxPhase, blocks, ">");
}

/// Registers per shared-memory access of a tile of `type` into or out of `staging`.
int64_t codegen::stagedVector(Type type, const tilegpu::Staging &staging, unsigned numWarps) {
  std::optional<LinearLayout> layout = tilegpu::linearLayoutOf(type, numWarps);
  if (!layout)
    return 1;
  return tilegpu::stagedVector(*layout, staging,
                               tilegpu::elementBytes(cast<RankedTensorType>(type).getElementType()));
}

FailureOr<std::string> KernelEmitter::emitCombiner(Region &region, unsigned indent) {
  Block &block = region.front();
  size_t n = block.getNumArguments() / 2;
  std::string name = newName();
  std::string params;
  for (auto [k, arg] : llvm::enumerate(block.getArguments())) {
    FailureOr<std::string> ctype = elementType(region.getParentOp(), arg.getType());
    if (failed(ctype))
      return failure();
    std::string argName = newName();
    params += cat(k ? ", " : "", *ctype, k < n ? "& " : " ", argName);
    values[arg] = ValueInfo{argName};
  }
  Location loc = region.getParentOp()->getLoc();
  out.line(indent, cat("auto ", name, " = [&](", params, ") {"), loc);
  for (Operation &op : block) {
    if (auto yield = dyn_cast<tile::YieldOp>(op)) {
      // Through temporaries: a yielded value may be an accumulator assigned before it.
      std::string text, assign;
      for (auto [k, v] : llvm::enumerate(yield.getValues())) {
        std::string tmp = newName();
        text += cat("const auto ", tmp, " = ", scalar(v), "; ");
        assign += cat(scalar(block.getArgument(k)), " = ", tmp, "; ");
      }
      out.line(indent + 1, text + assign, op.getLoc());
      continue;
    }
    if (op.getNumRegions() == 0 && llvm::any_of(op.getResultTypes(), [](Type t) {
          return isa<RankedTensorType>(t);
        }))
      return op.emitError("a combiner computes with scalars only");
    if (failed(emitOp(op, indent + 1)))
      return failure();
  }
  out.line(indent, "};", loc);
  return name;
}

FailureOr<std::string> KernelEmitter::emitCombinerOperands(Operation *op, ValueRange sources,
                                                           Region &combiner, unsigned indent,
                                                           SmallVectorImpl<std::string> &arrays,
                                                           SmallVectorImpl<std::string> &types) {
  for (Value v : sources) {
    FailureOr<std::string> ctype = elementType(op, v.getType());
    if (failed(ctype))
      return failure();
    types.push_back(*ctype);
    arrays.push_back(array(v, indent, op->getLoc()));
  }
  return emitCombiner(combiner, indent);
}

FailureOr<int64_t> KernelEmitter::smemOffset(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(tilegpu::kSmemOffsetAttrName);
  if (!attr)
    return op->emitError() << "'" << op->getName()
                           << "' has no shared memory; run tilegpu-plan-shared-memory first";
  return attr.getInt();
}

/// `vN[i_] = ...` statements for the result tile of an exchange, with `index` the C++
/// expression of the source element's position for register `i_`.
LogicalResult KernelEmitter::emitShape(Operation &op, unsigned indent) {
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  FailureOr<ValueInfo> info = tileInfo(&op, resultType);
  FailureOr<std::string> ctype = elementType(&op, resultType);
  if (failed(info) || failed(ctype))
    return failure();
  Value source = op.getOperand(0);
  auto sourceType = cast<RankedTensorType>(source.getType());
  std::optional<unsigned> srcLayout = layoutIndex(sourceType);
  if (!srcLayout)
    return op.emitError("the source tile has no layout");
  const ValueInfo srcInfo = values.lookup(source);

  // A tile of one repeated scalar stays one under broadcast, reshape and permute (not under
  // extract, which may read zeros, nor cat, whose second operand may differ).
  if (srcInfo.broadcast && !isa<tile::ExtractOp, tile::CatOp>(op)) {
    info->broadcast = true;
    info->name = srcInfo.name;
    values[op.getResult(0)] = *info;
    return success();
  }

  const Layout &to = layouts[info->layout];
  const Layout &from = layouts[*srcLayout];
  if (std::optional<LogicalResult> done = emitWithinWarps(&op, source, indent))
    return *done;
  FailureOr<int64_t> base = smemOffset(&op);
  if (failed(base))
    return failure();
  std::string buffer = newName();
  // Cat and extract stage their tiles plainly; the others as tile-plan-shared-memory chose.
  bool staged = !isa<tile::CatOp, tile::ExtractOp>(op);
  tilegpu::Staging staging = tilegpu::stagingOf(&op, numWarps);
  std::string write =
      staged ? cat("tile_dev::to_shared_staged<", stagingText(staging), ", ",
                   stagedVector(sourceType, staging, numWarps), ">(")
             : std::string("tile_dev::to_shared(");
  std::string stage = cat(leadingBarrier(&op), *ctype, "* ", buffer, " = tile_dev::shared_at<",
                          *ctype, ">(", *base, "); ", write, buffer, ", ", from.thread, ", ",
                          array(source, indent, loc), ");");
  if (auto cat_ = dyn_cast<tile::CatOp>(op))
    stage += cat(" tile_dev::to_shared(", buffer, " + ", sourceType.getNumElements(), ", ",
                 from.thread, ", ", array(cat_.getRhs(), indent, loc), ");");
  out.line(indent, stage + " " + sync, loc);

  std::string shape = ixList(sourceType.getShape());
  std::string index;
  std::string prelude;
  if (isa<tile::ReshapeOp>(op)) {
    index = cat(to.thread, ".linear(i_)");
  } else if (isa<tile::BroadcastOp>(op)) {
    index = cat("tile_dev::broadcast_index<", shape, ">(", to.thread, ", i_)");
  } else if (auto permute = dyn_cast<tile::PermuteOp>(op)) {
    SmallVector<int64_t> perm(permute.getPerm().begin(), permute.getPerm().end());
    index = cat("tile_dev::permute_index<", shape, ", ", ixList(perm), ">(", to.thread, ", i_)");
  } else if (auto cat_ = dyn_cast<tile::CatOp>(op)) {
    index = cat("tile_dev::cat_index<", shape, ", ", cat_.getAxis(), ">(", to.thread, ", i_)");
  } else {
    auto extract = cast<tile::ExtractOp>(op);
    std::string at = newName();
    prelude = cat("const int64_t ", at, "[", resultType.getRank(), "] = {");
    for (auto [k, v] : llvm::enumerate(extract.getIndices()))
      prelude += cat(k ? ", " : "", scalar(v));
    prelude += "}; ";
    info->name = newName();
    out.line(indent,
             cat(prelude, *ctype, " ", info->name, "[", to.elems, "]; ",
                 "_Pragma(\"unroll\") for (int i_ = 0; i_ < ", to.elems,
                 "; ++i_) { const int64_t q_ = tile_dev::extract_index<", shape, ">(",
                 to.thread, ", i_, ", at, "); ", info->name, "[i_] = q_ < 0 ? ", *ctype,
                 "{} : ", buffer, "[q_]; }"),
             loc);
    values[op.getResult(0)] = *info;
    return success();
  }
  if (staged)
    index = cat(stagingText(staging), "::offset(", index, ")");
  info->name = newName();
  out.line(indent,
           cat(*ctype, " ", info->name, "[", to.elems, "]; ",
               "_Pragma(\"unroll\") for (int i_ = 0; i_ < ", to.elems, "; ++i_) ", info->name,
               "[i_] = ", buffer, "[", index, "];"),
           loc);
  values[op.getResult(0)] = *info;
  return success();
}

std::optional<LogicalResult> KernelEmitter::emitWithinWarps(Operation *op, Value source,
                                                            unsigned indent) {
  std::optional<tilegpu::ShapeMovement> move = tilegpu::planShapeMovement(op, numWarps);
  if (!move || move->kind == Movement::SharedMemory)
    return std::nullopt;
  Value result = op->getResult(0);
  FailureOr<ValueInfo> info = tileInfo(op, result.getType());
  FailureOr<std::string> ctype = elementType(op, result.getType());
  if (failed(info) || failed(ctype))
    return failure();
  const ValueInfo src = values.lookup(source);
  int64_t elems = layouts[info->layout].elems;
  if (auto cat = dyn_cast<tile::CatOp>(op)) {
    info->name = newName();
    std::string lhs = array(cat.getLhs(), indent, op->getLoc());
    std::string rhs = array(cat.getRhs(), indent, op->getLoc());
    std::optional<unsigned> operand = layoutIndex(cast<RankedTensorType>(source.getType()));
    if (!operand)
      return op->emitError("the source tile has no layout");
    out.line(indent, catText(*move, lhs, rhs, layouts[*operand].elems, *ctype, info->name, elems),
             op->getLoc());
  } else if (auto extract = dyn_cast<tile::ExtractOp>(op)) {
    info->name = newName();
    std::string src = array(extract.getSource(), indent, op->getLoc());
    out.line(indent, extractText(*move, extract, src, *ctype, info->name, elems), op->getLoc());
  } else if (src.broadcast) { // one repeated scalar stays one
    info->broadcast = true;
    info->name = src.name;
  } else {
    info->name = newName();
    std::string text = move->kind == Movement::WarpShuffle
                           ? warpShuffleText(*move, *ctype, info->name, src.name, elems)
                           : registerMoveText(*move, *ctype, info->name, src.name, elems);
    out.line(indent, text, op->getLoc());
  }
  values[result] = *info;
  return success();
}

std::string KernelEmitter::registerMoveText(const tilegpu::ShapeMovement &move, StringRef ctype,
                                            StringRef name, StringRef src, int64_t elems) {
  // Every thread already holds its elements: result register i is source register
  // span(i), the XOR of the bases of i's bits.
  return cat(ctype, " ", name, "[", elems, "]; _Pragma(\"unroll\") for (int i_ = 0; i_ < ", elems,
             "; ++i_) ", name, "[i_] = ", src, "[tile_dev::span<", ixList(move.registerBases),
             ">(i_)];");
}

std::string KernelEmitter::warpShuffleText(const tilegpu::ShapeMovement &move, StringRef ctype,
                                           StringRef name, StringRef src, int64_t elems) {
  const ShuffleMap &map = move.shuffle;
  std::string lane = newName(), pick = newName();
  // Register i_ of this thread is source register r_ ^ pick of lane from_ in its warp. In each
  // round every lane sends register r_ ^ j; the lanes whose pick is j keep what they receive.
  std::string head = cat("const int ", lane, " = int(tile_dev::span<", ixList(map.laneFromThread),
                         ">(", threadId, ")); ");
  std::string body = cat(name, "[i_] = tile_dev::shfl(", src, "[r_], from_);");
  if (move.shuffleRounds.size() > 1) {
    head += cat("const int ", pick, " = int(tile_dev::span<", ixList(map.regFromThread), ">(",
                threadId, ")); ");
    for (int64_t j : ArrayRef<int64_t>(move.shuffleRounds).drop_front())
      body += cat(" { const ", ctype, " s_ = tile_dev::shfl(", src, "[r_ ^ ", j, "], from_); if (",
                  pick, " == ", j, ") ", name, "[i_] = s_; }");
  }
  return cat(head, ctype, " ", name, "[", elems, "]; _Pragma(\"unroll\") for (int i_ = 0; i_ < ",
             elems, "; ++i_) { const int from_ = ", lane, " ^ int(tile_dev::span<",
             ixList(map.laneFromReg), ">(i_)); const int r_ = int(tile_dev::span<",
             ixList(map.regFromReg), ">(i_)); ", body, " }");
}

std::string KernelEmitter::catText(const tilegpu::ShapeMovement &move, StringRef lhs,
                                   StringRef rhs, int64_t top, StringRef ctype, StringRef name,
                                   int64_t elems) {
  // Source register r_ of the operands stacked: its highest bit `top` (the operands'
  // register count) says which operand holds it.
  return cat(ctype, " ", name, "[", elems, "]; _Pragma(\"unroll\") for (int i_ = 0; i_ < ", elems,
             "; ++i_) { const int r_ = int(tile_dev::span<", ixList(move.registerBases),
             ">(i_)); ", name, "[i_] = (r_ & ", top, ") ? ", rhs, "[r_ ^ ", top, "] : ", lhs,
             "[r_]; }");
}

std::string KernelEmitter::extractText(const tilegpu::ShapeMovement &move, tile::ExtractOp op,
                                       StringRef src, StringRef ctype, StringRef name,
                                       int64_t elems) {
  // The sub-tile's row-major number among the source's sub-tiles, or -1 outside them; the
  // registers of every sub-tile are tried in turn, so no register is indexed at run time.
  auto source = cast<RankedTensorType>(op.getSource().getType());
  auto result = cast<RankedTensorType>(op.getType());
  std::string number = newName(), inside, flat = "0";
  int64_t count = 1;
  for (auto [k, index] : llvm::enumerate(op.getIndices())) {
    int64_t along = source.getDimSize(k) / result.getDimSize(k);
    std::string i = scalar(index);
    inside += cat(k ? " && " : "", "int64_t(", i, ") >= 0 && int64_t(", i, ") < ", along);
    flat = cat("(", flat, ") * ", along, " + int64_t(", i, ")");
    count *= along;
  }
  return cat("const int ", number, " = (", inside, ") ? int(", flat, ") : -1; ", ctype, " ",
             name, "[", elems, "]; _Pragma(\"unroll\") for (int i_ = 0; i_ < ", elems,
             "; ++i_) { const int r_ = int(tile_dev::span<", ixList(move.registerBases),
             ">(i_)); ", name, "[i_] = ", ctype, "{}; _Pragma(\"unroll\") for (int f_ = 0; f_ < ",
             count, "; ++f_) if (", number, " == f_) ", name, "[i_] = ", src,
             "[r_ ^ int(tile_dev::span<", ixList(move.indexBases), ">(f_))]; }");
}

void KernelEmitter::bindTiles(ValueRange results, ArrayRef<std::string> names, unsigned layout) {
  for (auto [result, name] : llvm::zip(results, names)) {
    ValueInfo info{name};
    info.tile = true;
    info.layout = layout;
    values[result] = info;
  }
}

/// `f(a0, ..., b0, ...)` over parallel lists of accumulators and next values.
static std::string callCombiner(StringRef f, ArrayRef<std::string> acc,
                                ArrayRef<std::string> next) {
  std::string s = cat(f, "(");
  for (auto [k, a] : llvm::enumerate(acc))
    s += cat(k ? ", " : "", a);
  for (const std::string &b : next)
    s += cat(", ", b);
  return s + ");";
}

/// Applies the inits, if any: `acc = f(init, acc)` for the accumulators `acc`.
static std::string applyInits(StringRef f, ValueRange inits, ArrayRef<std::string> acc,
                              ArrayRef<std::string> types,
                              llvm::function_ref<std::string(Value)> scalar) {
  if (inits.empty())
    return "";
  std::string decl, assign;
  SmallVector<std::string> tmp;
  for (auto [k, init] : llvm::enumerate(inits)) {
    tmp.push_back(cat("c", k, "_"));
    decl += cat(types[k], " ", tmp.back(), " = ", scalar(init), "; ");
    assign += cat(acc[k], " = ", tmp.back(), "; ");
  }
  return cat(" { ", decl, callCombiner(f, tmp, acc), " ", assign, "}");
}

LogicalResult KernelEmitter::emitReduce(tile::ReduceOp op, unsigned indent) {
  Location loc = op.getLoc();
  int64_t axis = op.getAxis();
  auto srcType = cast<RankedTensorType>(op.getSources()[0].getType());
  std::optional<unsigned> srcIndex = layoutIndex(srcType);
  std::optional<tilegpu::ReducePlan> plan = tilegpu::planReduce(op, numWarps);
  if (!srcIndex || !plan)
    return op.emitError("cannot reduce along an axis that the operand's layout mixes with "
                        "another in one register, lane or warp bit");
  const Layout from = layouts[*srcIndex];
  int64_t results = srcType.getNumElements() / srcType.getDimSize(axis);
  int64_t keys = plan->keys;

  SmallVector<std::string> src, types, partial;
  FailureOr<std::string> f =
      emitCombinerOperands(op, op.getSources(), op.getCombiner(), indent, src, types);
  if (failed(f))
    return failure();

  // 1. Within the thread: register r joins the partial of its key (r without its bits along
  //    the axis); the first register of each key starts it.
  uint64_t keyMask = (uint64_t(from.elems) - 1) & ~plan->axisRegisters;
  std::string decl, first;
  SmallVector<std::string> pk, sr;
  for (size_t k = 0; k < src.size(); ++k) {
    partial.push_back(newName());
    decl += cat(types[k], " ", partial[k], "[", keys, "]; ");
    first += cat(partial[k], "[k_] = ", src[k], "[r_]; ");
    pk.push_back(partial[k] + "[k_]");
    sr.push_back(src[k] + "[r_]");
  }
  auto combineRegisters = [&](StringRef combine) {
    return cat("_Pragma(\"unroll\") for (int r_ = 0; r_ < ", from.elems,
               "; ++r_) { const int k_ = tile_dev::compress(r_, ", keyMask, "u); if ((r_ & ",
               plan->axisRegisters, ") == 0) { ", first, "} else ", combine, " }");
  };
  if (!plan->hardwareMinMax.empty()) {
    // One instruction per register; exactly again where a partial came out zero, the only
    // place where the hardware's choice between +0 and -0 can show.
    std::string zero = newName();
    out.line(indent,
             cat(decl,
                 combineRegisters(cat(pk[0], " = ", plan->hardwareMinMax, "(", pk[0], ", ",
                                      sr[0], ");")),
                 " bool ", zero, " = false; _Pragma(\"unroll\") for (int k_ = 0; k_ < ", keys,
                 "; ++k_) ", zero, " |= ", pk[0], " == 0.0f; if (", zero, ") { ",
                 combineRegisters(callCombiner(*f, pk, sr)), " }"),
             loc);
  } else {
    out.line(indent, cat(decl, combineRegisters(callCombiner(*f, pk, sr))), loc);
  }
  // 2. Across the lanes along the axis, by xor shuffles.
  for (unsigned mask : plan->laneMasks) {
    SmallVector<std::string> shuffled;
    for (const std::string &p : pk)
      shuffled.push_back(cat("tile_dev::shfl_xor(", p, ", ", mask, ")"));
    out.line(indent, cat("_Pragma(\"unroll\") for (int k_ = 0; k_ < ", keys, "; ++k_) ",
                         callCombiner(*f, pk, shuffled)),
             loc);
  }

  bool scalarResult = !isa<RankedTensorType>(op.getResult(0).getType());
  unsigned resultLayout = 0;
  if (!scalarResult) {
    FailureOr<ValueInfo> info = tileInfo(op, op.getResult(0).getType());
    if (failed(info))
      return failure();
    resultLayout = info->layout;
  }
  SmallVector<std::string> names, acc;
  std::string declare;
  int64_t resultElems = scalarResult ? 1 : layouts[resultLayout].elems;
  for (size_t k = 0; k < src.size(); ++k) {
    names.push_back(newName());
    declare += scalarResult ? cat(types[k], " ", names[k], "; ")
                            : cat(types[k], " ", names[k], "[", resultElems, "]; ");
    acc.push_back(scalarResult ? names[k] : names[k] + "[i_]");
  }
  auto inits = [&] {
    return applyInits(*f, op.getInits(), acc, types, [&](Value v) { return scalar(v); });
  };
  auto each = [&](StringRef body) {
    return scalarResult ? cat("{ ", body, " }")
                        : cat("_Pragma(\"unroll\") for (int i_ = 0; i_ < ", resultElems,
                              "; ++i_) { ", body, " }");
  };

  if (plan->inRegisters) {
    // 3. The result is what the shuffles left: register i holds key i.
    std::string body;
    for (size_t k = 0; k < src.size(); ++k)
      body += cat(acc[k], " = ", partial[k], scalarResult ? "[0]; " : "[i_]; ");
    out.line(indent, cat(declare, each(body + inits())), loc);
  } else {
    // 3. One partial per warp position along the axis through shared memory: written by one
    //    thread of each group of copies, at the warp's position and the key's result index.
    std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, 32 * numWarps);
    FailureOr<int64_t> base = smemOffset(op);
    if (!scratch || failed(base))
      return op.emitError("cannot place this reduction's shared memory");
    std::string where = "0";
    if (!scalarResult || plan->slice.getOutDims().size() > 0) {
      std::optional<unsigned> slice = layoutOf(plan->slice);
      if (!slice)
        return op.emitError("cannot address this reduction's partial results");
      where = cat(layouts[*slice].thread, ".linear(k_)");
    }
    SmallVector<std::string> shared;
    std::string stage = leadingBarrier(op), write;
    for (size_t k = 0; k < src.size(); ++k) {
      shared.push_back(newName());
      stage += cat(types[k], "* ", shared[k], " = tile_dev::shared_at<", types[k], ">(",
                   *base + scratch->parts[k].offset, "); ");
      write += cat(shared[k], "[w_ * ", results, " + ", where, "] = ", partial[k], "[k_]; ");
    }
    out.line(indent,
             cat(stage, "if ((", threadId, " & ", plan->writerMask,
                 "u) == 0) { const int64_t w_ = tile_dev::compress(", threadId, " / 32u, ",
                 plan->axisWarps, "u); _Pragma(\"unroll\") for (int k_ = 0; k_ < ", keys,
                 "; ++k_) { ", write, "} } ", sync),
             loc);
    // 4. Each result register combines the partials of the warps along the axis.
    std::string index = scalarResult ? "0" : cat(layouts[resultLayout].thread, ".linear(i_)");
    SmallVector<std::string> next;
    std::string init;
    for (size_t k = 0; k < src.size(); ++k) {
      init += cat(acc[k], " = ", shared[k], "[q_]; ");
      next.push_back(cat(shared[k], "[w_ * ", results, " + q_]"));
    }
    out.line(indent,
             cat(declare,
                 each(cat("const int64_t q_ = ", index, "; ", init, "for (int w_ = 1; w_ < ",
                          plan->warpsAlongAxis, "; ++w_) ", callCombiner(*f, acc, next),
                          inits()))),
             loc);
  }
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    ValueInfo info{names[k]};
    if (!scalarResult) {
      info.tile = true;
      info.layout = resultLayout;
    }
    values[result] = info;
  }
  return success();
}

LogicalResult KernelEmitter::emitScanInRegisters(tile::ScanOp op, const tilegpu::ScanPlan &plan,
                                                 unsigned indent) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getSources()[0].getType());
  std::optional<unsigned> layoutK = layoutIndex(type);
  if (!layoutK)
    return op.emitError("the scanned tile has no layout");
  SmallVector<std::string> src, types;
  FailureOr<std::string> f =
      emitCombinerOperands(op, op.getSources(), op.getCombiner(), indent, src, types);
  if (failed(f))
    return failure();
  const int64_t elems = layouts[*layoutK].elems;
  // q_ numbers a thread's lines (its keys, then its repeats along the axis), j_ the registers
  // of one line below the lanes; register span<Line>(q_) ^ span<Low>(j_) holds element j_.
  SmallVector<int64_t> lineBases(plan.keyRegisters);
  llvm::append_range(lineBases, plan.highRegisters);
  const int64_t lines = int64_t(1) << lineBases.size();
  const int64_t low = int64_t(1) << plan.lowRegisters.size();
  const int64_t keys = int64_t(1) << plan.keyRegisters.size();
  std::string reg = cat("int(tile_dev::span<", ixList(lineBases), ">(q_) ^ tile_dev::span<",
                        ixList(plan.lowRegisters), ">(");
  auto regAt = [&](StringRef j) { return cat(reg, j, "))"); };

  // 1. Each thread scans each of its lines' registers in order.
  SmallVector<std::string> res, total, acc, at, elem;
  std::string declare, scanLine, totals;
  for (size_t k = 0; k < src.size(); ++k) {
    res.push_back(newName());
    total.push_back(newName());
    acc.push_back(cat("a", k, "_"));
    at.push_back(cat(res[k], "[r_]"));
    elem.push_back(cat(res[k], "[r_]"));
    declare += cat(types[k], " ", res[k], "[", elems, "]; ");
    declare += cat("_Pragma(\"unroll\") for (int i_ = 0; i_ < ", elems, "; ++i_) ", res[k],
                   "[i_] = ", src[k], "[i_]; ");
    scanLine += cat(types[k], " a", k, "_ = ", res[k], "[p_]; ");
    totals += cat(types[k], " ", total[k], "[", lines, "]; ");
  }
  std::string store;
  for (size_t k = 0; k < src.size(); ++k)
    store += cat(res[k], "[r_] = a", k, "_; ");
  out.line(indent, declare, loc);
  if (low > 1)
    out.line(indent,
             cat("_Pragma(\"unroll\") for (int q_ = 0; q_ < ", lines,
                 "; ++q_) _Pragma(\"unroll\") for (int j_ = 1; j_ < ", low,
                 "; ++j_) { const int p_ = ", regAt("j_ - 1"), ", r_ = ", regAt("j_"), "; ",
                 scanLine, callCombiner(*f, acc, at), " ", store, "}"),
             loc);
  std::string lastOfLine;
  for (size_t k = 0; k < src.size(); ++k)
    lastOfLine += cat(total[k], "[q_] = ", res[k], "[", regAt(cat(low - 1)), "]; ");
  out.line(indent,
           cat(totals, "_Pragma(\"unroll\") for (int q_ = 0; q_ < ", lines, "; ++q_) { ",
               lastOfLine, "}"),
           loc);

  // 2. The lanes along the axis scan the threads' totals (Hillis-Steele, by shuffles), then
  //    each takes the inclusive total of the lane before it.
  std::string pos, before;
  SmallVector<std::string> exclusive;
  if (!plan.axisLanes.empty()) {
    uint64_t mask = 0;
    for (int64_t l : plan.axisLanes)
      mask |= uint64_t(l);
    const int64_t positions = int64_t(1) << plan.axisLanes.size();
    pos = newName();
    std::string lane = newName();
    out.line(indent,
             cat("const int ", lane, " = int(", threadId, " % 32u); const int ", pos,
                 " = tile_dev::compress(unsigned(", lane, "), ", mask, "u);"),
             loc);
    auto from = [&](int64_t d) {
      return cat("(", lane, " & ~", mask, ") | int(tile_dev::span<", ixList(plan.axisLanes),
                 ">((", pos, " - ", d, ") & ", positions - 1, "))");
    };
    for (int64_t d = 1; d < positions; d *= 2) {
      std::string shuffled, update;
      SmallVector<std::string> y, t;
      for (size_t k = 0; k < src.size(); ++k) {
        y.push_back(cat("y", k, "_"));
        t.push_back(cat(total[k], "[q_]"));
        shuffled += cat(types[k], " y", k, "_ = tile_dev::shfl(", total[k], "[q_], from_); ");
        update += cat(total[k], "[q_] = y", k, "_; ");
      }
      out.line(indent,
               cat("{ const int from_ = ", from(d), "; _Pragma(\"unroll\") for (int q_ = 0; q_ < ",
                   lines, "; ++q_) { ", shuffled, "if (", pos, " >= ", d, ") { ",
                   callCombiner(*f, y, t), " ", update, "} } }"),
               loc);
    }
    std::string take;
    for (size_t k = 0; k < src.size(); ++k) {
      exclusive.push_back(newName());
      take += cat(exclusive[k], "[q_] = tile_dev::shfl(", total[k], "[q_], from_); ");
      out.line(indent, cat(types[k], " ", exclusive[k], "[", lines, "]; "), loc);
    }
    out.line(indent,
             cat("{ const int from_ = ", from(1), "; _Pragma(\"unroll\") for (int q_ = 0; q_ < ",
                 lines, "; ++q_) { ", take, "} }"),
             loc);
    if (!plan.crossesWarps() && plan.repeats > 1) {
      // The whole of each repeat, from the last lane.
      std::string whole;
      for (size_t k = 0; k < src.size(); ++k)
        whole += cat(total[k], "[q_] = tile_dev::shfl(", total[k], "[q_], from_); ");
      out.line(indent,
               cat("{ const int from_ = ", lane, " | ", mask,
                   "; _Pragma(\"unroll\") for (int q_ = 0; q_ < ", lines, "; ++q_) { ", whole,
                   "} }"),
               loc);
    }
  }

  // 3. Warps and repeats along the axis: the last lane of each warp writes its lines' totals
  //    (one copy of each), and every thread combines those of the warps and repeats before
  //    its own, in order.
  SmallVector<std::string> shared;
  std::string warp = newName(), line = "0";
  if (plan.crossesWarps()) {
    std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, 32 * numWarps);
    FailureOr<int64_t> base = smemOffset(op);
    if (!scratch || failed(base))
      return op.emitError("cannot place this scan's shared memory");
    if (plan.slice.getOutDims().size() > 0) {
      std::optional<unsigned> slice = layoutOf(plan.slice);
      if (!slice)
        return op.emitError("cannot address this scan's line totals");
      line = cat(layouts[*slice].thread, ".linear(q_ & ", keys - 1, ")");
    }
    std::string stage = leadingBarrier(op), write;
    for (size_t k = 0; k < src.size(); ++k) {
      shared.push_back(newName());
      stage += cat(types[k], "* ", shared[k], " = tile_dev::shared_at<", types[k], ">(",
                   *base + scratch->parts[k].offset, "); ");
      write += cat(shared[k], "[e_] = ", total[k], "[q_]; ");
    }
    std::string writer = cat("(", threadId, " & ", plan.replicas, "u) == 0");
    if (!pos.empty())
      writer += cat(" && ", pos, " == ", (int64_t(1) << plan.axisLanes.size()) - 1);
    out.line(indent,
             cat(stage, "const int ", warp, " = tile_dev::compress(", threadId, " / 32u, ",
                 plan.axisWarps, "u); if (", writer, ") { _Pragma(\"unroll\") for (int q_ = 0; q_ < ",
                 lines, "; ++q_) { const int64_t e_ = int64_t((q_ / ", keys, ") * ",
                 plan.warpPositions, " + ", warp, ") * ", plan.lines, " + ", line, "; ", write,
                 "} } ", sync),
             loc);
  }

  // 4. Each element: the totals of the warps and repeats before it, then of the lanes before
  //    it, then its own scan in the thread; then the inits.
  std::string body = cat("_Pragma(\"unroll\") for (int q_ = 0; q_ < ", lines, "; ++q_) { ");
  SmallVector<std::string> carry, prefix;
  bool carries = plan.crossesWarps() || plan.repeats > 1;
  if (carries) {
    // The totals before this element's repeat and warp: entry e_ of its line, in order.
    std::string first;
    SmallVector<std::string> next;
    for (size_t k = 0; k < src.size(); ++k) {
      carry.push_back(cat("c", k, "w_"));
      if (plan.crossesWarps()) {
        first += cat(types[k], " c", k, "w_ = ", shared[k], "[line_]; ");
        next.push_back(cat(shared[k], "[e_ * ", plan.lines, " + line_]"));
      } else {
        first += cat(types[k], " c", k, "w_ = ", total[k], "[q_ % ", keys, "]; ");
        next.push_back(cat(total[k], "[q_ % ", keys, " + e_ * ", keys, "]"));
      }
    }
    if (plan.crossesWarps())
      body += cat("const int64_t line_ = ", line, "; const int before_ = (q_ / ", keys, ") * ",
                  plan.warpPositions, " + ", warp, "; ");
    else
      body += cat("const int before_ = q_ / ", keys, "; ");
    body += cat(first, "_Pragma(\"unroll\") for (int e_ = 1; e_ < before_; ++e_) ",
                callCombiner(*f, carry, next), " ");
  }
  body += cat("_Pragma(\"unroll\") for (int j_ = 0; j_ < ", low, "; ++j_) { const int r_ = ",
              regAt("j_"), "; ");
  auto applyPrefix = [&](ArrayRef<std::string> from, StringRef when) {
    std::string decl, assign;
    SmallVector<std::string> b;
    for (size_t k = 0; k < src.size(); ++k) {
      b.push_back(cat("b", k, "_"));
      decl += cat(types[k], " b", k, "_ = ", from[k], "; ");
      assign += cat(res[k], "[r_] = b", k, "_; ");
    }
    return cat("if (", when, ") { ", decl, callCombiner(*f, b, elem), " ", assign, "} ");
  };
  if (!exclusive.empty()) {
    for (size_t k = 0; k < src.size(); ++k)
      prefix.push_back(cat(exclusive[k], "[q_]"));
    body += applyPrefix(prefix, cat(pos, " > 0"));
  }
  if (carries)
    body += applyPrefix(carry, "before_ > 0");
  body += applyInits(*f, op.getInits(), elem, types, [&](Value v) { return scalar(v); });
  out.line(indent, body + " } }", loc);

  bindTiles(op.getResults(), res, *layoutK);
  return success();
}

LogicalResult KernelEmitter::emitScan(tile::ScanOp op, unsigned indent) {
  if (std::optional<tilegpu::ScanPlan> plan = tilegpu::planScan(op, numWarps))
    return emitScanInRegisters(op, *plan, indent);
  Location loc = op.getLoc();
  int64_t axis = op.getAxis();
  auto type = cast<RankedTensorType>(op.getSources()[0].getType());
  std::optional<unsigned> layoutK = layoutIndex(type);
  unsigned threads = 32 * numWarps;
  std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, threads);
  FailureOr<int64_t> base = smemOffset(op);
  if (!layoutK || !scratch || failed(base))
    return op.emitError("cannot place this scan's shared memory");
  const Layout layout = layouts[*layoutK];
  std::string t = layout.thread;

  SmallVector<std::string> src, types, data, carry;
  FailureOr<std::string> f =
      emitCombinerOperands(op, op.getSources(), op.getCombiner(), indent, src, types);
  if (failed(f))
    return failure();

  // Lines along the axis, each cut into `chunks` chunks of `chunk` elements; element j of
  // line l lies at row-major index at(l, j).
  tilegpu::ScanSplit split = tilegpu::scanSplit(type.getShape(), axis, threads);
  const int64_t length = type.getDimSize(axis);
  int64_t stride = 1;
  for (int64_t d : type.getShape().drop_front(axis + 1))
    stride *= d;
  const int64_t chunks = split.chunks, chunk = length / chunks, lines = split.lines;
  auto at = [&](StringRef l, StringRef j) {
    return cat("((", l, ") / ", stride, ") * ", length * stride, " + (", l, ") % ", stride,
               " + (", j, ") * ", stride);
  };
  std::string stage = leadingBarrier(op);
  for (size_t k = 0; k < src.size(); ++k) {
    data.push_back(newName());
    carry.push_back(newName());
    stage += cat(types[k], "* ", data[k], " = tile_dev::shared_at<", types[k], ">(",
                 *base + scratch->parts[k].offset, "); ", types[k], "* ", carry[k],
                 " = tile_dev::shared_at<", types[k], ">(",
                 *base + scratch->parts[k].carryOffset, "); tile_dev::to_shared(", data[k],
                 ", ", t, ", ", src[k], "); ");
  }
  out.line(indent, stage + sync, loc);

  // Chunks, each scanned in place by one thread.
  SmallVector<std::string> acc, atq, step;
  std::string load, store, loadLast, storeCarry;
  for (size_t k = 0; k < src.size(); ++k) {
    acc.push_back(cat("a", k, "_"));
    atq.push_back(cat(data[k], "[q_]"));
    load += cat(types[k], " a", k, "_ = ", data[k], "[p_]; ");
    store += cat(data[k], "[q_] = a", k, "_; ");
    loadLast += cat(types[k], " a", k, "_ = ", data[k], "[", at("l_", cat(chunk - 1)), "]; ");
    storeCarry += cat(carry[k], "[l_ * ", chunks, " + c_] = a", k, "_; ");
    step.push_back(cat(data[k], "[", at("l_", cat("(c_ + 1) * ", chunk, " - 1")), "]"));
  }
  out.line(indent,
           cat("for (int64_t u_ = ", threadId, "; u_ < ", lines * chunks, "; u_ += ", threads,
               ") { const int64_t l_ = u_ / ", chunks, ", c_ = u_ % ", chunks,
               "; for (int64_t j_ = c_ * ", chunk, " + 1; j_ < (c_ + 1) * ", chunk,
               "; ++j_) { const int64_t p_ = ", at("l_", "j_ - 1"), ", q_ = ", at("l_", "j_"),
               "; ", load, callCombiner(*f, acc, atq), " ", store, "} } ", sync),
           loc);
  // The chunk totals of each line, scanned into carries.
  if (chunks > 1)
    out.line(indent,
             cat("for (int64_t l_ = ", threadId, "; l_ < ", lines, "; l_ += ", threads, ") { ",
                 loadLast, "for (int64_t c_ = 1; c_ < ", chunks, "; ++c_) { ", storeCarry,
                 callCombiner(*f, acc, step), " } } ", sync),
             loc);
  // Each register: its element, after its chunk's carry.
  SmallVector<std::string> names, res;
  std::string declare, read, withCarry, assign;
  for (size_t k = 0; k < src.size(); ++k) {
    names.push_back(newName());
    res.push_back(names[k] + "[i_]");
    declare += cat(types[k], " ", names[k], "[", layout.elems, "]; ");
    read += cat(res[k], " = ", data[k], "[q_]; ");
    withCarry += cat(types[k], " a", k, "_ = ", carry[k], "[((q_ / ", length * stride, ") * ",
                     stride, " + q_ % ", stride, ") * ", chunks, " + c_]; ");
    assign += cat(res[k], " = a", k, "_; ");
  }
  out.line(indent,
           cat(declare, "_Pragma(\"unroll\") for (int i_ = 0; i_ < ", layout.elems,
               "; ++i_) { const int64_t q_ = ", t, ".linear(i_); ", read,
               "const int64_t c_ = ", t, ".coord(i_, ", axis, ") / ", chunk,
               "; if (c_ > 0) { ", withCarry, callCombiner(*f, acc, res), " ", assign, "}",
               applyInits(*f, op.getInits(), res, types, [&](Value v) { return scalar(v); }),
               " }"),
           loc);
  bindTiles(op.getResults(), names, *layoutK);
  return success();
}

LogicalResult KernelEmitter::emitMma(tile::MmaOp op, unsigned indent) {
  Location loc = op.getLoc();
  std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, 32 * numWarps);
  FailureOr<int64_t> base = smemOffset(op);
  FailureOr<ValueInfo> info = tileInfo(op, op.getType());
  if (!scratch || failed(base) || failed(info))
    return op.emitError("cannot place this mma's shared memory");
  RankedTensorType a = op.getA().getType(), b = op.getB().getType();
  FailureOr<std::string> in = elementType(op, tilegpu::mmaStagedType(a.getElementType()));
  if (failed(in))
    return failure();
  int64_t batch = a.getRank() == 3 ? a.getDimSize(0) : 1;
  int64_t r = a.getRank() - 2;
  int64_t m = a.getDimSize(r), k = a.getDimSize(r + 1), n = b.getDimSize(r + 1);

  SmallVector<std::string> buffers;
  std::string stage = leadingBarrier(op);
  Value operands[] = {op.getA(), op.getB(), op.getAcc()};
  for (auto [part, v] : llvm::zip(scratch->parts, operands)) {
    std::optional<unsigned> layout = layoutIndex(cast<RankedTensorType>(v.getType()));
    if (!layout)
      return op.emitError("an mma operand has no layout");
    Type element = getElementTypeOrSelf(v.getType());
    std::string ctype = *cppType(tilegpu::mmaStagedType(element));
    buffers.push_back(newName());
    bool roundInput = v != op.getAcc() && ctype == "float"; // TF32 inputs
    bool widen = ctype != *cppType(element);                // f8 inputs staged as f16
    stage += cat(ctype, "* ", buffers.back(), " = tile_dev::shared_at<", ctype, ">(",
                 *base + part.offset, "); tile_dev::",
                 roundInput ? "to_shared_tf32" : widen ? "to_shared_as" : "to_shared", "(",
                 buffers.back(), ", ", layouts[*layout].thread, ", ", array(v, indent, loc),
                 "); ");
  }
  out.line(indent, stage + sync, loc);
  out.line(indent,
           cat("tile_dev::mma_shared<", *in, ", ", batch, ", ", m, ", ", n, ", ", k, ", ",
               numWarps, ">(", buffers[0], ", ", buffers[1], ", ", buffers[2],
               ", threadIdx.x); ", sync),
           loc);
  const Layout &to = layouts[info->layout];
  info->name = newName();
  out.line(indent,
           cat("float ", info->name, "[", to.elems, "]; _Pragma(\"unroll\") for (int i_ = 0; i_ < ",
               to.elems, "; ++i_) ", info->name, "[i_] = ", buffers[2], "[", to.thread,
               ".linear(i_)];"),
           loc);
  values[op.getResult()] = *info;
  return success();
}

LogicalResult KernelEmitter::emitFragmentMma(tilegpu::MmaOp op, unsigned indent) {
  Location loc = op.getLoc();
  std::optional<unsigned> la = layoutIndex(op.getA().getType());
  std::optional<unsigned> lb = layoutIndex(op.getB().getType());
  FailureOr<ValueInfo> info = tileInfo(op, op.getType());
  if (!la || !lb || failed(info))
    return op.emitError("an mma fragment has no layout");
  const Layout &to = layouts[info->layout];
  info->name = newName();
  out.line(indent,
           cat("float ", info->name, "[", to.elems, "]; ",
               "_Pragma(\"unroll\") for (int i_ = 0; i_ < ", to.elems, "; ++i_) ", info->name,
               "[i_] = ", elem(op.getAcc()), "; tile_dev::mma_frag<", layouts[*la].alias, "_frag, ",
               layouts[*lb].alias, "_frag, ", to.alias, "_frag>(", array(op.getA(), indent, loc), ", ",
               array(op.getB(), indent, loc), ", ", info->name, ");"),
           loc);
  values[op.getResult()] = *info;
  return success();
}

LogicalResult KernelEmitter::emitConvertLayout(tilegpu::ConvertLayoutOp op, unsigned indent) {
  Location loc = op.getLoc();
  FailureOr<ValueInfo> info = tileInfo(op, op.getType());
  FailureOr<std::string> ctype = elementType(op, op.getType());
  std::optional<unsigned> from = layoutIndex(op.getSrc().getType());
  if (failed(info) || failed(ctype) || !from)
    return op.emitError("a layout conversion needs layouts on both sides");
  const ValueInfo src = values.lookup(op.getSrc());
  if (src.broadcast) {
    info->broadcast = true;
    info->name = src.name;
    values[op.getResult()] = *info;
    return success();
  }
  bool ldmatrix = tilegpu::convertsToLdmatrix(op);
  if (!ldmatrix)
    if (std::optional<LogicalResult> done = emitWithinWarps(op, op.getSrc(), indent))
      return *done;
  tilegpu::Staging staging = tilegpu::stagingOf(op, numWarps);
  FailureOr<int64_t> base = smemOffset(op);
  if (failed(base))
    return failure();
  const Layout &to = layouts[info->layout];
  std::string buffer = newName();
  info->name = newName();
  std::string write, read;
  if (ldmatrix) {
    write = cat("tile_dev::to_shared_padded<", staging.pad, ">(");
    read = cat("tile_dev::ldmatrix_operand<", to.alias, "_frag, ", stagingText(staging), ">(",
               info->name, ", ", threadId,
               ", ", buffer, ");");
  } else {
    write = cat("tile_dev::to_shared_staged<", stagingText(staging), ", ",
                stagedVector(op.getSrc().getType(), staging, numWarps), ">(");
    read = cat("tile_dev::from_shared_staged<", stagingText(staging), ", ",
               stagedVector(op.getType(), staging, numWarps), ">(", info->name, ", ", to.thread, ", ",
               buffer, ");");
  }
  out.line(indent,
           cat(leadingBarrier(op), *ctype, "* ", buffer, " = tile_dev::shared_at<", *ctype, ">(",
               *base, "); ", write, buffer, ", ", layouts[*from].thread, ", ",
               array(op.getSrc(), indent, loc), "); ", sync, " ", *ctype, " ", info->name,
               "[", to.elems, "]; ", read),
           loc);
  values[op.getResult()] = *info;
  return success();
}
