//===- KernelBuilderFuzzer.cpp - valid but unusual kernels, built from the input ---===//
//
// A structure-aware target: the input bytes are choices, not text. They pick an element type,
// a tile shape (powers of two, now and then one that is not), and a chain of tile operations
// (elementwise math, reductions and their broadcast back, shape ops, scans, selections, casts,
// mma where the shapes allow, loops carrying a tile, sums of hundreds of terms, deep `?:`
// chains, nested ifs), each applied to values of the right rank; the kernel stores the result
// into its exclusive piece and a host main launches it. The program then goes through
// `tilecc compile` in process (CompileInProcess.h). Most programs are valid and reach CUDA
// emission; the others must end in a located error. A crash, a hang or an LLVM fatal error is
// a bug. Any byte string is an input: the seed corpus is the lit tests' files read as bytes.
//
//===----------------------------------------------------------------------===//
#include "CompileInProcess.h"
#include "FuzzTarget.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// Choices read from the input, each byte mixed with a stream seeded by a hash of the whole
/// input (so that seeds which begin alike, as the lit tests' `// RUN:` lines do, still build
/// different programs); zeros once it runs out.
class Choices {
public:
  Choices(const uint8_t *data, size_t size) : data(data), size(size) {
    for (size_t i = 0; i < size; ++i)
      state = (state ^ data[i]) * 1099511628211ull;
  }
  unsigned pick(unsigned n) { return n ? byte() % n : 0; }
  bool coin() { return pick(2) == 1; }
  bool done() const { return at >= size; }

private:
  unsigned byte() {
    if (at >= size)
      return 0;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (data[at++] ^ unsigned(state >> 56)) & 0xff;
  }
  const uint8_t *data;
  size_t size, at = 0;
  uint64_t state = 14695981039346656037ull;
};

/// A tile value of the kernel: its name and shape (rank 1 or 2).
struct Value {
  std::string name;
  int rows, cols; // cols == 0: rank 1 of `rows` elements
};

class Builder {
public:
  explicit Builder(Choices &in) : in(in) {}

  std::string build() {
    static const char *const types[] = {"float", "float", "float", "tile::bf16", "tile::f16",
                                        "double", "int32_t"};
    type = types[in.pick(7)];
    const bool floating = type != "int32_t";
    rows = dim();
    cols = dim();
    body += "  auto v0 = tile::cast<float>(in.partition<" + shape(rows, cols) +
            ">().load(tile::block_id(0), 0));\n";
    values.push_back({"v0", rows, cols});
    const unsigned steps = 1 + in.pick(12);
    for (unsigned i = 0; i < steps && !in.done(); ++i)
      step();
    // The result: some value of the kernel's shape, or the first one.
    std::string result = "v0";
    for (const Value &v : values)
      if (v.rows == rows && v.cols == cols)
        result = v.name;
    body += "  out.store(tile::cast<" + type + ">(" + result + "));\n";
    std::string text = "#include <tile/tile.hpp>\n#include <cstdint>\n\n";
    text += "TILE_KERNEL void kernel(tile::Tensor<" + type + ", " + shape(rows, cols) +
            ">& out, const tile::Tensor<" + type + ", tile::dyn, tile::dyn>& in, float s) {\n";
    text += body + "}\n\n";
    text += "int main() {\n";
    text += "  auto a = tile::zeros<" + type + ">({" + std::to_string(2 * rows) + ", " +
            std::to_string(cols) + "});\n";
    text += "  auto o = tile::zeros<" + type + ">({" + std::to_string(2 * rows) + ", " +
            std::to_string(cols) + "});\n";
    text += "  tile::launch<kernel>(o.partition_mut<" + shape(rows, cols) + ">(), a, " +
            (floating ? "0.5f" : "2.0f") + ").sync();\n}\n";
    return text;
  }

private:
  /// A tile extent: a power of two up to 256, rarely one that is not.
  int dim() {
    if (in.pick(16) == 0)
      return 3 + int(in.pick(5));
    return 1 << in.pick(9);
  }
  static std::string shape(int r, int c) {
    return c ? std::to_string(r) + ", " + std::to_string(c) : std::to_string(r);
  }
  const Value &any() { return values[in.pick(unsigned(values.size()))]; }
  std::string fresh() { return "v" + std::to_string(values.size()); }
  void add(const std::string &expr, int r, int c) {
    std::string name = fresh();
    body += "  auto " + name + " = " + expr + ";\n";
    values.push_back({name, r, c});
  }

  void step() {
    const Value v = any();
    const std::string &x = v.name;
    switch (in.pick(16)) {
    case 0: {
      static const char *const unary[] = {"tile::exp", "tile::exp2", "tile::log", "tile::sqrt",
                                          "tile::abs", "tile::tanh", "tile::rsqrt", "-"};
      add(std::string(unary[in.pick(8)]) + "(" + x + ")", v.rows, v.cols);
      break;
    }
    case 1:
      add(x + " * s + " + std::to_string(in.pick(5)) + ".0f", v.rows, v.cols);
      break;
    case 2: { // a binary op with another value of the same shape, or itself
      std::string y = x;
      for (const Value &w : values)
        if (w.rows == v.rows && w.cols == v.cols && in.coin())
          y = w.name;
      static const char *const ops[] = {" + ", " - ", " * ", " / "};
      add(x + ops[in.pick(4)] + y, v.rows, v.cols);
      break;
    }
    case 3: // a reduction, and its broadcast back
      if (v.cols) {
        static const char *const reductions[] = {"tile::sum", "tile::max", "tile::min"};
        const int axis = int(in.pick(2));
        std::string r = std::string(reductions[in.pick(3)]) + "<" + std::to_string(axis) +
                        ">(" + x + ")";
        const int n = axis ? v.rows : v.cols;
        add(r, n, 0);
        if (in.coin())
          add("tile::broadcast<" + shape(v.rows, v.cols) + ">(tile::reshape<" +
                  (axis ? shape(v.rows, 1) : shape(1, v.cols)) + ">(" + values.back().name +
                  "))",
              v.rows, v.cols);
      }
      break;
    case 4:
      if (v.cols)
        add("tile::transpose(" + x + ")", v.cols, v.rows);
      break;
    case 5: // a reshape to another power-of-two shape of the same size, or to rank 1
      if (v.cols && v.rows * v.cols > 1 && in.coin())
        add("tile::reshape<" + shape(v.rows * v.cols / 2, 2) + ">(" + x + ")",
            v.rows * v.cols / 2, 2);
      else
        add("tile::reshape<" + std::to_string(v.rows * (v.cols ? v.cols : 1)) + ">(" + x + ")",
            v.rows * (v.cols ? v.cols : 1), 0);
      break;
    case 6:
      add("tile::cumsum<" + std::to_string(v.cols ? in.pick(2) : 0) + ">(" + x + ")", v.rows,
          v.cols);
      break;
    case 7:
      add("tile::where(" + x + " > 0.0f, " + x + ", " + x + " * 0.25f)", v.rows, v.cols);
      break;
    case 8: { // a round trip through another element type
      static const char *const casts[] = {"tile::bf16", "tile::f16", "double", "int32_t",
                                          "tile::f8e4m3"};
      add("tile::cast<float>(tile::cast<" + std::string(casts[in.pick(5)]) + ">(" + x + "))",
          v.rows, v.cols);
      break;
    }
    case 9: // an mma of the value with its transpose, 16-bit operands
      if (v.cols)
        add("tile::mma(tile::cast<tile::bf16>(" + x + "), tile::cast<tile::bf16>(tile::transpose(" +
                x + ")), tile::zeros<float, " + shape(v.rows, v.rows) + ">())",
            v.rows, v.rows);
      break;
    case 10: { // a sum of many terms
      const unsigned terms = 2 + in.pick(4) * in.pick(128);
      std::string e = x;
      for (unsigned i = 1; i < terms; ++i)
        e += " + " + x;
      add(e, v.rows, v.cols);
      break;
    }
    case 11: { // a chain of ?: on the program's coordinate
      const unsigned depth = 1 + in.pick(4) * in.pick(64);
      std::string e = x;
      for (unsigned i = 0; i < depth; ++i)
        e = "(tile::block_id(0) == " + std::to_string(i) + " ? " + x + " * 0.5f : " + e + ")";
      add(e, v.rows, v.cols);
      break;
    }
    case 12: { // a loop carrying a tile
      std::string name = fresh();
      body += "  auto " + name + " = " + x + ";\n";
      body += "  for (int64_t i = 0; i < " + std::to_string(1 + in.pick(4)) + "; ++i) " + name +
              " = " + name + " * s + " + x + ";\n";
      values.push_back({name, v.rows, v.cols});
      break;
    }
    case 13: { // nested ifs
      std::string name = fresh();
      body += "  auto " + name + " = " + x + ";\n";
      const unsigned depth = 1 + in.pick(3) * in.pick(40);
      std::string open, close;
      for (unsigned i = 0; i < depth; ++i) {
        open += "  if (s > " + std::to_string(i) + ".0f) {\n";
        close += "  }\n";
      }
      body += open + "  " + name + " = " + name + " + " + x + ";\n" + close;
      values.push_back({name, v.rows, v.cols});
      break;
    }
    case 14: // a full tile of the same shape, and a comparison turned into numbers
      add("tile::cast<float>(" + x + " < tile::full<float, " + shape(v.rows, v.cols) +
              ">(1.0f))",
          v.rows, v.cols);
      break;
    default: // the two halves along the last axis, extracted and put back together
      if (v.cols >= 2) {
        const std::string half = "tile::extract<" + shape(v.rows, v.cols / 2) + ">(" + x;
        add("tile::cat<1>(" + half + ", 0, 0), " + half + ", 0, " +
                std::to_string(1 + in.pick(2)) + "))",
            v.rows, v.cols);
      }
      break;
    }
  }

  Choices &in;
  std::string type, body;
  int rows = 1, cols = 1;
  std::vector<Value> values;
};

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv) {
  tilecc::fuzz::initializeCompileInProcess((*argv)[0]);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Choices in(data, size);
  const std::string program = Builder(in).build();
  if (std::getenv("TILECC_FUZZ_PRINT"))
    std::fprintf(stderr, "%s\n", program.c_str());
  tilecc::fuzz::compileInProcess(program);
  return 0;
}
