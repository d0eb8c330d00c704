// The TypeScript of wasm/src/labels.rs: what `labels(viewer, lang)` returns.

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
  events: string[][];
  result: string[];
}
