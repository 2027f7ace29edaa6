//===- CudaEmitter.cpp - tilegpu kernels to CUDA C++: module and skeleton ------===//
//
// For each `tile.kernel` function: the layout aliases, the `__global__` kernel (its statements
// come from EmitOps.cpp), the host launcher and the registration with the runtime
// (tile/detail/abi.hpp). See KernelEmitter.h for how values are spelled.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilecc/Dialect/TileGPU/RegisterPressure.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace tilecc;
using namespace tilecc::codegen;

//===----------------------------------------------------------------------===//
// Printer and source locations
//===----------------------------------------------------------------------===//

std::optional<SrcLoc> tilecc::codegen::srcLocOf(Location loc) {
  if (auto file = llvm::dyn_cast<FileLineColLoc>(loc))
    return SrcLoc{file.getFilename().str(), file.getLine()};
  if (auto name = llvm::dyn_cast<NameLoc>(loc))
    return srcLocOf(name.getChildLoc());
  if (auto call = llvm::dyn_cast<CallSiteLoc>(loc)) // code inlined from a callee
    return srcLocOf(call.getCallee());
  if (auto fused = llvm::dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (std::optional<SrcLoc> found = srcLocOf(part))
        return found;
  if (auto opaque = llvm::dyn_cast<OpaqueLoc>(loc))
    return srcLocOf(opaque.getFallbackLocation());
  return std::nullopt;
}

std::string tilecc::codegen::quoted(StringRef text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    s += c;
  }
  return s + "\"";
}

std::string tilecc::codegen::identifier(StringRef text) {
  std::string s;
  for (char c : text)
    s += llvm::isAlnum(c) ? c : '_';
  if (s.empty() || llvm::isDigit(s[0]))
    s = "_" + s;
  return s;
}

void Printer::line(unsigned indent, StringRef text, std::optional<SrcLoc> loc) {
  bool located = options.lineDirectives && loc && loc->line > 0;
  // Consecutive statements from one source line share one output line, so the mapping stays
  // exact without a directive per statement.
  if (located && joinable && mapped && loc->file == curFile && loc->line + 1 == curLine &&
      !buffer.empty() && buffer.back() == '\n') {
    buffer.pop_back();
    buffer += ' ';
    buffer += text;
    buffer += '\n';
    return;
  }
  if (located && (!mapped || loc->file != curFile || loc->line != curLine)) {
    buffer += cat("#line ", loc->line, " ", quoted(loc->file), "\n");
    ++nextLine;
    mapped = true;
    curFile = loc->file;
    curLine = loc->line;
  }
  buffer.append(2 * indent, ' ');
  buffer += text;
  buffer += '\n';
  ++nextLine;
  ++curLine;
  joinable = located;
}

void Printer::backToGenerated() {
  if (!mapped || options.generatedFileName.empty())
    return;
  // The directive occupies line `nextLine`; the line after it is `nextLine + 1`.
  buffer += cat("#line ", nextLine + 1, " ", quoted(options.generatedFileName), "\n");
  ++nextLine;
  mapped = false;
  joinable = false;
}

//===----------------------------------------------------------------------===//
// Types and literals
//===----------------------------------------------------------------------===//

std::optional<std::string> tilecc::codegen::cppType(Type type) {
  if (type.isIndex())
    return std::string("int64_t");
  if (type.isF32())
    return std::string("float");
  if (type.isF64())
    return std::string("double");
  if (type.isF16())
    return std::string("__half");
  if (type.isBF16())
    return std::string("__nv_bfloat16");
  if (isa<Float8E4M3FNType>(type))
    return std::string("__nv_fp8_e4m3");
  if (isa<Float8E5M2Type>(type))
    return std::string("__nv_fp8_e5m2");
  if (auto complex = dyn_cast<ComplexType>(type); complex && complex.getElementType().isF32())
    return std::string("tile_dev::cfloat");
  if (auto integer = llvm::dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1:
      return std::string("bool");
    case 8:
    case 16:
    case 32:
    case 64:
      return cat("int", integer.getWidth(), "_t");
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string tilecc::codegen::cppUnsignedType(Type type) {
  if (type.isIndex())
    return "uint64_t";
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 1)
    return "bool";
  return cat("uint", width, "_t");
}

bool tilecc::codegen::isLowFloat(Type type) {
  return type.isF16() || type.isBF16() || isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

std::string tilecc::codegen::literal(const APInt &value, Type type) {
  if (type.isInteger(1))
    return value.isZero() ? "false" : "true";
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  int64_t v = value.sextOrTrunc(64).getSExtValue();
  if (width < 64)
    v = APInt(64, uint64_t(v)).trunc(width).getSExtValue();
  if (width == 64 && v == INT64_MIN)
    return "INT64_MIN";
  if (width == 32 && v == INT32_MIN)
    return "(-2147483647 - 1)";
  if (v < 0)
    return cat("(", v, ")");
  return cat(v);
}

std::string tilecc::codegen::literal(const APFloat &value, Type type) {
  std::optional<std::string> ctype = cppType(type);
  APInt bits = value.bitcastToAPInt();
  auto fromBits = [&] {
    return cat("tile_dev::from_bits<", *ctype, ">(0x", llvm::toString(bits, 16, false),
               bits.getBitWidth() > 32 ? "ull" : "u", ")");
  };
  if (!value.isFinite() || isLowFloat(type) || !(type.isF32() || type.isF64()))
    return fromBits();
  char text[64];
  if (type.isF32())
    std::snprintf(text, sizeof text, "%.9g", double(value.convertToFloat()));
  else
    std::snprintf(text, sizeof text, "%.17g", value.convertToDouble());
  std::string s = text;
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  if (type.isF32())
    s += "f";
  if (s[0] == '-')
    return "(" + s + ")";
  return s;
}

//===----------------------------------------------------------------------===//
// Kernel skeleton
//===----------------------------------------------------------------------===//

static std::string joinInts(ArrayRef<int64_t> xs) {
  std::string s;
  for (auto [k, x] : llvm::enumerate(xs))
    s += cat(k ? ", " : "", x);
  return s;
}

static StringRef stringAttr(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<StringAttr>(name))
    return attr.getValue();
  return {};
}

RankedTensorType KernelEmitter::layoutKey(RankedTensorType type) {
  return RankedTensorType::get(type.getShape(), IntegerType::get(type.getContext(), 8),
                               type.getEncoding());
}

std::optional<unsigned> KernelEmitter::layoutIndex(RankedTensorType type) const {
  auto it = byType.find(layoutKey(type));
  if (it == byType.end())
    return std::nullopt;
  return it->second;
}

/// Checks a layout is one the device library can apply to `shape` in a block of `numWarps`.
static LogicalResult checkLayout(Operation *op, Attribute layout, ArrayRef<int64_t> shape,
                                 unsigned numWarps) {
  auto mismatch = [&](unsigned warps) -> LogicalResult {
    return op->emitError() << "layout " << layout << " spreads over " << warps
                           << " warps but the kernel has " << numWarps;
  };
  if (auto mma = llvm::dyn_cast<tilegpu::MmaLayoutAttr>(layout)) {
    if (!mma.fits(shape))
      return op->emitError() << "layout " << layout << " does not tile shape ["
                             << joinInts(shape) << "] in whole instruction tiles";
    return numWarps % mma.getNumWarps() == 0 ? success() : mismatch(mma.getNumWarps());
  }
  if (auto dot = llvm::dyn_cast<tilegpu::DotOperandLayoutAttr>(layout)) {
    if (!dot.fits(shape))
      return op->emitError() << "layout " << layout << " does not tile shape ["
                             << joinInts(shape) << "] in whole instruction tiles";
    unsigned warps = dot.getParent().getNumWarps();
    return numWarps % warps == 0 ? success() : mismatch(warps);
  }
  if (auto linear = llvm::dyn_cast<tilegpu::LinearLayoutAttr>(layout)) {
    if (!linear.fits(shape))
      return op->emitError() << "layout " << layout << " does not cover shape ["
                             << joinInts(shape) << "] exactly";
    return linear.getNumWarps() <= numWarps ? success() : mismatch(linear.getNumWarps());
  }
  auto attr = llvm::dyn_cast<tilegpu::BlockedLayoutAttr>(layout);
  if (!attr)
    return success(); // a slice: its parent's checks hold, and its form is exact
  if (attr.getRank() != shape.size())
    return op->emitError() << "layout rank " << attr.getRank() << " differs from the rank "
                           << shape.size() << " of the tile";
  if (!attr.fits(shape))
    return op->emitError() << "layout " << attr << " does not tile shape [" << joinInts(shape)
                           << "] evenly";
  return attr.getNumWarps() == numWarps ? success() : mismatch(attr.getNumWarps());
}

/// The tile_dev::Linear form of a linear layout: the row-major index each register bit and
/// each thread bit (lanes, then warps) adds.
static std::string deviceLayout(const LinearLayout &ll, unsigned threads) {
  auto list = [&](ArrayRef<uint64_t> xs) {
    std::string s = "tile_dev::Ix<";
    for (auto [k, x] : llvm::enumerate(xs))
      s += cat(k ? ", " : "", x);
    return s + ">";
  };
  SmallVector<uint64_t> thread(ll.getBases(kLane));
  llvm::append_range(thread, ll.getBases(kWarp));
  SmallVector<int64_t> shape = ll.getOutShape();
  if (shape.empty())
    shape.push_back(1);
  return cat("tile_dev::Linear<tile_dev::Ix<", joinInts(shape), ">, ", threads, ", ",
             list(ll.getBases(kRegister)), ", ", list(thread), ">");
}

/// The instruction tiles of an mma or dot operand layout over `shape`, for mma_frag and
/// ldmatrix_operand; empty for other layouts, and for an accumulator layout over a unit axis
/// (a reduction's result broadcast back), which no mma reads.
static std::string fragmentShape(Attribute layout, ArrayRef<int64_t> shape, unsigned numWarps) {
  auto grid = [&](tilegpu::MmaLayoutAttr mma) {
    ArrayRef<unsigned> w = mma.getWarpsPerBlock();
    return cat(w[w.size() - 2], ", ", w.back(), ", ", numWarps);
  };
  std::string ix = cat("tile_dev::Ix<", joinInts(shape), ">");
  if (auto mma = llvm::dyn_cast<tilegpu::MmaLayoutAttr>(layout))
    return llvm::is_contained(shape.take_back(2), 1)
               ? ""
               : cat("tile_dev::MmaAcc<", ix, ", ", grid(mma), ">");
  if (auto dot = llvm::dyn_cast<tilegpu::DotOperandLayoutAttr>(layout))
    return cat("tile_dev::MmaOperand<", ix, ", ", dot.getOpIdx(), ", ", dot.getKWidth(), ", ",
               grid(dot.getParent()), ">");
  return "";
}

std::optional<unsigned> KernelEmitter::layoutOf(const LinearLayout &ll, StringRef frag) {
  // Layouts that map alike share an entry, except two mma fragments of different kinds (an
  // accumulator and an operand can place a small tile's elements alike).
  for (auto [k, layout] : llvm::enumerate(layouts)) {
    if (layout.ll != ll || (!frag.empty() && !layout.frag.empty() && layout.frag != frag))
      continue;
    if (layout.frag.empty())
      layout.frag = frag.str();
    return unsigned(k);
  }
  if (!ll.hasDisjointBits())
    return std::nullopt;
  Layout layout;
  layout.ll = ll;
  layout.frag = frag.str();
  layout.elems = ll.getInSize(kRegister);
  layout.alias = cat(sym, "_L", layouts.size());
  layout.thread = cat("t", layouts.size());
  layouts.push_back(layout);
  return unsigned(layouts.size() - 1);
}

LogicalResult KernelEmitter::collectLayouts() {
  LogicalResult result = success();
  auto visit = [&](Operation *op, Type type) {
    auto tensor = llvm::dyn_cast<RankedTensorType>(type);
    if (!tensor || failed(result) || layoutIndex(tensor))
      return;
    Attribute attr = tensor.getEncoding();
    if (!llvm::isa_and_nonnull<tilegpu::BlockedLayoutAttr, tilegpu::MmaLayoutAttr,
                               tilegpu::DotOperandLayoutAttr, tilegpu::SliceLayoutAttr,
                               tilegpu::LinearLayoutAttr>(attr)) {
      result = op->emitError() << "tile value of type " << tensor
                               << " has no layout; run tile-assign-layouts before CodeGen";
      return;
    }
    if (failed(checkLayout(op, attr, tensor.getShape(), numWarps))) {
      result = failure();
      return;
    }
    std::optional<LinearLayout> ll = tilegpu::linearLayoutOf(tensor, numWarps);
    std::string frag =
        fragmentShape(attr, tensor.getShape(), numWarps);
    std::optional<unsigned> k = ll ? layoutOf(*ll, frag) : std::nullopt;
    if (!k) {
      result = op->emitError() << "layout " << attr << " over [" << joinInts(tensor.getShape())
                               << "] mixes register and thread bits; CodeGen cannot address it";
      return;
    }
    Layout &layout = layouts[*k];
    layout.attrs.push_back(attr);
    byType[layoutKey(tensor)] = *k;
  };
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      visit(op, v.getType());
    if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op)) // the layout that deals the copy
      visit(op, copy.getTile());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          visit(op, arg.getType());
  });
  // The slices reductions leave in registers, addressed when partials are written.
  func.walk([&](tile::ReduceOp op) {
    if (failed(result))
      return;
    std::optional<tilegpu::ReducePlan> plan = tilegpu::planReduce(op, numWarps);
    if (plan && !plan->inRegisters && plan->slice.getOutDims().size() > 0)
      if (std::optional<unsigned> k = layoutOf(plan->slice))
        layouts[*k].needsThread = true;
  });
  // Likewise the lines of scans whose totals cross warps.
  func.walk([&](tile::ScanOp op) {
    std::optional<tilegpu::ScanPlan> plan = tilegpu::planScan(op, numWarps);
    if (plan && plan->crossesWarps() && plan->slice.getOutDims().size() > 0)
      if (std::optional<unsigned> k = layoutOf(plan->slice))
        layouts[*k].needsThread = true;
  });
  return result;
}

/// Reserved local names of the generated kernel that a parameter must not take.
static bool isReservedName(StringRef name) {
  if (name == "grid" || name.ends_with("_")) // generated locals end in '_'
    return true;
  if (name.size() > 1 && (name[0] == 'v' || name[0] == 't' || name[0] == 'y') &&
      llvm::all_of(name.drop_front(), llvm::isDigit))
    return true;
  return name.starts_with("__");
}

LogicalResult KernelEmitter::emitSignature(std::string &params, std::string &views,
                                           std::string &launchArgs) {
  Block &entry = func.getBody().front();
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    std::string name = cat("arg", i);
    if (auto given = func.getArgAttrOfType<StringAttr>(i, "tile.name")) {
      std::string id = identifier(given.getValue());
      if (id == given.getValue() && !isReservedName(id))
        name = id;
    }
    if (i)
      params += ", ", launchArgs += ", ";
    if (auto view = llvm::dyn_cast<tile::ViewType>(arg.getType())) {
      std::optional<std::string> elem = cppType(view.getElementType());
      if (!elem)
        return func.emitError() << "argument " << i << ": unsupported element type "
                                << view.getElementType();
      params += cat("tile_dev::View<", *elem, ", ", view.getRank(), "> ", name);
      views += cat("const auto a", i, "_ = tile_dev::make_view<", *elem, ", ", view.getRank(),
                   ">(a.args[", i, "]); ");
      launchArgs += cat("a", i, "_");
    } else if (std::optional<std::string> ctype = cppType(arg.getType())) {
      StringRef source = *ctype;
      if (auto given = func.getArgAttrOfType<StringAttr>(i, "tile.cpp_type"))
        source = given.getValue();
      params += cat(*ctype, " ", name);
      launchArgs += cat("tile_dev::scalar_arg<", *ctype, ", ", source, ">(a.args[", i, "])");
    } else {
      return func.emitError() << "argument " << i << ": a kernel parameter of type "
                              << arg.getType() << " cannot be passed to CUDA";
    }
    values[arg] = ValueInfo{name};
  }
  // Each tensor map is a parameter the launcher builds from its view argument.
  for (auto [k, map] : llvm::enumerate(entry.getOps<tilegpu::TensorMapOp>())) {
    auto view = cast<BlockArgument>(map.getView());
    tilegpu::TensorMapType type = map.getMap().getType();
    std::optional<tilegpu::TensorMapBox> box =
        tilegpu::tensorMapBox(type.getTile(), type.getLayout());
    if (!box)
      return map.emitError("a tensor map CodeGen cannot build");
    std::string name = cat("map", k, "_");
    if (!params.empty())
      params += ", ", launchArgs += ", ";
    params += cat("const __grid_constant__ tile_dev::TensorMap ", name);
    std::string flags;
    if (box->columnMajor || type.getRoundTF32())
      flags += box->columnMajor ? ", true" : ", false";
    if (type.getRoundTF32())
      flags += ", true";
    views += cat("const auto ", name, " = tile_dev::tensor_map<", box->rows, ", ", box->cols,
                 ", ", box->swizzleBytes, flags, ">(a.args[", view.getArgNumber(), "]); ");
    launchArgs += name;
    values[map.getMap()] = ValueInfo{name};
    values[map.getValid()] = ValueInfo{cat("tile_dev::usable(", name, ")")};
  }
  return success();
}

std::string KernelEmitter::specializationTest(bool whole) const {
  // The strongest fact per argument axis of the lists the level needs.
  using Key = std::pair<int64_t, int64_t>;
  llvm::MapVector<Key, int64_t> divisible, vectors;
  auto gather = [&](StringRef key, llvm::MapVector<Key, int64_t> &facts) {
    auto list = specialization ? specialization.getAs<ArrayAttr>(key) : ArrayAttr();
    for (Attribute item : list ? list.getValue() : ArrayRef<Attribute>())
      if (auto fact = llvm::dyn_cast<DenseI64ArrayAttr>(item); fact && fact.size() == 3)
        facts[{fact[0], fact[1]}] = std::max(facts.lookup({fact[0], fact[1]}), fact[2]);
  };
  if (whole) {
    gather("divisible", divisible);
    gather("vectors", vectors);
  }
  gather("run_divisible", divisible);
  gather("run_vectors", vectors);
  std::string test;
  auto print = [&](const llvm::MapVector<Key, int64_t> &facts, StringRef fn) {
    for (auto [key, n] : facts)
      test += cat(test.empty() ? "" : " && ", "tile_dev::", fn, "(a", key.first, "_, ",
                  key.second, ", ", n, ")");
  };
  print(divisible, "extent_divisible");
  print(vectors, "allows_vectors");
  return test.empty() ? "true" : test;
}

std::string KernelEmitter::fitArgument(bool whole, bool runs) const {
  if (!specialization || (!whole && !runs))
    return "";
  if (whole && runs)
    return ", Fit_";
  return whole ? ", tile_dev::fit_whole(Fit_)" : ", tile_dev::fit_runs(Fit_)";
}

void KernelEmitter::emitLauncherAndRegistration(StringRef views, StringRef launchArgs) {
  unsigned threads = 32 * numWarps;
  unsigned numArgs = func.getNumArguments();
  std::string launcher = launcherName(sym.substr(strlen("__tilecc_")));
  out.line(0, cat("static int ", launcher,
                  "(const tile::detail::LaunchArgs& a, void* stream) {"));
  out.line(1, cat("if (a.num_args != ", numArgs, ") return (int)cudaErrorInvalidValue;"));
  // The first version whose arguments have the unit strides it was compiled for.
  if (auto versions = func->getAttrOfType<ArrayAttr>(tilegpu::kVersionsAttrName))
    for (auto ref : versions.getAsRange<FlatSymbolRefAttr>()) {
      auto version = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(func, ref);
      auto it = version ? launchers.find(ref.getValue()) : launchers.end();
      if (it == launchers.end())
        continue;
      std::string test;
      for (unsigned i = 0; i < version.getNumArguments(); ++i)
        if (auto axis = version.getArgAttrOfType<IntegerAttr>(i, tilegpu::kUnitStrideAttrName))
          test += cat(test.empty() ? "" : " && ", "tile_dev::unit_stride(a.args[", i, "], ",
                      axis.getInt(), ")");
      if (!test.empty())
        out.line(1, cat("if (", test, ") return ", it->second, "(a, stream);"));
    }
  out.line(1, "const tile_dev::Grid grid = tile_dev::make_grid(a);");
  if (gridRank) // the kernel computes program coordinates of a grid of this rank
    out.line(1, cat("if (a.grid_rank > ", gridRank, " || (a.program_map && a.grid_rank != ",
                    gridRank, ")) return (int)cudaErrorInvalidValue;"));
  out.line(1, "const int64_t programs = grid.size();");
  out.line(1, "if (programs <= 0) return (int)cudaSuccess;");
  unsigned programsPerBlock = perBlock * inSequence;
  if (persistent) // as many blocks as the multiprocessors hold at once
    out.line(1, cat("const int64_t blocks = tile_dev::smin<int64_t>(programs, "
                    "tile_dev::multiprocessors() * ", blocksPerSM, ");"));
  else
    out.line(1, programsPerBlock == 1
                    ? std::string("const int64_t blocks = programs;")
                    : cat("const int64_t blocks = (programs + ", programsPerBlock - 1, ") / ",
                          programsPerBlock, ";"));
  out.line(1, "if (blocks > 2147483647) return (int)cudaErrorInvalidConfiguration;");
  if (!views.empty())
    out.line(1, views.rtrim().str());
  // The instances to launch: the specialized one when the arguments meet its facts.
  SmallVector<std::pair<std::string, std::string>, 3> instances; // (condition, kernel)
  if (!specialization) {
    instances.push_back({"", sym});
  } else {
    // Highest level first, each launched when its facts hold and no higher level's do; a
    // level without facts always holds, and the levels below it are not printed. The runs
    // level is left out where its test is the whole level's (no whole facts of their own).
    SmallVector<std::tuple<int, std::string, const char *>, 3> levels; // level, test, flag
    if (specialization.contains("divisible"))
      levels.push_back({2, specializationTest(true), "whole_"});
    if (specialization.contains("run_divisible")) {
      std::string runs = specializationTest(false);
      if (levels.empty() || std::get<1>(levels.front()) != runs)
        levels.push_back({1, runs, "runs_"});
    }
    levels.push_back({0, "true", ""});
    for (auto &[level, test, flag] : levels)
      if (test != "true")
        out.line(1, cat("const bool ", flag, " = ", test, ";"));
    std::string higher; // none of the levels above holds
    for (auto &[level, test, flag] : levels) {
      std::string condition = test == "true"   ? higher
                              : higher.empty() ? std::string(flag)
                                               : cat(higher, " && ", flag);
      instances.push_back({condition, cat(sym, "<", level, ">")});
      if (test == "true")
        break;
      higher += cat(higher.empty() ? "!" : " && !", flag);
    }
  }
  for (auto &[condition, kernel] : instances) {
    std::string when = condition.empty() ? "" : cat("if (", condition, ") ");
    if (smemBytes > 48 * 1024) // above the default limit, the kernel must opt in
      out.line(1, cat(when, "if (cudaError_t e_ = cudaFuncSetAttribute(", kernel,
                      ", cudaFuncAttributeMaxDynamicSharedMemorySize, ", smemBytes,
                      "); e_ != cudaSuccess) return (int)e_;"));
    out.line(1, cat(when, kernel, "<<<dim3((unsigned)blocks), dim3(", blockThreads(), "), ",
                    smemBytes, ", (cudaStream_t)stream>>>(", launchArgs,
                    numArgs ? ", " : "", "grid);"));
  }
  out.line(1, "return (int)cudaGetLastError();");
  out.line(0, "}");
  if (func->hasAttr(tilegpu::kVersionOfAttrName)) // launched by its kernel's launcher
    return;

  StringRef source = stringAttr(func, tile::kSourceAttrName);
  std::string sourceText = source.str();
  if (source.empty())
    if (std::optional<SrcLoc> loc = srcLocOf(func.getLoc()))
      sourceText = cat(loc->file, ":", loc->line);
  out.line(0, cat("static tile::detail::GpuKernelRegistration< ",
                  stringAttr(func, "tile.entry"), " > __tilecc_reg_",
                  sym.substr(strlen("__tilecc_")), "{&", launcher, ", {",
                  quoted(stringAttr(func, tile::kKernelAttrName)), ", ", quoted(sourceText),
                  ", ", threads, ", ", smemBytes, "}};"));
}

LogicalResult KernelEmitter::emit() {
  StringRef kernelName = stringAttr(func, tile::kKernelAttrName);
  if (stringAttr(func, "tile.entry").empty())
    return func.emitError() << "kernel '" << kernelName
                            << "' has no 'tile.entry' attribute naming its C++ entry";
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "kernel '" << kernelName
                            << "' has unstructured control flow; CodeGen needs one block";

  if (auto attr = func->getAttrOfType<IntegerAttr>(tilegpu::kNumWarpsAttrName)) {
    if (attr.getInt() < 1 || attr.getInt() > 32)
      return func.emitError() << "'" << tilegpu::kNumWarpsAttrName << "' out of range";
    numWarps = unsigned(attr.getInt());
  } else {
    // Without the attribute, take the warps of the first layout (or a single warp).
    func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto tensor = llvm::dyn_cast<RankedTensorType>(t))
          if (auto attr = llvm::dyn_cast_or_null<tilegpu::BlockedLayoutAttr>(
                  tensor.getEncoding())) {
            numWarps = attr.getNumWarps();
            return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
  }
  if (auto attr = func->getAttrOfType<IntegerAttr>(tilegpu::kSmemBytesAttrName))
    smemBytes = attr.getInt();
  if (auto attr = func->getAttrOfType<IntegerAttr>(tilegpu::kProgramsPerBlockAttrName))
    perBlock = unsigned(std::max<int64_t>(1, attr.getInt()));
  if (auto attr = func->getAttrOfType<IntegerAttr>(tilegpu::kBlocksPerSMAttrName))
    blocksPerSM = unsigned(std::max<int64_t>(1, attr.getInt()));
  specialization = func->getAttrOfType<DictionaryAttr>(tilegpu::kSpecializationAttrName);
  if (auto attr = func->getAttrOfType<IntegerAttr>(tilegpu::kProgramsInSequenceAttrName))
    inSequence = unsigned(std::max<int64_t>(1, attr.getInt()));
  persistent = func->hasAttr(tilegpu::kPersistentAttrName);
  if ((inSequence > 1 || persistent) && perBlock > 1)
    return func.emitError() << "a block cannot both pack programs side by side ('"
                            << tilegpu::kProgramsPerBlockAttrName << "') and run them in turn ('"
                            << (persistent ? tilegpu::kPersistentAttrName
                                           : tilegpu::kProgramsInSequenceAttrName)
                            << "')";
  if (failed(collectLayouts()) || failed(tilegpu::verifySharedMemoryPlan(func, 32 * numWarps)))
    return failure();
  func.walk([&](tilegpu::ProducerOp producer) { producerWarps = producer.getWarps(); });
  if (producerWarps) {
    if (perBlock > 1 || inSequence > 1)
      return func.emitError() << "a block with producer warps runs one tile program";
    sync = cat("tile_dev::program_barrier<", 32 * numWarps, ">();");
  }

  for (Type input : func.getFunctionType().getInputs())
    if (auto view = dyn_cast<tile::ViewType>(input); view && view.isExclusive() && !gridRank)
      gridRank = view.getRank();

  // Which per-thread maps and program coordinates the body needs.
  func.walk([&](Operation *op) {
    if (isa<tile::BlockIdOp, tile::CheckOp, tile::PrintOp>(op))
      needsBlockIds = true;
    Type tileType;
    if (isa<tilegpu::GlobalLoadOp, tile::IotaOp>(op))
      tileType = op->getResult(0).getType();
    else if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op))
      tileType = copy.getTile();
    else if (auto store = dyn_cast<tilegpu::GlobalStoreOp>(op))
      tileType = store.getValue().getType();
    else if (auto store = dyn_cast<tilegpu::TensorMapStoreOp>(op))
      tileType = store.getValue().getType();
    else if (auto atomic = dyn_cast<tilegpu::GlobalAtomicOp>(op))
      tileType = atomic.getValue().getType();
    else if (auto print = dyn_cast<tile::PrintOp>(op))
      tileType = print.getValue().getType();
    else if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = llvm::dyn_cast<DenseElementsAttr>(constant.getValue()))
        if (!dense.isSplat())
          tileType = constant.getType();
    if (auto tensor = llvm::dyn_cast_or_null<RankedTensorType>(tileType))
      if (std::optional<unsigned> k = layoutIndex(tensor))
        layouts[*k].needsThread = true;
    // Ops that exchange elements address both their operands' and results' registers.
    if (isa<tile::ReduceOp, tile::ScanOp, tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp,
            tile::CatOp, tile::ExtractOp, tile::MmaOp, tilegpu::ConvertLayoutOp>(op))
      for (TypeRange types : {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
        for (Type t : types)
          if (auto tensor = llvm::dyn_cast<RankedTensorType>(t))
            if (std::optional<unsigned> k = layoutIndex(tensor))
              layouts[*k].needsThread = true;
  });

  std::string params, views, launchArgs;
  if (failed(emitSignature(params, views, launchArgs)))
    return failure();

  unsigned threads = 32 * numWarps;
  out.line(0, cat("// ", kernelName, ": ", numWarps, " warp(s), ", threads,
                  " threads per tile program", smemBytes ? cat(", ", smemBytes,
                  " bytes of shared memory") : std::string()));
  if (inSequence > 1)
    out.line(0, cat("// each CUDA block runs ", inSequence, " tile programs in turn"));
  if (persistent)
    out.line(0, "// persistent: as many CUDA blocks as the multiprocessors hold, each running "
                "tile programs gridDim.x apart");
  if (producerWarps)
    out.line(0, cat("// ", producerWarps, " producer warp(s) after the program's (threads ",
                    threads, " .. ", threads + 32 * producerWarps - 1, ") copy its operands"));
  if (perBlock > 1)
    out.line(0, cat("// ", perBlock, " tile programs per CUDA block of ", perBlock * threads,
                    " threads (program = blockIdx.x * ", perBlock, " + threadIdx.x / ", threads,
                    ")"));
  int64_t boundRegisters =
      blocksPerSM > 1 ? tilegpu::kRegistersPerSM / (blocksPerSM * threads * perBlock) : 0;
  bool runsBounded = func->hasAttr(tilegpu::kRunsBoundedAttrName);
  if (blocksPerSM > 1)
    out.line(0, cat("// ", blocksPerSM, " blocks per multiprocessor at once (at most ",
                    boundRegisters, " registers per thread)",
                    !specialization ? ""
                    : runsBounded   ? " in the whole and runs instances"
                                    : " in the whole instance"));
  if (specialization) {
    if (specialization.contains("divisible"))
      out.line(0, cat("// whole instance (Fit_ = 2) when ", specializationTest(true)));
    if (specialization.contains("run_divisible"))
      out.line(0, cat("// runs instance (Fit_ = 1) when ", specializationTest(false)));
  }
  if (StringRef source = stringAttr(func, tile::kSourceAttrName); !source.empty())
    out.line(0, cat("// defined at ", source));
  for (Layout &layout : layouts) {
    std::string what;
    llvm::raw_string_ostream os(what);
    for (auto [k, attr] : llvm::enumerate(layout.attrs))
      os << (k ? ", " : "") << attr;
    if (layout.attrs.empty())
      os << "a reduction's partial results";
    out.line(0, cat("// ", layout.alias, ": ", what, " over [", joinInts(layout.ll.getOutShape()),
                    "], ", layout.elems, " element(s) per thread"));
    out.line(0, cat("using ", layout.alias, " = ", deviceLayout(layout.ll, threads), ";"));
    if (!layout.frag.empty())
      out.line(0, cat("using ", layout.alias, "_frag = ", layout.frag, ";"));
    out.line(0, cat("static_assert(", layout.alias, "::num_threads == ", threads, " && ",
                    layout.alias, "::elems == ", layout.elems, ", \"tilecc: layout mismatch\");"));
  }

  // The signature and the prologue share the kernel's source line.
  // The occupancy plan sizes the specialized kernel (above: the runs instance where the bound
  // is loose); the general one, with a path per element for tiles its bounds cut, keeps the
  // registers nvcc gives it.
  // A block whose producer warps give registers to the program's (setmaxnreg) states its one
  // block per multiprocessor: ptxas honours setmaxnreg only where it knows the registers at
  // entry (else it warns C7508 and caps every thread at 65536 / threads).
  std::string bounds = cat(blockThreads());
  bool sharesRegisters = false;
  func.walk([&](tilegpu::ProducerOp producer) {
    sharesRegisters |= producer.getRegisters().has_value();
  });
  if (blocksPerSM > 1)
    bounds += !specialization ? cat(", ", blocksPerSM)
              : runsBounded   ? cat(", Fit_ >= 1 ? ", blocksPerSM, " : 1")
                              : cat(", Fit_ == 2 ? ", blocksPerSM, " : 1");
  else if (sharesRegisters)
    bounds += ", 1";
  std::string head = cat(specialization ? "template <int Fit_> " : "",
                         "__global__ void __launch_bounds__(", bounds, ") ", sym,
                         "(", params, params.empty() ? "" : ", ", "tile_dev::Grid grid) {");
  std::string program = "blockIdx.x";
  threadId = "threadIdx.x";
  if (perBlock > 1) {
    head += cat(" const int64_t prog_ = int64_t(blockIdx.x) * ", perBlock, " + threadIdx.x / ",
                threads, "; if (prog_ >= grid.size()) return;");
    program = "prog_";
    threadId = cat("(threadIdx.x % ", threads, ")");
  }
  if (needsBlockIds)
    head += cat(" int64_t bid_[4]; grid.decompose<", gridRank, ">(", program, ", bid_);");
  for (Layout &layout : layouts)
    if (layout.needsThread)
      head += cat(" const tile_dev::Thread<", layout.alias, "> ", layout.thread, "(", threadId, ");");
  out.line(0, head, func.getLoc());
  if (failed(emitBlock(func.getBody().front(), 1)))
    return failure();
  out.line(0, "}");
  out.backToGenerated();
  emitLauncherAndRegistration(views, launchArgs);
  out.line(0, "");
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult tilecc::emitCuda(ModuleOp module, llvm::raw_ostream &os,
                               const CudaEmitOptions &options) {
  Printer out(options);
  out.line(0, "// Generated by tilecc: CUDA kernels, launchers and registrations for the tile");
  out.line(0, "// kernels of this file. Do not edit.");
  if (options.includeRuntimeHeader)
    out.line(0, "#include <device/tile_device.cuh>");
  out.line(0, "");
  bool ok = true;
  llvm::StringSet<> names;
  llvm::StringMap<std::string> launchers;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(tile::kKernelAttrName) || func.isExternal())
      continue;
    std::string name = identifier(func.getSymName());
    for (unsigned k = 1; !names.insert(name).second; ++k)
      name = cat(identifier(func.getSymName()), "_", k);
    KernelEmitter kernel(func, out, name, launchers);
    launchers[func.getSymName()] = KernelEmitter::launcherName(name);
    if (failed(kernel.emit()))
      ok = false;
  }
  if (!ok)
    return failure();
  os << out.text();
  return success();
}

LogicalResult tilecc::emitCuda(ModuleOp module, llvm::raw_ostream &os) {
  return emitCuda(module, os, CudaEmitOptions{});
}
