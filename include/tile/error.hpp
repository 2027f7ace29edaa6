// tile/error.hpp - the one exception type of the tile runtime.
//
// Every failure the host API detects (a wrong shape, a launch that breaks a borrowing or shape
// rule, a CUDA error) is reported as a `tile::Error` whose message names what was wrong, and,
// for a launch, the kernel, the argument and the rule.
#pragma once

#include <stdexcept>
#include <string>

namespace tile {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  explicit Error(const char* what) : std::runtime_error(what) {}
};

}  // namespace tile
