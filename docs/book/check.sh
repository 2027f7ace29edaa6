#!/usr/bin/env bash
# The book's tests (ctest book.snippets and book.build):
#   check.sh snippets BUILD_DIR   every docs/book/snippets/*.tile.cpp builds for the CPU backend
#                                 (`tilecc build --cpu` runs every check of `tilecc check` first)
#                                 and runs with exit status 0; every rule of docs/rules has a
#                                 row in the safety model's table
#   check.sh build BUILD_DIR      mkdocs renders the book with warnings as errors
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=$1
build=$(cd "$2" && pwd)
case "$mode" in
  snippets)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    for src in "$root"/docs/book/snippets/*.tile.cpp; do
      name=$(basename "$src" .tile.cpp)
      "$build/bin/tilecc" build --cpu "$src" -o "$work/$name"
      TILE_DEVICE=cpu "$work/$name" > "$work/$name.out" || {
        cat "$work/$name.out"; echo "snippet $name failed"; exit 1; }
      echo "snippet $name: OK"
    done
    for rule in "$root"/docs/rules/*.md; do
      id=$(basename "$rule" .md)
      grep -q "(rules/$id.md)" "$root/docs/book/pages/reference/safety.md" || {
        echo "docs/book/pages/reference/safety.md lacks rule $id"; exit 1; }
    done
    ;;
  build)
    cd "$root"
    mkdocs build --strict -q -f docs/book/mkdocs.yml -d "$build/book"
    test -f "$build/book/index.html"
    echo "book: $build/book/index.html"
    ;;
  *)
    echo "usage: check.sh snippets|build BUILD_DIR" >&2
    exit 2
    ;;
esac
