// tile/tile.hpp - the one header tile programs include.
//
// Kernel language (reference semantics on the CPU):
//   tile/core.hpp        TILE_KERNEL / TILE_UNSAFE / TILE_TRUSTED, tile::dyn, f16, bf16, f8e4m3,
//                        f8e5m2, complex<float>, element traits, element conversion
//   tile/tile_value.hpp  tile::Tile<T, Dims...> and its operators, math, where, cast
//   tile/shape.hpp       broadcast, reshape, permute, transpose, cat, extract
//   tile/reduce.hpp      sum prod max min argmax argmin reduce (along an axis or whole), cumsum, scan
//   tile/matmul.hpp      mma(a, b, acc), matmul(a, b): matrix multiply(-accumulate), tensor cores
//   tile/tensor.hpp      tile::Tensor views, partition / partition_mut, load_tile_like, block_id
//   tile/atomic.hpp      tile::Atomic: an array all tile programs update with atomic_add/max/min/...
//   tile/debug.hpp       tile::check(cond, "message") and tile::print("label", value)
// Host API (runtime library tile_rt):
//   tile/error.hpp       tile::Error
//   tile/device.hpp      tile::Device, default_device()
//   tile/array.hpp       tile::Shape, tile::Array<T> and its factories, Partition, PartitionRef
//   tile/op.hpp          composing ops (then, zip, shared) and running them (sync, async, graph)
//   tile/launch.hpp      tile::launch<K>(args...) -> tile::DeviceOp
//   tile/autotune.hpp    tile::autotune<K1, K2, ...>(args...): the fastest candidate's launch
//   tile/benchmark.hpp   tile::benchmark(make_op): median time of an op (device time on a GPU)
//   tile/array_ops.hpp   tile::ops::zeros/ones/full/arange/empty/from_host, copy, to_host as ops
//   tile/collective.hpp  several devices: Communicator, all_reduce / all_gather / reduce_scatter /
//                        broadcast as ops, shard / unshard
//   tile/schedule.hpp    program orders for mapped partitions (swizzle, column_major, reversed)
// Included on request: tile/dlpack.hpp (to_dlpack / from_dlpack, the DLPack ABI structs),
// tile/python.hpp (kernels as Python functions, pybind11).
#pragma once

#include "tile/core.hpp"
#include "tile/tile_value.hpp"
#include "tile/shape.hpp"
#include "tile/reduce.hpp"
#include "tile/matmul.hpp"
#include "tile/tensor.hpp"
#include "tile/atomic.hpp"
#include "tile/debug.hpp"
#include "tile/error.hpp"
#include "tile/device.hpp"
#include "tile/array.hpp"
#include "tile/launch.hpp"
#include "tile/autotune.hpp"
#include "tile/benchmark.hpp"
#include "tile/array_ops.hpp"
#include "tile/collective.hpp"
#include "tile/schedule.hpp"
