// The tilecc extension for VS Code: starts `tilecc lsp` (settings tilecc.path and
// tilecc.arguments) as a language server for C++ and CUDA files, beside clangd. Diagnostics come
// with their rule ids and links to the rule's explanation; fix-its are quick fixes.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

/** The server's command line from the settings. */
function serverOptions(config) {
  const command = config.get('path', 'tilecc');
  const args = ['lsp', ...config.get('arguments', [])];
  return { command, args, transport: TransportKind.stdio };
}

function clientOptions() {
  return {
    documentSelector: [
      { scheme: 'file', language: 'cpp' },
      { scheme: 'file', language: 'cuda-cpp' },
    ],
  };
}

async function activate(context) {
  const config = vscode.workspace.getConfiguration('tilecc');
  client = new LanguageClient('tilecc', 'tilecc', serverOptions(config), clientOptions());
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration('tilecc') || !client) return;
      await client.stop();
      client = new LanguageClient('tilecc', 'tilecc',
                                  serverOptions(vscode.workspace.getConfiguration('tilecc')),
                                  clientOptions());
      await client.start();
    }));
  await client.start();
}

async function deactivate() {
  if (client) await client.stop();
  client = undefined;
}

module.exports = { activate, deactivate, serverOptions, clientOptions };
