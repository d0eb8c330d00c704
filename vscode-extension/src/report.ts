// The result of the custom request `sidl/checkHiddenInformation`: validation of what the server
// sent and the texts shown to the user. Pure (no VS Code), tested in test/unit/report.test.mjs.

/** The request's method name. */
export const CHECK_METHOD = 'sidl/checkHiddenInformation';

export interface Counterexample {
  /** The player the hidden information leaks to. */
  player: string;
  description: string;
  /** The replayable steps from the initial state. */
  steps: string[];
}

export interface CheckResult {
  /** No leak found in the states explored. */
  consistent: boolean;
  /** Every reachable state was explored (false: the budget ran out first). */
  complete: boolean;
  /** How many states were explored. */
  states: number;
  message: string;
  counterexample: Counterexample | null;
}

/** The request's parameters. */
export interface CheckParams {
  textDocument: { uri: string };
  maxStates?: number;
  workDoneToken?: string;
}

export function checkParams(uri: string, maxStates: unknown, workDoneToken?: string): CheckParams {
  const params: CheckParams = { textDocument: { uri } };
  if (typeof maxStates === 'number' && Number.isInteger(maxStates) && maxStates > 0) {
    params.maxStates = maxStates;
  }
  if (workDoneToken !== undefined) {
    params.workDoneToken = workDoneToken;
  }
  return params;
}

/** Checks the shape of the server's answer; an error message if it is not a `CheckResult`. */
export function parseCheckResult(value: unknown): CheckResult | { error: string } {
  if (typeof value !== 'object' || value === null) {
    return { error: `the server answered ${JSON.stringify(value)}, not a check result` };
  }
  const v = value as Record<string, unknown>;
  for (const [key, type] of [
    ['consistent', 'boolean'],
    ['complete', 'boolean'],
    ['states', 'number'],
    ['message', 'string'],
  ] as const) {
    if (typeof v[key] !== type) {
      return { error: `the server's check result has no ${type} \`${key}\`` };
    }
  }
  let counterexample: Counterexample | null = null;
  const c = v.counterexample;
  if (c !== null && c !== undefined) {
    if (typeof c !== 'object') {
      return { error: "the server's counterexample is not an object" };
    }
    const ce = c as Record<string, unknown>;
    if (
      typeof ce.player !== 'string' ||
      typeof ce.description !== 'string' ||
      !Array.isArray(ce.steps) ||
      !ce.steps.every((s) => typeof s === 'string')
    ) {
      return { error: "the server's counterexample needs `player`, `description` and string `steps`" };
    }
    counterexample = { player: ce.player, description: ce.description, steps: ce.steps as string[] };
  }
  return {
    consistent: v.consistent as boolean,
    complete: v.complete as boolean,
    states: v.states as number,
    message: v.message as string,
    counterexample,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What to tell the user, and whether it is a warning. */
export function summary(r: CheckResult): { level: 'info' | 'warning'; text: string } {
  const explored = r.complete
    ? `all ${plural(r.states, 'reachable state')} explored`
    : `stopped after ${plural(r.states, 'state')}: the result covers only those`;
  if (r.consistent && r.counterexample === null) {
    return { level: r.complete ? 'info' : 'warning', text: `SIDL: hidden information is consistent (${explored}). ${r.message}`.trim() };
  }
  if (r.counterexample !== null) {
    return {
      level: 'warning',
      text: `SIDL: hidden information leaks to player ${r.counterexample.player}: ${r.counterexample.description}`,
    };
  }
  return { level: 'warning', text: `SIDL: hidden information is not consistent (${explored}). ${r.message}`.trim() };
}

/** A Markdown report of a counterexample (shown beside the game). */
export function counterexampleMarkdown(file: string, r: CheckResult): string {
  const lines: string[] = [`# Hidden-information counterexample`, '', `Game: \`${file}\``, ''];
  if (r.counterexample !== null) {
    const ce = r.counterexample;
    lines.push(`**Player:** \`${ce.player}\``, '', ce.description, '');
    if (ce.steps.length === 0) {
      lines.push('The initial state already shows it.', '');
    } else {
      lines.push('## Steps from the initial state', '');
      ce.steps.forEach((s, i) => lines.push(`${i + 1}. ${s.includes('`') ? s : '`' + s + '`'}`));
      lines.push('');
    }
  }
  lines.push(`${r.message}`, '', `States explored: ${r.states}${r.complete ? ' (all reachable)' : ' (budget reached)'}.`, '');
  return lines.join('\n');
}
