#!/usr/bin/env bash
# Times `tilecc compile` (checks, lowering, the pass pipeline, CUDA emission; no nvcc) on every
# example against `tilecc check` (the front end and the analyses alone) and writes the medians
# to bench/results/<date>-compile-speed.md. The kernel language's target is under 1 s per
# example; the script exits 1 when a median is above that.
#
# tilecc reads each example's leading #include lines (ending with <tile/tile.hpp>) from a cached
# precompiled header. The medians are the warm case, the one every compile after the first sees:
# the cache (a private one, in a temporary directory) already holds it. The first compile with
# an empty cache, which builds it, is timed once per example and reported beside them, as is a
# compile that does not use it (--no-pch).
#
#   bench/compile_speed.sh [RUNS]      (default 5 runs per file and command; BUILD_DIR=build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
runs=${1:-5}
tilecc=$build/bin/tilecc
[ -x "$tilecc" ] || { echo "compile_speed: build tilecc first ($tilecc)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset TILECC_NO_PCH
export TILECC_CACHE_DIR=$work/cache

once_ms() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo "compile_speed: failed: $*" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
median() { printf '%s\n' "$@" | sort -n | awk '{ t[NR] = $1 } END {
  printf "%.0f", (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }

cd "$root"
date=$(date +%Y-%m-%d)
out=bench/results/$date-compile-speed.md
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
shown_build=${build#"$root"/}
rows=""
slow=0
for file in examples/*/*.tile.cpp; do
  # The first compile with an empty cache builds the precompiled header (and fills the cache
  # for the warm runs); it doubles as the kernel count.
  cold=$(TILECC_CACHE_DIR=$work/cold-$RANDOM once_ms "$tilecc" compile "$file" -o "$work/k.cu")
  kernels=$(grep -c '^__global__' "$work/k.cu")
  once_ms "$tilecc" compile "$file" -o "$work/x.cu" >/dev/null
  tc=() tk=() tn=()
  for _ in $(seq "$runs"); do
    tc+=("$(once_ms "$tilecc" compile "$file" -o "$work/x.cu")")
    tk+=("$(once_ms "$tilecc" check "$file")")
    tn+=("$(once_ms "$tilecc" compile --no-pch "$file" -o "$work/x.cu")")
  done
  c=$(median "${tc[@]}") k=$(median "${tk[@]}") n=$(median "${tn[@]}")
  [ "$c" -lt 1000 ] || slow=1
  rows+="| \`$file\` | $kernels | $c ms | $k ms | $((c - k)) ms | $cold ms | $n ms |"$'\n'
  echo "$file: compile $c ms, check $k ms, first compile $cold ms, without PCH $n ms ($kernels kernels)"
done
mkdir -p bench/results
cat > "$out" <<MD
# \`tilecc compile\` time per example — $date

- Machine: $(nproc) cores ($cpu); tilecc \`$shown_build/bin/tilecc\` (Release), commit $commit.
- Command: \`bench/compile_speed.sh $runs\`: median wall time of $runs runs, each a fresh process.
  \`compile\` is everything up to the generated \`.cu\` (no nvcc); \`check\` is the Clang front end
  and the analyses alone, so the difference is lowering, the pass pipeline and CUDA emission.
- tilecc reads each example's leading \`#include\` lines (the standard headers it lists, then
  \`<tile/tile.hpp>\`) from a precompiled header kept in its cache (\`\$TILECC_CACHE_DIR\`, else
  \`~/.cache/tilecc\`). The medians are the warm case, every compile after the first: the PCH is
  in the cache. *First compile* is one compile with an empty cache, which builds the PCH (a
  parse of those headers) before using it; every later compile of a file with the same leading
  lines and flags reuses it until a header changes. *Without PCH* is \`tilecc compile --no-pch\`,
  the parse from source.

| example | kernels | \`tilecc compile\` | \`tilecc check\` | difference | first compile | without PCH |
| --- | --- | --- | --- | --- | --- | --- |
$rows
Target: under 1000 ms per example (warm). $([ "$slow" = 0 ] && echo "Every example is under it." || echo "**Some example is over it.**")
MD
echo "wrote $out"
exit $slow
