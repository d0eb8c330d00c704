#!/usr/bin/env node
// A scripted language server for test/extension/fake-server.test.mjs: answers `--version` like
// sidl-lsp, publishes one diagnostic per opened document, and answers sidl/checkHiddenInformation
// with work-done progress on the client's token: a counterexample for a URI containing "leaky", a
// request that waits for $/cancelRequest for "slow", else consistent. The result's message echoes
// the parameters the client sent.
'use strict';
if (process.argv.includes('--version')) {
  process.stdout.write('sidl-lsp 0.0.0-fake\n');
  process.exit(0);
}
const rpc = require('vscode-jsonrpc/node');
const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));

// Like sidl-lsp, it offers a command under the id the extension contributes itself.
conn.onRequest('initialize', () => ({
  capabilities: { textDocumentSync: 1, executeCommandProvider: { commands: ['sidl.checkHiddenInformation', 'sidl.fake.other'] } },
  serverInfo: { name: 'fake-sidl-lsp' },
}));
conn.onRequest('workspace/executeCommand', (p) => `executed ${p.command}`);
conn.onNotification('initialized', () => {});
conn.onNotification('textDocument/didOpen', (p) => {
  const firstLine = p.textDocument.text.split('\n')[0];
  conn.sendNotification('textDocument/publishDiagnostics', {
    uri: p.textDocument.uri,
    version: p.textDocument.version,
    diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: firstLine.length } }, severity: 1, code: 'E0000', source: 'fake', message: `fake: ${firstLine}` }],
  });
});
conn.onRequest('sidl/checkHiddenInformation', async (params, token) => {
  const uri = params.textDocument.uri;
  const progress = (value) => params.workDoneToken !== undefined && conn.sendProgress(new rpc.ProgressType(), params.workDoneToken, value);
  progress({ kind: 'begin', title: 'Exploring', percentage: 0, cancellable: true });
  progress({ kind: 'report', message: 'explored 10 states', percentage: 40 });
  if (uri.includes('slow')) {
    await new Promise((resolve) => token.onCancellationRequested(resolve));
    progress({ kind: 'end' });
    return new rpc.ResponseError(-32800, 'cancelled');
  }
  progress({ kind: 'report', message: 'explored 25 states', percentage: 100 });
  progress({ kind: 'end', message: 'done' });
  const message = `params ${JSON.stringify(params)}`;
  if (uri.includes('leaky')) {
    return {
      consistent: false,
      complete: true,
      states: 25,
      message,
      counterexample: { player: '[p2]', description: 'owned/2 of [p1] depends on the hidden fact [card, p1, k]', steps: ['[deal] -> [deal, k, q]', '[p1] -> [p1, bet]'] },
    };
  }
  return { consistent: true, complete: true, states: 25, message, counterexample: null };
});
conn.onRequest('shutdown', () => null);
conn.onNotification('exit', () => process.exit(0));
conn.listen();
