// The TextMate grammar over every .sidl file of the repository (games/, docs/, tests/): each file
// ends outside any clause, string or comment (no clause runs away past its end token), and every
// head keyword that starts a clause at the beginning of a line is scoped as a head keyword.
// The fixtures in test/grammar/ (vscode-tmgrammar-test) check the scopes token by token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';

const require = createRequire(import.meta.url);
const oniguruma = require('vscode-oniguruma');
const textmate = require('vscode-textmate');

const here = new URL('.', import.meta.url).pathname;
const ext = join(here, '..', '..');
const repo = join(ext, '..');
const HEAD = /^(game|name|init|hidden|legal|switch|unlimited|owned|default|do|payoff)\(/;

// Syntax-error fixtures and the editor fixtures (a clause being typed at a cursor) may end inside
// an unterminated clause, string or comment on purpose.
const SKIP = [join('engine', 'tests', 'syntax', 'err'), join('engine', 'tests', 'ide')];
const skipped = (rel) => SKIP.some((d) => rel === d || rel.startsWith(d + '/'));

// The repository's own files: what git tracks (plus new files not yet added), never what is
// ignored (fuzz corpora, build output); a walk of the tree when this is not a git checkout.
function sidlFiles() {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.sidl'], { cwd: repo, encoding: 'utf8' });
    return out.split('\0').filter((f) => f && !f.startsWith('vscode-extension/') && !skipped(f)).map((f) => join(repo, f));
  } catch {
    return walk(repo);
  }
}

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'target', '.git', 'vscode-extension', 'corpus', 'artifacts'].includes(e.name) || e.name.startsWith('target-')) continue;
    const p = join(dir, e.name);
    if (skipped(relative(repo, p))) continue;
    if (e.isDirectory()) walk(p, out);
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
  const files = sidlFiles().filter((f) => existsSync(f));
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
