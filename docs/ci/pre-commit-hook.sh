#!/bin/sh
# Git pre-commit hook: refuses a commit whose staged tile kernels tilecc check rejects.
# Install: cp docs/ci/pre-commit-hook.sh .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
# Set TILECC_BUILD_DIR to the directory holding compile_commands.json (default: build, if any).
# It checks the staged text of each file, not what is in the working tree.
set -eu
files=$(git diff --cached --name-only --diff-filter=ACMR -- '*.tile.cpp')
[ -z "$files" ] && exit 0
build=${TILECC_BUILD_DIR:-build}
p=""
[ -f "$build/compile_commands.json" ] && p="-p $build"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
status=0
for f in $files; do
  # The staged version, beside the original so that its relative #includes still resolve.
  staged="$(dirname "$f")/.tilecc-staged-$(basename "$f")"
  git show ":$f" > "$staged"
  tilecc check $p "$staged" 2> "$stage/out" || status=1
  sed "s|$(basename "$staged")|$(basename "$f")|g" "$stage/out" >&2
  rm -f "$staged"
done
if [ "$status" -ne 0 ]; then
  echo "pre-commit: tilecc check rejects the staged kernels (commit with --no-verify to skip)" >&2
fi
exit $status
