// The GRN extension: colouring comes from syntaxes/grn.tmLanguage.json; this starts `grn lsp` for a .grn file
// and lets vscode-languageclient speak the protocol with it (diagnostics, completion, hover, outline, quick
// fixes, formatting).
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("grn").get("server.command", ["grn", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient("grn", "GRN language server", server, {
    documentSelector: [{ language: "grn" }],
  });
  context.subscriptions.push(client);
  return client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `GRN: could not start ${command} ${args.join(" ")} (${err.message}); install it with pip install 'grn[lsp]' ` +
        "or set grn.server.command");
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
