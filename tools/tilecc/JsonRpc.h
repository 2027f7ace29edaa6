//===- JsonRpc.h - JSON-RPC 2.0 framed as the Language Server Protocol frames it -*- C++ -*-===//
//
// Each message is `Content-Length: N\r\n` (other headers ignored), an empty line, then N bytes
// of JSON. `read` takes the next message from the input; `send` and its helpers write one
// message whole, from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TOOLS_TILECC_JSONRPC_H
#define TILECC_TOOLS_TILECC_JSONRPC_H

#include "llvm/Support/JSON.h"
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>

namespace tilecc::driver {

/// JSON-RPC's error codes, and the protocol's own.
enum class RpcError {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  ServerNotInitialized = -32002,
};

class JsonRpcTransport {
public:
  JsonRpcTransport(std::FILE *in, std::FILE *out) : in(in), out(out) {}

  /// The next message. At the end of the input: nullopt with `error` empty. A frame that is not
  /// a JSON message: nullopt with `error` set (the stream stays in step; read again).
  std::optional<llvm::json::Value> read(std::string &error);

  void send(const llvm::json::Value &message);
  void notify(llvm::StringRef method, llvm::json::Value params);
  void reply(const llvm::json::Value &id, llvm::json::Value result);
  void replyError(const llvm::json::Value &id, RpcError code, llvm::StringRef message);

  /// Largest body read (64 MiB); a longer one is skipped with an error.
  static constexpr size_t kMaxMessageBytes = size_t(64) << 20;

private:
  bool readLine(std::string &line);

  std::FILE *in;
  std::FILE *out;
  std::mutex writing;
};

} // namespace tilecc::driver

#endif
