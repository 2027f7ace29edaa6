#!/usr/bin/env bash
# The installed package as a project outside the tree uses it: installs the build tree into a
# fresh prefix, moves the prefix (the package is relocatable), builds test/Package/consumer
# against it with find_package(tilecc) and tilecc_add_kernels (MODE cpu: the kernels as C++
# for the CPU backend; cuda: through tilecc's CUDA and nvcc), runs it, and checks that touching
# a header the kernel file includes rebuilds the kernels and nothing else is left to do, and
# runs `tilecc check -p` on the project's compile_commands.json.
# MODE cpu also makes the Debian package and checks what it holds.
# Usage: consumer.sh BUILD_DIR cpu|cuda [NVCC]
set -euo pipefail
build=$1 mode=$2 nvcc=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$work/staged" > "$work/install.log"
mv "$work/staged" "$work/prefix"
cp -r "$here/consumer" "$work/src"
args=(-G Ninja -S "$work/src" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix"
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
if [ "$mode" = cuda ]; then args+=(-DCONSUMER_CUDA=ON ${nvcc:+-DCMAKE_CUDA_COMPILER="$nvcc"}); fi
cmake "${args[@]}" > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$work/build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }
if [ "$mode" = cuda ]; then
  grep -q "tilecc compile kernels.tile.cpp" "$work/build.log" || fail "tilecc did not compile the kernels"
  grep -q "__global__" "$work/build/tilecc/scale_rows/kernels.tile.cpp.cu" ||
    fail "the generated CUDA holds no kernel"
fi
"$work/build/scale_rows"
# The CI gate on the project's own compile_commands.json (nvcc command lines among them in
# the cuda mode), with the installed tilecc.
"$work/prefix/bin/tilecc" check -p "$work/build" "$work/src/kernels.tile.cpp" "$work/src/main.cpp" ||
  fail "tilecc check -p on the project's compile_commands.json"

sleep 1
touch "$work/src/factor.hpp"
cmake --build "$work/build" > "$work/rebuild.log" 2>&1 || { cat "$work/rebuild.log"; fail "rebuild"; }
grep -q "kernels.tile.cpp" "$work/rebuild.log" || { cat "$work/rebuild.log"; fail "touching factor.hpp rebuilt no kernel"; }
if grep -q "main.cpp" "$work/rebuild.log"; then fail "touching factor.hpp rebuilt main.cpp, which does not include it"; fi
cmake --build "$work/build" | grep -q "no work to do" || fail "a second build still had work to do"
"$work/build/scale_rows"

if [ "$mode" = cpu ]; then
  # Makefiles too: the depfile of the kernels' rule drives the rebuild there as well.
  cmake -G "Unix Makefiles" -S "$work/src" -B "$work/make" -DCMAKE_PREFIX_PATH="$work/prefix" \
    > "$work/make-configure.log" 2>&1 || { cat "$work/make-configure.log"; fail "configure (Makefiles)"; }
  cmake --build "$work/make" > "$work/make.log" 2>&1 || { cat "$work/make.log"; fail "build (Makefiles)"; }
  "$work/make/scale_rows"
  sleep 1
  touch "$work/src/factor.hpp"
  cmake --build "$work/make" > "$work/make-rebuild.log" 2>&1 ||
    { cat "$work/make-rebuild.log"; fail "rebuild (Makefiles)"; }
  grep -q "kernels.tile.cpp" "$work/make-rebuild.log" ||
    { cat "$work/make-rebuild.log"; fail "Makefiles: touching factor.hpp rebuilt no kernel"; }
  if grep -q "main.cpp" "$work/make-rebuild.log"; then fail "Makefiles: touching factor.hpp rebuilt main.cpp"; fi

  (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" > "$work/cpack.log" 2>&1) ||
    { cat "$work/cpack.log"; fail "cpack"; }
  deb=$(ls "$work"/deb/*.deb)
  contents=$(dpkg-deb -c "$deb")
  for f in ./usr/bin/tilecc ./usr/bin/tilecc-opt ./usr/lib/libtileccPlugin.so \
           ./usr/include/tile/tile.hpp ./usr/lib/libtile_rt.a \
           ./usr/lib/libtile_rt.so ./usr/share/tilecc/runtime/device/tile_device.cuh \
           ./usr/lib/cmake/tilecc/tileccConfig.cmake ./usr/lib/cmake/tilecc/tileccConfigVersion.cmake; do
    echo "$contents" | grep -q " $f\$" || fail "the Debian package lacks $f"
  done
  dpkg-deb -f "$deb" Depends | grep -q "libmlir-19" || fail "the package does not depend on libmlir-19"
  echo "package: $(basename "$deb") holds the compiler, headers, runtime and CMake package"
fi
echo "consumer ($mode): OK"
