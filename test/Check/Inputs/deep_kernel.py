"""Prints a tile kernel whose expression or statement nesting is `depth` levels deep.

  deep_kernel.py sum N      y.store(x + x + ... + x), N terms (a left-nested chain of calls)
  deep_kernel.py elseif N   an if / else if chain of N branches
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
print("#include <tile/tile.hpp>")
print("TILE_KERNEL void k(tile::Tensor<float, 16>& y, const tile::Tensor<float, tile::dyn>& a,")
print("                   int n) {")
print("  auto x = a.partition<16>().load(tile::block_id(0));")
if kind == "sum":
    print("  y.store(" + " + ".join(["x"] * n) + ");")
else:
    print("  float s = 0;")
    print("  if (n == 0) s = 1;")
    for i in range(1, n):
        print(f"  else if (n == {i}) s = {i}.0f;")
    print("  y.store(x * s);")
print("}")
