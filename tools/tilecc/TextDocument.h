//===- TextDocument.h - an editor's buffer, addressed as the LSP addresses it -*- C++ -*-===//
//
// The Language Server Protocol names a position by line and UTF-16 code unit (both 0-based);
// the text is UTF-8. `offsetOf` maps such a position to a byte offset (clamped to the line and
// the text, as the protocol asks), `applyChange` applies a didChange content change, and
// `uriToPath` reads a `file://` URI.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TOOLS_TILECC_TEXTDOCUMENT_H
#define TILECC_TOOLS_TILECC_TEXTDOCUMENT_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tilecc::driver {

struct TextPosition {
  unsigned line = 0;       // 0-based
  unsigned character = 0;  // 0-based, UTF-16 code units
};

/// Byte offset of `position` in `text`.
size_t offsetOf(llvm::StringRef text, TextPosition position);

/// Replaces the text between `begin` and `end` by `replacement`; false (text unchanged) when
/// `end` precedes `begin`.
bool applyChange(std::string &text, TextPosition begin, TextPosition end,
                 llvm::StringRef replacement);

/// The absolute path a `file://` URI names (percent-decoded); nullopt for other schemes.
std::optional<std::string> uriToPath(llvm::StringRef uri);

} // namespace tilecc::driver

#endif
