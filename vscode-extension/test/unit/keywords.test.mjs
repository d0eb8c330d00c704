// The grammar and the snippets use the engine's keyword lists: HEAD_KEYWORDS
// (engine/src/analysis/placement.rs) and KEYWORD_PREDICATES (engine/src/game/host.rs), with the atom
// names of engine/src/atom.rs. A keyword added to the engine fails this test until the grammar knows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ext = join(new URL('.', import.meta.url).pathname, '..', '..');
const engine = join(ext, '..', 'engine', 'src');
const read = (p) => readFileSync(p, 'utf8');

/** The atom names of the `(atom::X, n)` entries of the Rust slice constant `name`. */
function keywordList(file, name) {
  const src = read(file);
  const start = src.indexOf(`pub const ${name}`);
  assert.ok(start >= 0, `${name} not found in ${file}`);
  const body = src.slice(start, src.indexOf('];', start));
  const atoms = read(join(engine, 'atom.rs'));
  const names = [...body.matchAll(/atom::([A-Z_]+)\s*,\s*\d+/g)].map(([, c]) => {
    const m = atoms.match(new RegExp(`\\b${c}\\s*=\\s*"([^"]+)"`));
    assert.ok(m, `atom::${c} has no name in atom.rs`);
    return m[1];
  });
  assert.ok(names.length > 0, `${name} is empty`);
  return [...new Set(names)].sort();
}

/** The alternatives of the `(a|b|c)` group in the grammar rule whose scope is `scope`. */
function grammarKeywords(scope) {
  const g = JSON.parse(read(join(ext, 'syntaxes', 'sidl.tmLanguage.json')));
  const found = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (typeof v.match === 'string' && JSON.stringify(v.captures ?? {}).includes(`"${scope}"`)) found.push(v.match);
      Object.values(v).forEach(walk);
    }
  };
  walk(g);
  assert.equal(found.length, 1, `one rule with scope ${scope}`);
  const m = found[0].match(/\(((?:[a-z]+\|)+[a-z]+)\)/);
  assert.ok(m, `no keyword alternation in ${found[0]}`);
  return m[1].split('|').sort();
}

const head = keywordList(join(engine, 'analysis', 'placement.rs'), 'HEAD_KEYWORDS');
const body = keywordList(join(engine, 'game', 'host.rs'), 'KEYWORD_PREDICATES');

test('the grammar highlights exactly the engine head keywords in head position', () => {
  assert.deepEqual(grammarKeywords('keyword.control.head.sidl'), head);
});

test('the grammar highlights exactly the engine body keywords in body position', () => {
  assert.deepEqual(grammarKeywords('support.function.keyword.body.sidl'), body);
});

test('every head keyword but the old spelling name/1 has a snippet whose body starts with it', () => {
  const snippets = Object.values(JSON.parse(read(join(ext, 'snippets', 'sidl.json'))));
  for (const k of head.filter((k) => k !== 'name')) {
    assert.ok(
      snippets.some((s) => s.prefix.startsWith(k) && s.body[0].startsWith(`${k}(`)),
      `no snippet for ${k}`,
    );
  }
  for (const s of snippets) {
    const kw = s.body[0].match(/^([a-z]+)\(/)?.[1];
    assert.ok(head.includes(kw), `snippet ${s.prefix} does not define a head keyword`);
  }
});
