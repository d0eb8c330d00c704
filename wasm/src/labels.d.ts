// The TypeScript of wasm/src/labels.rs: what `labels(viewer, lang, from)` returns.

/** A term (canonical text) and its text for a person: the label, or the term when `labelled` is false. */
export interface Label {
  term: string;
  text: string;
  labelled: boolean;
}
/** A legal switch with the labels of its actions (an unlimited switch's templates stay raw). */
export interface SwitchLabels {
  switch: Label;
  owner: string | null;
  actions: Label[];
}
/** A player's role text (`label(role(P), Text)`). */
export interface Role {
  player: string;
  text: string;
}
/** What one viewer reads of the current state in one language (docs/reference.md "Labels"). */
export interface Labels {
  active: boolean;
  lang: string | null;
  languages: string[];
  description: string | null;
  roles: Role[];
  players: Label[];
  facts: Label[];
  switches: SwitchLabels[];
  accounts: Label[];
  /** Per chronon of the history from `eventsFrom` on, the event lines the viewer saw. */
  events: string[][];
  /**
   * The chronon (0-based index in the history) of `events[0]`: the `from` asked for, or less when a
   * line before it changed (the history is shorter or other, another viewer or language, label rules
   * that read the state).
   */
  eventsFrom: number;
  result: string[];
}
