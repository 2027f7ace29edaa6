// Loads editors/vscode/extension.js as VS Code would, with stand-ins for the `vscode` and
// `vscode-languageclient/node` modules, and checks what it asks for: the LanguageClient's
// server command (tilecc.path, `lsp`, tilecc.arguments) and document selector. The command is
// then started for real and must answer an LSP `initialize` request, then shut down.
// Usage: node vscode_extension_host.js EXTENSION_DIR TILECC
'use strict';
const Module = require('module');
const { spawn } = require('child_process');
const path = require('path');

const [extensionDir, tilecc] = process.argv.slice(2);
const settings = { path: tilecc, arguments: ['--debounce-ms=0'] };
const created = [];
const stubs = {
  vscode: {
    workspace: {
      getConfiguration: (section) => ({ get: (key, fallback) => (section === 'tilecc' && key in settings ? settings[key] : fallback) }),
      onDidChangeConfiguration: () => ({ dispose() {} }),
    },
  },
  'vscode-languageclient/node': {
    TransportKind: { stdio: 0 },
    LanguageClient: class {
      constructor(id, name, server, client) {
        Object.assign(this, { id, name, server, client, started: false });
        created.push(this);
      }
      async start() { this.started = true; }
      async stop() { this.started = false; }
    },
  },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request in stubs) return stubs[request];
  return load.call(this, request, parent, isMain);
};

const pkg = require(path.join(extensionDir, 'package.json'));
for (const key of ['name', 'main', 'engines', 'activationEvents', 'contributes'])
  if (!(key in pkg)) throw new Error(`package.json lacks ${key}`);
console.log(`package ${pkg.name} main=${pkg.main} vscode=${pkg.engines.vscode}`);
console.log(`settings ${Object.keys(pkg.contributes.configuration.properties).join(' ')}`);

const extension = require(path.join(extensionDir, pkg.main));
(async () => {
  const context = { subscriptions: [] };
  await extension.activate(context);
  const c = created[0];
  console.log(`client ${c.id} started=${c.started}`);
  console.log(`server ${path.basename(c.server.command)} ${c.server.args.join(' ')}`);
  console.log(`selector ${c.client.documentSelector.map((d) => d.language).join(' ')}`);

  // The command the extension runs answers initialize and exits after shutdown/exit.
  const child = spawn(c.server.command, c.server.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const send = (msg) => {
    const body = JSON.stringify(msg);
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  let buffer = Buffer.alloc(0);
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const header = buffer.indexOf('\r\n\r\n');
      if (header < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.slice(0, header).toString())[1]);
      if (buffer.length < header + 4 + length) return;
      const msg = JSON.parse(buffer.slice(header + 4, header + 4 + length).toString());
      buffer = buffer.slice(header + 4 + length);
      if (msg.id === 1) {
        console.log(`initialize ${msg.result.serverInfo.name} sync=${msg.result.capabilities.textDocumentSync.change ?? msg.result.capabilities.textDocumentSync}`);
        send({ jsonrpc: '2.0', method: 'initialized', params: {} });
        send({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
      } else if (msg.id === 2) {
        send({ jsonrpc: '2.0', method: 'exit' });
      }
    }
  });
  child.on('exit', async (code) => {
    console.log(`server exit ${code}`);
    await extension.deactivate();
    console.log(`client started=${c.started}`);
  });
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } });
})();
