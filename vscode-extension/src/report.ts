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

// --- the report view --------------------------------------------------------------------------------
// One read-only text document per checked game (extension.ts serves it under the scheme
// `sidl-report` and replaces it on the next run). Its locations `file:line:column` are links into
// the game, given here with their ranges so that no one has to find them again in the text.

/** A clause of the game, as the server's document symbols give it (0-based, UTF-16 columns). */
export interface ClauseSymbol {
  /** The clause head, e.g. `switch([P], [P, check])` (the server shortens long heads with `…`). */
  text: string;
  line: number;
  character: number;
}

/** A predicate of the game (`switch/2`, `owned/2`, …) and its clauses. */
export interface PredicateSymbol {
  name: string;
  clauses: ClauseSymbol[];
}

/** A clickable location in the report: `[start, end)` on `line` of the report goes to `target` in the game. */
export interface ReportLink {
  line: number;
  start: number;
  end: number;
  target: { line: number; character: number };
  tooltip: string;
}

export interface Report {
  text: string;
  links: ReportLink[];
}

/** The scheme of the report documents. */
export const REPORT_SCHEME = 'sidl-report';

/**
 * The path of the report of the game at `gamePath` (a URI path): one report per game and kind
 * (`hidden information`, `equilibrium`), named after it. The suffix keeps VS Code from taking the report for a `.sidl` file (plain text).
 */
export function reportPath(gamePath: string, kind = 'hidden information'): string {
  const p = gamePath.startsWith('/') ? gamePath : `/${gamePath}`;
  return `${p} (${kind})`;
}

/** Which difference the counterexample describes, hence which rules decide it. */
function rulesFor(description: string): { name: string; what: string }[] {
  if (/ has actions /.test(description)) {
    return [{ name: 'switch/2', what: 'the actions' }];
  }
  if (/ is owned by /.test(description)) {
    return [{ name: 'owned/2', what: 'the owner' }];
  }
  if (/ is legal in /.test(description)) {
    return [{ name: 'legal/1', what: 'the legality' }];
  }
  return [
    { name: 'switch/2', what: 'the actions' },
    { name: 'owned/2', what: 'the owner' },
    { name: 'legal/1', what: 'the legality' },
  ];
}

/**
 * The report of a check of the game `file` (the name to show, e.g. workspace-relative), with the
 * game's predicates to point at: for a counterexample, the clauses for the switch that decide what
 * differs (`switch/2` for actions, `owned/2` for the owner, `legal/1` for legality: those whose
 * first argument can match the switch) and the `hidden/2` clauses.
 */
export function hiddenInformationReport(file: string, r: CheckResult, predicates: PredicateSymbol[] = []): Report {
  const lines: string[] = [];
  const links: ReportLink[] = [];
  const location = (indent: string, target: { line: number; character: number }, after: string, tooltip: string) => {
    const loc = `${file}:${target.line + 1}:${target.character + 1}`;
    links.push({ line: lines.length, start: indent.length, end: indent.length + loc.length, target, tooltip });
    lines.push(`${indent}${loc}${after}`);
  };

  lines.push(`Hidden-information check (Def.1 §11) of ${file}`);
  location('Game: ', { line: 0, character: 0 }, '', `Open ${file}`);
  lines.push('The next run of "SIDL: Check hidden-information consistency" on this game replaces this report.', '');
  const ce = r.counterexample;
  const result =
    ce === null
      ? summary(r).text.replace(/^SIDL: /, '')
      : `hidden information leaks to player ${ce.player}${ce.switch !== undefined ? ` through switch ${ce.switch}` : ''}.`;
  lines.push(`Result: ${result}`);
  lines.push(`Server: ${r.message}`);
  lines.push(`States explored: ${r.states}${r.complete ? ' (every reachable state)' : ' (the budget ran out first)'}.`, '');

  if (ce !== null) {
    lines.push(`Player: ${ce.player}`);
    if (ce.switch !== undefined) {
      lines.push(`Switch: ${ce.switch}`);
    }
    lines.push('', 'What differs', ...ce.description.split('\n').map((l) => `  ${l.trim()}`), '');
    if (ce.steps.length === 0) {
      lines.push('The initial state already shows it.', '');
    } else {
      const groups = new Map<string, string[]>();
      for (const step of ce.steps) {
        const m = /^(first|second): (.*)$/.exec(step);
        const key = m ? `${m[1][0].toUpperCase()}${m[1].slice(1)} history` : 'Steps';
        groups.set(key, [...(groups.get(key) ?? []), m ? m[2] : step]);
      }
      lines.push('How to reach the two states (one line per chronon, from the initial state)');
      for (const [key, steps] of groups) {
        lines.push(`  ${key}:`, ...steps.map((s) => `    ${s}`));
      }
      lines.push('');
    }

    const byName = new Map(predicates.map((p) => [p.name, p]));
    const sections: { name: string; title: string; clauses: ClauseSymbol[] }[] = [];
    for (const rule of rulesFor(ce.description)) {
      const clauses = (byName.get(rule.name)?.clauses ?? []).filter(
        (c) => ce.switch === undefined || firstArgumentCanMatch(c.text, ce.switch),
      );
      const of = ce.switch !== undefined ? `switch ${ce.switch}` : 'the switch';
      sections.push({ name: rule.name, title: `The ${rule.name} clauses that decide ${rule.what} of ${of}:`, clauses });
    }
    sections.push({ name: 'hidden/2', title: 'What is hidden, and from whom (hidden/2):', clauses: byName.get('hidden/2')?.clauses ?? [] });
    if (sections.some((s) => s.clauses.length > 0)) {
      lines.push('Where to look (the locations are links)');
      for (const s of sections.filter((x) => x.clauses.length > 0)) {
        lines.push(`  ${s.title}`);
        for (const c of s.clauses) {
          // (no brackets in a tooltip: VS Code shows it as a Markdown link text)
          location('    ', { line: c.line, character: c.character }, `  ${c.text}`, `Go to the ${s.name} clause at line ${c.line + 1}`);
        }
      }
      lines.push('');
    }
  }
  if (r.errors?.length) {
    lines.push('Runtime errors during the exploration', ...r.errors.map((e) => `  ${e}`), '');
  }
  return { text: lines.join('\n'), links };
}

// --- does a clause head's first argument match the switch? -------------------------------------------
// Enough of Prolog's term syntax for heads like `switch([P], [P, check])`: variables, atoms, numbers,
// strings, lists and compound terms in canonical form. Anything else (operators, a head cut short
// with `…`) cannot be read, and the clause is kept.

type Term = { v: string } | { f: string; args: Term[] };

const TOKEN = /\s*(?:([\p{Lu}_][\p{L}\p{N}_]*)|([\p{Ll}][\p{L}\p{N}_]*|'(?:[^'\\]|\\.|'')*'|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")|([[\](),|]))/uy;

function tokenize(text: string): { kind: 'var' | 'atom' | 'punct'; text: string }[] | undefined {
  const out: { kind: 'var' | 'atom' | 'punct'; text: string }[] = [];
  TOKEN.lastIndex = 0;
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) {
      break;
    }
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(text);
    if (m === null) {
      return undefined;
    }
    i = TOKEN.lastIndex;
    out.push(m[1] !== undefined ? { kind: 'var', text: m[1] } : m[2] !== undefined ? { kind: 'atom', text: m[2] } : { kind: 'punct', text: m[3] });
  }
  return out;
}

/** Reads terms from tokens; `undefined` if they are not one of the forms above. */
function parseTerms(text: string): Term | undefined {
  const toks = tokenize(text);
  if (toks === undefined) {
    return undefined;
  }
  let pos = 0;
  let fresh = 0;
  const peek = () => toks[pos]?.text;
  const term = (): Term | undefined => {
    const t = toks[pos++];
    if (t === undefined) {
      return undefined;
    }
    if (t.kind === 'var') {
      // each `_` is a variable of its own
      return { v: t.text === '_' ? `_#${fresh++}` : t.text };
    }
    if (t.kind === 'atom') {
      if (peek() === '(') {
        pos++;
        const args = sequence(')');
        return args && { f: t.text, args };
      }
      return { f: t.text, args: [] };
    }
    if (t.text === '[') {
      if (peek() === ']') {
        pos++;
        return { f: '[]', args: [] };
      }
      const items: Term[] = [];
      for (;;) {
        const x = term();
        if (x === undefined) {
          return undefined;
        }
        items.push(x);
        const sep = toks[pos++]?.text;
        if (sep === ',') {
          continue;
        }
        let tail: Term = { f: '[]', args: [] };
        if (sep === '|') {
          const rest = term();
          if (rest === undefined || toks[pos++]?.text !== ']') {
            return undefined;
          }
          tail = rest;
        } else if (sep !== ']') {
          return undefined;
        }
        return items.reduceRight<Term>((acc, x) => ({ f: '.', args: [x, acc] }), tail);
      }
    }
    return undefined;
  };
  const sequence = (close: string): Term[] | undefined => {
    const args: Term[] = [];
    for (;;) {
      const x = term();
      if (x === undefined) {
        return undefined;
      }
      args.push(x);
      const sep = toks[pos++]?.text;
      if (sep === close) {
        return args;
      }
      if (sep !== ',') {
        return undefined;
      }
    }
  };
  const t = term();
  return t !== undefined && pos === toks.length ? t : undefined;
}

function unify(a: Term, b: Term, subst: Map<string, Term>): boolean {
  const walk = (t: Term): Term => {
    while ('v' in t && subst.has(t.v)) {
      t = subst.get(t.v)!;
    }
    return t;
  };
  a = walk(a);
  b = walk(b);
  if ('v' in a) {
    if (!('v' in b && b.v === a.v)) {
      subst.set(a.v, b);
    }
    return true;
  }
  if ('v' in b) {
    subst.set(b.v, a);
    return true;
  }
  if (a.f !== b.f || a.args.length !== b.args.length) {
    return false;
  }
  return a.args.every((x, i) => unify(x, b.args[i] as Term, subst));
}

/**
 * Whether the head `name(A1, …)` can be about `switchText` (a ground term in canonical form, e.g.
 * `[p2]`): `A1` unifies with it. True when either cannot be read.
 */
export function firstArgumentCanMatch(head: string, switchText: string): boolean {
  const h = parseTerms(head);
  const s = parseTerms(switchText);
  if (h === undefined || s === undefined || 'v' in h || h.args.length === 0) {
    return true;
  }
  return unify(h.args[0] as Term, s, new Map());
}
