// tile/debug.hpp - `tile::check` and `tile::print`: debugging inside tile kernels.
//
//  * `tile::check(cond, "message")`: `cond` is a bool or a Tile<bool, ...> (it holds when every
//    element is true); the message must be a string literal. When it does not hold, the launch
//    fails: once all its programs have run it throws tile::Error naming the kernel, the check's
//    file:line, the coordinates of the first failing program and the message. The failing
//    program goes on (a GPU cannot stop one tile program without stopping them all), so what
//    the launch wrote is unspecified. Outside a launch (a kernel called as a plain function) a
//    failed check throws at once.
//  * `tile::print("label", v)`: prints `[program (i, j)] label = v` for a scalar and one line
//    `[program (i, j)] label[a, b] = v` per element of a tile, in row-major order. Floating
//    values print with %.9g (float, f16, bf16) or %.17g (double), integers in decimal, bool as
//    0 or 1. Each line is written whole; lines of different programs interleave in any order.
// The GPU does the same: a failed check is reported at the next synchronisation with the
// device, and prints go through the device's printf buffer.
#pragma once

#include <cstdio>
#include <source_location>
#include <string>
#include <string_view>
#include <type_traits>

#include "tile/core.hpp"
#include "tile/error.hpp"
#include "tile/tensor.hpp"
#include "tile/tile_value.hpp"

namespace tile {

namespace detail {

/// "(i, j)": the running program's coordinates.
inline std::string program_coordinates() {
  const ProgramContext& p = current_program;
  std::string s = "(";
  for (int a = 0; a < p.rank; ++a) {
    if (a) s += ", ";
    s += std::to_string(p.id[static_cast<std::size_t>(a)]);
  }
  return s + ")";
}

inline std::string_view file_name_of(const char* path) {
  std::string_view p(path);
  const std::size_t slash = p.find_last_of("/\\");
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

[[noreturn]] inline void throw_check_failure(std::string text) { throw Error(std::move(text)); }

/// Records a failed check for the running launch (the first one wins), or throws outside one.
inline void check_failed(const char* message, const std::source_location& where) {
  std::string text = "tile::check failed at " + std::string(file_name_of(where.file_name())) + ":" +
                     std::to_string(where.line()) + " in tile program " + program_coordinates() + ": " +
                     message;
  CheckSlot* slot = current_program.checks;
  if (!slot) throw_check_failure(std::move(text));
  int none = 0;
  if (!slot->state.compare_exchange_strong(none, 1, std::memory_order_acq_rel)) return;
  slot->text = std::move(text);
  slot->state.store(2, std::memory_order_release);
}

/// One element as tile::print writes it.
template <class T>
std::string format_element(const T& v) {
  char buf[64];
  if constexpr (std::is_same_v<T, bool>)
    std::snprintf(buf, sizeof buf, "%d", v ? 1 : 0);
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else if constexpr (std::is_integral_v<T>)
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  else if constexpr (std::is_same_v<T, double>)
    std::snprintf(buf, sizeof buf, "%.17g", v);
  else if constexpr (requires { v.real(); v.imag(); })
    std::snprintf(buf, sizeof buf, "(%.9g, %.9g)", static_cast<double>(v.real()), static_cast<double>(v.imag()));
  else
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(static_cast<float>(v)));
  return buf;
}

inline void print_line(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace detail

/// Fails the launch with `message` unless `cond` holds (see the top of this header).
inline void check(bool cond, const char* message,
                  const std::source_location& where = std::source_location::current()) {
  if (!cond) detail::check_failed(message, where);
}

/// Fails the launch with `message` unless every element of `cond` is true.
template <int... Dims>
void check(const Tile<bool, Dims...>& cond, const char* message,
           const std::source_location& where = std::source_location::current()) {
  for (bool b : detail::TileAccess::storage(cond))
    if (!b) {
      detail::check_failed(message, where);
      return;
    }
}

/// Prints a scalar: `[program (i, j)] label = v`.
template <class T>
requires element_type<T>
void print(const char* label, const T& v) {
  detail::print_line("[program " + detail::program_coordinates() + "] " + label + " = " +
                     detail::format_element(v) + "\n");
}

/// Prints every element of a tile, one line each in row-major order: `label[a, b] = v`.
template <class T, int... Dims>
void print(const char* label, const Tile<T, Dims...>& t) {
  constexpr std::array<int64_t, sizeof...(Dims)> shape{Dims...};
  const std::string head = "[program " + detail::program_coordinates() + "] " + label + "[";
  std::string text;
  const auto& elements = detail::TileAccess::storage(t);
  for (std::size_t k = 0; k < elements.size(); ++k) {
    std::string index;
    std::size_t rest = k;
    for (std::size_t a = shape.size(); a-- > 0;) {
      const auto extent = static_cast<std::size_t>(shape[a]);
      index.insert(0, (a ? ", " : "") + std::to_string(rest % extent));
      rest /= extent;
    }
    text += head + index + "] = " + detail::format_element(elements[k]) + "\n";
  }
  detail::print_line(text);
}

}  // namespace tile
