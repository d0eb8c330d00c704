// Unit tests of src/report.ts (compiled to out/): validating the answer of
// sidl/checkHiddenInformation and the texts shown for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const r = require('../../out/report.js');

/** The text each link of a report covers, with its target (1-based, as shown). */
const linked = (report) =>
  report.links.map((l) => [report.text.split('\n')[l.line].slice(l.start, l.end), `${l.target.line + 1}:${l.target.character + 1}`]);

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

test('a counterexample: a warning naming the player and switch', () => {
  const s = r.summary(leak);
  assert.equal(s.level, 'warning');
  assert.equal(s.text, 'SIDL: hidden information leaks to player [bob]: the owner of [main] shows the hidden fact [card, alice, king]');
  const via = r.summary(r.parseCheckResult({ ...leak, counterexample: { ...leak.counterexample, switch: '[main]' } }));
  assert.match(via.text, /leaks to player \[bob\] through switch \[main\]: /);
});

test('runtime errors during the exploration: counted in the summary, listed in the report', () => {
  const withErrors = r.parseCheckResult({ ...consistent, errors: ['type_error(evaluable, foo/0) in do/1'] });
  const s = r.summary(withErrors);
  assert.equal(s.level, 'warning');
  assert.match(s.text, /consistent: no leak in all 42 reachable states\. 1 runtime error during the exploration/);
  assert.match(r.hiddenInformationReport('g.sidl', withErrors).text, /\nRuntime errors during the exploration\n {2}type_error\(evaluable, foo\/0\) in do\/1\n/);
  assert.match(r.parseCheckResult({ ...consistent, errors: [1] }).error, /errors/);
});

test('inconsistent without a counterexample is still a warning', () => {
  const s = r.summary({ ...consistent, consistent: false, message: 'Static check failed.' });
  assert.equal(s.level, 'warning');
  assert.equal(s.text, 'SIDL: hidden information is not consistent: Static check failed.');
});

// kuhn_leaky as sidl-lsp reports it, and its predicates as the server's document symbols give them
const kuhn = {
  consistent: false,
  complete: true,
  states: 49,
  chronons: 48,
  violations: 1,
  message: 'Def.1 §11 violation: player [p2] can tell hidden facts from switch [p2] (49 states, every reachable state)',
  counterexample: {
    player: '[p2]',
    switch: '[p2]',
    description:
      'player [p2] cannot tell two states apart, but switch [p2] has actions [[p2,check], [p2,bet]] in the first state and [[p2,check]] in the second\n[p2] sees: [card,p2,j] [turn,p2,open]',
    steps: [
      'first: chronon 1: nature plays [deal,q,j] at [deal]',
      'first: chronon 2: [p1] plays [p1,check] at [p1]',
      'second: chronon 1: nature plays [deal,k,j] at [deal]',
      'second: chronon 2: [p1] plays [p1,check] at [p1]',
    ],
  },
  errors: [],
};
const predicates = [
  { name: 'game/1', clauses: [{ text: 'game(kuhn_leaky)', line: 8, character: 0 }] },
  { name: 'hidden/2', clauses: [{ text: 'hidden([card, P, _], [O])', line: 17, character: 0 }] },
  { name: 'owned/2', clauses: [{ text: 'owned([deal], equal(6))', line: 20, character: 0 }, { text: 'owned([P], [P])', line: 21, character: 0 }] },
  {
    name: 'switch/2',
    clauses: [
      { text: 'switch([deal], [deal, C1, C2])', line: 22, character: 0 },
      { text: 'switch([P], [P, check])', line: 24, character: 0 },
      { text: 'switch([p1], [p1, bet])', line: 25, character: 0 },
      { text: 'switch([p2], [p2, bet])', line: 26, character: 0 },
      { text: 'switch([P], [P, call])', line: 27, character: 2 },
    ],
  },
];

test('the report of a leak: result, player, switch, what differs, both histories, and the clauses to look at as links', () => {
  const report = r.hiddenInformationReport('tests/analysis/kuhn_leaky.sidl', r.parseCheckResult(kuhn), predicates);
  assert.equal(
    report.text,
    [
      'Hidden-information check (Def.1 §11) of tests/analysis/kuhn_leaky.sidl',
      'Game: tests/analysis/kuhn_leaky.sidl:1:1',
      'The next run of "SIDL: Check hidden-information consistency" on this game replaces this report.',
      '',
      'Result: hidden information leaks to player [p2] through switch [p2].',
      'Server: Def.1 §11 violation: player [p2] can tell hidden facts from switch [p2] (49 states, every reachable state)',
      'States explored: 49 (every reachable state).',
      '',
      'Player: [p2]',
      'Switch: [p2]',
      '',
      'What differs',
      '  player [p2] cannot tell two states apart, but switch [p2] has actions [[p2,check], [p2,bet]] in the first state and [[p2,check]] in the second',
      '  [p2] sees: [card,p2,j] [turn,p2,open]',
      '',
      'How to reach the two states (one line per chronon, from the initial state)',
      '  First history:',
      '    chronon 1: nature plays [deal,q,j] at [deal]',
      '    chronon 2: [p1] plays [p1,check] at [p1]',
      '  Second history:',
      '    chronon 1: nature plays [deal,k,j] at [deal]',
      '    chronon 2: [p1] plays [p1,check] at [p1]',
      '',
      'Where to look (the locations are links)',
      '  The switch/2 clauses that decide the actions of switch [p2]:',
      '    tests/analysis/kuhn_leaky.sidl:25:1  switch([P], [P, check])',
      '    tests/analysis/kuhn_leaky.sidl:27:1  switch([p2], [p2, bet])',
      '    tests/analysis/kuhn_leaky.sidl:28:3  switch([P], [P, call])',
      '  What is hidden, and from whom (hidden/2):',
      '    tests/analysis/kuhn_leaky.sidl:18:1  hidden([card, P, _], [O])',
      '',
    ].join('\n'),
  );
  assert.deepEqual(linked(report), [
    ['tests/analysis/kuhn_leaky.sidl:1:1', '1:1'],
    ['tests/analysis/kuhn_leaky.sidl:25:1', '25:1'],
    ['tests/analysis/kuhn_leaky.sidl:27:1', '27:1'],
    ['tests/analysis/kuhn_leaky.sidl:28:3', '28:3'],
    ['tests/analysis/kuhn_leaky.sidl:18:1', '18:1'],
  ]);
  assert.equal(report.links[2].tooltip, 'Go to the switch/2 clause at line 27');
  assert.equal(report.links[0].tooltip, 'Open tests/analysis/kuhn_leaky.sidl');
});

test('the report points at owned/2 for a different owner, legal/1 for legality, all three when it cannot tell', () => {
  const withDescription = (description) => r.parseCheckResult({ ...kuhn, counterexample: { ...kuhn.counterexample, description } });
  const owner = r.hiddenInformationReport('g.sidl', withDescription('switch [p2] is owned by [p2] in the first state and by nobody in the second'), predicates);
  assert.match(owner.text, /The owned\/2 clauses that decide the owner of switch \[p2\]:\n {4}g\.sidl:22:1 {2}owned\(\[P\], \[P\]\)\n {2}What is hidden/);
  assert.doesNotMatch(owner.text, /switch\/2 clauses/);
  const legal = r.hiddenInformationReport('g.sidl', withDescription('switch [p2] is legal in the first state only'), predicates);
  assert.doesNotMatch(legal.text, /legal\/1 clauses/, 'no legal/1 clauses among the predicates: no section');
  assert.doesNotMatch(legal.text, /switch\/2 clauses|owned\/2 clauses/);
  const unknown = r.hiddenInformationReport('g.sidl', withDescription('something else'), predicates);
  assert.match(unknown.text, /switch\/2 clauses[^]*owned\/2 clauses/);
});

test('the report of a consistent game, and one without symbols: the game link only', () => {
  const ok = r.hiddenInformationReport('games/nim.sidl', r.parseCheckResult({ ...consistent, message: 'no Def.1 §11 violation found in 42 states (every reachable state)' }));
  assert.equal(
    ok.text,
    [
      'Hidden-information check (Def.1 §11) of games/nim.sidl',
      'Game: games/nim.sidl:1:1',
      'The next run of "SIDL: Check hidden-information consistency" on this game replaces this report.',
      '',
      'Result: hidden information is consistent: no leak in all 42 reachable states.',
      'Server: no Def.1 §11 violation found in 42 states (every reachable state)',
      'States explored: 42 (every reachable state).',
      '',
    ].join('\n'),
  );
  assert.deepEqual(linked(ok), [['games/nim.sidl:1:1', '1:1']]);
  const bare = r.hiddenInformationReport('g.sidl', r.parseCheckResult(kuhn));
  assert.deepEqual(linked(bare), [['g.sidl:1:1', '1:1']]);
  assert.doesNotMatch(bare.text, /Where to look/);
  const atStart = r.hiddenInformationReport('g.sidl', { ...leak, counterexample: { ...leak.counterexample, steps: [] } });
  assert.match(atStart.text, /\nThe initial state already shows it\.\n/);
  assert.match(atStart.text, /States explored: 7 \(the budget ran out first\)\./);
});

test('one report document per game', () => {
  assert.equal(r.REPORT_SCHEME, 'sidl-report');
  assert.equal(r.reportPath('/home/me/games/kuhn.sidl'), '/home/me/games/kuhn.sidl (hidden information)');
  assert.equal(r.reportPath('Untitled-1'), '/Untitled-1 (hidden information)');
  assert.notEqual(r.reportPath('/a/g.sidl'), r.reportPath('/b/g.sidl'));
});

test('a clause is about the switch when its first argument unifies with it', () => {
  const can = r.firstArgumentCanMatch;
  assert.equal(can('switch([P], [P, check])', '[p2]'), true);
  assert.equal(can('switch([p2], [p2, bet])', '[p2]'), true);
  assert.equal(can('switch([p1], [p1, bet])', '[p2]'), false);
  assert.equal(can('switch([deal], [deal, C1, C2])', '[p2]'), false);
  assert.equal(can('owned([P, Q], [P])', '[p2]'), false, 'a list of two is not a list of one');
  assert.equal(can('legal([_ | _])', '[p2]'), true);
  assert.equal(can('legal([X, X])', '[a,b]'), false, 'one variable, two values');
  assert.equal(can('legal([X, X])', '[a,a]'), true);
  assert.equal(can("legal(['Über', f(1, \"s\")])", "['Über',f(1,\"s\")]"), true);
  assert.equal(can('legal([été])', '[ete]'), false);
  assert.equal(can('legal([])', '[]'), true);
  assert.equal(can('legal(main)', '[main]'), false);
  // what it cannot read is kept
  assert.equal(can('legal([P-1])', '[p2]'), true);
  assert.equal(can('switch([a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x…', '[p2]'), true);
  assert.equal(can('go', '[p2]'), true);
});
