//===- KernelEmitter.h - internals of the CUDA emitter ---------------*- C++ -*-===//
//
// Shared between CudaEmitter.cpp (module, kernel skeleton, launcher, registration) and
// EmitOps.cpp (one statement per op). Private to lib/CodeGen.
//
// How tilegpu values become CUDA:
//  * a scalar SSA value is a `const` local named `v<N>` (constants are printed inline);
//  * a tile value is a per-thread register array `T v<N>[elemsPerThread]` filled by a one-line
//    `_Pragma("unroll")` loop; a tile whose elements are all one scalar (splat constants,
//    `tile.splat`) is kept as that scalar and only materialised where an array is needed;
//  * `scf` regions become C++ blocks; loop-carried values and `scf.if` results are mutable
//    locals declared before the construct.
// Each op is printed on one line, so a `#line` directive before it maps it exactly.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_CODEGEN_KERNELEMITTER_H
#define TILECC_LIB_CODEGEN_KERNELEMITTER_H

#include "tilecc/CodeGen/CudaEmitter.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace tilecc::codegen {

/// Concatenates anything raw_ostream can print.
template <class... Args>
std::string cat(const Args &...args) {
  std::string s;
  llvm::raw_string_ostream os(s);
  (os << ... << args);
  return s;
}

/// A source position for `#line`.
struct SrcLoc {
  std::string file;
  unsigned line = 0;
};
std::optional<SrcLoc> srcLocOf(mlir::Location loc);

/// Writes lines, inserting `#line` directives so each line maps to its source position.
class Printer {
public:
  explicit Printer(const CudaEmitOptions &options)
      : options(options), nextLine(options.firstLine) {}

  /// One line of output, mapped to `loc` when given.
  void line(unsigned indent, llvm::StringRef text, std::optional<SrcLoc> loc = std::nullopt);
  /// One line mapped to an MLIR location.
  void line(unsigned indent, llvm::StringRef text, mlir::Location loc) {
    line(indent, text, srcLocOf(loc));
  }
  /// Maps the following lines back to the generated file (when its name is known).
  void backToGenerated();
  std::string &text() { return buffer; }

private:
  const CudaEmitOptions &options;
  std::string buffer;
  unsigned nextLine;      // generated-file line number of the next line written
  bool mapped = false;    // a #line into user source is in effect
  std::string curFile;
  unsigned curLine = 0;   // user line the next written line maps to
  bool joinable = false;  // the last line was mapped to a source line and may be extended
};

/// The C++ spelling of a scalar element type, or nullopt when CodeGen cannot handle it.
std::optional<std::string> cppType(mlir::Type type);
/// The unsigned type of the same width (bool for i1).
std::string cppUnsignedType(mlir::Type type);
/// True for f16/bf16/f8, which convert through `tile_dev::cvt`.
bool isLowFloat(mlir::Type type);
/// A C++ expression of `type` for a constant.
std::string literal(const llvm::APInt &value, mlir::Type type);
std::string literal(const llvm::APFloat &value, mlir::Type type);
/// A C string literal.
std::string quoted(llvm::StringRef text);
/// A C identifier made from `text`.
std::string identifier(llvm::StringRef text);

/// `tile_dev::Staging<...>`: where `staging` keeps each element of a tile in shared memory.
std::string stagingText(const tilegpu::Staging &staging);
/// Registers per shared-memory access of a tile of `type` into or out of `staging`.
int64_t stagedVector(mlir::Type type, const tilegpu::Staging &staging, unsigned numWarps);

/// Emits one kernel function.
class KernelEmitter {
public:
  /// `name` is the C identifier the kernel's generated symbols derive from
  /// (`__tilecc_<name>`, `__tilecc_launch_<name>`, ...), unique within the output.
  /// `launchers` maps the symbol of each kernel emitted before to its launcher's name (a
  /// kernel's versions are emitted before it and launched by its launcher).
  KernelEmitter(mlir::func::FuncOp func, Printer &out, std::string name,
                const llvm::StringMap<std::string> &launchers)
      : func(func), out(out), sym("__tilecc_" + name), launchers(launchers) {}
  /// The name of the launcher of kernel `name` (as passed to the constructor).
  static std::string launcherName(llvm::StringRef name) { return "__tilecc_launch_" + name.str(); }
  mlir::LogicalResult emit();

private:
  /// How a value is spelled in C++.
  struct ValueInfo {
    std::string name;       // local name, or the whole expression for inline values
    bool tile = false;      // a tile (per-thread register array unless `broadcast`)
    bool broadcast = false; // a tile whose every element is `name` (a scalar expression)
    unsigned layout = 0;    // index into `layouts` for tiles
  };
  /// One distinct mapping of elements to registers and threads. Layout attributes that
  /// give the same linear layout over their shape share it.
  struct Layout {
    LinearLayout ll;
    llvm::SmallVector<mlir::Attribute, 1> attrs; // the encodings that map to it
    int64_t elems = 0;
    std::string alias;      // the `using` name of its tile_dev::Linear type
    std::string frag;       // for mma and dot operand layouts: their instruction tiles
    std::string thread;     // the per-thread map local, `t<k>`
    bool needsThread = false;
  };

  // CudaEmitter.cpp: skeleton.
  mlir::LogicalResult collectLayouts();
  /// The kernel's parameters, and in the launcher the locals that build its arguments
  /// (`views`) and the arguments passed.
  mlir::LogicalResult emitSignature(std::string &params, std::string &views,
                                    std::string &launchArgs);
  /// The launcher's test of the facts of one level of the kernel's tilegpu.specialization
  /// (`whole`: the whole accesses' facts and the runs'; else the runs' alone), or "true" when
  /// there are none.
  std::string specializationTest(bool whole) const;
  /// The fit an access marked `whole` and/or `runs` takes in the instance `Fit_`, as printed
  /// in its template arguments ("" for an access with neither or a kernel without instances).
  std::string fitArgument(bool whole, bool runs) const;
  void emitLauncherAndRegistration(llvm::StringRef views, llvm::StringRef launchArgs);

  // EmitOps.cpp: statements.
  mlir::LogicalResult emitBlock(mlir::Block &block, unsigned indent);
  mlir::LogicalResult emitOp(mlir::Operation &op, unsigned indent);
  mlir::LogicalResult emitElementwise(mlir::Operation &op, unsigned indent);
  mlir::LogicalResult emitConstant(mlir::Operation &op, unsigned indent);
  mlir::LogicalResult emitGlobalAccess(mlir::Operation &op, unsigned indent);
  /// The view, offsets, starts and bounds a device access of a rank-`tileRank` tile takes, as
  /// printed arguments: the view's own where the ranks agree, else those of a
  /// `tile_dev::trailing` access printed first (the tile spans the view's last axes).
  struct AccessWindow {
    std::string view, offsets, starts, bounds;
  };
  AccessWindow accessWindow(mlir::Value view, int64_t tileRank, mlir::ValueRange offsets,
                            mlir::ValueRange starts, mlir::ValueRange bounds, unsigned indent,
                            mlir::Location loc);
  /// Checks a global access's vector width divides its layout's register run.
  mlir::LogicalResult checkVector(mlir::Operation &op, mlir::RankedTensorType type,
                                  uint32_t vector);
  // EmitAtomic.cpp.
  mlir::LogicalResult emitAtomic(tilegpu::GlobalAtomicOp op, unsigned indent);
  // EmitDebug.cpp.
  mlir::LogicalResult emitCheck(tile::CheckOp op, unsigned indent);
  mlir::LogicalResult emitPrint(tile::PrintOp op, unsigned indent);
  mlir::LogicalResult emitFor(mlir::Operation &op, unsigned indent);
  mlir::LogicalResult emitIf(mlir::Operation &op, unsigned indent);
  mlir::LogicalResult emitWhile(mlir::Operation &op, unsigned indent);

  // EmitBuffers.cpp: shared-memory ring buffers, async copies, barriers.
  mlir::LogicalResult emitBufferOp(mlir::Operation &op, unsigned indent);
  /// The C++ expression of stage `stage` of `buffer`.
  std::string stagePointer(mlir::Value buffer, mlir::Value stage);

  // EmitExchange.cpp: ops that stage tiles in shared memory.
  mlir::LogicalResult emitReduce(tile::ReduceOp op, unsigned indent);
  mlir::LogicalResult emitScan(tile::ScanOp op, unsigned indent);
  /// A scan in registers and shuffles, its totals across warps through shared memory.
  mlir::LogicalResult emitScanInRegisters(tile::ScanOp op, const tilegpu::ScanPlan &plan,
                                          unsigned indent);
  mlir::LogicalResult emitMma(tile::MmaOp op, unsigned indent);
  /// tilegpu.mma: the instructions on fragment registers (tile_dev::mma_frag).
  mlir::LogicalResult emitFragmentMma(tilegpu::MmaOp op, unsigned indent);
  /// tilegpu.convert_layout: through shared memory, or free for a broadcast scalar.
  mlir::LogicalResult emitConvertLayout(tilegpu::ConvertLayoutOp op, unsigned indent);
  /// broadcast, reshape, permute, cat, extract.
  mlir::LogicalResult emitShape(mlir::Operation &op, unsigned indent);
  /// Emits `op` as register copies or warp shuffles when its elements stay in their threads
  /// or warps; nullopt when they must cross warps through shared memory.
  std::optional<mlir::LogicalResult> emitWithinWarps(mlir::Operation *op, mlir::Value source,
                                                     unsigned indent);
  /// The statement that fills `name[elems]` from the source registers `src`: copies within each
  /// thread, or warp shuffles.
  std::string registerMoveText(const tilegpu::ShapeMovement &move, llvm::StringRef ctype,
                               llvm::StringRef name, llvm::StringRef src, int64_t elems);
  std::string warpShuffleText(const tilegpu::ShapeMovement &move, llvm::StringRef ctype,
                              llvm::StringRef name, llvm::StringRef src, int64_t elems);
  /// A free cat: each result register from the operand its stack bit names.
  std::string catText(const tilegpu::ShapeMovement &move, llvm::StringRef lhs,
                      llvm::StringRef rhs, int64_t top, llvm::StringRef ctype,
                      llvm::StringRef name, int64_t elems);
  /// A free extract: each result register chosen among the registers of the sub-tiles by the
  /// run-time sub-tile number, zero outside the source.
  std::string extractText(const tilegpu::ShapeMovement &move, tile::ExtractOp op,
                          llvm::StringRef src, llvm::StringRef ctype, llvm::StringRef name,
                          int64_t elems);
  /// Emits a combiner region as a C++ lambda `(acc&..., next...)`; returns its name.
  mlir::FailureOr<std::string> emitCombiner(mlir::Region &region, unsigned indent);
  /// The register arrays and element types of a reduction's or scan's operands, then its
  /// combiner (whose name is returned).
  mlir::FailureOr<std::string>
  emitCombinerOperands(mlir::Operation *op, mlir::ValueRange sources, mlir::Region &combiner,
                       unsigned indent, llvm::SmallVectorImpl<std::string> &arrays,
                       llvm::SmallVectorImpl<std::string> &types);
  /// Binds each result to the register array of the same position, in `layout`.
  void bindTiles(mlir::ValueRange results, llvm::ArrayRef<std::string> names, unsigned layout);
  /// The planned offset of an op's scratch in the dynamic shared memory.
  mlir::FailureOr<int64_t> smemOffset(mlir::Operation *op);
  /// Assigns `values` to the mutable locals `targets` (a loop's carried values), through
  /// temporaries when more than one changes so the assignment is simultaneous.
  mlir::LogicalResult assignCarried(llvm::ArrayRef<ValueInfo> targets, mlir::ValueRange values,
                                    mlir::TypeRange types, unsigned indent,
                                    mlir::Location loc);
  /// Declares a mutable local for a value of `type` (uninitialised, or copied from `init`).
  mlir::FailureOr<ValueInfo> declareMutable(mlir::Type type, unsigned indent,
                                            mlir::Location loc, mlir::Value init = {});


  // Helpers.
  /// The barrier before an exchange's writes, unless tilegpu-place-barriers proved its shared
  /// bytes free of accesses since the last barrier.
  std::string leadingBarrier(mlir::Operation *op) const {
    return op->hasAttr(tilegpu::kNeedsNoBarrierAttrName) ? "" : sync + " ";
  }
  mlir::FailureOr<ValueInfo> tileInfo(mlir::Operation *op, mlir::Type type);
  std::optional<unsigned> layoutIndex(mlir::RankedTensorType type) const;
  /// The layout entry of a linear layout (of mma fragments `frag`, when given), added when
  /// new; nullopt when CodeGen cannot address it (register and thread bits not disjoint).
  std::optional<unsigned> layoutOf(const LinearLayout &ll, llvm::StringRef frag = {});
  static mlir::RankedTensorType layoutKey(mlir::RankedTensorType type);
  std::string newName() { return cat("v", counter++); }
  /// The packed A registers of each warpgroup mma that reads them from registers, by its
  /// result: its wait keeps them alive.
  llvm::DenseMap<mlir::Value, std::string> operandsInFlight;
  /// Element `i_` of a tile value, or the scalar itself.
  std::string elem(mlir::Value v) const;
  std::string scalar(mlir::Value v) const { return values.lookup(v).name; }
  /// `{a, b, ...}` of the scalars `vs`.
  std::string braced(mlir::ValueRange vs) const;
  /// The register array of a tile value, materialising a broadcast first.
  std::string array(mlir::Value v, unsigned indent, mlir::Location loc);
  mlir::FailureOr<std::string> elementType(mlir::Operation *op, mlir::Type type);

  mlir::func::FuncOp func;
  Printer &out;
  std::string sym;        // sanitized symbol: __tilecc_<sym>
  const llvm::StringMap<std::string> &launchers;
  unsigned numWarps = 1;
  int64_t smemBytes = 0; ///< dynamic shared memory per tile program (tilegpu.smem_bytes)
  unsigned perBlock = 1;    ///< tile programs per CUDA block (tilegpu.programs_per_block);
                            ///< programs past the grid return early
  unsigned blocksPerSM = 1; ///< blocks a multiprocessor should hold (tilegpu.blocks_per_sm)
  unsigned inSequence = 1;  ///< programs a block runs in turn (tilegpu.programs_in_sequence)
  bool persistent = false;  ///< blocks loop over programs gridDim.x apart (tilegpu.persistent)
  /// tilegpu.specialization, when the kernel has `whole` or `runs` accesses: it is printed as
  /// a template on `int Fit_` (2 whole, 1 runs, 0 neither), the launcher picks the instance.
  mlir::DictionaryAttr specialization;
  llvm::SmallVector<Layout, 4> layouts;
  llvm::DenseMap<mlir::Type, unsigned> byType; ///< layoutKey -> index in `layouts`
  llvm::DenseMap<mlir::Value, ValueInfo> values;
  bool needsBlockIds = false;
  /// The grid's rank when the kernel fixes it (the rank of its exclusive pieces, which every
  /// launch's grid has), else 0: printed as `Grid::decompose<gridRank>`.
  unsigned gridRank = 0;
  std::string threadId;   ///< C++ expression of the thread's index within its tile program
  /// The statement by which the program's threads meet: `__syncthreads();`, or the named
  /// barrier of the program's warps in a block with producer warps.
  std::string sync = "__syncthreads();";
  /// The block's producer warps (tilegpu.producer), or 0.
  unsigned producerWarps = 0;
  /// Threads of a CUDA block: its programs' and its producer warps'.
  unsigned blockThreads() const { return 32 * (numWarps * perBlock + producerWarps); }
  /// The C++ expression of barrier `index` of a ring of memory barriers.
  std::string barrierPointer(mlir::Value barriers, mlir::Value index) const {
    return cat(scalar(barriers), " + ", scalar(index));
  }
  /// Inside a producer region: the C++ expression of the producer thread's index.
  std::string producerThread;
  unsigned counter = 0;
};

} // namespace tilecc::codegen

#endif
