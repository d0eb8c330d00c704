// The TextMate grammar over every .sidl file of the repository (games/, docs/, tests/): each file
// ends outside any clause, string or comment (no clause runs away past its end token), and every
// head keyword that starts a clause at the beginning of a line is scoped as a head keyword.
// The fixtures in test/grammar/ (vscode-tmgrammar-test) check the scopes token by token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const oniguruma = require('vscode-oniguruma');
const textmate = require('vscode-textmate');

const here = new URL('.', import.meta.url).pathname;
const ext = join(here, '..', '..');
const repo = join(ext, '..');
const HEAD = /^(game|name|init|hidden|legal|switch|unlimited|owned|default|do|payoff)\(/;

function sidlFiles(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'target', '.git', 'vscode-extension'].includes(e.name) || e.name.startsWith('target-')) continue;
    // Syntax-error fixtures and the editor fixtures (a clause being typed at a cursor) may end inside
    // an unterminated clause, string or comment on purpose.
    const rel = relative(repo, join(dir, e.name));
    if (rel === join('engine', 'tests', 'syntax', 'err') || rel === join('engine', 'tests', 'ide')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sidlFiles(p, out);
    else if (e.name.endsWith('.sidl')) out.push(p);
  }
  return out;
}

async function grammar() {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (s) => new oniguruma.OnigScanner(s),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () =>
      textmate.parseRawGrammar(readFileSync(join(ext, 'syntaxes', 'sidl.tmLanguage.json'), 'utf8'), 'sidl.tmLanguage.json'),
  });
  return registry.loadGrammar('source.sidl');
}

test('every .sidl file of the repository tokenizes back to the top level', async () => {
  const g = await grammar();
  // The state between clauses: the grammar's root (what an empty first line leaves).
  const top = g.tokenizeLine('', textmate.INITIAL).ruleStack;
  const files = sidlFiles(repo);
  assert.ok(files.length >= 10, `found only ${files.length} .sidl files under ${repo}`);
  for (const file of files) {
    const name = relative(repo, file);
    let stack = textmate.INITIAL;
    let inBlockComment = false;
    readFileSync(file, 'utf8').split(/\r?\n/).forEach((line, i) => {
      const before = stack;
      const r = g.tokenizeLine(line, stack);
      stack = r.ruleStack;
      const atTop = before === textmate.INITIAL || before.equals(top);
      // A line that starts a clause with a head keyword, outside comments: its first token is the keyword.
      if (atTop && !inBlockComment && HEAD.test(line)) {
        const first = r.tokens[0];
        assert.ok(
          first.scopes.includes('keyword.control.head.sidl'),
          `${name}:${i + 1}: ${JSON.stringify(line.slice(0, 40))} starts with ${first.scopes.join(' ')}`,
        );
      }
      inBlockComment = r.tokens.length > 0 && r.tokens.at(-1).scopes.includes('comment.block.sidl') && !line.trimEnd().endsWith('*/');
    });
    assert.ok(stack.equals(top), `${name}: the grammar is still inside a rule at the end of the file`);
  }
});
