// The result of the custom request `sidl/checkHiddenInformation`: validation of what the server
// sent and the texts shown to the user. Pure (no VS Code), tested in test/unit/report.test.mjs.

/** The request's method name. */
export const CHECK_METHOD = 'sidl/checkHiddenInformation';

export interface Counterexample {
  /** The player the hidden information leaks to. */
  player: string;
  /** The switch through which it leaks (optional). */
  switch?: string;
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
  /** Runtime errors met during the exploration (optional). */
  errors?: string[];
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
    if (typeof ce.switch === 'string') {
      counterexample.switch = ce.switch;
    }
  }
  const result: CheckResult = {
    consistent: v.consistent as boolean,
    complete: v.complete as boolean,
    states: v.states as number,
    message: v.message as string,
    counterexample,
  };
  if (v.errors !== undefined) {
    if (!Array.isArray(v.errors) || !v.errors.every((e) => typeof e === 'string')) {
      return { error: "the server's `errors` is not a list of strings" };
    }
    result.errors = v.errors as string[];
  }
  return result;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What to tell the user, and whether it is a warning. */
export function summary(r: CheckResult): { level: 'info' | 'warning'; text: string } {
  const errors = r.errors?.length
    ? ` ${plural(r.errors.length, 'runtime error')} during the exploration (see the output "SIDL Language Server").`
    : '';
  if (r.counterexample !== null) {
    const ce = r.counterexample;
    const via = ce.switch !== undefined ? ` through switch ${ce.switch}` : '';
    return { level: 'warning', text: `SIDL: hidden information leaks to player ${ce.player}${via}: ${ce.description}${errors}` };
  }
  if (!r.consistent) {
    return { level: 'warning', text: `SIDL: hidden information is not consistent: ${r.message}${errors}` };
  }
  if (!r.complete) {
    return {
      level: 'warning',
      text: `SIDL: no hidden-information leak in ${plural(r.states, 'state')}, but the budget ran out before every reachable state was explored (setting sidl.checkHiddenInformation.maxStates).${errors}`,
    };
  }
  return {
    level: errors ? 'warning' : 'info',
    text: `SIDL: hidden information is consistent: no leak in all ${plural(r.states, 'reachable state')}.${errors}`,
  };
}

/** A Markdown report of a counterexample (shown beside the game). */
export function counterexampleMarkdown(file: string, r: CheckResult): string {
  const lines: string[] = [`# Hidden-information counterexample`, '', `Game: \`${file}\``, ''];
  if (r.counterexample !== null) {
    const ce = r.counterexample;
    lines.push(`**Player:** \`${ce.player}\``, '');
    if (ce.switch !== undefined) {
      lines.push(`**Switch:** \`${ce.switch}\``, '');
    }
    lines.push(ce.description, '');
    if (ce.steps.length === 0) {
      lines.push('The initial state already shows it.', '');
    } else {
      lines.push('## Steps (one line per chronon)', '');
      ce.steps.forEach((s, i) => lines.push(`${i + 1}. ${s.includes('`') ? s : '`' + s + '`'}`));
      lines.push('');
    }
  }
  lines.push(`${r.message}`, '', `States explored: ${r.states}${r.complete ? ' (all reachable)' : ' (budget reached)'}.`, '');
  if (r.errors?.length) {
    lines.push('## Runtime errors during the exploration', '', ...r.errors.map((e) => `- ${e}`), '');
  }
  return lines.join('\n');
}
