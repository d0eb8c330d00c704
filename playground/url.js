// @ts-check
// The session in the URL hash (see docs/playground.md):
//   #game=nim.sidl&seed=7&interrupt=0&seats=human,random&view=[bob]&session=<z>
//   #src=<z>&seed=...   (an edited source instead of a gallery game)
// <z> is deflate-raw compressed UTF-8, base64url (the browser's CompressionStream: no library).

/**
 * What the hash holds (`src` and `session` unpacked).
 * @typedef {{ game?: string, src?: string, seed?: number, interrupt?: boolean, seats?: string[],
 *   view?: string, session?: string }} Hash
 */

/** @param {Uint8Array} bytes */
const b64url = (bytes) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
/** @param {string} text */
const unb64url = (text) => {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
};
/**
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @param {CompressionStream | DecompressionStream} stream
 */
async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}
/** @param {string} text */
export async function pack(text) {
  return b64url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}
/** @param {string} z */
export async function unpack(z) {
  return new TextDecoder().decode(await pipe(unb64url(z), new DecompressionStream('deflate-raw')));
}

// {game?, src?, seed?, interrupt?, seats?, view?, session?} from location.hash (src and session
// unpacked).
/** @returns {Promise<Hash>} */
export async function readHash(hash = location.hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  /** @type {Hash} */
  const out = {};
  // (each `get` follows its `has`: never null)
  const get = (/** @type {string} */ k) => /** @type {string} */ (p.get(k));
  if (p.has('game')) out.game = get('game');
  if (p.has('src')) out.src = await unpack(get('src'));
  if (p.has('seed')) out.seed = Number(get('seed'));
  if (p.has('interrupt')) out.interrupt = get('interrupt') === '1';
  if (p.has('seats')) out.seats = get('seats').split(',');
  if (p.has('view')) out.view = get('view');
  if (p.has('session')) out.session = await unpack(get('session'));
  return out;
}

/**
 * The hash of a session: a gallery game by name, else its source; `session` (a snapshot) when
 * something was played.
 * @param {{ game: string | null, src: string, seed: number, interrupt: boolean, seats: string[],
 *   view: string, session: string | null }} s
 */
export async function writeHash(s) {
  const p = new URLSearchParams();
  if (s.game) p.set('game', s.game); else p.set('src', await pack(s.src));
  p.set('seed', String(s.seed));
  p.set('interrupt', s.interrupt ? '1' : '0');
  p.set('seats', s.seats.join(','));
  if (s.view) p.set('view', s.view);
  if (s.session) p.set('session', await pack(s.session));
  return '#' + p.toString();
}
