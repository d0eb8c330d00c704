#!/usr/bin/env node
// A scripted language server for test/extension/fake-server.test.mjs: answers `--version` like
// sidl-lsp, publishes one diagnostic per opened document, and answers sidl/checkHiddenInformation
// with work-done progress on the client's token: a counterexample for a URI containing "leaky" (its
// description counts the runs on that URI; "leaky_then_fixed" leaks on the first run only), a
// request that waits for $/cancelRequest for "slow", else consistent. The result's message echoes
// the parameters the client sent. sidl/solve answers a fixed result (an error for "huge"). Every document has the same outline (documentSymbol).
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
// The outline of every document: owned/2 with two clauses, hidden/2 with one (as sidl-lsp nests them).
const range = (line, from, to) => ({ start: { line, character: from }, end: { line, character: to } });
const symbol = (name, line, children) => ({ name, detail: '', kind: 24, range: range(line, 0, 30), selectionRange: range(line, 0, 5), children });
conn.onRequest('textDocument/documentSymbol', () => [
  symbol('owned/2', 3, [symbol('owned([P], [P])', 3), symbol('owned([deal], equal(6))', 4)]),
  symbol('hidden/2', 7, [symbol('hidden([card, P, _], [O])', 7)]),
]);
/** How often each leaky document was checked. */
const runs = new Map();
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
  runs.set(uri, (runs.get(uri) ?? 0) + 1);
  if (uri.includes('leaky') && !(uri.includes('then_fixed') && runs.get(uri) > 1)) {
    return {
      consistent: false,
      complete: true,
      states: 25,
      message,
      counterexample: {
        player: '[p2]',
        description: `owned/2 of [p1] depends on the hidden fact [card, p1, k] (run ${runs.get(uri)})`,
        steps: ['[deal] -> [deal, k, q]', '[p1] -> [p1, bet]'],
      },
    };
  }
  return { consistent: true, complete: true, states: 25, message, counterexample: null };
});
// sidl/solve: a fixed result whose title echoes the parameters, with progress; an error for a URI
// containing "huge" (as sidl-lsp answers a tree over the node budget).
conn.onRequest('sidl/solve', (params) => {
  const progress = (value) => params.workDoneToken !== undefined && conn.sendProgress(new rpc.ProgressType(), params.workDoneToken, value);
  progress({ kind: 'begin', title: 'Solving' });
  progress({ kind: 'report', message: 'CFR+: 5 of 10 iterations' });
  progress({ kind: 'end' });
  if (params.textDocument.uri.includes('huge')) {
    return new rpc.ResponseError(-32803, 'error[E0960]: the extensive form has more than 200000 nodes');
  }
  return {
    title: `params ${JSON.stringify(params)}`, nodes: 7, decisionNodes: 3, chanceNodes: 0, terminalNodes: 4, infosets: 2,
    method: 'cfr+', iterations: 10, zeroSum: true, nashConv: 0, verdict: 'an equilibrium: no player gains by deviating alone',
    values: [{ player: '[matcher]', name: 'Matcher', value: 0, exact: null }, { player: '[mismatcher]', name: '[mismatcher]', value: 0, exact: null }],
    strategies: [{ player: '[matcher]', label: 'the coin is in my hand', raw: '[x]', actions: [
      { action: '[matcher,heads]', label: 'heads', probability: 0.5, exact: null },
      { action: '[matcher,tails]', label: 'tails', probability: 0.5, exact: null }] }],
  };
});
conn.onRequest('shutdown', () => null);
conn.onNotification('exit', () => process.exit(0));
conn.listen();
