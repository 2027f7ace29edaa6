#!/usr/bin/env bash
# Times `tilecc compile` (checks, lowering, the pass pipeline, CUDA emission; no nvcc) on every
# example against `tilecc check` (the front end and the analyses alone) and writes the medians
# to bench/results/<date>-compile-speed.md. The kernel language's target is under 1 s per
# example; the script exits 1 when a median is above that.
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
rows=""
slow=0
for file in examples/*/*.tile.cpp; do
  kernels=$("$tilecc" compile "$file" -o "$work/k.cu" >/dev/null 2>&1 && grep -c '^__global__' "$work/k.cu")
  tc=() tk=()
  for _ in $(seq "$runs"); do
    tc+=("$(once_ms "$tilecc" compile "$file" -o "$work/x.cu")")
    tk+=("$(once_ms "$tilecc" check "$file")")
  done
  c=$(median "${tc[@]}") k=$(median "${tk[@]}")
  [ "$c" -lt 1000 ] || slow=1
  rows+="| \`$file\` | $kernels | $c ms | $k ms | $((c - k)) ms |"$'\n'
  echo "$file: compile $c ms, check $k ms ($kernels kernels)"
done
mkdir -p bench/results
cat > "$out" <<MD
# \`tilecc compile\` time per example — $date

- Machine: $(nproc) cores ($cpu); tilecc \`build/bin/tilecc\` (Release), commit $commit.
- Command: \`bench/compile_speed.sh $runs\`: median wall time of $runs runs, each a fresh process.
  \`compile\` is everything up to the generated \`.cu\` (no nvcc); \`check\` is the Clang front end
  and the analyses alone, so the last column is lowering, the pass pipeline and CUDA emission.

| example | kernels | \`tilecc compile\` | \`tilecc check\` | difference |
| --- | --- | --- | --- | --- |
$rows
Target: under 1000 ms per example. $([ "$slow" = 0 ] && echo "Every example is under it." || echo "**Some example is over it.**")
MD
echo "wrote $out"
exit $slow
