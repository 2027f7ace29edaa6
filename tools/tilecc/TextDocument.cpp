//===- TextDocument.cpp - an editor's buffer, addressed as the LSP addresses it -===//
#include "TextDocument.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilecc::driver;

size_t tilecc::driver::offsetOf(llvm::StringRef text, TextPosition position) {
  size_t at = 0;
  for (unsigned line = 0; line < position.line; ++line) {
    size_t newline = text.find('\n', at);
    if (newline == llvm::StringRef::npos)
      return text.size();
    at = newline + 1;
  }
  // Count UTF-16 units along the line: a 4-byte UTF-8 sequence is two of them.
  unsigned units = 0;
  while (at < text.size() && text[at] != '\n' && units < position.character) {
    auto byte = static_cast<unsigned char>(text[at]);
    size_t length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    units += length == 4 ? 2 : 1;
    at = std::min(text.size(), at + length);
  }
  return at;
}

bool tilecc::driver::applyChange(std::string &text, TextPosition begin, TextPosition end,
                                 llvm::StringRef replacement) {
  size_t from = offsetOf(text, begin), to = offsetOf(text, end);
  if (to < from)
    return false;
  text.replace(from, to - from, replacement.str());
  return true;
}

std::optional<std::string> tilecc::driver::uriToPath(llvm::StringRef uri) {
  if (!uri.consume_front("file://"))
    return std::nullopt;
  // file://host/path: only the local host is a file here.
  if (!uri.starts_with("/")) {
    if (!uri.consume_front("localhost"))
      return std::nullopt;
  }
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && llvm::isHexDigit(uri[i + 1]) &&
        llvm::isHexDigit(uri[i + 2])) {
      path += static_cast<char>(llvm::hexFromNibbles(uri[i + 1], uri[i + 2]));
      i += 2;
    } else {
      path += uri[i];
    }
  }
  if (path.empty() || path[0] != '/')
    return std::nullopt;
  return path;
}
