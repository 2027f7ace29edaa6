// RUN: %python %S/Inputs/lsp_client.py tilecc lsp -- request textDocument/hover | FileCheck %s
// RUN: not tilecc lsp %s 2>&1 | FileCheck %s --check-prefix=FILES
// RUN: not tilecc lsp --debounce-ms=x 2>&1 | FileCheck %s --check-prefix=DEBOUNCE
// RUN: printf 'Content-Length: 5\r\n\r\n{bad}' | not tilecc lsp | FileCheck %s --check-prefix=GARBAGE
// tilecc lsp answers a method it does not serve with MethodNotFound, a frame that is not JSON
// with a parse error (and exits 1 when the input ends without shutdown), and refuses files or
// a bad debounce on its command line.

// CHECK: reply textDocument/hover: {"code": -32601, "message": "no method 'textDocument/hover'"}
// CHECK-NEXT: exit 0
// FILES: error: lsp takes no input files: the editor opens them
// DEBOUNCE: error: --debounce-ms takes a number of milliseconds up to 60000
// GARBAGE: {"error":{"code":-32700,"message":"the message is not JSON: {{.*}}"},"id":null,"jsonrpc":"2.0"}
