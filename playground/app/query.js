// @ts-check
// The query console: a goal run over the shown state, its answers (or its error, linked to its
// place in the source).
import { make as el } from '../play.js';
import { $, $input } from './dom.js';
import { jumpTo } from './editor.js';
import { S, engine } from './state.js';

export async function runQuery() {
  if (!S.loaded) return;
  const ul = $('answers');
  let r;
  try {
    r = await engine.call('query', $input('query').value);
  } catch (e) {
    ul.replaceChildren(el('li', { class: 'error' }, /** @type {Error} */ (e).message));
    return;
  }
  const items = r.answers.length ? r.answers.map((a) => el('li', {}, a)) : [el('li', {}, 'false.')];
  if (r.truncated) items.push(el('li', { class: 'none' }, `… (first ${r.answers.length} answers)`));
  if (r.error) {
    const li = el('li', { class: 'error' }, `error: ${r.error}`);
    const loc = r.location;
    if (loc && loc.line) {
      const line = loc.line;
      li.append(' ', el('a', { href: '#', class: 'goto', onclick: (/** @type {Event} */ ev) => { ev.preventDefault(); jumpTo(line, loc.column, loc.endLine, loc.endColumn); } }, `line ${line}:${loc.column}`));
    }
    items.push(li);
  }
  ul.replaceChildren(...items);
}
