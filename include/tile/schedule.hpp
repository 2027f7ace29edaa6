// tile/schedule.hpp - program orders for mapped partitions: `std::move(p).map(tile::swizzle<8>{})`.
//
// A map takes a program's coordinates in the partition grid and the grid, and returns the
// coordinates of the tile that program works on. Programs still run in row-major order of their
// own coordinates, so a map decides which tiles run together (L2 locality in a GEMM). Each map
// here is a bijection of the grid, which `tilecc check` knows; a hand-written map must be
// provably injective (rule tile-mapped-not-injective) and is checked again at run time.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace tile {

/// Grouped row-major order over a 2-D grid (Triton's GROUP_SIZE_M): consecutive programs walk
/// down a column of `Group` tile rows before moving to the next column, so that they share
/// rows of A and columns of B in a GEMM.
template <int64_t Group>
struct swizzle {
  static_assert(Group >= 1, "tile::swizzle: the group must have at least one row");
  std::array<int64_t, 2> operator()(const std::array<int64_t, 2>& program,
                                    const std::array<int64_t, 2>& grid) const {
    const int64_t linear = program[0] * grid[1] + program[1];
    const int64_t per_group = Group * grid[1];
    const int64_t first_row = linear / per_group * Group;
    const int64_t rows = std::min(grid[0] - first_row, Group);
    const int64_t in_group = linear % per_group;
    return {first_row + in_group % rows, in_group / rows};
  }
};

/// Column-major order: program k (row-major) works on the k-th tile in column-major order.
struct column_major {
  std::array<int64_t, 2> operator()(const std::array<int64_t, 2>& program,
                                    const std::array<int64_t, 2>& grid) const {
    const int64_t linear = program[0] * grid[1] + program[1];
    return {linear % grid[0], linear / grid[0]};
  }
};

/// Every axis reversed: the last tile first.
struct reversed {
  template <std::size_t R>
  std::array<int64_t, R> operator()(const std::array<int64_t, R>& program,
                                    const std::array<int64_t, R>& grid) const {
    std::array<int64_t, R> t{};
    for (std::size_t a = 0; a < R; ++a) t[a] = grid[a] - 1 - program[a];
    return t;
  }
};

}  // namespace tile
