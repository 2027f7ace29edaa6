# lit configuration for tilecc's tests.
#
# Substitutions: tilecc, tilecc-opt, tilecc-translate, FileCheck and not come from PATH;
# %nvcc compiles generated CUDA for sm_90a, %nvcc-sm80 also for sm_80 (feature `nvcc` when the
# toolkit exists);
# %cxx-tile compiles and links a tile program for the CPU backend; %python is lit's Python.
# In a sanitized build (TILECC_SANITIZE) the programs the tests link get the same sanitizers as
# the runtime they link, and the feature `sanitize`.
import os
import lit.formats

config.name = "tilecc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".cpp", ".cu", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilecc_obj_root, "test")

path = os.path.pathsep.join([config.tilecc_tools_dir, config.llvm_tools_dir,
                             config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path

include = os.path.join(config.tilecc_src_root, "include")
runtime = os.path.join(config.tilecc_src_root, "runtime")
libdir = os.path.join(config.tilecc_obj_root, "lib")
config.substitutions.append(("%tile_include", include))
config.substitutions.append(("%tile_libdir", libdir))
# GPU tests run where a GPU answers (never in CI).
import shutil
import subprocess
import sys
# %python runs the tests' own scripts (the LSP client of test/Editor) with lit's interpreter.
config.substitutions.append(("%python", sys.executable))
if shutil.which("git"):
    config.available_features.add("git")
# clangd-19 from Debian, for the editor tests that drive it.
clangd = shutil.which("clangd-19")
if clangd:
    config.available_features.add("clangd")
    config.substitutions.append(("%clangd", f"{clangd} --log=error --background-index=false"))
san = config.sanitize_flags
preload_asan = ""
if san:
    config.available_features.add("sanitize")
    # As cmake/sanitizer/asan_default_options.cpp sets them for the build's own programs.
    config.environment["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "allocator_may_return_null=1")
    # An uninstrumented program (clang++ with the plugin) loads an instrumented library only
    # with the AddressSanitizer runtime preloaded; what that program leaves at exit is its own.
    asan_runtime = subprocess.run([config.cxx, "-print-file-name=libasan.so"], capture_output=True,
                                  text=True).stdout.strip()
    preload_asan = (f"env LD_PRELOAD={asan_runtime} "
                    "ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 ")
# The Clang plugin and the clang++ of the LLVM tilecc was built with, which loads it.
plugin = os.path.join(libdir, "libtileccPlugin.so")
clangxx = os.path.join(config.llvm_tools_dir, "clang++")
if os.path.exists(plugin) and os.path.exists(clangxx):
    config.available_features.add("plugin")
    config.substitutions.append((
        "%clang-plugin", f"{preload_asan}{clangxx} -std=c++20 -fsyntax-only -fplugin={plugin} -isystem {include}"))
# Node.js, for the VS Code extension's test.
if shutil.which("node"):
    config.available_features.add("node")
if shutil.which("nvidia-smi") and subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0:
    config.available_features.add("cuda-gpu")
# Linux's always-full device, for tests of outputs that cannot be written.
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")
if config.nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc-path", config.nvcc))
    # %nvcc targets sm_90a, where the tests' programs run on a GPU; %nvcc-sm80 adds sm_80 for
    # the tests of the device header's pre-Hopper paths (mma.sync fragments, f8 without f8 mma,
    # mbarriers without try_wait), so each path is compiled once, not in every test.
    sm90 = "-gencode=arch=compute_90a,code=sm_90a"
    sm80 = "-gencode=arch=compute_80,code=sm_80"
    nvcc = f"{config.nvcc} -std=c++20 -x cu -I{include} -I{runtime}"
    # %nvcc-link links objects. Listed before %nvcc, so that %nvcc does not match their prefix.
    config.substitutions.append((
        "%nvcc-link",
        f"{config.nvcc} {sm80} {sm90}" + "".join(f" -Xcompiler={flag}" for flag in san.split())))
    config.substitutions.append(("%nvcc-sm80", f"{nvcc} {sm80} {sm90}"))
    config.substitutions.append(("%nvcc", f"{nvcc} {sm90}"))
cuda_link = (f"-L{config.cuda_lib_dir} -lcudart_static -ldl -lrt" if config.cuda_lib_dir else "")
config.substitutions.append((
    "%cxx-tile", f"{config.cxx} -std=c++20 -O1 {san} -I{include} %s -L{libdir} -ltile_rt {cuda_link} -lpthread"))
