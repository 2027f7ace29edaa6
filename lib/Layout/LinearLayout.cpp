//===- LinearLayout.cpp - layouts as linear maps over GF(2) ---------------------===//
#include "tilecc/Layout/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>

using namespace tilecc;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

/// Vectors of GF(2)^64 in row-echelon form, each with the combination of inputs it is the
/// image of. Rows are kept by decreasing pivot (highest set bit), one row per pivot.
class Echelon {
public:
  /// Reduces `v` by the rows; returns the residual and the combination that was removed.
  std::pair<uint64_t, uint64_t> reduce(uint64_t v) const {
    uint64_t combo = 0;
    for (const Row &row : rows)
      if ((v >> row.pivot) & 1)
        v ^= row.vector, combo ^= row.combo;
    return {v, combo};
  }
  /// Adds `v` (the image of `combo`) unless it is already spanned; returns whether it was.
  bool insert(uint64_t v, uint64_t combo) {
    auto [residual, removed] = reduce(v);
    if (residual == 0)
      return false;
    Row row{residual, combo ^ removed, unsigned(llvm::Log2_64(residual))};
    auto at = llvm::find_if(rows, [&](const Row &r) { return r.pivot < row.pivot; });
    rows.insert(at, row);
    return true;
  }
  size_t rank() const { return rows.size(); }

private:
  struct Row {
    uint64_t vector, combo;
    unsigned pivot;
  };
  SmallVector<Row, 16> rows;
};

uint64_t lowMask(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

} // namespace

LinearLayout::LinearLayout(SmallVector<Dim> ins, SmallVector<Dim> outs,
                           SmallVector<SmallVector<uint64_t>> bases)
    : ins(std::move(ins)), outs(std::move(outs)), bases(std::move(bases)) {
  assert(this->bases.size() == this->ins.size() && "one list of bases per input dimension");
  assert(getTotalOutBits() < 64 && getTotalInBits() <= 64 && "a layout has at most 63 bits");
#ifndef NDEBUG
  for (auto [dim, list] : llvm::zip(this->ins, this->bases)) {
    assert(list.size() == dim.bits && "one basis per input bit");
    for (uint64_t b : list)
      assert((b & ~lowMask(getTotalOutBits())) == 0 && "basis outside the outputs");
  }
#endif
}

std::string LinearLayout::axisName(unsigned axis) { return "dim" + std::to_string(axis); }

SmallVector<LinearLayout::Dim> LinearLayout::tileDims(ArrayRef<int64_t> shape) {
  SmallVector<Dim> dims;
  for (auto [axis, extent] : llvm::enumerate(shape)) {
    assert(extent > 0 && llvm::isPowerOf2_64(extent) && "tile extents are powers of two");
    dims.push_back({axisName(axis), unsigned(llvm::Log2_64(extent))});
  }
  return dims;
}

int LinearLayout::findIn(StringRef name) const {
  for (auto [k, d] : llvm::enumerate(ins))
    if (d.name == name)
      return int(k);
  return -1;
}

int LinearLayout::findOut(StringRef name) const {
  for (auto [k, d] : llvm::enumerate(outs))
    if (d.name == name)
      return int(k);
  return -1;
}

unsigned LinearLayout::getInBits(StringRef name) const {
  int k = findIn(name);
  return k < 0 ? 0 : ins[k].bits;
}

unsigned LinearLayout::getOutBits(StringRef name) const {
  int k = findOut(name);
  return k < 0 ? 0 : outs[k].bits;
}

unsigned LinearLayout::getTotalInBits() const {
  unsigned n = 0;
  for (const Dim &d : ins)
    n += d.bits;
  return n;
}

unsigned LinearLayout::getTotalOutBits() const {
  unsigned n = 0;
  for (const Dim &d : outs)
    n += d.bits;
  return n;
}

ArrayRef<uint64_t> LinearLayout::getBases(StringRef in) const {
  int k = findIn(in);
  return k < 0 ? ArrayRef<uint64_t>() : ArrayRef<uint64_t>(bases[k]);
}

SmallVector<int64_t> LinearLayout::getOutShape() const {
  SmallVector<int64_t> shape;
  for (const Dim &d : outs)
    shape.push_back(int64_t(1) << d.bits);
  return shape;
}

unsigned LinearLayout::outShift(unsigned out) const {
  unsigned s = 0;
  for (unsigned k = out + 1; k < outs.size(); ++k)
    s += outs[k].bits;
  return s;
}

unsigned LinearLayout::inShift(unsigned in) const {
  unsigned s = 0;
  for (unsigned k = in + 1; k < ins.size(); ++k)
    s += ins[k].bits;
  return s;
}

uint64_t LinearLayout::apply(StringRef in, uint64_t value) const {
  int k = findIn(in);
  assert(k >= 0 && "no such input dimension");
  uint64_t image = 0;
  for (auto [bit, basis] : llvm::enumerate(bases[k]))
    if ((value >> bit) & 1)
      image ^= basis;
  return image;
}

uint64_t LinearLayout::apply(ArrayRef<uint64_t> values) const {
  assert(values.size() == ins.size() && "one value per input dimension");
  uint64_t image = 0;
  for (auto [k, value] : llvm::enumerate(values))
    for (auto [bit, basis] : llvm::enumerate(bases[k]))
      if ((value >> bit) & 1)
        image ^= basis;
  return image;
}

uint64_t LinearLayout::applyFlat(uint64_t flatInput) const {
  uint64_t image = 0;
  for (unsigned k = 0; k < ins.size(); ++k)
    for (auto [bit, basis] : llvm::enumerate(bases[k]))
      if ((flatInput >> (inShift(k) + bit)) & 1)
        image ^= basis;
  return image;
}

SmallVector<int64_t> LinearLayout::outCoords(uint64_t flat) const {
  SmallVector<int64_t> coords;
  for (unsigned k = 0; k < outs.size(); ++k)
    coords.push_back(int64_t((flat >> outShift(k)) & lowMask(outs[k].bits)));
  return coords;
}

uint64_t LinearLayout::flattenOut(ArrayRef<int64_t> coords) const {
  assert(coords.size() == outs.size() && "one coordinate per output dimension");
  uint64_t flat = 0;
  for (unsigned k = 0; k < outs.size(); ++k)
    flat |= (uint64_t(coords[k]) & lowMask(outs[k].bits)) << outShift(k);
  return flat;
}

uint64_t LinearLayout::getFreeMask(StringRef in) const {
  uint64_t mask = 0;
  for (auto [bit, basis] : llvm::enumerate(getBases(in)))
    if (basis == 0)
      mask |= uint64_t(1) << bit;
  return mask;
}

bool LinearLayout::isSurjective() const {
  Echelon e;
  for (const auto &list : bases)
    for (uint64_t b : list)
      e.insert(b, 0);
  return e.rank() == getTotalOutBits();
}

bool LinearLayout::isInjective() const {
  Echelon e;
  for (const auto &list : bases)
    for (uint64_t b : list)
      if (!e.insert(b, 0))
        return false;
  return true;
}

bool LinearLayout::hasDisjointBits() const {
  uint64_t seen = 0;
  for (const auto &list : bases)
    for (uint64_t b : list) {
      if (b == 0)
        continue;
      if (!llvm::isPowerOf2_64(b) || (seen & b))
        return false;
      seen |= b;
    }
  return true;
}

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  assert(outs == outer.ins && "composition needs this layout's outputs as the outer inputs");
  SmallVector<SmallVector<uint64_t>> composed;
  for (const auto &list : bases) {
    SmallVector<uint64_t> mapped;
    for (uint64_t flat : list)
      mapped.push_back(outer.applyFlat(flat));
    composed.push_back(std::move(mapped));
  }
  return LinearLayout(ins, outer.outs, std::move(composed));
}

std::optional<LinearLayout> LinearLayout::pseudoinvert() const {
  Echelon e;
  for (unsigned k = 0; k < ins.size(); ++k)
    for (auto [bit, basis] : llvm::enumerate(bases[k]))
      e.insert(basis, uint64_t(1) << (inShift(k) + bit));
  SmallVector<SmallVector<uint64_t>> inverse;
  for (unsigned k = 0; k < outs.size(); ++k) {
    SmallVector<uint64_t> list;
    for (unsigned bit = 0; bit < outs[k].bits; ++bit) {
      auto [residual, combo] = e.reduce(uint64_t(1) << (outShift(k) + bit));
      if (residual != 0)
        return std::nullopt;
      list.push_back(combo);
    }
    inverse.push_back(std::move(list));
  }
  return LinearLayout(outs, ins, std::move(inverse));
}

std::optional<LinearLayout> LinearLayout::invert() const {
  if (getTotalInBits() != getTotalOutBits() || !isInjective())
    return std::nullopt;
  return pseudoinvert();
}

std::optional<LinearLayout> LinearLayout::invertAndCompose(const LinearLayout &other) const {
  assert(outs == other.outs && "both layouts must describe the same outputs");
  std::optional<LinearLayout> inverse = pseudoinvert();
  if (!inverse)
    return std::nullopt;
  return other.compose(*inverse);
}

LinearLayout LinearLayout::reshapeOuts(SmallVector<Dim> newOuts) const {
  LinearLayout result(ins, std::move(newOuts), bases);
  assert(result.getTotalOutBits() == getTotalOutBits() && "a reshape keeps the element count");
  return result;
}

LinearLayout LinearLayout::mapOuts(
    SmallVector<Dim> newOuts,
    llvm::function_ref<SmallVector<int64_t>(SmallVector<int64_t>)> move) const {
  // Built with zero bases of the right shape (a valid layout), then each basis moved.
  SmallVector<SmallVector<uint64_t>> zeros;
  for (const auto &list : bases)
    zeros.push_back(SmallVector<uint64_t>(list.size(), 0));
  LinearLayout result(ins, std::move(newOuts), std::move(zeros));
  for (auto [list, mapped] : llvm::zip(bases, result.bases))
    for (auto [flat, out] : llvm::zip(list, mapped))
      out = result.flattenOut(move(outCoords(flat)));
  return result;
}

LinearLayout LinearLayout::permuteOuts(ArrayRef<unsigned> perm) const {
  assert(perm.size() == outs.size() && "a permutation of every output dimension");
  SmallVector<Dim> permuted;
  for (unsigned p : perm)
    permuted.push_back(outs[p]);
  return mapOuts(permuted, [&](SmallVector<int64_t> from) {
    SmallVector<int64_t> to;
    for (unsigned p : perm)
      to.push_back(from[p]);
    return to;
  });
}

LinearLayout LinearLayout::removeOut(StringRef out) const {
  int at = findOut(out);
  assert(at >= 0 && "no such output dimension");
  SmallVector<Dim> kept(outs);
  kept.erase(kept.begin() + at);
  return mapOuts(kept, [&](SmallVector<int64_t> coords) {
    coords.erase(coords.begin() + at);
    return coords;
  });
}

LinearLayout LinearLayout::insertOut(unsigned at, Dim dim) const {
  assert(at <= outs.size() && "insertion point past the outputs");
  SmallVector<Dim> grown(outs);
  grown.insert(grown.begin() + at, dim);
  return mapOuts(grown, [&](SmallVector<int64_t> coords) {
    coords.insert(coords.begin() + at, 0);
    return coords;
  });
}

LinearLayout LinearLayout::removeZeroBases(StringRef in) const {
  int k = findIn(in);
  if (k < 0)
    return *this;
  LinearLayout result = *this;
  llvm::erase_if(result.bases[k], [](uint64_t b) { return b == 0; });
  result.ins[k].bits = unsigned(result.bases[k].size());
  return result;
}

bool LinearLayout::spans(ArrayRef<StringRef> dims, uint64_t vector) const {
  Echelon e;
  for (StringRef d : dims)
    for (uint64_t b : getBases(d))
      e.insert(b, 0);
  return e.reduce(vector).first == 0;
}

void LinearLayout::print(llvm::raw_ostream &os) const {
  os << "{";
  for (auto [k, dim] : llvm::enumerate(ins)) {
    os << (k ? ", " : "") << dim.name << " = [";
    for (auto [b, basis] : llvm::enumerate(bases[k])) {
      os << (b ? ", " : "") << "(";
      llvm::interleaveComma(outCoords(basis), os);
      os << ")";
    }
    os << "]";
  }
  os << "} -> [";
  llvm::interleave(getOutShape(), os, " x ");
  os << "]";
}

std::string LinearLayout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// Movement between distributed layouts
//===----------------------------------------------------------------------===//

StringRef tilecc::stringifyMovement(Movement m) {
  switch (m) {
  case Movement::None:
    return "none";
  case Movement::Registers:
    return "registers";
  case Movement::WarpShuffle:
    return "warp-shuffle";
  case Movement::SharedMemory:
    return "shared-memory";
  }
  llvm_unreachable("unknown movement");
}

Movement tilecc::classifyMovement(const LinearLayout &src, const LinearLayout &dst) {
  assert(src.getOutDims() == dst.getOutDims() && "a movement between layouts of one tile");
  if (src == dst)
    return Movement::None;
  if (src.getInBits(kWarp) != dst.getInBits(kWarp))
    return Movement::SharedMemory;
  auto allSpanned = [&](ArrayRef<StringRef> from, ArrayRef<uint64_t> vectors) {
    return llvm::all_of(vectors, [&](uint64_t v) { return src.spans(from, v); });
  };
  bool sameLanes = src.getBases(kLane) == dst.getBases(kLane);
  bool sameWarps = src.getBases(kWarp) == dst.getBases(kWarp);
  if (sameLanes && sameWarps && allSpanned({kRegister}, dst.getBases(kRegister)))
    return Movement::Registers;
  // Within a warp: each warp bit moves the destination by what the source's warp bit moves
  // it, up to elements the warp holds; the rest is reached from the warp's own elements.
  bool warpLocal = allSpanned({kRegister, kLane}, dst.getBases(kRegister)) &&
                   allSpanned({kRegister, kLane}, dst.getBases(kLane));
  for (auto [d, s] : llvm::zip(dst.getBases(kWarp), src.getBases(kWarp)))
    warpLocal = warpLocal && src.spans({kRegister, kLane}, d ^ s);
  return warpLocal ? Movement::WarpShuffle : Movement::SharedMemory;
}

std::optional<SmallVector<int64_t>> tilecc::registerCombinations(const LinearLayout &src,
                                                                ArrayRef<uint64_t> vectors) {
  Echelon e;
  for (auto [bit, basis] : llvm::enumerate(src.getBases(kRegister)))
    e.insert(basis, uint64_t(1) << bit);
  SmallVector<int64_t> combos;
  for (uint64_t v : vectors) {
    auto [residual, combo] = e.reduce(v);
    if (residual != 0)
      return std::nullopt;
    combos.push_back(int64_t(combo));
  }
  return combos;
}

SmallVector<int64_t> tilecc::registerBases(const LinearLayout &src, const LinearLayout &dst) {
  std::optional<SmallVector<int64_t>> bases = registerCombinations(src, dst.getBases(kRegister));
  assert(bases && "registerBases needs a movement within registers");
  return *bases;
}

ShuffleMap tilecc::shuffleMap(const LinearLayout &src, const LinearLayout &dst) {
  // Combination bits: the source's register bits, then its lane bits.
  unsigned regBits = src.getInBits(kRegister);
  Echelon e;
  for (auto [bit, basis] : llvm::enumerate(src.getBases(kRegister)))
    e.insert(basis, uint64_t(1) << bit);
  for (auto [bit, basis] : llvm::enumerate(src.getBases(kLane)))
    e.insert(basis, uint64_t(1) << (regBits + bit));
  auto locate = [&](uint64_t element, SmallVector<int64_t> &reg, SmallVector<int64_t> &lane) {
    auto [residual, combo] = e.reduce(element);
    assert(residual == 0 && "shuffleMap needs a movement within warps");
    (void)residual;
    reg.push_back(int64_t(combo & lowMask(regBits)));
    lane.push_back(int64_t(combo >> regBits));
  };
  ShuffleMap map;
  for (uint64_t basis : dst.getBases(kRegister))
    locate(basis, map.regFromReg, map.laneFromReg);
  for (uint64_t basis : dst.getBases(kLane))
    locate(basis, map.regFromThread, map.laneFromThread);
  // A warp bit moves the destination by what it moves the source, up to what the warp holds.
  for (auto [d, s] : llvm::zip(dst.getBases(kWarp), src.getBases(kWarp)))
    locate(d ^ s, map.regFromThread, map.laneFromThread);
  return map;
}
