// runtime/kernel_name.cpp - recovering "add<128>" from what the compiler tells us about K.
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "tile/detail/runtime.hpp"

namespace tile::detail {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '&')) s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool opens(char c) { return c == '<' || c == '(' || c == '[' || c == '{'; }
bool closes(char c) { return c == '>' || c == ')' || c == ']' || c == '}'; }

/// "... [with auto K = add<128>; ...]" (GCC) or "... [K = &add]" (clang) -> "add<128>" / "add".
std::string from_pretty(std::string_view s) {
  std::size_t p = s.find("K = ");
  if (p == std::string_view::npos) return std::string(s);
  p += 4;
  int depth = 0;
  std::size_t e = p;
  for (; e < s.size(); ++e) {
    const char c = s[e];
    if (depth == 0 && (c == ';' || c == ']')) break;
    if (opens(c))
      ++depth;
    else if (closes(c))
      --depth;
  }
  return std::string(trim(s.substr(p, e - p)));
}

/// "tile::detail::KernelTag<&(void add<128>(tile::Tensor<float, 128>&))>" -> "add<128>";
/// "tile::detail::KernelTag<&ns::plain>" -> "ns::plain". Empty when the shape is unexpected.
std::string from_demangled(std::string_view s) {
  const std::size_t open = s.find('<');
  if (open == std::string_view::npos || s.back() != '>') return "";
  std::string_view k = trim(s.substr(open + 1, s.size() - open - 2));
  if (k.size() < 2 || k.front() != '(' || k.back() != ')') return std::string(k);
  k = k.substr(1, k.size() - 2);  // "void add<128>(params)"
  // Drop the parameter list: the last top-level '(' ... ')'.
  int depth = 0;
  std::size_t params = std::string_view::npos;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (opens(k[i])) {
      if (depth == 0 && k[i] == '(') params = i;
      ++depth;
    } else if (closes(k[i])) {
      --depth;
    }
  }
  if (params != std::string_view::npos) k = k.substr(0, params);
  // Drop the return type: everything up to the last top-level space.
  depth = 0;
  std::size_t space = std::string_view::npos;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (opens(k[i]))
      ++depth;
    else if (closes(k[i]))
      --depth;
    else if (k[i] == ' ' && depth == 0)
      space = i;
  }
  if (space != std::string_view::npos) k = k.substr(space + 1);
  return std::string(trim(k));
}

/// Anonymous namespaces say nothing to the reader of a message: drop them, as GCC
/// ("{anonymous}::"), clang ("(anonymous namespace)::") and nvcc ("_GLOBAL__N__<id>::") spell them.
std::string without_anonymous_namespaces(std::string s) {
  for (const char* anon : {"{anonymous}::", "(anonymous namespace)::"}) {
    const std::size_t len = std::char_traits<char>::length(anon);
    for (std::size_t p = s.find(anon); p != std::string::npos; p = s.find(anon, p)) s.erase(p, len);
  }
  for (std::size_t p = s.find("_GLOBAL__N_"); p != std::string::npos; p = s.find("_GLOBAL__N_", p)) {
    const std::size_t end = s.find("::", p);
    if (end == std::string::npos) break;
    s.erase(p, end + 2 - p);
  }
  return s;
}

}  // namespace

std::string kernel_display_name(const char* pretty_function, const char* mangled_tag) {
  std::string pretty = from_pretty(pretty_function ? pretty_function : "");
  if (mangled_tag && pretty.find('<') == std::string::npos) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(
        abi::__cxa_demangle(mangled_tag, nullptr, nullptr, &status), std::free);
    if (status == 0 && demangled) {
      std::string name = from_demangled(demangled.get());
      if (!name.empty()) return without_anonymous_namespaces(name);
    }
  }
  return without_anonymous_namespaces(pretty);
}

}  // namespace tile::detail
