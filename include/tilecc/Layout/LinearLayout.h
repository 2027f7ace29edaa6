//===- LinearLayout.h - layouts as linear maps over GF(2) ------------*- C++ -*-===//
//
// A LinearLayout maps the bits of named input dimensions (a distributed tile's `register`,
// `lane` and `warp`; a shared-memory buffer's `offset`) to the bits of named output
// dimensions (a tile's axes), linearly over GF(2): the image of an input is the XOR of the
// bases of its set bits. Every tilecc extent is a power of two, so each layout the compiler
// uses (blocked, slice, mma accumulator, dot operand, swizzled shared) is exactly one of these
// (tilegpu::LayoutEncodingAttrInterface::toLinearLayout), and layout conversions, reductions and
// shared-memory addressing are all decided on this one representation.
//
// Values are flattened row-major over the dimensions: the last dimension holds the lowest
// bits. A tile layout's output value is therefore the element's row-major index in the tile,
// and reshaping a tile changes only the names of the output bits.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LAYOUT_LINEARLAYOUT_H
#define TILECC_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace tilecc {

/// The input dimensions of a distributed tile layout, and of a shared buffer.
inline constexpr llvm::StringLiteral kRegister = "register";
inline constexpr llvm::StringLiteral kLane = "lane";
inline constexpr llvm::StringLiteral kWarp = "warp";
inline constexpr llvm::StringLiteral kOffset = "offset";

class LinearLayout {
public:
  /// A dimension of 2^bits values.
  struct Dim {
    std::string name;
    unsigned bits = 0;
    bool operator==(const Dim &o) const { return name == o.name && bits == o.bits; }
  };

  LinearLayout() = default;
  /// `bases[i][b]` is the (flattened) image of bit b of input dimension i; each list holds
  /// `ins[i].bits` entries. Asserts that every basis fits in the output bits.
  LinearLayout(llvm::SmallVector<Dim> ins, llvm::SmallVector<Dim> outs,
               llvm::SmallVector<llvm::SmallVector<uint64_t>> bases);

  /// Output dimensions `dim0`, `dim1`, ... for a tile of `shape` (powers of two).
  static llvm::SmallVector<Dim> tileDims(llvm::ArrayRef<int64_t> shape);
  /// The name of tile axis `axis`.
  static std::string axisName(unsigned axis);

  llvm::ArrayRef<Dim> getInDims() const { return ins; }
  llvm::ArrayRef<Dim> getOutDims() const { return outs; }
  /// Index of a dimension, or -1 when the layout has none of that name.
  int findIn(llvm::StringRef name) const;
  int findOut(llvm::StringRef name) const;
  unsigned getInBits(llvm::StringRef name) const;
  unsigned getOutBits(llvm::StringRef name) const;
  int64_t getInSize(llvm::StringRef name) const { return int64_t(1) << getInBits(name); }
  unsigned getTotalInBits() const;
  unsigned getTotalOutBits() const;
  /// The bases of one input dimension (empty when the layout has none of that name).
  llvm::ArrayRef<uint64_t> getBases(llvm::StringRef in) const;
  /// The tile shape the outputs describe (2^bits per output dimension).
  llvm::SmallVector<int64_t> getOutShape() const;

  /// The image of `value` of input dimension `in` (the other inputs zero).
  uint64_t apply(llvm::StringRef in, uint64_t value) const;
  /// The image of one value per input dimension, in order.
  uint64_t apply(llvm::ArrayRef<uint64_t> values) const;
  /// The image of an input flattened row-major over the input dimensions (as an inverse
  /// takes a flattened output).
  uint64_t applyFlat(uint64_t flatInput) const;
  /// Per-dimension coordinates of a flattened output value, and back.
  llvm::SmallVector<int64_t> outCoords(uint64_t flat) const;
  uint64_t flattenOut(llvm::ArrayRef<int64_t> coords) const;
  /// Bits of input `in` whose basis is zero (inputs that only replicate).
  uint64_t getFreeMask(llvm::StringRef in) const;

  bool isSurjective() const;
  bool isInjective() const;
  /// True when no two bases share an output bit and each basis is a single bit or zero, so
  /// that XOR of images is also their sum (blocked, slice, mma and dot operand layouts).
  bool hasDisjointBits() const;

  /// `outer ∘ this`: this layout's outputs must be `outer`'s inputs.
  LinearLayout compose(const LinearLayout &outer) const;
  /// The inverse of a bijective layout.
  std::optional<LinearLayout> invert() const;
  /// A right inverse of a surjective layout: for each output, an input whose image it is,
  /// built from the earliest input bits that reach it (registers before lanes before warps
  /// when the inputs are listed in that order). nullopt when the layout is not surjective.
  std::optional<LinearLayout> pseudoinvert() const;
  /// `this⁺ ∘ other`: for each input of `other`, an input of this layout with the same image.
  /// Both must have the same outputs.
  std::optional<LinearLayout> invertAndCompose(const LinearLayout &other) const;

  /// The same map seen with other output dimensions of the same total bits (a reshape).
  LinearLayout reshapeOuts(llvm::SmallVector<Dim> newOuts) const;
  /// Output dimension k of the result is output `perm[k]` of this layout (a permute).
  LinearLayout permuteOuts(llvm::ArrayRef<unsigned> perm) const;
  /// Drops output dimension `out` (its bits of every basis are forgotten).
  LinearLayout removeOut(llvm::StringRef out) const;
  /// Inserts an output dimension of 2^bits values at position `at` (every basis 0 along it).
  LinearLayout insertOut(unsigned at, Dim dim) const;
  /// Drops the bits of input `in` whose basis is zero.
  LinearLayout removeZeroBases(llvm::StringRef in) const;

  /// True when `vector` (a flattened output) is the image of some input of dimensions `ins`.
  bool spans(llvm::ArrayRef<llvm::StringRef> ins, uint64_t vector) const;

  bool operator==(const LinearLayout &o) const {
    return ins == o.ins && outs == o.outs && bases == o.bases;
  }
  bool operator!=(const LinearLayout &o) const { return !(*this == o); }

  void print(llvm::raw_ostream &os) const;
  std::string str() const;

private:
  /// The same inputs onto `newOuts`, each basis's coordinates moved by `move`.
  LinearLayout mapOuts(llvm::SmallVector<Dim> newOuts,
                       llvm::function_ref<llvm::SmallVector<int64_t>(llvm::SmallVector<int64_t>)>
                           move) const;
  unsigned outShift(unsigned out) const; // lowest flattened bit of output dimension `out`
  unsigned inShift(unsigned in) const;   // likewise for a flattened input

  llvm::SmallVector<Dim> ins, outs;
  llvm::SmallVector<llvm::SmallVector<uint64_t>> bases;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const LinearLayout &l) {
  l.print(os);
  return os;
}
/// For GoogleTest's messages.
inline void PrintTo(const LinearLayout &l, std::ostream *os) { *os << l.str(); }

/// How elements move when a distributed tile changes layout (inputs register, lane, warp).
enum class Movement {
  None,         ///< the same map: nothing to do
  Registers,    ///< each thread already holds what it needs, in other registers
  WarpShuffle,  ///< each warp holds what it needs: exchange within the warp
  SharedMemory, ///< elements cross warps: through shared memory
};
llvm::StringRef stringifyMovement(Movement m);

/// The cheapest movement from `src` to `dst` (same outputs). `dst` may be a projection that
/// is not injective, as when a tile is broadcast: each of its inputs must reach an element of
/// `src`. Registers requires `dst`'s lane and warp bases to equal `src`'s (so that one register
/// map serves every thread); WarpShuffle requires that each warp's elements come from that
/// warp.
Movement classifyMovement(const LinearLayout &src, const LinearLayout &dst);

/// For Movement::Registers: the source register of each bit of a destination register. The
/// map is linear, so destination register r reads the XOR of the entries of its set bits.
llvm::SmallVector<int64_t> registerBases(const LinearLayout &src, const LinearLayout &dst);
/// For each of `vectors` (flattened outputs), a register of `src` whose image it is, as a
/// combination of register bits; nullopt when the registers alone do not reach one.
std::optional<llvm::SmallVector<int64_t>> registerCombinations(const LinearLayout &src,
                                                               llvm::ArrayRef<uint64_t> vectors);

/// For Movement::WarpShuffle: where a thread finds each element of `dst` in `src`, as linear
/// maps over GF(2). For destination register r of the thread numbered t in its program (lane
/// bits, then warp bits), the element lies in source register
/// span(regFromReg, r) ^ span(regFromThread, t) of lane span(laneFromReg, r) ^
/// span(laneFromThread, t) of the same warp, where span XORs the entries of the set bits.
struct ShuffleMap {
  llvm::SmallVector<int64_t> regFromReg, laneFromReg;       ///< one entry per register bit
  llvm::SmallVector<int64_t> regFromThread, laneFromThread; ///< one per lane bit, then warp bit
};
ShuffleMap shuffleMap(const LinearLayout &src, const LinearLayout &dst);

} // namespace tilecc

#endif
