// Linked into every executable of a TILECC_SANITIZE build. LLVM's headers poison allocator memory
// when the including code is built with AddressSanitizer, but Debian's LLVM libraries were not,
// so they never unpoison it: user poisoning would report false use-after-poison errors inside
// LLVM. Every other AddressSanitizer check stays on. Full unwinding on malloc lets the leak
// suppression below see Clang's frames (Debian's LLVM has no frame pointers). An allocation too
// large for the machine fails as in a normal build (tile_rt turns it into a tile::Error) rather
// than stopping the program.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:fast_unwind_on_malloc=0:allocator_may_return_null=1";
}

// Clang's Sema keeps template-deduction diagnostics and the access diagnostics of dependent
// contexts in ASTContext memory whose destructors never run (by design: the AST is
// bump-allocated), which LeakSanitizer reports as leaks inside Clang.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:clang::MakeDeductionFailureInfo\n"
         "leak:clang::DependentDiagnostic::Create\n";
}

// The statistics of used suppressions would otherwise be printed at exit, and tests that expect
// a silent tool would fail.
extern "C" const char *__lsan_default_options() { return "print_suppressions=0"; }
