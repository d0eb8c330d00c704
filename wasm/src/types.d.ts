// The TypeScript types of the values sidl-wasm returns and takes (wasm/src/dto.rs), added to the
// generated sidl_wasm.d.ts. The string unions below are the Rust enums of dto.rs and the engine,
// one `export type` each (AiSpec and SeatKind: the texts the engine parses): wasm/tests/core.rs
// (`ts_unions_match_the_rust_enums`) fails when they disagree.

/** A diagnostic's severity. */
export type Severity = "error" | "warning" | "info" | "hint";
/** What an event is about. */
export type EventKind = "created" | "deleted" | "account" | "switch";
/** How a switch's action came about: submitted by its owner, drawn by chance, or its default. */
export type ActionHow = "submitted" | "drawn" | "default";
/** Where a keyword is written. */
export type KeywordPosition = "head" | "body" | "both";
/** A phase of the dynamic hidden-information check. */
export type HiddenPhase = "breadth" | "playouts" | "done";
/** The type of a template slot (docs/semantics.md §4.4). */
export type SlotType = "double" | "integer" | "number" | "atom" | "term";
/** An AI player's objective (docs/ai.md "Objectives"). */
export type AiObjective = "own" | "relative" | "paranoid";
/** An AI player as `aiMoves` takes it: `random`, `minimax:DEPTH` or `mcts:ITERATIONS`, optionally with an objective. */
export type AiSpec = "random" | `minimax:${number}` | `minimax:${number}:${AiObjective}` | `mcts:${number}` | `mcts:${number}:${AiObjective}`;
/** A seat as `idle` takes it (the kinds of `sidl play --seat PLAYER=KIND`): a person, random, or an AI player. */
export type SeatKind = "human" | AiSpec;
/** The kinds of "why (not)?" question. */
export type WhyKind = "legal" | "action" | "submission" | "fact" | "payoff" | "do";
/** How a goal of a "why (not)?" explanation ended. */
export type WhyOutcome = "proved" | "failed" | "error" | "folded" | "budget";
/**
 * A diagnostic, as `sidl check` reports it (same code, severity, message, span, labels and help):
 * 1-based line and column; columns and from/to offsets in UTF-16 code units.
 */
export interface Diagnostic {
  severity: Severity;
  code: string;
  message: string;
  help: string | null;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  from: number;
  to: number;
  /** Secondary locations, e.g. each call on the way from a rule to a misplaced keyword in a helper. */
  labels: DiagnosticLabel[];
}
/** A secondary location of a diagnostic (placed like the diagnostic's own span) and its message. */
export interface DiagnosticLabel {
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  from: number;
  to: number;
}
/**
 * A typed hole of an unlimited template: its name as canonical text (`_` for a bare variable), its
 * type, and what a value of the type is, for people.
 */
export interface Slot { name: string; type: SlotType; description: string; }
/**
 * A legal switch; `actions` are templates when `unlimited`, and `slots[i]` are the typed slots of
 * `actions[i]` (`[]` for finite switches). Terms are canonical text.
 */
export interface Switch {
  switch: string;
  owner: string | null;
  nature: boolean;
  unlimited: boolean;
  actions: string[];
  slots: Slot[][];
}
/** A submission's result; in interrupt mode an accepted one ran its own chronon (`chronon`). */
export interface SubmitResult { ok: boolean; reason: string | null; chronon: Chronon | null; }
export interface Account { player: string; amount: string; value: number; }
/** An event; `text` is the engine's one line for it (`+ [bob,7]`, `[offer] ← [offer,4] (submitted)`). */
export interface SidlEvent {
  kind: EventKind;
  text: string;
  fact: string | null;
  player: string | null;
  amount: string | null;
  switch: string | null;
  action: string | null;
  how: ActionHow | null;
  ok: boolean | null;
}
/**
 * A chronon's record. A player's events are the designer's event objects, and an event that
 * happens again in a later chronon is the same object again (they cross from the wasm once):
 * read-only.
 */
export interface Chronon {
  chronon: number;
  submissions: [string, string, string][];
  events: SidlEvent[];
  playerEvents: SidlEvent[][];
  terminal: boolean;
}
/**
 * A runtime error as the engine's diagnostic (the one `sidl` and the language server show): a
 * stable `code` (E09xx), the clause where it happened (1-based lines, UTF-16 columns; all `null`
 * when it is not in a clause of the game), the clauses of the call path as `labels`, and `path`: the
 * user predicates on the call stack, outermost first. Thrown runtime errors carry it as `error.sidl`.
 */
export interface SidlErrorLabel {
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  from: number;
  to: number;
}
export interface SidlErrorLocation {
  code: string;
  severity: Severity;
  message: string;
  help: string | null;
  line: number | null;
  column: number | null;
  endLine: number | null;
  endColumn: number | null;
  from: number | null;
  to: number | null;
  labels: SidlErrorLabel[];
  path: string[];
}
/**
 * Every method throws this: an `Error`, with `sidl` set for a runtime error (its diagnostic), and
 * `diagnostics` when a source does not load (`new SidlGame`).
 */
export interface SidlError extends Error { sidl?: SidlErrorLocation; diagnostics?: Diagnostic[]; }
export interface QueryResult {
  vars: string[];
  answers: string[];
  error: string | null;
  location: SidlErrorLocation | null;
  truncated: boolean;
}
export interface HiddenProgress { phase: HiddenPhase; states: number; frontier: number; }
export interface Counterexample {
  player: string;
  switch: string;
  description: string;
  /** `first: chronon 1: ...` lines, then `second: ...` lines. */
  steps: string[];
}
export interface HiddenReport {
  consistent: boolean;
  complete: boolean;
  states: number;
  message: string;
  counterexample: null | Counterexample;
}
/** A keyword, where it is written, and the engine's documentation of it (signature: summary). */
/** `bench()`: chronons run, games started and wall-clock seconds (`performance.now()`). */
export interface BenchResult { chronons: number; games: number; seconds: number; }
export interface Keyword { name: string; arity: number; position: KeywordPosition; doc: string; }
/** Per-query budgets; omitted fields keep their value. */
export interface Limits { inferences?: number; heapCells?: number; choicepoints?: number; frames?: number; }
/**
 * A "why (not)?" question about the current session (`fact`, `payoff`, `do`: a chronon of its
 * history, default the last one; `do`: why the `do/1` of `switch` succeeded or failed). Terms are SIDL text. `viewer`: explain as that player sees the game
 * (hidden facts are never read; an answer that depends on them is refused); omitted: the designer.
 */
export interface WhyQuestion {
  kind: WhyKind;
  switch?: string;
  action?: string;
  player?: string;
  fact?: string;
  chronon?: number;
  viewer?: string;
}
/** A place in the game's source: 1-based lines and columns, columns in UTF-16 code units. */
export interface WhyRange { startLine: number; startColumn: number; endLine: number; endColumn: number; }
/**
 * One node of an explanation: a goal (or a clause's head, `note` "clause N of name/arity") as
 * instantiated; `clause`: where it is (the clause of a clause node, the goal of a body goal);
 * `bindings`: the clause's named variables at that point; the first failing goal of a clause has
 * a `note` starting with "first failing goal".
 */
export interface WhyNode {
  goal: string;
  outcome: WhyOutcome;
  note?: string;
  clause?: WhyRange;
  bindings: [string, string][];
  children: WhyNode[];
}
/** The answer: whether it holds, a one-line summary, the text `sidl why` prints, the tree. */
export interface WhyAnswer { question: string; holds: boolean; summary: string; text: string; nodes: WhyNode[]; }
/**
 * How far a statistics run is (`statsSimulate`, `statsRead`, `statsStep`): `done` of `total` games
 * (or records) played or replayed, `counted` of them in the report; `problems`: lines that are not
 * records and records that do not replay, each naming its line (`record on line 3: ...`).
 */
export interface StatsProgress { done: number; total: number; counted: number; finished: boolean; problems: string[]; }
/** Mean, sample sd, extremes, median and the 95 % interval of the mean (docs/stats.md). */
export interface StatsSummary { n: number; mean: number; sd: number; min: number; median: number; max: number; ci95: [number, number]; }
/** A share of games with its 95 % Wilson interval. */
export interface StatsShare { count: number; of: number; share: number; ci95: [number, number]; }
/** One `metric/2` name over the games; `errors`: the first reasons an answer was not used. */
export interface StatsMetric { name: string; summary: StatsSummary | null; missing: number; errors: string[]; }
/** A player's row: wins, final account, branching factor (legal actions per decision). */
export interface StatsPlayer { player: string; wins: StatsShare; account: StatsSummary | null; branching: number | null; decisions: number; }
/**
 * The engine's report (`engine/src/stats.rs`), exactly the JSON `sidl stats --format json` prints
 * (its field names as they are there); `groups`: the same report per group when there are several.
 */
export interface StatsReport {
  games: number;
  length: StatsSummary | null;
  terminal: StatsShare;
  timeouts: StatsShare;
  errors: StatsShare;
  completion: StatsShare;
  drawishness: StatsShare;
  advantage_first: StatsShare;
  balance: number;
  players: StatsPlayer[];
  total: StatsSummary | null;
  constant_sum: number | null;
  gini: StatsSummary | null;
  metrics: StatsMetric[];
  groups: [string, StatsReport][];
  error_messages: string[];
}
/** One game's numbers, for plots: accounts in player order, the numeric `metric/2` answers. */
export interface StatsGame { group: string; chronons: number; terminal: boolean; error: string | null; accounts: number[]; metrics: [string, number][]; }
/** `statsResult()`: the report of the games so far, its table (`text`) and CSV forms, each game's numbers. */
export interface StatsResult { players: string[]; report: StatsReport; text: string; csv: string; games: StatsGame[]; progress: StatsProgress; }
/** The options of `SidlGame.analyse` (the Analyse panel); each is optional. */
export interface AnalyseOptions {
  /** `auto` (default), `cfr`, `lp` or `support`: `sidl solve --method`. */
  method?: string;
  /** CFR+ iterations (default 10000). */
  iterations?: number;
  /** The node budget (default 1000000): a larger tree is the error E0960. */
  maxNodes?: number;
}
/** Progress of the tree's build: the nodes so far. */
export interface BuildProgress { nodes: number; }
/** How far a solve is: `done` of `total` CFR+ iterations (an exact method: 0/1, then 1/1). */
export interface SolveStep { done: number; total: number; finished: boolean; }
/** A player's expected account change under the computed profile; `name` its label. */
export interface PlayerValue { player: string; name: string; value: number; exact: string | null; }
/** An action at an information set: its canonical text, as the player reads it, its probability. */
export interface ActionProbability { action: string; label: string; probability: number; exact: string | null; }
/** The strategy at one information set: `label` what the player has seen (the game's labels), `raw` the same as terms (the .efg's). */
export interface InfosetStrategy { infoset: number; player: string; label: string; raw: string; actions: ActionProbability[]; }
/** `Analysis.result()`: the tree's size, the method, each player's value, NashConv, the strategy table. */
export interface AnalysisResult {
  title: string;
  nodes: number;
  decisionNodes: number;
  chanceNodes: number;
  terminalNodes: number;
  infosets: number;
  /** `cfr+`, `lp` or `support`. */
  method: string;
  /** CFR+ iterations run (null: an exact method). */
  iterations: number | null;
  exact: boolean;
  zeroSum: boolean;
  values: PlayerValue[];
  nashConv: number;
  /** What NashConv says about the profile, in words (an equilibrium, or how far from one). */
  verdict: string;
  strategies: InfosetStrategy[];
  /** The unlimited switches `candidate/2` discretised (the analysis is of that game), as `sidl solve` words it; null without. */
  note: string | null;
}
/** What one other player gains by best-responding to an AI seat. */
export interface ExploitResponse { player: string; reference: number; bestResponse: number; gain: number; }
/** `Analysis.exploit`: an AI seat's policy against the computed profile (`sidl solve --exploit`). */
export interface ExploitResult { player: string; spec: string; aiValue: number; responses: ExploitResponse[]; gain: number; }
/** A piece of a layout: its text (a symbol, a word; an image's alternative text), the path of its image relative to the game file, its title (the fact's label or raw text). */
export interface LayoutPiece { text: string; image?: string; title: string; }
/** A board of a layout: `squares[row][column]`, rows top to bottom, `null` an empty square. */
export interface LayoutBoard { kind: "board"; columns: string[]; rows: string[]; squares: (LayoutPiece | null)[][]; }
/** A table of a layout: its title and rows of cells. */
export interface LayoutTable { kind: "table"; title: string; rows: string[][]; }
/** A player's hand. */
export interface LayoutHand { kind: "hand"; player: string; items: LayoutPiece[]; }
/** A game's layout for one viewer (docs/reference.md "Layouts"), from that viewer's view only. */
export interface Layout { parts: (LayoutBoard | LayoutTable | LayoutHand)[]; }
