//===- EmitBuffers.cpp - shared-memory ring buffers and async copies -----------===//
//
// A `tilegpu.alloc_buffer` is a pointer into the dynamic shared memory at its planned offset;
// a stage is that pointer plus the stage number times the stage's elements. Async copies,
// their commits and waits, fences and barriers print as the tile_dev intrinsics of the same
// names; a `local_load` reads its stage in the result's layout (ldmatrix for 16-bit mma
// operands), a `restage` rewrites a stage in another layout (tile_dev::restage), and a
// `warpgroup_mma` multiplies two stages (wgmma on sm_90a) until its `warpgroup_wait`.
// Where each element of a stage lies is tilegpu::bufferStaging, printed as tile_dev::Staging.
// Memory barriers print as tile_dev's mbarrier intrinsics; a `tilegpu.producer` is a branch
// taken by the warps after the program's, which ends with them leaving the kernel. Tensor maps
// are kernel parameters the launcher builds (tile_dev::tensor_map); their copies and the
// barriers expecting their bytes print as tile_dev::tensor_map_copy and barrier_expect; a
// store through a map as tile_dev::tensor_map_store.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::codegen;

/// The C++ expression of stage `stage` of `buffer`.
std::string KernelEmitter::stagePointer(Value buffer, Value stage) {
  auto type = cast<tilegpu::BufferType>(buffer.getType());
  return cat("(", scalar(buffer), " + ", scalar(stage), " * ", type.getStageElements(), ")");
}

LogicalResult KernelEmitter::emitBufferOp(Operation &op, unsigned indent) {
  Location loc = op.getLoc();
  if (auto alloc = dyn_cast<tilegpu::AllocBufferOp>(op)) {
    auto type = alloc.getType();
    FailureOr<std::string> ctype = elementType(&op, type.getTile());
    FailureOr<int64_t> base = smemOffset(&op);
    if (failed(ctype) || failed(base))
      return failure();
    std::string name = newName();
    out.line(indent, cat(*ctype, "* const ", name, " = tile_dev::shared_at<", *ctype, ">(", *base,
                         ");"),
             loc);
    values[alloc.getResult()] = ValueInfo{name};
    return success();
  }
  if (auto alloc = dyn_cast<tilegpu::AllocBarriersOp>(op)) {
    FailureOr<int64_t> base = smemOffset(&op);
    if (failed(base))
      return failure();
    std::string name = newName();
    out.line(indent, cat("uint64_t* const ", name, " = tile_dev::shared_at<uint64_t>(", *base,
                         "); tile_dev::init_barriers<", alloc.getType().getCount(), ", ",
                         alloc.getArrivals(), "u>(", name, ");"),
             loc);
    values[alloc.getResult()] = ValueInfo{name};
    return success();
  }
  if (auto wait = dyn_cast<tilegpu::BarrierWaitOp>(op)) {
    out.line(indent, cat("tile_dev::barrier_wait(", barrierPointer(wait.getBarriers(),
                         wait.getIndex()), ", ", scalar(wait.getParity()), ");"),
             loc);
    return success();
  }
  if (auto arrive = dyn_cast<tilegpu::BarrierArriveOp>(op)) {
    out.line(indent, cat("tile_dev::barrier_arrive(",
                         barrierPointer(arrive.getBarriers(), arrive.getIndex()), ");"),
             loc);
    return success();
  }
  if (auto arrive = dyn_cast<tilegpu::AsyncCopyArriveOp>(op)) {
    out.line(indent, cat("tile_dev::async_copy_arrive(",
                         barrierPointer(arrive.getBarriers(), arrive.getIndex()), ");"),
             loc);
    return success();
  }
  if (isa<tilegpu::TensorMapOp>(op)) // a kernel parameter (emitSignature)
    return success();
  if (auto expect = dyn_cast<tilegpu::BarrierExpectOp>(op)) {
    out.line(indent, cat("tile_dev::barrier_expect<", expect.getBytes(), ">(",
                         barrierPointer(expect.getBarriers(), expect.getIndex()), ", ",
                         producerThread, ");"),
             loc);
    return success();
  }
  if (auto copy = dyn_cast<tilegpu::TensorMapCopyOp>(op)) {
    tilegpu::TensorMapType type = copy.getMap().getType();
    std::optional<tilegpu::TensorMapBox> box =
        tilegpu::tensorMapBox(type.getTile(), type.getLayout());
    if (!box)
      return op.emitError("a tensor map copy CodeGen cannot print");
    out.line(indent, cat("tile_dev::tensor_map_copy<", box->rows, ", ", box->cols, ", ",
                         box->blocks, box->columnMajor ? ", true" : "", ">(",
                         stagePointer(copy.getBuffer(), copy.getStage()), ", ",
                         scalar(copy.getMap()), ", ", braced(copy.getOffsets()), ", ",
                         barrierPointer(copy.getBarriers(), copy.getIndex()), ", ",
                         producerThread, ");"),
             loc);
    return success();
  }
  if (auto store = dyn_cast<tilegpu::TensorMapStoreOp>(op)) {
    const ValueInfo in = values.lookup(store.getValue());
    if (!in.tile)
      return op.emitError("a tensor map store of a tile without registers");
    std::string source = array(store.getValue(), indent, loc);
    out.line(indent,
             cat("tile_dev::tensor_map_store<",
                 stagingText(tilegpu::bufferStaging(store.getBuffer().getType())), ", ",
                 32 * numWarps, ">(", source, ", ", layouts[in.layout].thread, ", ",
                 scalar(store.getBuffer()), ", ", scalar(store.getMap()), ", ",
                 braced(store.getOffsets()), ");"),
             loc);
    return success();
  }
  if (auto producer = dyn_cast<tilegpu::ProducerOp>(op)) {
    // The producer warps follow the program's: they run the region and leave; the program's
    // warps take the registers they gave up.
    unsigned programThreads = 32 * numWarps;
    out.line(indent, cat("if (threadIdx.x >= ", programThreads, "u) {"), loc);
    if (std::optional<uint32_t> regs = producer.getRegisters())
      out.line(indent + 1, cat("tile_dev::set_registers<false, ", *regs, ">();"));
    producerThread = newName();
    out.line(indent + 1, cat("const unsigned ", producerThread, " = threadIdx.x - ",
                             programThreads, "u;"));
    if (failed(emitBlock(producer.getBody().front(), indent + 1)))
      return failure();
    producerThread.clear();
    out.line(indent + 1, "return;");
    out.line(indent, "}");
    if (std::optional<uint32_t> regs = producer.getConsumerRegisters())
      out.line(indent, cat("tile_dev::set_registers<true, ", *regs, ">();"));
    return success();
  }
  if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op)) {
    auto tile = cast<RankedTensorType>(copy.getTile());
    std::optional<unsigned> layout = layoutIndex(tile);
    if (!layout)
      return op.emitError("an async copy needs the layout that deals its elements");
    if (failed(checkVector(op, tile, copy.getVector())))
      return failure();
    AccessWindow w = accessWindow(copy.getView(), tile.getRank(), copy.getOffsets(),
                                  copy.getStarts(), copy.getBounds(), indent, loc);
    // In a producer region each producer thread copies for the program's threads it stands
    // for: producer thread p for program threads p, p + P, ... (P producer threads).
    std::string thread = layouts[*layout].thread, loop;
    if (!producerThread.empty()) {
      unsigned producerThreads = 32 * producerWarps;
      unsigned turns = std::max(1u, 32 * numWarps / producerThreads);
      loop = cat("_Pragma(\"unroll\") for (unsigned p_ = 0; p_ < ", turns, "u; ++p_) ");
      thread = cat("tile_dev::Thread<", layouts[*layout].alias, ">(", producerThread, " + p_ * ",
                   producerThreads, "u)");
    }
    std::string fit = fitArgument(copy.getWhole(), copy.getRuns());
    if (copy.getRoundTf32())
      fit = cat(fit.empty() ? ", tile_dev::kFitAny" : fit, ", true");
    out.line(indent,
             cat(loop, "tile_dev::async_copy<", copy.getVector(), ", ",
                 stagingText(tilegpu::bufferStaging(copy.getBuffer().getType())), ", ",
                 copy.getAligned() ? "true" : "false", fit, ">(",
                 stagePointer(copy.getBuffer(), copy.getStage()), ", ", w.view, ", ", thread,
                 ", ", w.offsets, ", ", w.starts, ", ", w.bounds, ");"),
             loc);
    return success();
  }
  if (isa<tilegpu::AsyncCommitOp>(op)) {
    out.line(indent, "tile_dev::async_commit();", loc);
    return success();
  }
  if (auto wait = dyn_cast<tilegpu::AsyncWaitOp>(op)) {
    out.line(indent, cat("tile_dev::async_wait<", wait.getPending(), ">();"), loc);
    return success();
  }
  if (isa<tilegpu::BarrierOp>(op)) {
    out.line(indent, sync, loc);
    return success();
  }
  if (auto restage = dyn_cast<tilegpu::RestageOp>(op)) {
    tilegpu::BufferType src = restage.getSrc().getType(), dst = restage.getDst().getType();
    RankedTensorType tile = src.getTile();
    out.line(indent,
             cat("tile_dev::restage<", stagingText(tilegpu::bufferStaging(src)), ", ",
                 stagingText(tilegpu::bufferStaging(dst)), ", ", tile.getDimSize(0), ", ",
                 tile.getDimSize(1), ", ", restage.getRoundTf32() ? "true" : "false", ", ",
                 32 * numWarps, "u>(", stagePointer(restage.getDst(), restage.getDstStage()),
                 ", ", stagePointer(restage.getSrc(), restage.getSrcStage()), ", ", threadId,
                 ");"),
             loc);
    return success();
  }
  if (isa<tilegpu::FenceAsyncSharedOp>(op)) {
    out.line(indent, "tile_dev::fence_async_shared();", loc);
    return success();
  }
  if (isa<tilegpu::TurnWaitOp, tilegpu::TurnPassOp>(op)) {
    if (numWarps % 4 != 0 || numWarps < 8)
      return op.emitError("warpgroups take turns in a program of two or more warpgroups");
    bool once = op.hasAttr("once");
    out.line(indent, cat("tile_dev::", isa<tilegpu::TurnWaitOp>(op) ? "turn_wait" : "turn_pass",
                         "<", numWarps / 4, once ? ", true" : "", ">();"),
             loc);
    return success();
  }
  if (auto mma = dyn_cast<tilegpu::WarpgroupMmaOp>(op)) {
    // A loop-carried accumulator used by nothing else is multiplied in place: no register of
    // an in-flight group is written by other instructions (ptxas would serialize the wgmma).
    auto carried = dyn_cast<BlockArgument>(mma.getAcc());
    bool inPlace = carried && isa<scf::ForOp>(carried.getOwner()->getParentOp()) &&
                   carried.hasOneUse() && values.count(carried);
    FailureOr<ValueInfo> info = inPlace ? FailureOr<ValueInfo>(values[carried])
                                        : declareMutable(mma.getType(), indent, loc, mma.getAcc());
    if (failed(info))
      return failure();
    const Layout &to = layouts[info->layout];
    std::string b = stagingText(tilegpu::bufferStaging(mma.getB().getType()));
    if (mma.aInRegisters()) {
      std::optional<unsigned> la = layoutIndex(mma.getATile());
      if (!la)
        return op.emitError("a warpgroup mma's A operand has no registers");
      // A's registers, packed in pairs, are read until the wait: they live until then.
      std::string packed = newName();
      out.line(indent,
               cat("uint32_t ", packed, "[", layouts[*la].elems / 2, "]; tile_dev::pack_pairs(",
                   packed, ", ", array(mma.getA(), indent, loc), "); ",
                   "tile_dev::warpgroup_mma_rs<", to.alias, "_frag, ", layouts[*la].alias,
                   "_frag, ", b, ">(", info->name, ", ", packed, ", ",
                   stagePointer(mma.getB(), mma.getBStage()), ", ", threadId, ");"),
               loc);
      operandsInFlight[mma.getResult()] = packed;
    } else {
      out.line(indent,
               cat("tile_dev::warpgroup_mma<", to.alias, "_frag, ",
                   stagingText(tilegpu::bufferStaging(cast<tilegpu::BufferType>(mma.getA().getType()))),
                   ", ", b, ">(", info->name, ", ", stagePointer(mma.getA(), mma.getAStage()),
                   ", ", stagePointer(mma.getB(), mma.getBStage()), ", ", threadId, ");"),
               loc);
    }
    values[mma.getResult()] = *info;
    return success();
  }
  if (auto wait = dyn_cast<tilegpu::WarpgroupWaitOp>(op)) {
    // The result is the accumulator's registers, ready (a broadcast gets registers first).
    auto it = values.find(wait.getAcc());
    if (it == values.end() || !it->second.tile)
      return op.emitError("a warpgroup wait of an accumulator without registers");
    ValueInfo acc = it->second;
    if (acc.broadcast) {
      FailureOr<ValueInfo> regs = declareMutable(wait.getType(), indent, loc, wait.getAcc());
      if (failed(regs))
        return failure();
      acc = *regs;
    }
    std::string keep;
    if (auto it = operandsInFlight.find(wait.getAcc()); it != operandsInFlight.end())
      keep = cat(" tile_dev::detail::pin_registers(", it->second, ");");
    out.line(indent,
             cat("tile_dev::warpgroup_wait<", wait.getPending(), ">(", acc.name, ");", keep), loc);
    values[wait.getResult()] = acc;
    return success();
  }
  auto load = cast<tilegpu::LocalLoadOp>(op);
  FailureOr<ValueInfo> info = tileInfo(&op, load.getType());
  FailureOr<std::string> ctype = elementType(&op, load.getType());
  if (failed(info) || failed(ctype))
    return failure();
  auto bufferType = load.getBuffer().getType();
  tilegpu::Staging staging = tilegpu::bufferStaging(bufferType);
  const Layout &to = layouts[info->layout];
  info->name = newName();
  std::string from = stagePointer(load.getBuffer(), load.getStage());
  std::string read;
  auto dot = dyn_cast<tilegpu::DotOperandLayoutAttr>(load.getType().getEncoding());
  if (dot && dot.getKWidth() == 2)
    read = cat("tile_dev::ldmatrix_operand<", to.alias, "_frag, ", stagingText(staging), ">(",
               info->name, ", ", threadId, ", ", from, ");");
  else
    read = cat("tile_dev::from_shared_staged<", stagingText(staging), ", ",
               stagedVector(load.getType(), staging, numWarps), ">(", info->name, ", ", to.thread,
               ", ", from, ");");
  out.line(indent, cat(*ctype, " ", info->name, "[", to.elems, "]; ", read), loc);
  values[load.getResult()] = *info;
  return success();
}
