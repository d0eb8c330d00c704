// @ts-check
// why?: the engine's explanations (SidlGame.why, docs/why.md): why a switch is (not) legal and who
// owns it, why an action is (not) among a switch's actions, why a submission is rejected, why a fact
// was created or deleted in a chronon, why a payoff was (not) paid; over the shown state (the
// chronon the timeline shows) and as the shown view sees it: a player's view never explains with
// facts hidden from that player. Each step of an explanation links to its clause in the editor.
import { make as el } from '../play.js';
import { $, $input, $select } from './dom.js';
import { jumpTo } from './editor.js';
import { S, engine, act } from './state.js';

/** @typedef {import('../pkg/sidl_wasm.js').WhyQuestion} WhyQuestion */
/** @typedef {import('../pkg/sidl_wasm.js').WhyNode} WhyNode */
/** @typedef {import('../pkg/sidl_wasm.js').SidlEvent} SidlEvent */
/** @typedef {'player' | 'switch' | 'action' | 'fact' | 'chronon'} WhyField */

/** @type {Record<string, WhyField[]>} the fields each kind of question (the form's menu) asks */
const WHY_FIELDS = {
  legal: ['switch'],
  action: ['switch', 'action'],
  submission: ['player', 'switch', 'action'],
  fact: ['fact', 'chronon'],
  payoff: ['player', 'chronon'],
};
/** @type {WhyField[]} */
const ALL_FIELDS = ['player', 'switch', 'action', 'fact', 'chronon'];
/** @type {Record<string, string>} */
const OUTCOME_TEXT = { proved: '✓', failed: '✗', error: '‼', folded: '…', budget: '⧗' };

/**
 * A small why? button that asks `question` (the form shows it too, to edit and ask again).
 * @param {WhyQuestion} question
 * @param {string} title
 */
export function whyButton(question, title, text = 'why?') {
  return el('button', {
    type: 'button', class: 'why', title, 'aria-label': title, 'data-why': question.kind,
    onclick: (/** @type {Event} */ ev) => { ev.stopPropagation(); act(() => askWhy(question)); },
  }, text);
}

/**
 * The question of an event of chronon `i`: a created or deleted fact, a payment.
 * @param {SidlEvent} e
 * @param {number} i
 * @returns {WhyQuestion | null}
 */
export function eventQuestion(e, i) {
  if ((e.kind === 'created' || e.kind === 'deleted') && e.fact) return { kind: 'fact', fact: e.fact, chronon: i };
  if (e.kind === 'account' && e.player) return { kind: 'payoff', player: e.player, chronon: i };
  return null;
}

// Shows the form's inputs its kind of question asks.
export function showWhyFields() {
  const shown = WHY_FIELDS[$select('why-kind').value] || [];
  for (const f of ALL_FIELDS) $(`why-${f}`).hidden = !shown.includes(f);
}

/** @param {WhyQuestion} q */
function fillWhyForm(q) {
  $select('why-kind').value = q.kind;
  for (const f of ALL_FIELDS) {
    if (q[f] !== undefined) $input(`why-${f}`).value = String(q[f]);
  }
  showWhyFields();
}

/**
 * The question the form asks: its kind's fields only.
 * @returns {WhyQuestion}
 */
export function formQuestion() {
  const kind = /** @type {WhyQuestion['kind']} */ ($select('why-kind').value);
  /** @type {WhyQuestion} */
  const q = { kind };
  for (const f of WHY_FIELDS[kind]) {
    const v = $input(`why-${f}`).value.trim();
    if (f === 'chronon') {
      if (v !== '') q.chronon = Number(v);
    } else q[f] = v;
  }
  return q;
}

/**
 * Asks `q` (as the shown view) and shows the answer under the form.
 * @param {WhyQuestion} q
 */
export async function askWhy(q) {
  if (!S.loaded) return;
  fillWhyForm(q);
  const question = { ...q };
  if (S.viewAs) question.viewer = S.viewAs;
  const out = $('why-result');
  let r;
  try {
    r = await engine.call('why', question);
  } catch (e) {
    out.replaceChildren(el('div', { class: 'error' }, /** @type {Error} */ (e).message));
    out.dataset.holds = '';
    return;
  }
  out.dataset.holds = String(r.holds);
  out.replaceChildren(
    el('div', { class: `summary ${r.holds ? 'holds' : 'fails'}` }, r.summary),
    S.viewAs ? el('div', { class: 'none' }, `as ${S.viewAs} sees it`) : '',
    whyTree(r.nodes || []));
  $('why-title').scrollIntoView({ block: 'nearest' });
}

/**
 * An explanation's nodes as nested lists: the outcome, the goal, the clause (a link into the
 * editor), the bindings at that point, the note, the sub-steps.
 * @param {WhyNode[]} nodes
 * @returns {HTMLUListElement}
 */
function whyTree(nodes) {
  return el('ul', { class: 'why-tree terms' }, ...nodes.map((n) => {
    const li = el('li', { class: `why-node ${n.outcome}`, 'data-outcome': n.outcome },
      el('span', { class: 'outcome', title: n.outcome }, OUTCOME_TEXT[n.outcome] || n.outcome), ' ',
      el('span', { class: 'goal' }, n.goal));
    const c = n.clause;
    if (c && c.startLine) {
      li.append(' ', el('a', {
        href: '#', class: 'goto', 'data-line': c.startLine,
        onclick: (/** @type {Event} */ ev) => { ev.preventDefault(); jumpTo(c.startLine, c.startColumn, c.endLine, c.endColumn); },
      }, `line ${c.startLine}`));
    }
    if (n.note) li.append(el('div', { class: 'note' }, n.note));
    if (n.bindings && n.bindings.length) {
      li.append(el('div', { class: 'bindings' }, n.bindings.map(([k, v]) => `${k} = ${v}`).join(', ')));
    }
    if (n.children && n.children.length) li.append(whyTree(n.children));
    return li;
  }));
}
