//===- Build.cpp - tilecc build: one command from tile source to executable ---===//
//
// GPU: tilecc compile into a temporary .cu, then nvcc for each --arch, linking tile_rt.
// --cpu: tilecc check, then the host C++ compiler on the original source (the CPU backend
// runs the kernels).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace tilecc;
using namespace tilecc::driver;

static std::string findTool(llvm::StringRef envVar, llvm::ArrayRef<llvm::StringRef> names,
                            llvm::ArrayRef<llvm::StringRef> extraPaths) {
  if (const char *env = std::getenv(envVar.str().c_str()); env && *env)
    return env;
  for (llvm::StringRef name : names) {
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name))
      return *path;
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name, extraPaths))
      return *path;
  }
  return {};
}

static int run(const std::vector<std::string> &args, bool verbose) {
  if (verbose) {
    for (const std::string &arg : args)
      llvm::errs() << arg << " ";
    llvm::errs() << "\n";
  }
  llvm::SmallVector<llvm::StringRef> refs(args.begin(), args.end());
  std::string message;
  int status = llvm::sys::ExecuteAndWait(args[0], refs, std::nullopt, {}, 0, 0, &message);
  if (status < 0) {
    toolError("could not run '" + args[0] + "': " + message);
    return ToolFailure;
  }
  if (status != 0) {
    toolError("'" + llvm::sys::path::filename(args[0]) + "' failed with exit code " +
              llvm::Twine(status));
    return ToolFailure;
  }
  return Success;
}

/// Flags that link a program against tile_rt (and the CUDA runtime and sanitizers tile_rt was
/// built with).
static void appendRuntimeLink(std::vector<std::string> &args, const Options &options,
                              bool viaNvcc) {
  // The static library by path: the shared one beside it would need a run-time search path.
  args.push_back(tileLibraryDir() + "/libtile_rt.a");
  llvm::SmallVector<llvm::StringRef> runtimeFlags;
  llvm::StringRef(TILECC_RUNTIME_LINK_FLAGS).split(runtimeFlags, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef flag : runtimeFlags)
    args.push_back(viaNvcc ? "-Xcompiler=" + flag.str() : flag.str());
  if (llvm::StringRef(TILECC_CUDA_LIB_DIR).size() && !viaNvcc) {
    args.push_back("-L" TILECC_CUDA_LIB_DIR);
    args.push_back("-lcudart_static");
    args.push_back("-ldl");
    args.push_back("-lrt");
  }
  args.push_back("-lpthread");
  for (const std::string &arg : options.linkerArgs)
    args.push_back(arg);
}

/// Compiles with `compile` (the tool, its flags and the source, without -o) into a temporary
/// object, then links it with `tool` into `output` against tile_rt. Two steps, because the
/// sanitizers a sanitized tile_rt needs at link time would otherwise instrument the program's
/// own compilation too (several times slower, for the tests' programs).
static int compileAndLink(std::vector<std::string> compile, const std::string &output,
                          const Options &options, bool viaNvcc) {
  llvm::SmallString<256> object;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tilecc", "o", object)) {
    toolError("cannot create a temporary file: " + ec.message());
    return ToolFailure;
  }
  llvm::FileRemover removeObject(object);
  std::string tool = compile.front();
  compile.insert(compile.end(), {"-c", "-o", object.str().str()});
  if (int status = run(compile, options.verbose); status != Success)
    return status;
  std::vector<std::string> link = {tool, object.str().str(), "-o", output};
  appendRuntimeLink(link, options, viaNvcc);
  return run(link, options.verbose);
}

int tilecc::driver::runBuild(const Options &options) {
  if (options.output.empty()) {
    toolError("build needs -o EXECUTABLE");
    return ToolFailure;
  }
  const std::string &source = options.frontend.files[0];
  llvm::SmallString<256> sourceDir(source);
  llvm::sys::fs::make_absolute(sourceDir);
  llvm::sys::path::remove_filename(sourceDir);

  std::vector<std::string> common = {"-I" + tileIncludeDir(), "-I" + sourceDir.str().str()};
  bool hasStd = false;
  for (const std::string &arg : options.frontend.compilerArgs) {
    common.push_back(arg);
    hasStd |= llvm::StringRef(arg).starts_with("-std=");
  }
  if (!hasStd)
    common.insert(common.begin(), "-std=c++20");

  if (options.cpuOnly) {
    // The checks `check` and `compile` run: the host compiler would build a racy program
    // and the CPU backend run it.
    Options checkOptions = options;
    checkOptions.output.clear();
    if (int status = runCheck(checkOptions); status != Success)
      return status;
    std::string cxx = findTool("CXX", {"c++", "g++", "clang++"}, {});
    if (cxx.empty()) {
      toolError("no host C++ compiler found (set CXX)");
      return ToolFailure;
    }
    std::vector<std::string> args = {cxx, "-O2"};
    if (options.debugInfo)
      args.push_back("-g");
    args.insert(args.end(), common.begin(), common.end());
    args.push_back(source);
    return compileAndLink(std::move(args), options.output, options, /*viaNvcc=*/false);
  }

  std::string nvcc = findTool("NVCC", {"nvcc"}, {"/usr/local/cuda/bin"});
  if (nvcc.empty()) {
    toolError("nvcc not found (set NVCC, or use --cpu)");
    return ToolFailure;
  }
  llvm::SmallString<256> cuFile;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tilecc", "cu", cuFile)) {
    toolError("cannot create a temporary file: " + ec.message());
    return ToolFailure;
  }
  llvm::FileRemover removeCu(cuFile);
  Options compileOptions = options;
  compileOptions.output = cuFile.str().str();
  if (int status = runCompile(compileOptions); status != Success)
    return status;

  // The generated file ends in .cu, so nvcc compiles it as CUDA.
  std::vector<std::string> args = {nvcc, "-O3"};
  if (options.debugInfo)
    args.insert(args.end(), {"-g", "-G"});
  else if (options.lineInfo)
    args.push_back("-lineinfo");  // -G has line tables already
  args.insert(args.end(), common.begin(), common.end());
  args.push_back("-I" + tileRuntimeDir());
  for (const std::string &arch : options.archs) {
    llvm::StringRef sm(arch);
    if (!sm.consume_front("sm_")) {
      toolError("--arch expects sm_XX names, got '" + arch + "'");
      return ToolFailure;
    }
    args.push_back("-gencode=arch=compute_" + sm.str() + ",code=sm_" + sm.str());
  }
  args.push_back(cuFile.str().str());
  return compileAndLink(std::move(args), options.output, options, /*viaNvcc=*/true);
}
