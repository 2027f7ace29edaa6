#!/usr/bin/env python3
"""Random well-typed tile programs for differential testing of tilecc.

Each generated program is a tile kernel that loads two input tiles, applies a random chain of
elementwise, broadcast, reshape, permute (and reshape-permute-reshape chains), reductions
broadcast back over their operand, cat, extract, cast, bitcast, reduction, scan, mma operations
loops summing the other input's tiles, and loops that may stop early carrying sums of them,
over random power-of-two shapes and element types,
and stores the result. The host
code of each file runs every kernel twice on the same random inputs, on the default device (the GPU
when there is one) and on the CPU backend, whose implementation in include/tile is the
reference semantics, and compares every element within the element type's tolerance.

    generate_programs.py --out DIR [--programs N] [--per-file M] [--seed S]

writes DIR/random_<k>.tile.cpp. A generated program prints one line per mismatching kernel
and exits non-zero when any kernel disagrees.
"""
import argparse
import os
import random
import re

MAX_ELEMENTS = 4096
GRID = 3


class Value:
    """A tile variable of the kernel: its C++ name, element type and shape. `exact` values are
    computed identically on every backend (no floating-point rounding order involved), so
    comparisons, argmax and float-to-int casts of them agree exactly."""

    def __init__(self, name, dtype, shape, exact, nan=False):
        self.name, self.dtype, self.shape, self.exact = name, dtype, list(shape), exact
        # May hold NaN (floats bitcast from negative integers). A user combiner like
        # `a < b ? b : a` is not associative once NaNs are involved, so reduce and scan with
        # such lambdas would break their contract; the built-in reductions stay well defined.
        self.nan = nan

    @property
    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n


FLOATS = ("float", "tile::f16")
CPP_LITERAL = {"float": "{}f", "tile::f16": "{}f", "int32_t": "{}", "double": "{}"}


def dims(shape):
    return ", ".join(str(d) for d in shape)


class Program:
    def __init__(self, rng, index):
        self.rng, self.index = rng, index
        self.lines, self.values, self.counter = [], [], 0
        self.dtype = rng.choice(["float", "float", "int32_t", "tile::f16"])
        rank = rng.choice([1, 2, 2, 3])
        self.in_shape = self.random_shape(rank, rng.choice([64, 256, 1024, 2048]))
        self.trim = rng.choice([0, 0, 1, self.in_shape[0] // 2])

    def random_shape(self, rank, budget):
        shape = [1] * rank
        total = 1
        while True:
            axis = self.rng.randrange(rank)
            if total * 2 > budget or self.rng.random() < 0.08:
                break
            shape[axis] *= 2
            total *= 2
        return shape

    def new(self, dtype, shape, exact, expr):
        name = "v%d" % self.counter
        self.counter += 1
        self.lines.append("  auto %s = %s;" % (name, expr))
        # A NaN flows into everything computed from a value that may hold one.
        used = set(re.findall(r"\bv\d+\b", expr))
        nan = dtype != "int32_t" and any(w.nan and w.name in used for w in self.values)
        v = Value(name, dtype, shape, exact, nan or "tile::bitcast<float>" in expr)
        self.values.append(v)
        return v

    def same_kind(self, v):
        """An earlier value of v's type and shape, or v itself."""
        alike = [w for w in self.values if w.dtype == v.dtype and w.shape == v.shape]
        return self.rng.choice(alike)

    # ---- operations: each returns a new Value or None when it does not apply ----

    def op_unary(self, v):
        r = self.rng
        if v.dtype == "int32_t":
            expr = r.choice(["%s * 3 + 1", "tile::abs(%s)", "(%s ^ 5)", "-%s", "tile::max(%s, 0)"])
            return self.new(v.dtype, v.shape, v.exact, expr % v.name)
        if v.dtype == "float":
            expr = r.choice(["%s * 0.5f + 1.0f", "tile::abs(%s)", "tile::tanh(%s)", "-%s",
                             "tile::max(%s, 0.25f)"])
            exact = v.exact and expr in ("tile::abs(%s)", "-%s", "tile::max(%s, 0.25f)")
            return self.new(v.dtype, v.shape, exact, expr % v.name)
        expr = r.choice(["tile::abs(%s)", "-%s", "tile::max(%s, 0.25f)"])
        return self.new(v.dtype, v.shape, v.exact, expr % v.name)

    def op_binary(self, v):
        w = self.same_kind(v)
        op = self.rng.choice(["+", "-", "*"] if v.dtype != "int32_t" else ["+", "-", "*", "&", "|"])
        exact = v.exact and w.exact and v.dtype == "int32_t"
        return self.new(v.dtype, v.shape, exact, "%s %s %s" % (v.name, op, w.name))

    def op_where(self, v):
        if not v.exact:
            return None
        w = self.same_kind(v)
        zero = "0" if v.dtype == "int32_t" else "0.0f"
        cond = "%s > %s" % (v.name, zero) if v.dtype != "tile::f16" else \
            "%s > tile::f16(0.0f)" % v.name
        return self.new(v.dtype, v.shape, v.exact and w.exact,
                        "tile::where(%s, %s, %s)" % (cond, v.name, w.name))

    def op_broadcast(self, v):
        r = self.rng
        ones = [k for k, d in enumerate(v.shape) if d == 1]
        if ones and r.random() < 0.6:
            shape = list(v.shape)
            shape[r.choice(ones)] = r.choice([2, 4, 8])
        elif len(v.shape) < 3:
            shape = [r.choice([2, 4])] + v.shape
        else:
            return None
        if Value("", "", shape, True).numel > MAX_ELEMENTS:
            return None
        return self.new(v.dtype, shape, v.exact, "tile::broadcast<%s>(%s)" % (dims(shape), v.name))

    def op_reshape(self, v):
        shape = self.random_factorization(v.numel, self.rng.choice([1, 2, 2, 3]))
        return self.new(v.dtype, shape, v.exact, "tile::reshape<%s>(%s)" % (dims(shape), v.name))

    def random_factorization(self, n, rank):
        shape = [1] * rank
        while n > 1:
            shape[self.rng.randrange(rank)] *= 2
            n //= 2
        return shape

    def op_permute(self, v):
        if len(v.shape) < 2:
            return None
        perm = list(range(len(v.shape)))
        self.rng.shuffle(perm)
        shape = [v.shape[p] for p in perm]
        if len(v.shape) == 2 and perm == [1, 0] and self.rng.random() < 0.5:
            return self.new(v.dtype, shape, v.exact, "tile::transpose(%s)" % v.name)
        return self.new(v.dtype, shape, v.exact,
                        "tile::permute<%s>(%s)" % (", ".join(map(str, perm)), v.name))

    def op_cat(self, v):
        if v.numel * 2 > MAX_ELEMENTS:
            return None
        w = self.same_kind(v)
        axis = self.rng.randrange(len(v.shape))
        shape = list(v.shape)
        shape[axis] *= 2
        return self.new(v.dtype, shape, v.exact and w.exact,
                        "tile::cat<%d>(%s, %s)" % (axis, v.name, w.name))

    def op_extract(self, v):
        axes = [k for k, d in enumerate(v.shape) if d >= 2]
        if not axes:
            return None
        shape = list(v.shape)
        axis = self.rng.choice(axes)
        shape[axis] //= 2
        index = ["0"] * len(shape)
        index[axis] = self.rng.choice(["k", "k % 2", "1"])  # k may be out of range: zeros
        return self.new(v.dtype, shape, v.exact,
                        "tile::extract<%s>(%s, %s)" % (dims(shape), v.name, ", ".join(index)))

    def op_cast(self, v):
        r = self.rng
        if v.dtype == "int32_t":
            to = r.choice(["float", "tile::f16"]) if v.exact else "float"
            # int -> f16 rounds identically everywhere; int -> float is exact below 2^24.
            return self.new(to, v.shape, v.exact, "tile::cast<%s>(%s)" % (to, v.name))
        if v.dtype == "float":
            to = r.choice(["tile::f16", "int32_t"]) if v.exact else "tile::f16"
            return self.new(to, v.shape, v.exact, "tile::cast<%s>(%s)" % (to, v.name))
        return self.new("float", v.shape, v.exact, "tile::cast<float>(%s)" % v.name)

    def op_bitcast(self, v):
        """float <-> int32 bits; only of exact values (a rounding difference would flip bits)."""
        if not v.exact or v.dtype == "tile::f16":
            return None
        to = "int32_t" if v.dtype == "float" else "float"
        return self.new(to, v.shape, True, "tile::bitcast<%s>(%s)" % (to, v.name))

    def reduced_shape(self, v, axis):
        return [d for k, d in enumerate(v.shape) if k != axis]

    def as_tile(self, dtype, shape, exact, expr):
        """A reduction's result: a tile, or a scalar made a one-element tile again."""
        if shape:
            return self.new(dtype, shape, exact, expr)
        return self.new(dtype, [1], exact, "tile::full<%s, 1>(%s)" % (dtype, expr))

    def op_reduce(self, v):
        r = self.rng
        axis = r.randrange(len(v.shape))
        shape = self.reduced_shape(v, axis)
        kinds = ["sum", "max", "min"] + (["prod"] if v.dtype == "int32_t" else [])
        kind = r.choice(kinds)
        exact = v.exact and (kind in ("max", "min") or v.dtype == "int32_t")
        if r.random() < 0.15 and len(v.shape) > 1:
            return self.as_tile(v.dtype, [], exact, "tile::%s(%s)" % (kind, v.name))
        return self.as_tile(v.dtype, shape, exact, "tile::%s<%d>(%s)" % (kind, axis, v.name))

    def op_reduce_back(self, v):
        """A reduction broadcast back along its axis and combined with its operand (a
        slice-layout value meeting its parent's: softmax's and LayerNorm's pattern)."""
        if len(v.shape) < 2 or v.dtype == "tile::f16" or v.nan:
            return None
        r = self.rng
        axis = r.randrange(len(v.shape))
        kind = r.choice(["sum", "max", "min"])
        unit = list(v.shape)
        unit[axis] = 1
        back = "tile::broadcast<%s>(tile::reshape<%s>(tile::%s<%d>(%s)))" % (
            dims(v.shape), dims(unit), kind, axis, v.name)
        op = r.choice(["-", "+", "*"])
        exact = v.exact and (kind != "sum" or v.dtype == "int32_t")
        return self.new(v.dtype, v.shape, exact, "%s %s %s" % (v.name, op, back))

    def op_reshape_permute(self, v):
        """A reshape, a permute of the result and a reshape back to a rank of its own."""
        if v.numel < 4:
            return None
        shape = self.random_factorization(v.numel, self.rng.choice([2, 3]))
        perm = list(range(len(shape)))
        self.rng.shuffle(perm)
        permuted = [shape[p] for p in perm]
        out = self.random_factorization(v.numel, self.rng.choice([1, 2]))
        return self.new(v.dtype, out, v.exact, "tile::reshape<%s>(tile::permute<%s>(tile::reshape<%s>(%s)))" % (
            dims(out), ", ".join(map(str, perm)), dims(shape), v.name))

    def op_argmax(self, v):
        if not v.exact:
            return None
        axis = self.rng.randrange(len(v.shape))
        kind = self.rng.choice(["argmax", "argmin"])
        return self.as_tile("int32_t", self.reduced_shape(v, axis), True,
                            "tile::%s<%d>(%s)" % (kind, axis, v.name))

    def op_user_reduce(self, v):
        if v.dtype == "tile::f16" or v.nan:
            return None
        axis = self.rng.randrange(len(v.shape))
        t = v.dtype
        if self.rng.random() < 0.5:
            f, init, exact = "[](%s a, %s b) { return a + b; }" % (t, t), "0", v.dtype == "int32_t"
        else:
            f, init, exact = "[](%s a, %s b) { return a < b ? b : a; }" % (t, t), "-1000", v.exact
        return self.as_tile(t, self.reduced_shape(v, axis), exact and v.exact,
                            "tile::reduce<%d>(%s, %s, %s)" % (axis, v.name, init, f))

    def op_scan(self, v):
        axis = self.rng.randrange(len(v.shape))
        if v.dtype != "tile::f16" and not v.nan and self.rng.random() < 0.4:
            t = v.dtype
            f = "[](%s a, %s b) { return a < b ? b : a; }" % (t, t)
            return self.new(t, v.shape, v.exact, "tile::scan<%d>(%s, -1000, %s)" % (axis, v.name, f))
        exact = v.exact and v.dtype == "int32_t"
        return self.new(v.dtype, v.shape, exact, "tile::cumsum<%d>(%s)" % (axis, v.name))

    def op_mma(self, v):
        """v (M x K) times another M x K value transposed: an M x M float tile."""
        if len(v.shape) != 2 or v.dtype == "int32_t" or v.shape[0] * v.shape[0] > MAX_ELEMENTS:
            return None
        w = self.same_kind(v)
        m = v.shape[0]
        product = "tile::transpose(%s)" % w.name
        if self.rng.random() < 0.5:
            return self.new("float", [m, m], False, "tile::matmul(%s, %s)" % (v.name, product))
        return self.new("float", [m, m], False, "tile::mma(%s, %s, tile::full<float, %d, %d>(0.5f))"
                        % (v.name, product, m, m))

    def op_loop_sum(self, v):
        """A loop over y's tiles down its first axis, summing them (the shape of a K loop)."""
        t, s = self.dtype, self.in_shape
        part, j = "py%d" % self.counter, "j%d" % self.counter
        self.lines.append("  const auto %s = y.partition<%s>();" % (part, dims(s)))
        acc = self.new(t, s, t == "int32_t", "tile::zeros<%s, %s>()" % (t, dims(s)))
        self.lines.append("  for (int64_t %s = 0; %s < tile::num_tiles(%s, 0); ++%s) %s = %s + %s.load(%s%s);"
                          % (j, j, part, j, acc.name, acc.name, part, j, ", 0" * (len(s) - 1)))
        return acc

    def op_while_reduce(self, v):
        """A loop that may stop early (an scf.while), carrying the sums along an axis of y's
        tiles down its first axis."""
        t, s = self.dtype, self.in_shape
        if len(s) < 2:
            return None
        axis = self.rng.randrange(len(s))
        reduced = s[:axis] + s[axis + 1:]
        part, j = "py%d" % self.counter, "j%d" % self.counter
        self.lines.append("  const auto %s = y.partition<%s>();" % (part, dims(s)))
        acc = self.new(t, reduced, t == "int32_t", "tile::zeros<%s, %s>()" % (t, dims(reduced)))
        self.lines.append("  int64_t %s = 0;" % j)
        self.lines.append("  while (%s < tile::num_tiles(%s, 0) && %s <= k) { %s = %s + tile::sum<%d>(%s.load(%s%s)); ++%s; }"
                          % (j, part, j, acc.name, acc.name, axis, part, j, ", 0" * (len(s) - 1), j))
        return acc

    OPS = ["op_mma", "op_unary", "op_binary", "op_where", "op_broadcast", "op_reshape", "op_permute",
           "op_cat", "op_extract", "op_cast", "op_bitcast", "op_reduce", "op_argmax", "op_user_reduce",
           "op_scan", "op_reduce_back", "op_reshape_permute", "op_loop_sum", "op_while_reduce"]

    def build(self):
        t, s = self.dtype, self.in_shape
        rank = len(s)
        load = "%%s.partition<%s>().load(tile::block_id(0)%s)" % (dims(s), ", 0" * (rank - 1))
        x = self.new(t, s, True, load % "x")
        self.new(t, s, True, load % "y")
        v = x
        for _ in range(self.rng.randint(2, 7)):
            for _attempt in range(10):
                w = getattr(self, self.rng.choice(self.OPS))(v)
                if w is not None:
                    v = w
                    break
        self.result = v
        return self

    def kernel(self):
        dyn = ", ".join(["tile::dyn"] * len(self.in_shape))
        r = self.result
        return "\n".join(
            ["TILE_KERNEL void p%d(tile::Tensor<%s, %s>& out, const tile::Tensor<%s, %s>& x," %
             (self.index, r.dtype, dims(r.shape), self.dtype, dyn),
             "                 const tile::Tensor<%s, %s>& y, int64_t k) {" % (self.dtype, dyn)]
            + self.lines + ["  out.store(%s);" % r.name, "}"])

    @property
    def run_name(self):
        return "run_p%d" % self.index

    def runner(self):
        s, r = self.in_shape, self.result
        rows = GRID * s[0] - self.trim if GRID * s[0] - self.trim > 0 else 1
        in_shape = [rows] + s[1:]
        out_shape = [GRID * r.shape[0]] + r.shape[1:]
        n_in = 1
        for d in in_shape:
            n_in *= d
        return "\n".join([
            "static int run_p%d(uint64_t seed) {" % self.index,
            "  const auto xs = random_values<%s>(%d, seed), ys = random_values<%s>(%d, seed + 1);" %
            (self.dtype, n_in, self.dtype, n_in),
            "  const int64_t k = int64_t(seed % 4);",
            "  auto run = [&](const tile::Device& d) {",
            "    auto x = tile::from_host(xs, {%s}, d);" % dims(in_shape),
            "    auto y = tile::from_host(ys, {%s}, d);" % dims(in_shape),
            "    auto out = tile::zeros<%s>({%s}, d);" % (r.dtype, dims(out_shape)),
            "    tile::launch<p%d>(out.partition_mut<%s>(), x, y, k).sync();" % (self.index, dims(r.shape)),
            "    return out.to_host();",
            "  };",
            "  return compare(\"p%d\", run(tile::default_device()), run(tile::cpu_device()));" % self.index,
            "}"])


PRELUDE = r'''// Generated by test/RandomPrograms/generate_programs.py (seed %(seed)d): random tile programs,
// each run on the default device and on the CPU backend and compared element by element.
#include <cmath>
#include <cstdio>
#include <random>
#include <tile/tile.hpp>
#include <vector>

template <class T>
static std::vector<T> random_values(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int> d(-50, 50);
    for (auto& e : v) e = T(d(rng));
  } else {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (auto& e : v) e = T(d(rng));
  }
  return v;
}

/// Every element within the element type's tolerance (relative to the output's magnitude).
template <class T>
static int compare(const char* name, const std::vector<T>& got, const std::vector<T>& want) {
  double scale = 1.0;
  for (const T& w : want) scale = std::fmax(scale, std::fabs(double(float(w))));
  const double tol = std::is_integral_v<T> ? 0.0 : (sizeof(T) == 2 ? 1e-2 : 1e-3);
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = double(float(got[i])), w = double(float(want[i]));
    if (std::isnan(g) && std::isnan(w)) continue;
    if (g == w || std::fabs(g - w) <= tol * scale) continue;
    std::printf("MISMATCH %%s: element %%zu of %%zu is %%.9g, the CPU reference %%.9g\n", name, i,
                want.size(), g, w);
    return 1;
  }
  return 0;
}
'''


def generate(doc, make_program, stem):
    """The command line both generators share: `make_program(rng, k)` builds program k (its
    kernel(), runner() and run_name); groups of --per-file programs go to DIR/<stem>_<n>.tile.cpp,
    each with a main() that runs them all and counts mismatches."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--programs", type=int, default=20)
    parser.add_argument("--per-file", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    programs = [make_program(rng, k) for k in range(args.programs)]
    for f in range(0, args.programs, args.per_file):
        group = programs[f:f + args.per_file]
        text = [PRELUDE % {"seed": args.seed}]
        for p in group:
            text += [p.kernel(), "", p.runner(), ""]
        text.append("int main(int argc, char** argv) {")
        text.append("  const uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;")
        text.append("  int failed = 0;")
        for p in group:
            text.append("  failed += %s(seed + %d);" % (p.run_name, 10 * p.index))
        text.append("  std::printf(\"%%d programs on %%s: %%d mismatched\\n\", %d, "
                    "tile::default_device().name().c_str(), failed);" % len(group))
        text.append("  return failed ? 1 : 0;")
        text.append("}")
        with open(os.path.join(args.out, "%s_%d.tile.cpp" % (stem, f // args.per_file)), "w") as out:
            out.write("\n".join(text) + "\n")


def main():
    generate(__doc__, lambda rng, k: Program(rng, k).build(), "random")


if __name__ == "__main__":
    main()
