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
