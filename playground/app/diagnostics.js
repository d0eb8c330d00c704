// @ts-check
// The Diagnostics list under the editor: what `sidl check` reports, one item per diagnostic (click:
// jump to it), its labels below it (each a link to its place) and its help.
import { make as el } from '../play.js';
import { $ } from './dom.js';
import { jumpTo } from './editor.js';

/** @param {import('../pkg/sidl_wasm.js').Diagnostic[]} diags */
export function setDiagnosticList(diags) {
  const ul = $('diagnostics');
  ul.replaceChildren();
  if (diags.length === 0) ul.append(el('li', { class: 'none' }, 'none'));
  for (const d of diags) {
    const head = el('div', { class: 'diag-head' }, `line ${d.line}:${d.column}: ${d.severity}[${d.code}]: ${d.message}`);
    head.addEventListener('click', () => jumpTo(d.line, d.column, d.endLine, d.endColumn));
    const li = el('li', { class: d.severity, 'data-code': d.code, 'data-line': d.line }, head);
    for (const l of d.labels || []) {
      const item = el('div', { class: 'label', 'data-line': l.line }, `line ${l.line}:${l.column}: ${l.message}`);
      item.addEventListener('click', () => jumpTo(l.line, l.column, l.endLine, l.endColumn));
      li.append(item);
    }
    if (d.help) li.append(el('div', { class: 'help' }, `help: ${d.help}`));
    ul.append(li);
  }
  const errors = diags.filter((d) => d.severity === 'error').length;
  $('lint-summary').textContent = diags.length ? `(${errors} error${errors === 1 ? '' : 's'}, ${diags.length - errors} other)` : '';
}
