//===- TargetLimits.cpp - what a GPU target allows one tile program ------------===//
#include "tilecc/Dialect/TileGPU/TargetLimits.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tilecc;

namespace {
/// Maximum dynamic shared memory per block (CUDA C++ Programming Guide, compute capabilities).
struct Known {
  const char *arch;
  int64_t maxSharedBytes;
};
constexpr Known kTargets[] = {
    {"sm_70", 98304},   {"sm_72", 98304},   {"sm_75", 65536},   {"sm_80", 166912},
    {"sm_86", 101376},  {"sm_87", 166912},  {"sm_89", 101376},  {"sm_90", 232448},
    {"sm_90a", 232448}, {"sm_100", 232448}, {"sm_100a", 232448}, {"sm_120", 101376},
    {"sm_120a", 101376},
};
} // namespace

std::optional<TargetLimits> tilecc::getTargetLimits(llvm::StringRef arch) {
  for (const Known &k : kTargets)
    if (arch == k.arch)
      return TargetLimits{k.maxSharedBytes, k.arch};
  return std::nullopt;
}

mlir::FailureOr<TargetLimits> tilecc::getTargetLimits(llvm::ArrayRef<std::string> archs,
                                                      std::string &unknown) {
  std::optional<TargetLimits> tightest;
  for (const std::string &arch : archs) {
    std::optional<TargetLimits> limits = getTargetLimits(arch);
    if (!limits) {
      unknown = arch;
      return mlir::failure();
    }
    if (!tightest || limits->maxSharedBytes < tightest->maxSharedBytes)
      tightest = limits;
  }
  if (!tightest) {
    unknown = "";
    return mlir::failure();
  }
  return *tightest;
}

int64_t tilecc::largestSharedBytes() {
  int64_t most = 0;
  for (const Known &k : kTargets)
    most = std::max(most, k.maxSharedBytes);
  return most;
}

std::string tilecc::knownTargets() {
  std::string s;
  for (const Known &k : kTargets)
    s += (s.empty() ? "" : ", ") + std::string(k.arch);
  return s;
}
