// REQUIRES: git
// RUN: rm -rf %t && mkdir -p %t && cd %t && git init -q . && git config user.email t@example.com && git config user.name t
// RUN: cp %S/../../docs/ci/pre-commit-hook.sh %t/.git/hooks/pre-commit
// RUN: cp %s %t/kernel.tile.cpp && cd %t && git add kernel.tile.cpp
// RUN: cd %t && not git commit -qm first 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: sed -i 's/tile::Tensor<float, 128> x)/const tile::Tensor<float, 128>\& x)/' %t/kernel.tile.cpp
// RUN: cd %t && not git commit -qm unstaged 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: cd %t && git add kernel.tile.cpp && git commit -qm fixed && git log --oneline | FileCheck %s --check-prefix=LANDED
// docs/ci/pre-commit-hook.sh: a commit whose staged kernel tilecc check rejects is refused,
// with the diagnostics under the file's own name; a fix in the working tree alone is not
// enough; once staged, the commit lands.
#include <tile/tile.hpp>

TILE_KERNEL void scale(tile::Tensor<float, 128>& z, tile::Tensor<float, 128> x) {
  z.store(x.load() * 2.0f);
}

// REFUSED: kernel.tile.cpp:14:{{[0-9]+}}: error: kernel parameter 'x' has type
// REFUSED: pre-commit: tilecc check rejects the staged kernels
// LANDED: fixed
