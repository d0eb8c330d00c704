// The result of the custom request `sidl/solve` (docs/lsp.md, docs/analysis.md): validation of what
// the server sent and the read-only report "SIDL: Solve the game (equilibrium)" shows beside the
// game. Pure (no VS Code), tested in test/unit/solveReport.test.mjs.

import { Report } from './report';

/** The request's method name. */
export const SOLVE_METHOD = 'sidl/solve';
/** The report's kind: the report of game `g.sidl` is `g.sidl (equilibrium)`. */
export const SOLVE_REPORT_KIND = 'equilibrium';

export interface PlayerValue {
  player: string;
  /** The player's label in the game, else `player`. */
  name: string;
  value: number;
  exact: string | null;
}

export interface ActionProbability {
  action: string;
  label: string;
  probability: number;
  exact: string | null;
}

export interface Strategy {
  player: string;
  /** What the player has seen (the game's labels when it has them). */
  label: string;
  raw: string;
  actions: ActionProbability[];
}

export interface SolveResult {
  title: string;
  nodes: number;
  decisionNodes: number;
  chanceNodes: number;
  terminalNodes: number;
  infosets: number;
  method: string;
  iterations: number | null;
  zeroSum: boolean;
  values: PlayerValue[];
  nashConv: number;
  /** What NashConv says about the profile, in words (the engine's wording; older servers: absent). */
  verdict?: string;
  strategies: Strategy[];
  /** Which unlimited switches `candidate/2` discretised (the analysis is of that game), or null. */
  note?: string | null;
}

/** The request's parameters. */
export interface SolveParams {
  textDocument: { uri: string };
  workDoneToken?: string;
}

export function solveParams(uri: string, workDoneToken?: string): SolveParams {
  const params: SolveParams = { textDocument: { uri } };
  if (workDoneToken !== undefined) {
    params.workDoneToken = workDoneToken;
  }
  return params;
}

/** Checks the shape of the server's answer; an error message if it is not a `SolveResult`. */
export function parseSolveResult(value: unknown): SolveResult | { error: string } {
  if (typeof value !== 'object' || value === null) {
    return { error: `the server answered ${JSON.stringify(value)}, not a solve result` };
  }
  const v = value as Record<string, unknown>;
  for (const [key, type] of [
    ['title', 'string'],
    ['nodes', 'number'],
    ['infosets', 'number'],
    ['method', 'string'],
    ['nashConv', 'number'],
    ['zeroSum', 'boolean'],
  ] as const) {
    if (typeof v[key] !== type) {
      return { error: `${key} is not a ${type}` };
    }
  }
  if (!Array.isArray(v.values) || !Array.isArray(v.strategies)) {
    return { error: 'values and strategies must be arrays' };
  }
  for (const p of v.values as unknown[]) {
    const x = p as Record<string, unknown> | null;
    if (x === null || typeof x.player !== 'string' || typeof x.value !== 'number') {
      return { error: `a value is not {player, value}: ${JSON.stringify(p)}` };
    }
  }
  for (const s of v.strategies as unknown[]) {
    const x = s as Record<string, unknown> | null;
    if (x === null || typeof x.player !== 'string' || typeof x.label !== 'string' || !Array.isArray(x.actions)) {
      return { error: `a strategy is not {player, label, actions}: ${JSON.stringify(s)}` };
    }
  }
  return value as SolveResult;
}

const num = (x: number): string => (Math.abs(x) < 5e-7 ? '0' : x.toFixed(4));

/** The one line shown as a notification. */
export function solveSummary(file: string, r: SolveResult): string {
  const values = r.values.map((v) => `${v.name} ${v.exact ?? num(v.value)}`).join(', ');
  return `SIDL: ${file}: values ${values}; NashConv ${num(r.nashConv)} (${r.method}).`;
}

/** The report of a solve of the game `file` (the name to show, e.g. workspace-relative). */
export function solveReport(file: string, r: SolveResult): Report {
  const lines: string[] = [];
  lines.push(`Equilibrium analysis of ${file} (sidl solve)`);
  lines.push('');
  lines.push(
    `The extensive form: ${r.nodes} nodes (${r.decisionNodes} decisions, ${r.chanceNodes} chance, ${r.terminalNodes} ends), ${r.infosets} information sets${r.zeroSum ? ', zero-sum' : ''}.`,
  );
  lines.push(
    `Method: ${r.method}${r.iterations === null ? ' (exact)' : `, ${r.iterations} iterations`}.`,
  );
  if (r.note) {
    lines.push(`Note: ${r.note}.`);
  }
  lines.push('');
  lines.push('Values (expected account change under the computed strategies):');
  const width = Math.max(...r.values.map((v) => v.name.length + (v.name === v.player ? 0 : v.player.length + 1)));
  for (const v of r.values) {
    const who = v.name === v.player ? v.player : `${v.name} ${v.player}`;
    lines.push(`  ${who.padEnd(width)}  ${num(v.value).padStart(9)}${v.exact === null ? '' : `  (exactly ${v.exact})`}`);
  }
  lines.push('');
  lines.push(
    typeof r.verdict === 'string'
      ? `NashConv ${num(r.nashConv)}: ${r.verdict}.`
      : `NashConv ${num(r.nashConv)} (0 at an equilibrium).`,
  );
  lines.push('');
  lines.push('Strategies: for each information set (what the player has done and sees when it must');
  lines.push('choose), how often it plays each action.');
  const names = new Map(r.values.map((v) => [v.player, v.name]));
  for (const s of r.strategies) {
    lines.push('');
    lines.push(`  ${names.get(s.player) ?? s.player} at: ${s.label}`);
    for (const a of s.actions) {
      const pct = `${(100 * a.probability).toFixed(1)}%`.padStart(6);
      lines.push(`    ${pct}  ${a.label}${a.exact !== null && a.exact !== '0' && a.exact !== '1' ? `  (${a.exact})` : ''}`);
    }
  }
  lines.push('');
  return { text: lines.join('\n'), links: [] };
}
