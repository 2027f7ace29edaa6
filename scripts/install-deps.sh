#!/usr/bin/env bash
# Installs what tilecc needs on Debian 12 (idempotent; run as root or with sudo available).
# The CUDA toolkit is optional: without nvcc, tilecc builds for the CPU backend only.
set -euo pipefail
packages=(cmake ninja-build g++ python3 clang-19 libclang-19-dev llvm-19-dev llvm-19-tools
          libmlir-19-dev mlir-19-tools libfmt-dev libgtest-dev zlib1g-dev libxml2-dev
          clangd-19 libclang-rt-19-dev git pybind11-dev python3-dev python3-numpy nodejs mkdocs
          python3-pymdownx)
# clangd-19: the editor tests drive it; libclang-rt-19-dev: libFuzzer and the sanitizers'
# runtimes for clang-19 (scripts/fuzz.sh); git: the pre-commit hook's test; pybind11-dev and
# python3-numpy: the tile_rt Python module and its test; nodejs: the VS Code extension's test;
# mkdocs and python3-pymdownx: the book (docs/book)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
