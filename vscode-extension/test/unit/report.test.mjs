// Unit tests of src/report.ts (compiled to out/): validating the answer of
// sidl/checkHiddenInformation and the texts shown for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const r = require('../../out/report.js');

const consistent = { consistent: true, complete: true, states: 42, message: 'No leak.', counterexample: null };
const leak = {
  consistent: false,
  complete: false,
  states: 7,
  message: 'owned/2 depends on a hidden fact.',
  counterexample: {
    player: '[bob]',
    description: 'the owner of [main] shows the hidden fact [card, alice, king]',
    steps: ['[deal] -> [king]', '[alice] -> [bet]'],
  },
};

test('the parameters carry the document, a positive integer budget and the progress token', () => {
  assert.deepEqual(r.checkParams('file:///g.sidl', 500, 't1'), {
    textDocument: { uri: 'file:///g.sidl' },
    maxStates: 500,
    workDoneToken: 't1',
  });
  for (const bad of [null, undefined, 0, -3, 2.5, '10']) {
    assert.deepEqual(r.checkParams('file:///g.sidl', bad), { textDocument: { uri: 'file:///g.sidl' } }, String(bad));
  }
});

test('a well-formed answer is accepted as it is', () => {
  assert.deepEqual(r.parseCheckResult(consistent), consistent);
  assert.deepEqual(r.parseCheckResult(leak), leak);
  assert.deepEqual(r.parseCheckResult({ ...consistent, counterexample: undefined }), consistent);
});

test('a malformed answer is an error naming what is wrong', () => {
  assert.match(r.parseCheckResult(null).error, /not a check result/);
  assert.match(r.parseCheckResult({ ...consistent, states: '42' }).error, /number `states`/);
  assert.match(r.parseCheckResult({ ...consistent, complete: undefined }).error, /boolean `complete`/);
  assert.match(r.parseCheckResult({ ...leak, counterexample: { ...leak.counterexample, steps: [1] } }).error, /steps/);
  assert.match(r.parseCheckResult({ ...leak, counterexample: 'x' }).error, /not an object/);
});

test('consistent and complete: information; consistent but budget reached: warning naming the setting', () => {
  const s = r.summary(consistent);
  assert.equal(s.level, 'info');
  assert.equal(s.text, 'SIDL: hidden information is consistent: no leak in all 42 reachable states.');
  const partial = r.summary({ ...consistent, complete: false, states: 1 });
  assert.equal(partial.level, 'warning');
  assert.match(partial.text, /no hidden-information leak in 1 state, but the budget ran out/);
  assert.match(partial.text, /sidl\.checkHiddenInformation\.maxStates/);
});

test('a counterexample: a warning naming the player and switch, and a Markdown report with numbered steps', () => {
  const s = r.summary(leak);
  assert.equal(s.level, 'warning');
  assert.equal(s.text, 'SIDL: hidden information leaks to player [bob]: the owner of [main] shows the hidden fact [card, alice, king]');
  const via = r.summary(r.parseCheckResult({ ...leak, counterexample: { ...leak.counterexample, switch: '[main]' } }));
  assert.match(via.text, /leaks to player \[bob\] through switch \[main\]: /);
  const md = r.counterexampleMarkdown('games/kuhn.sidl', leak);
  assert.match(md, /^# Hidden-information counterexample/);
  assert.match(md, /Game: `games\/kuhn\.sidl`/);
  assert.match(md, /\*\*Player:\*\* `\[bob\]`/);
  assert.doesNotMatch(md, /Switch/);
  assert.match(md, /\n1\. `\[deal\] -> \[king\]`\n2\. `\[alice\] -> \[bet\]`\n/);
  assert.match(md, /States explored: 7 \(budget reached\)/);
  const atStart = r.counterexampleMarkdown('g.sidl', { ...leak, counterexample: { ...leak.counterexample, steps: [] } });
  assert.match(atStart, /initial state already shows it/);
});

test('runtime errors during the exploration: counted in the summary, listed in the report', () => {
  const withErrors = r.parseCheckResult({ ...consistent, errors: ['type_error(evaluable, foo/0) in do/1'] });
  const s = r.summary(withErrors);
  assert.equal(s.level, 'warning');
  assert.match(s.text, /consistent: no leak in all 42 reachable states\. 1 runtime error during the exploration/);
  assert.match(r.counterexampleMarkdown('g.sidl', withErrors), /## Runtime errors during the exploration\n\n- type_error\(evaluable, foo\/0\) in do\/1/);
  assert.match(r.parseCheckResult({ ...consistent, errors: [1] }).error, /errors/);
});

test('inconsistent without a counterexample is still a warning', () => {
  const s = r.summary({ ...consistent, consistent: false, message: 'Static check failed.' });
  assert.equal(s.level, 'warning');
  assert.equal(s.text, 'SIDL: hidden information is not consistent: Static check failed.');
});
