// Unit tests of src/solveReport.ts (compiled to out/): validating the answer of sidl/solve and the
// report "SIDL: Solve the game (equilibrium)" shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const r = require('../../out/solveReport.js');

const kuhn = {
  title: 'kuhn', nodes: 55, decisionNodes: 24, chanceNodes: 1, terminalNodes: 30, infosets: 12,
  method: 'lp', iterations: null, zeroSum: true, nashConv: 0,
  verdict: 'an equilibrium: no player gains by deviating alone',
  values: [
    { player: '[p1]', name: '[p1]', value: -1 / 18, exact: '-1/18' },
    { player: '[p2]', name: 'Second', value: 1 / 18, exact: '1/18' },
  ],
  strategies: [
    { player: '[p2]', label: '[card,p2,q] [turn,p2,facing]', raw: '[card,p2,q] [turn,p2,facing]', actions: [
      { action: '[p2,call]', label: '[p2,call]', probability: 1 / 3, exact: '1/3' },
      { action: '[p2,fold]', label: 'fold', probability: 2 / 3, exact: '2/3' },
    ] },
  ],
};

test('a solve result is accepted; a malformed one says what is wrong', () => {
  assert.equal(r.parseSolveResult(kuhn), kuhn);
  assert.deepEqual(r.parseSolveResult(null), { error: 'the server answered null, not a solve result' });
  assert.deepEqual(r.parseSolveResult({ ...kuhn, nashConv: 'x' }), { error: 'nashConv is not a number' });
  assert.match(r.parseSolveResult({ ...kuhn, values: [{ player: 1 }] }).error, /^a value is not \{player, value\}/);
  assert.match(r.parseSolveResult({ ...kuhn, strategies: [{}] }).error, /^a strategy is not/);
});

test('the parameters carry the token only when there is one', () => {
  assert.deepEqual(r.solveParams('file:///g.sidl'), { textDocument: { uri: 'file:///g.sidl' } });
  assert.deepEqual(r.solveParams('file:///g.sidl', 't'), { textDocument: { uri: 'file:///g.sidl' }, workDoneToken: 't' });
});

test('the report: tree size, method, values (exact), NashConv, strategies in the game\'s words', () => {
  const rep = r.solveReport('games/kuhn.sidl', kuhn);
  assert.deepEqual(rep.links, []);
  const lines = rep.text.split('\n');
  assert.equal(lines[0], 'Equilibrium analysis of games/kuhn.sidl (sidl solve)');
  assert.ok(lines.includes('The extensive form: 55 nodes (24 decisions, 1 chance, 30 ends), 12 information sets, zero-sum.'), rep.text);
  assert.ok(lines.includes('Method: lp (exact).'));
  assert.ok(lines.includes('  [p1]           -0.0556  (exactly -1/18)'), rep.text);
  assert.ok(lines.includes('  Second [p2]     0.0556  (exactly 1/18)'), rep.text);
  assert.ok(lines.includes('NashConv 0: an equilibrium: no player gains by deviating alone.'), rep.text);
  assert.ok(lines.includes('  Second at: [card,p2,q] [turn,p2,facing]'));
  assert.ok(lines.includes('     33.3%  [p2,call]  (1/3)'), rep.text);
  assert.ok(lines.includes('     66.7%  fold  (2/3)'), rep.text);
  const verdict = 'not yet an equilibrium: this is what best-responding players would gain in total; CFR+ converges here, so more iterations bring it down';
  const cfr = r.solveReport('g.sidl', { ...kuhn, method: 'cfr+', iterations: 500, nashConv: 0.01, verdict });
  assert.match(cfr.text, /\nMethod: cfr\+, 500 iterations\.\n/);
  assert.ok(cfr.text.includes(`\nNashConv 0.0100: ${verdict}.\n`), cfr.text);
  // a server without the verdict: the number, read as nothing more
  const { verdict: _, ...older } = kuhn;
  assert.ok(r.solveReport('g.sidl', older).text.includes('\nNashConv 0 (0 at an equilibrium).\n'));
  assert.ok(!rep.text.includes('Note:'), rep.text);
  const note = 'the unlimited switch [bid] takes its actions from candidate/2: this is the analysis of the game so discretised';
  const noted = r.solveReport('g.sidl', { ...kuhn, note }).text;
  assert.ok(noted.includes(`\nMethod: lp (exact).\nNote: ${note}.\n`), noted);
  assert.equal(r.solveSummary('kuhn.sidl', kuhn), 'SIDL: kuhn.sidl: values [p1] -1/18, Second 1/18; NashConv 0 (lp).');
});

test('the report has its own path beside the hidden-information one', () => {
  assert.equal(require('../../out/report.js').reportPath('/g/kuhn.sidl', r.SOLVE_REPORT_KIND), '/g/kuhn.sidl (equilibrium)');
});
