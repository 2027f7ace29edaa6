//===- PCHCache.cpp - the files of the precompiled-header cache ---------------===//
//
// `<key>.manifest` (text: a magic line, `usable yes|no`, `reason`, `digest`, `pch`, `pch-size`,
// `pch-digest`, one `input` line per file, `end`), `<key>-<digest>.pch`, and the temporary files and locks
// around them. See PCHInternals.h.
//
//===----------------------------------------------------------------------===//
#include "PCHInternals.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace tilecc;
using namespace tilecc::pch;
using namespace tilecc::pch::detail;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static const char kManifestMagic[] = "tilecc-pch-manifest 2";

std::optional<Manifest> tilecc::pch::detail::readManifest(llvm::StringRef file) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.empty() || lines.front() != kManifestMagic)
    return std::nullopt;
  Manifest manifest;
  bool complete = false;
  for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front()) {
    auto [field, value] = line.split(' ');
    if (field == "usable")
      manifest.usable = value == "yes";
    else if (field == "reason")
      manifest.reason = value.str();
    else if (field == "digest")
      manifest.digest = value.str();
    else if (field == "pch")
      manifest.pchName = value.str();
    else if (field == "pch-size" && value.getAsInteger(10, manifest.pchSize))
      return std::nullopt;
    else if (field == "pch-digest")
      manifest.pchDigest = value.str();
    else if (field == "input")
      manifest.inputs.push_back(value.str());
    else if (field == "end")
      complete = true;
  }
  if (!complete || manifest.digest.empty() || manifest.inputs.empty() ||
      (manifest.usable && (manifest.pchName.empty() || manifest.pchDigest.empty())))
    return std::nullopt;
  return manifest;
}

std::string tilecc::pch::detail::renderManifest(const Manifest &manifest) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kManifestMagic << "\n";
  os << "usable " << (manifest.usable ? "yes" : "no") << "\n";
  if (!manifest.usable)
    os << "reason " << manifest.reason << "\n";
  os << "digest " << manifest.digest << "\n";
  if (manifest.usable)
    os << "pch " << manifest.pchName << "\npch-size " << manifest.pchSize << "\npch-digest "
       << manifest.pchDigest << "\n";
  for (const std::string &input : manifest.inputs)
    os << "input " << input << "\n";
  os << "end\n";
  return text;
}

bool tilecc::pch::detail::writeAtomically(llvm::StringRef file, llvm::StringRef contents) {
  llvm::SmallString<256> temp;
  int fd;
  if (fs::createUniqueFile(file + "-%%%%%%%%.tmp", fd, temp))
    return false;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      fs::remove(temp);
      return false;
    }
  }
  if (fs::rename(temp, file)) {
    fs::remove(temp);
    return false;
  }
  return true;
}

std::optional<std::string>
tilecc::pch::detail::currentDigest(const std::vector<std::string> &inputs,
                                   llvm::vfs::FileSystem &files) {
  Hasher hash;
  for (const std::string &input : inputs) {
    auto buffer = files.getBufferForFile(input, /*FileSize=*/-1,
                                         /*RequiresNullTerminator=*/false);
    if (!buffer)
      return std::nullopt;
    hash.addFile(input, (*buffer)->getBuffer());
  }
  return hash.hex();
}

Lookup tilecc::pch::detail::lookUp(llvm::StringRef dir, llvm::StringRef manifestPath,
                                   llvm::vfs::FileSystem &files) {
  Lookup found;
  std::optional<Manifest> manifest = readManifest(manifestPath);
  if (!manifest)
    return found;
  std::optional<std::string> digest = currentDigest(manifest->inputs, files);
  if (!digest || *digest != manifest->digest)
    return found;
  found.manifest = std::move(*manifest);
  if (!found.manifest.usable) {
    found.state = Lookup::Unusable;
    return found;
  }
  llvm::SmallString<256> pchPath(dir);
  path::append(pchPath, found.manifest.pchName);
  fs::file_status status;
  // A PCH damaged on disk would crash Clang's reader: its contents must be what was built.
  if (!fs::status(pchPath, status) && fs::is_regular_file(status) &&
      status.getSize() == found.manifest.pchSize &&
      fileDigest(pchPath) == found.manifest.pchDigest)
    found.state = Lookup::Usable;
  return found;
}

std::optional<std::string> tilecc::pch::detail::fileDigest(llvm::StringRef file) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(
      file, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  Hasher hash;
  hash.add((*buffer)->getBuffer());
  return hash.hex();
}

void tilecc::pch::detail::touch(llvm::StringRef file) {
  fs::file_status status;
  auto now = std::chrono::system_clock::now();
  if (fs::status(file, status) || now - status.getLastModificationTime() < std::chrono::hours(24))
    return;
  int fd;
  if (fs::openFileForWrite(file, fd, fs::CD_OpenExisting, fs::OF_Append))
    return;
  (void)fs::setLastAccessAndModificationTime(fd, now);
  (void)llvm::sys::Process::SafelyCloseFileDescriptor(fd);
}

void tilecc::pch::detail::prune(llvm::StringRef dir) {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef file = it->path();
    llvm::StringRef name = path::filename(file);
    fs::file_status status;
    if (fs::status(file, status))
      continue;
    auto age = now - status.getLastModificationTime();
    if (name.ends_with(".manifest")) {
      if (age < hours(24 * 30))
        continue;
      if (std::optional<Manifest> manifest = readManifest(file); manifest && manifest->usable) {
        llvm::SmallString<256> pchPath(dir);
        path::append(pchPath, manifest->pchName);
        fs::remove(pchPath);
      }
      fs::remove(file);
    } else if (name.ends_with(".tmp") || name.ends_with(".pch-tmp") || name.contains(".lock")) {
      if (age > hours(24))  // left by a process that was killed
        fs::remove(file);
    } else if (name.ends_with(".pch") && age > hours(1)) {
      llvm::SmallString<256> manifestPath(dir);
      path::append(manifestPath, name.split('-').first + ".manifest");
      std::optional<Manifest> manifest = readManifest(manifestPath);
      if (!manifest || manifest->pchName != name)
        fs::remove(file);
    }
  }
}

void tilecc::pch::discard(const PCH &pch) {
  // Unless another process has replaced the entry meanwhile.
  std::optional<Manifest> manifest = readManifest(pch.manifestPath);
  if (manifest && manifest->pchName == path::filename(pch.path))
    fs::remove(pch.manifestPath);
  fs::remove(pch.path);
}
