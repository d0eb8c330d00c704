// @ts-check
// The texts of a game's labels (docs/reference.md "Labels") by raw term, from the engine's
// `labels(viewer, lang)`: what the playground (app/labels.js) and the embed element share. A term
// without a label keeps its raw text. The texts are plain: callers insert them as text.

/** @typedef {import('./pkg/sidl_wasm.js').Labels} Labels */

/**
 * Lookups over `l` (null, or a game without labels: every text raw).
 * @param {Labels | null} l
 */
export function labelText(l) {
  /** @type {Map<string, string>} */ const facts = new Map();
  /** @type {Map<string, string>} */ const players = new Map();
  /** @type {Map<string, string>} */ const switches = new Map();
  /** @type {Map<string, string>} */ const actions = new Map();
  /** @type {Map<string, string>} */ const accounts = new Map();
  const on = !!l && l.active;
  if (l && on) {
    for (const f of l.facts) if (f.labelled) facts.set(f.term, f.text);
    for (const p of l.players) if (p.labelled) players.set(p.term, p.text);
    for (const a of l.accounts) if (a.labelled) accounts.set(a.term, a.text);
    for (const s of l.switches) {
      if (s.switch.labelled) switches.set(s.switch.term, s.switch.text);
      for (const a of s.actions) if (a.labelled) actions.set(`${s.switch.term} ${a.term}`, a.text);
    }
  }
  return {
    /** is there anything labelled? */
    on,
    /** @param {string} f */ fact: (f) => facts.get(f) ?? f,
    /** @param {string} p */ player: (p) => players.get(p) ?? p,
    /** @param {string} s */ switch: (s) => switches.get(s) ?? s,
    /** @param {string} s @param {string} a */ action: (s, a) => actions.get(`${s} ${a}`) ?? a,
    /** @param {string} p the player of an account; undefined without a label */ account: (p) => accounts.get(p),
    /**
     * The labelled event lines of chronon `i` (1-based) of the session's history, or null (no
     * labels, not in the history, or not the `n` lines of the raw record).
     * @param {number} i @param {number} n
     */
    events: (i, n) => {
      const e = on && l ? l.events[i - 1] : undefined;
      return e && e.length === n ? e : null;
    },
  };
}
