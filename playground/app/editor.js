// @ts-check
// The editor (CodeMirror 6): SIDL highlighting (sidl-lang.js), keyword completion, the diagnostics of
// `sidl check` as marks (checked as you type), Mod-Enter to load. One editor per page, made by
// `createEditor`; the other modules read and move it through the functions below.
import {
  EditorView, basicSetup, EditorState, keymap, linter, lintGutter, autocompletion,
} from '../vendor/vendor.js';
import { sidlLanguage, keywordSet, setKeywords } from '../sidl-lang.js';

/** @typedef {import('../pkg/sidl_wasm.js').Diagnostic} Diagnostic */
/** @typedef {import('../pkg/sidl_wasm.js').Keyword} Keyword */
/** @typedef {import('@codemirror/lint').Diagnostic} Mark */
/** @typedef {import('@codemirror/autocomplete').Completion} Completion */
/** @typedef {import('@codemirror/autocomplete').CompletionContext} CompletionContext */

/** @type {EditorView} the page's editor (set by createEditor) */
let view;

/**
 * Makes the page's editor in `parent`. `check(text)` gives the diagnostics of a text (the engine's
 * `check`: a failure marks nothing); `onDiagnostics` is told the diagnostics of the text as it stands;
 * `onLoad` is Mod-Enter.
 * @param {{
 *   parent: HTMLElement,
 *   check: (text: string) => Promise<Diagnostic[]>,
 *   onDiagnostics: (diags: Diagnostic[]) => void,
 *   onLoad: () => void,
 * }} opts
 */
export function createEditor({ parent, check, onDiagnostics, onLoad }) {
  const sidlLinter = linter(async (v) => {
    const text = v.state.doc.toString();
    let diags;
    try {
      diags = await check(text);
    } catch (e) {
      return [];
    }
    if (v.state.doc.toString() !== text) return [];
    onDiagnostics(diags);
    return editorDiagnostics(diags, v.state.doc.length);
  }, { delay: 400 });

  view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        keymap.of([{ key: 'Mod-Enter', run: () => { onLoad(); return true; } }]),
        basicSetup,
        sidlLanguage,
        lintGutter(),
        sidlLinter,
        autocompletion({ override: [completeKeywords] }),
        EditorView.lineWrapping,
        EditorView.theme({ '&': { height: '55vh' }, '.cm-scroller': { overflow: 'auto' } }),
      ],
    }),
  });
  return view;
}

// The editor's marks of the diagnostics: each at its span (message and help), and each of its
// labels at the label's place, as an `info` mark that names the diagnostic it belongs to.
/**
 * @param {Diagnostic[]} diags
 * @param {number} len the document's length
 * @returns {Mark[]}
 */
function editorDiagnostics(diags, len) {
  /** @param {number} a @param {number} b */
  const range = (a, b) => {
    const from = Math.min(a, len);
    return { from, to: Math.min(Math.max(b, from), len) };
  };
  /** @type {Mark[]} */
  const out = [];
  for (const d of diags) {
    out.push({
      ...range(d.from, d.to),
      severity: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info',
      source: d.code,
      message: d.message + (d.help ? `\nhelp: ${d.help}` : ''),
    });
    for (const l of d.labels || []) {
      out.push({
        ...range(l.from, l.to),
        severity: 'info',
        source: d.code,
        message: `${l.message} (${d.code} at line ${d.line}: ${d.message})`,
      });
    }
  }
  return out;
}

/** @type {Completion[]} the engine's keywords (empty: the built-in list of sidl-lang.js) */
let keywordOptions = [];
/** @param {CompletionContext} ctx */
function completeKeywords(ctx) {
  const w = ctx.matchBefore(/[a-z][A-Za-z0-9_]*/);
  if (!w || (w.from === w.to && !ctx.explicit)) return null;
  const options = keywordOptions.length ? keywordOptions
    : [...keywordSet].map((k) => ({ label: k, type: 'keyword' }));
  return { from: w.from, options, validFor: /^[a-z][A-Za-z0-9_]*$/ };
}

/**
 * Highlights and completes the engine's keywords (its `keywords()` list) from now on.
 * @param {Keyword[]} kws
 */
export function useKeywords(kws) {
  setKeywords(kws.map((k) => k.name));
  keywordOptions = kws.map((k) => ({
    label: k.name, type: 'keyword', detail: `/${k.arity} (${k.position})`, info: k.doc || undefined,
  }));
  setSource(editorText()); // re-highlight with the engine's list
}

/** @param {string} text */
export function setSource(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
export const editorText = () => view.state.doc.toString();

/**
 * Selects a source range given 1-based lines and (UTF-16) columns, and scrolls to it.
 * @param {number} line
 * @param {number | null} [column]
 * @param {number | null} [endLine]
 * @param {number | null} [endColumn]
 */
export function jumpTo(line, column = 1, endLine = line, endColumn = column) {
  const doc = view.state.doc;
  /** @param {number} l @param {number | null} c */
  const pos = (l, c) => {
    const ln = doc.line(Math.max(1, Math.min(l, doc.lines)));
    return Math.min(ln.from + Math.max(0, Number(c) - 1), ln.to);
  };
  const from = pos(line, column);
  const to = Math.max(from, pos(endLine || line, endColumn || column));
  view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
  view.focus();
}

