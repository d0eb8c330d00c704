// @ts-check
// SIDL (Prolog syntax) for CodeMirror 6: a StreamLanguage tokenizer. Keywords (the SIDL3.0 head and
// body keywords: init/legal/switch/.../fact/create/...) are set from the engine's `keywords()` list
// (`setKeywords`); until then a built-in list is used. Tokens: comments (% and /* */), strings,
// quoted atoms, numbers, variables, keywords, other atoms, functors, operators and punctuation.
import { StreamLanguage } from './vendor/vendor.js';

export const keywordSet = new Set([
  'game', 'name', 'init', 'hidden', 'legal', 'switch', 'unlimited', 'owned', 'default', 'do',
  'payoff', 'player', 'fact', 'create', 'delete', 'tocreate', 'todelete', 'does',
]);
/** @param {string[]} names */
export function setKeywords(names) {
  keywordSet.clear();
  for (const n of names) keywordSet.add(n);
}
const builtins = new Set(['is', 'not', 'call', 'findall', 'member', 'between', 'length', 'append',
  'nth1', 'nth0', 'msort', 'sort', 'sum_list', 'max_list', 'min_list', 'format', 'atom', 'number',
  'integer', 'float', 'var', 'nonvar', 'true', 'fail', 'false', 'equal', 'mod', 'rem', 'min', 'max',
  'abs', 'atom_codes', 'atom_length', 'atom_number', 'succ', 'plus', 'forall', 'reverse', 'last']);

/** @typedef {{ inComment: boolean }} State */

/**
 * @param {import('@codemirror/language').StringStream} stream
 * @param {State} state
 * @returns {string | null}
 */
function token(stream, state) {
  if (state.inComment) {
    if (stream.skipTo('*/')) { stream.pos += 2; state.inComment = false; } else stream.skipToEnd();
    return 'comment';
  }
  if (stream.eatSpace()) return null;
  if (stream.match('%')) { stream.skipToEnd(); return 'comment'; }
  if (stream.match('/*')) { state.inComment = true; return token(stream, state); }
  const ch = stream.peek();
  if (ch === '"' || ch === "'" || ch === '`') {
    stream.next();
    let escaped = false;
    for (let c = stream.next(); c !== undefined; c = stream.next()) {
      if (c === ch && !escaped) break;
      escaped = !escaped && c === '\\';
    }
    return ch === "'" ? 'atom' : 'string';
  }
  if (stream.match(/^0'(\\.|.)/) || stream.match(/^\d+(\.\d+)?([eE][+-]?\d+)?/)) return 'number';
  if (stream.match(/^[A-Z_][A-Za-z0-9_]*/)) return 'variableName';
  const word = /** @type {RegExpMatchArray | null} a regular expression's match */ (stream.match(/^[a-z][A-Za-z0-9_]*/));
  if (word) {
    const w = word[0];
    if (keywordSet.has(w)) return 'keyword';
    if (builtins.has(w)) return 'builtin';
    return stream.peek() === '(' ? 'def' : 'atom';
  }
  if (stream.match(/^[()[\]{}|,]/)) return 'bracket';
  if (stream.match(/^[-+*/\\^<>=~:.?@#&$]+/)) return 'operator';
  stream.next();
  return null;
}

export const sidlLanguage = StreamLanguage.define({
  name: 'sidl',
  startState: () => ({ inComment: false }),
  copyState: (s) => ({ inComment: s.inComment }),
  token,
  languageData: { commentTokens: { line: '%', block: { open: '/*', close: '*/' } } },
});
