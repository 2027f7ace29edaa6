// RUN: tilecc --explain tile-store-shared | FileCheck %s
// RUN: tilecc --explain=tile-store-shared | FileCheck %s
// --explain ID: the id, its severity and message, what it protects against, a rejected
// example and the fix.
// CHECK: tile-store-shared (error by default)
// CHECK-NEXT: message: store through {{.*}} [tile-store-shared]
// CHECK-EMPTY:
// CHECK-NEXT: A tile kernel writes through a shared (read-only) view.
// CHECK: ## What it protects against
// CHECK: data race
// CHECK: ## Rejected
// CHECK: ```cpp
// CHECK: const_cast
// CHECK: ## Fix
// CHECK: z.store(x.load() * 2.0f);
