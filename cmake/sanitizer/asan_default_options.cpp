// Linked into every executable of a TILECC_SANITIZE build. LLVM's headers poison allocator memory
// when the including code is built with AddressSanitizer, but Debian's LLVM libraries were not,
// so they never unpoison it: user poisoning would report false use-after-poison errors inside
// LLVM. Every other AddressSanitizer check stays on. An allocation too large for the machine
// fails as in a normal build (tile_rt turns it into a tile::Error) rather than stopping the
// program.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:allocator_may_return_null=1";
}

// Memory that Debian's (uninstrumented) LLVM, MLIR and Clang libraries allocate themselves and
// keep to the end by design: Clang's Sema keeps template-deduction diagnostics and the access
// diagnostics of dependent contexts in bump-allocated ASTContext memory whose destructors never
// run. Those libraries have no frame pointers, so the fast unwinder sees only the allocating
// frame, and the suppression names the library that frame lies in. An allocation made from
// tilecc's own code is still reported.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libLLVM.so\n"
         "leak:libMLIR.so\n"
         "leak:libclang-cpp.so\n";
}

// The statistics of used suppressions would otherwise be printed at exit, and tests that expect
// a silent tool would fail.
extern "C" const char *__lsan_default_options() { return "print_suppressions=0"; }
