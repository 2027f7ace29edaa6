#!/usr/bin/env python3
"""Random GEMM-shaped tile programs for differential testing of tilecc's mma path.

Each generated program is a tile kernel as a user writes a GEMM: a K loop over tiles of two
f16, bf16 or float (TF32) arrays accumulating `tile::mma` in f32, with random tile shapes (the
warpgroup path with its rings, tensor maps, persistent programs and chunked stores, TF32
stages restaged every step, and the mma.sync path), random array shapes (cut tiles, K not a multiple of the tile, rows that are not 16-byte
multiples), B given as an array or as the transpose of one, and a random epilogue before the
store: a scale, an offset, a ReLU, a cast to the input type. Some programs chain a second mma:
an outer loop over B's column tiles whose K-loop result, scaled and cast, multiplies a tile of
a third array (the shape of attention's P x V). The host code runs every kernel on the default
device (the GPU when there is one) and on the CPU backend, whose implementation in include/tile
is the reference semantics, and compares every element.

    generate_gemm_programs.py --out DIR [--programs N] [--per-file M] [--seed S]

writes DIR/gemm_random_<k>.tile.cpp (bench/gpu/random_programs.sh builds and runs them).
"""

from generate_programs import generate

TYPES = ("tile::f16", "tile::bf16", "float")
# (BM, BN, BK): the shapes the warpgroup path takes (M a multiple of 64 per warpgroup) and
# smaller ones that stay on mma.sync.
TILES = ((128, 256, 64), (128, 128, 64), (128, 128, 32), (64, 128, 64), (128, 64, 32),
         (64, 64, 32), (64, 64, 64), (32, 64, 32), (64, 32, 16))


class GemmProgram:
    def __init__(self, rng, index):
        self.rng, self.index = rng, index
        self.dtype = rng.choice(TYPES)
        # Float tiles of the same bytes along K as the 16-bit ones.
        self.bm, self.bn, self.bk = rng.choice([t for t in TILES
                                                if self.dtype != "float" or t[2] <= 32])
        self.transposed = rng.random() < 0.3
        # A chain stages its first product through shared memory for the second mma (the
        # operand is not taken from registers yet): at most 128 x 64 of them fit beside the
        # rings.
        self.chain = rng.random() < 0.2 and self.bm * self.bn <= 128 * 64
        self.bn2 = rng.choice((32, 64)) if self.chain else 0
        # A chain's second product sums the first one's values cast to 16 bits, where the two
        # backends' roundings may differ by one unit: compared at 16-bit tolerance.
        self.out = self.dtype if self.chain or rng.random() < 0.3 else "float"
        self.m = self.extent(self.bm)
        self.n = self.extent(self.bn)
        self.k = self.extent(self.bk)
        self.epilogue = [rng.choice(("scale", "offset", "relu")) for _ in range(rng.randint(0, 3))]

    def extent(self, tile):
        """Whole tiles, a cut last tile, or an odd extent."""
        r = self.rng.random()
        if r < 0.4:
            return tile * self.rng.randint(1, 3)
        if r < 0.7:
            return tile * self.rng.randint(0, 2) + self.rng.randint(1, tile - 1)
        return self.rng.randint(1, 3 * tile)

    def epilogue_expr(self, value):
        for op in self.epilogue:
            value = {"scale": "%s * s" % value, "offset": "(%s + 0.25f)" % value,
                     "relu": "tile::max(%s, 0.0f)" % value}[op]
        if self.out != "float":
            value = "tile::cast<%s>(%s)" % (self.out, value)
        return value

    def kernel(self):
        t, bm, bn, bk = self.dtype, self.bm, self.bn, self.bk
        dyn = "tile::dyn, tile::dyn"
        out_cols = self.bn2 if self.chain else bn
        lines = ["TILE_KERNEL void g%d(tile::Tensor<%s, %d, %d>& c, const tile::Tensor<%s, %s>& a,"
                 % (self.index, self.out, bm, out_cols, t, dyn),
                 "                  const tile::Tensor<%s, %s>& b, const tile::Tensor<%s, %s>& d, float s) {"
                 % (t, dyn, t, dyn),
                 "  auto at = a.partition<%d, %d>();" % (bm, bk),
                 "  auto bt = b.partition<%d, %d>();" % (bk, bn)]
        k_loop = ("  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)\n"
                  "    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, %s), acc);")
        if not self.chain:
            lines.append("  tile::Tile<float, %d, %d> acc = tile::zeros<float, %d, %d>();" % (bm, bn, bm, bn))
            lines.append(k_loop % "tile::block_id(1)")
            lines.append("  c.store(%s);" % self.epilogue_expr("acc"))
        else:
            bn2 = self.bn2
            lines += ["  auto dt = d.partition<%d, %d>();" % (bn, bn2),
                      "  tile::Tile<float, %d, %d> out = tile::zeros<float, %d, %d>();" % (bm, bn2, bm, bn2),
                      "  for (int64_t j = 0; j < tile::num_tiles(bt, 1); ++j) {",
                      "    tile::Tile<float, %d, %d> acc = tile::zeros<float, %d, %d>();" % (bm, bn, bm, bn),
                      "  " + (k_loop % "j").replace("\n", "\n  "),
                      "    out = tile::mma(tile::cast<%s>(acc * s), dt.load(j, tile::block_id(1)), out);" % t,
                      "  }",
                      "  c.store(%s);" % self.epilogue_expr("out")]
        return "\n".join(lines + ["}"])

    @property
    def run_name(self):
        return "run_g%d" % self.index

    def runner(self):
        t, m, n, k = self.dtype, self.m, self.n, self.k
        out_cols = self.bn2 if self.chain else self.bn
        c_cols = self.bn2 if self.chain else n
        d_rows, d_cols = (n, self.bn2) if self.chain else (1, 1)
        b_shape = "{%d, %d}" % ((n, k) if self.transposed else (k, n))
        b_arg = "b.view().transpose()" if self.transposed else "b"
        return "\n".join([
            "static int run_g%d(uint64_t seed) {" % self.index,
            "  // %s, tiles %dx%dx%d, M N K = %d %d %d%s%s, epilogue [%s] -> %s" %
            (t, self.bm, self.bn, self.bk, m, n, k, ", B transposed" if self.transposed else "",
             ", chained with a second mma (%d columns)" % self.bn2 if self.chain else "",
             ", ".join(self.epilogue), self.out),
            "  const auto as = random_values<%s>(%d, seed), bs = random_values<%s>(%d, seed + 1);"
            % (t, m * k, t, k * n),
            "  const auto ds = random_values<%s>(%d, seed + 2);" % (t, d_rows * d_cols),
            "  const float s = 0.5f + float(seed % 3) * 0.25f;",
            "  auto run = [&](const tile::Device& dev) {",
            "    auto a = tile::from_host(as, {%d, %d}, dev);" % (m, k),
            "    auto b = tile::from_host(bs, %s, dev);" % b_shape,
            "    auto d = tile::from_host(ds, {%d, %d}, dev);" % (d_rows, d_cols),
            "    auto c = tile::zeros<%s>({%d, %d}, dev);" % (self.out, m, c_cols),
            "    tile::launch<g%d>(c.partition_mut<%d, %d>(), a, %s, d, s).sync();"
            % (self.index, self.bm, out_cols, b_arg),
            "    return c.to_host();",
            "  };",
            "  return compare(\"g%d\", run(tile::default_device()), run(tile::cpu_device()));" % self.index,
            "}"])


def main():
    generate(__doc__, GemmProgram, "gemm_random")


if __name__ == "__main__":
    main()
