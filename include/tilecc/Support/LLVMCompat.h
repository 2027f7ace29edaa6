//===- LLVMCompat.h - the LLVM-version-specific corner of tilecc ------*- C++ -*-===//
//
// Everything that differs between LLVM releases lives here, so porting to a newer LLVM touches
// one file. Written against LLVM/Clang/MLIR 19.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_SUPPORT_LLVMCOMPAT_H
#define TILECC_SUPPORT_LLVMCOMPAT_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/StringRef.h"

namespace tilecc::compat {

/// A diagnostic id for a run-time format string (clang's template overload takes only literals;
/// LLVM 20 replaces this API with CustomDiagDesc).
inline unsigned customDiagID(clang::DiagnosticsEngine &diags,
                             clang::DiagnosticsEngine::Level level, llvm::StringRef format) {
  return diags.getDiagnosticIDs()->getCustomDiagID(
      static_cast<clang::DiagnosticIDs::Level>(level), format);
}

} // namespace tilecc::compat

#endif
