// tile/device.hpp - where arrays live and tile programs run.
//
// A `tile::Device` is either the CPU backend (tile programs on a thread pool) or a CUDA GPU.
// `tile::default_device()` is the first CUDA GPU when tile_rt was built with CUDA and a GPU is
// present, otherwise the CPU; the environment variable TILE_DEVICE=cpu forces the CPU and
// TILE_DEVICE=cuda demands a GPU. The choice is made once, on first use.
//
// A program that spreads over several devices takes them from `tile::device_count()` and
// `tile::device(i)`: every GPU when the default device is a GPU; on the CPU backend,
// TILE_CPU_DEVICES (default 1, at most 8) simulated devices, `cpu:0` ... `cpu:N-1`, which share
// the CPU's thread pool but are as distinct as GPUs are: an array lives on one of them, a launch
// runs where its arrays are, and only copies and collectives (tile/collective.hpp) cross
// between them. So multi-device programs run, and are tested, without GPUs.
#pragma once

#include <string>
#include <utility>

namespace tile {

class Device {
 public:
  enum class Kind { Cpu, Cuda };

  Device(Kind kind, int ordinal, std::string name, int multiprocessors = 1)
      : kind_(kind), ordinal_(ordinal), multiprocessors_(multiprocessors < 1 ? 1 : multiprocessors),
        name_(std::move(name)) {}

  Kind kind() const { return kind_; }
  /// The CUDA device number (0 for the CPU).
  int ordinal() const { return ordinal_; }
  bool is_gpu() const { return kind_ == Kind::Cuda; }
  /// "cpu (8 threads)" or "cuda:0 (NVIDIA H100 80GB HBM3)".
  const std::string& name() const { return name_; }
  /// How many units run tile programs at once: a GPU's streaming multiprocessors, the CPU
  /// backend's threads. A grid sized from it fills the device (how many ways to split a long
  /// reduction across programs, for example).
  int multiprocessors() const { return multiprocessors_; }

  friend bool operator==(const Device& a, const Device& b) {
    return a.kind_ == b.kind_ && a.ordinal_ == b.ordinal_;
  }

 private:
  Kind kind_;
  int ordinal_;
  int multiprocessors_;
  std::string name_;
};

/// The device new arrays are created on and launches run on.
const Device& default_device();

/// The CPU backend, always available (simulated device `cpu:0`).
const Device& cpu_device();
/// Simulated CPU device `ordinal` (0 <= ordinal < TILE_CPU_DEVICES); throws tile::Error otherwise.
const Device& cpu_device(int ordinal);

/// The devices a multi-device program spreads over, of the default device's kind: the GPUs, or
/// the simulated CPU devices. device(0) is the default device.
int device_count();
/// Device `index` of those (0 <= index < device_count()); throws tile::Error otherwise.
const Device& device(int index);

/// The number of CUDA GPUs (0 without CUDA support or without a GPU).
int cuda_device_count();
/// CUDA GPU number `ordinal`; throws tile::Error when there is no such GPU.
const Device& cuda_device(int ordinal);

}  // namespace tile
