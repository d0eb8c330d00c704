// @ts-check
// What the playground (app.js) and the embed element (embed/sidl-game.js) share, so that both play a
// game the same way: the seats they offer, the moves of the seats that are not human, and the typed
// form of an unlimited switch. No DOM of its own beyond the elements it returns; no engine state.

/** @typedef {import('./engine.js').Call} Call */
/** @typedef {import('./pkg/sidl_wasm.js').Chronon} Chronon */
/**
 * A typed slot of a template. `description` (what a value of the type is, for people) is sent by
 * the engine (wasm/src/core.rs) but not declared in sidl_wasm.d.ts yet.
 * @typedef {import('./pkg/sidl_wasm.js').Slot & { description?: string }} Slot
 */
/**
 * A serial queue of actions (`actionQueue`): `run(f)` runs `f` after the actions queued before it.
 * @typedef {<T>(f: () => T | Promise<T>) => Promise<T | undefined>} Run
 */

// A seat: `human` (a person clicks its moves), `random` (the engine's random driver) or an AI of the
// engine (`minimax:DEPTH`, `mcts:ITERATIONS`, as `sidl play --seat` takes them).
export const SEAT_HELP = 'human, random, minimax:DEPTH or mcts:ITERATIONS (DEPTH, ITERATIONS: positive integers), optionally followed by :own (the default), :relative or :paranoid';
// The AI kinds the playground's seat menu offers.
export const AI_KINDS = ['minimax:3', 'mcts:500'];

/**
 * The seat written `text` (trimmed; empty: human), or an Error that says what is supported.
 * @param {string | null | undefined} text
 */
export function parseSeat(text) {
  const t = String(text ?? '').trim();
  if (t === '' || t === 'human' || t === 'random') return t || 'human';
  const m = /^(minimax|mcts)\s*:\s*([1-9][0-9]*)(?:\s*:\s*(own|relative|paranoid))?$/.exec(t);
  // `own` is the default objective, written without its name (as the engine writes specs)
  if (m) return `${m[1]}:${m[2]}${m[3] && m[3] !== 'own' ? `:${m[3]}` : ''}`;
  throw new Error(`unsupported seat "${t}": a seat is ${SEAT_HELP}`);
}

/** @param {string} kind */
export const isAi = (kind) => kind !== 'human' && kind !== 'random';

// An AI seat's decision can take seconds (chess with `mcts:500`: tens of seconds). While a step
// with AI seats runs, `thinking` says so: after THINKING_MS without an answer `show(text)` gets
// "thinking: White (mcts:500), 3 s" (the deciding seats, the seconds since the step began), then
// again every second until the returned function is called.
export const THINKING_MS = 1000;
/**
 * @param {[string, string][]} seats player, seat kind (those that are not AI seats are skipped)
 * @param {(player: string) => string} name a player's name for people
 * @param {(text: string) => void} show
 * @returns {(() => void) | null} stops it; null when no seat is an AI seat
 */
export function thinking(seats, name, show) {
  const ai = seats.filter(([, k]) => isAi(k));
  if (!ai.length) return null;
  const t0 = performance.now();
  const who = ai.map(([p, k]) => `${name(p)} (${k})`).join(', ');
  const tell = () => show(`thinking: ${who}, ${Math.round((performance.now() - t0) / 1000)} s`);
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let every;
  const first = setTimeout(() => { tell(); every = setInterval(tell, 1000); }, THINKING_MS);
  return () => { clearTimeout(first); clearInterval(every); };
}

// The moves of the seats that are not human, submitted through `call(method, ...args)` (an
// Engine's call): the random seats (every seat with `allRandom`) through `randomMoves`, then each AI
// seat through `aiMoves` with `seed` (same state, seats and seed: same moves). Returns the chronons
// that ran: in interrupt mode a submission runs its own chronon, and that is the step; else `[]`
// (the caller then runs the chronon).
/**
 * @param {Call} call
 * @param {Map<string, string>} seats player -> seat
 * @param {number} seed
 * @returns {Promise<Chronon[]>}
 */
export async function seatMoves(call, seats, seed, allRandom = false) {
  const random = [...seats].filter(([, k]) => allRandom || k === 'random').map(([p]) => p);
  const ran = random.length ? await call('randomMoves', random) : [];
  if (Array.isArray(ran) && ran.length) return ran;
  if (allRandom) return [];
  for (const [p, kind] of seats) {
    if (!isAi(kind)) continue;
    const r = await call('aiMoves', p, kind, seed >>> 0);
    if (Array.isArray(r) && r.length) return r;
  }
  return [];
}

/**
 * An element `tag` with attributes (`class`, `onEVENT` listeners, others as attributes; `null`
 * and `undefined` skipped) and children: the one DOM builder of the playground and the embed.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | ((ev: Event) => unknown) | null | undefined>} [attrs]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export const make = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === 'class') e.className = String(v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else e.setAttribute(k, String(v));
  }
  for (const c of children) e.append(c);
  return e;
};

// A template for people: its typed holes `','(Name,type)` shown as ‹Name: type›.
/** @param {string} t */
export const showTemplate = (t) => t.replace(/','\(([^,()]+),(\w+)\)/g, '‹$1: $2›');

// The input of one slot. The text goes to the engine as written: the engine's `fillTemplate` alone
// decides what a slot accepts (a `double` slot takes 12 as 12.0, an `integer` slot refuses 12.0).
/** @param {Slot} slot */
function slotInput(slot) {
  const numeric = /^(double|integer|number)$/.test(slot.type);
  return make('input', {
    class: 'term slot', 'data-slot': slot.name, 'data-type': slot.type, type: 'text',
    inputmode: numeric ? 'decimal' : undefined, autocomplete: 'off', spellcheck: 'false',
    placeholder: `${slot.name} (${slot.type})`, 'aria-label': `${slot.name} (${slot.type})`,
    title: slot.description, // the engine's words for what the slot takes
  });
}

// The form of one action template of an unlimited switch: the template with a typed input per slot
// and a submit button (the template itself as the button when it has no slot). On submit the values
// are filled in by `call('fillTemplate', …)`; a refused value is shown in the form (`.form-error`),
// else `submit(action)` is called. `run(f)` runs the work (the caller's one-action-at-a-time queue).
/**
 * @param {Call} call
 * @param {string} template
 * @param {Slot[]} slots
 * @param {(action: string) => Promise<unknown>} submit
 * @param {(f: () => Promise<void>) => unknown} [run]
 */
export function templateForm(call, template, slots, submit, run = (f) => f()) {
  const form = make('form', { class: 'template', 'data-template': template, novalidate: '' });
  const msg = make('span', { class: 'form-error', role: 'alert' });
  const inputs = (slots || []).map(slotInput);
  if (inputs.length) form.append(make('span', { class: 'term', title: template }, showTemplate(template)), ...inputs);
  form.append(make('button', { class: 'action', type: 'submit' }, inputs.length ? 'submit' : template), msg);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const values = inputs.map((x) => x.value);
    run(async () => {
      let action;
      try {
        action = inputs.length ? await call('fillTemplate', template, values) : template;
      } catch (err) {
        msg.textContent = /** @type {Error} */ (err).message;
        return;
      }
      msg.textContent = '';
      await submit(action);
    });
  });
  return form;
}

// A serial queue: `run(f)` starts `f` once every action queued before it has finished, so two
// clicks never interleave their engine calls. `onBusy(busy)` is told when the queue fills and
// empties; errors go to `onError` (the returned promise then resolves to undefined).
/**
 * @param {{ onBusy?: (busy: boolean) => void, onError?: (e: unknown) => void }} [options]
 * @returns {Run}
 */
export function actionQueue({ onBusy = () => {}, onError = (e) => { throw e; } } = {}) {
  /** @type {Promise<unknown>} */
  let tail = Promise.resolve();
  let pending = 0;
  return (f) => {
    pending += 1;
    if (pending === 1) onBusy(true);
    const job = tail.then(async () => {
      try {
        return await f();
      } catch (e) {
        onError(e);
        return undefined;
      }
    });
    tail = job.then(() => {}, () => {});
    return job.finally(() => {
      pending -= 1;
      if (pending === 0) onBusy(false);
    });
  };
}
