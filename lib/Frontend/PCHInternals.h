//===- PCHInternals.h - what the precompiled-header sources share -----*- C++ -*-===//
//
// Private to lib/Frontend: PrecompiledHeader.cpp (the leading block, the key, building,
// prepare), PCHCache.cpp (the files in the cache directory) and PCHLoad.cpp (loading a PCH into
// a parse) share these.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_FRONTEND_PCHINTERNALS_H
#define TILECC_LIB_FRONTEND_PCHINTERNALS_H

#include "tilecc/Frontend/PrecompiledHeader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilecc::pch::detail {

/// The BLAKE3 of a sequence of strings, each ended so that ("ab","c") and ("a","bc") differ.
class Hasher {
public:
  void add(llvm::StringRef text) {
    hash.update(text);
    hash.update(llvm::StringRef("\0", 1));
  }
  /// A file: its name, size and contents.
  void addFile(llvm::StringRef name, llvm::StringRef contents) {
    add(name);
    add(std::to_string(contents.size()));
    hash.update(contents);
  }
  std::string hex() { return llvm::toHex(hash.final<16>(), /*LowerCase=*/true); }

private:
  llvm::BLAKE3 hash;
};

/// What a PCH's predefines end with: kBlockMarker on a line, then the block's lines (which the
/// PCH therefore includes in order, from a buffer with no directory of its own).
extern const char kBlockMarker[];
std::string blockText(const LeadingBlock &block);

/// `<key>.manifest`: what a cached PCH was built from, or why the block cannot be precompiled.
struct Manifest {
  bool usable = false;
  std::string reason;   // unusable: the first diagnostic of the build
  std::string digest;   // of the inputs' names and contents (Hasher::addFile)
  std::string pchName;  // usable: the PCH's file name in the cache directory
  uint64_t pchSize = 0;
  std::string pchDigest;  // usable: of the PCH file's contents (a damaged file is rebuilt)
  std::vector<std::string> inputs;  // sorted
};

/// The digest of a file's contents; none when it cannot be read.
std::optional<std::string> fileDigest(llvm::StringRef file);

std::optional<Manifest> readManifest(llvm::StringRef file);
std::string renderManifest(const Manifest &manifest);

/// Writes `file` under a temporary name and renames it into place.
bool writeAtomically(llvm::StringRef file, llvm::StringRef contents);

/// The digest of the inputs as they are now; none when one cannot be read.
std::optional<std::string> currentDigest(const std::vector<std::string> &inputs,
                                         llvm::vfs::FileSystem &files);

/// A cache entry as found: current (its PCH usable, or the header known not to precompile
/// cleanly), or missing/stale.
struct Lookup {
  enum { Missing, Usable, Unusable } state = Missing;
  Manifest manifest;
};

/// The entry of `manifestPath` in the cache directory `dir`, checked against the files as they
/// are now.
Lookup lookUp(llvm::StringRef dir, llvm::StringRef manifestPath, llvm::vfs::FileSystem &files);

/// Marks a manifest as used today (pruning removes entries unused for 30 days).
void touch(llvm::StringRef file);

/// Removes entries whose manifest was not used for 30 days, PCHs no manifest names, and
/// temporary files and locks left behind by killed processes.
void prune(llvm::StringRef dir);

} // namespace tilecc::pch::detail

#endif
