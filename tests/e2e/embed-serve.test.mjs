// <sidl-game server=… link=…> on a page of ANOTHER origin plays a seat of a served session (issue 16
// point 9), in real headless Chromium: two small static servers (node:http, free ports) serve the
// playground's files and a page with the element; `sidl-serve` is started with
// --allow-origin for the first only. The element on the allowed origin joins the seat, plays kuhn
// (hidden cards) against the server's AI seat to the end; no frame it received holds the other
// seat's card. On the other origin the element shows the server's refusal and joins nothing; a
// WebSocket opened from there gets the `origin_not_allowed` error frame; admin routes send no CORS
// header to anyone. The server is killed (-9) and restarted mid-game: the element reconnects.
//   SIDL_SERVE=target/debug/sidl-serve node tests/e2e/embed-serve.test.mjs
// Run by scripts/serve-e2e.sh. Prints `ok - NAME` per check and `N passed, N failed`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { artifacts, checks, launch, root } from './support.mjs';

const binary = process.env.SIDL_SERVE || join(root, 'target', 'debug', 'sidl-serve');

// a static server of playground/ with one page, /page.html?server=…&link=…, holding the element
const types = { '.js': 'text/javascript; charset=utf-8', '.html': 'text/html; charset=utf-8', '.css': 'text/css' };
function staticServer() {
  const srv = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/page.html') {
      const attr = (k) => String(url.searchParams.get(k) || '').replace(/[&"<>]/g, '');
      res.writeHead(200, { 'content-type': types['.html'] });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>a lab page</title><script type="module" src="/embed/sidl-game.js"></script></head>
<body><h1>Our study</h1><sidl-game id="g" server="${attr('server')}" link="${attr('link')}"></sidl-game></body></html>`);
      return;
    }
    const file = normalize(join(root, 'playground', url.pathname));
    if (!file.startsWith(join(root, 'playground'))) { res.writeHead(403); res.end(); return; }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({ srv, origin: `http://127.0.0.1:${srv.address().port}` })));
}

const allowed = await staticServer();
const other = await staticServer();
const data = mkdtempSync(join(tmpdir(), 'sidl-embed-'));
const token = 'embed-test-token';
// a fixed free port, so that the links stay valid across the restart below
const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => { const p = probe.address().port; probe.close(() => resolve(p)); });
});
function startServer() {
  const child = spawn(binary, ['--data', data, '--port', String(port), '--allow-origin', allowed.origin], {
    env: { ...process.env, SIDL_ADMIN_TOKEN: token }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (c) => reject(new Error(`sidl-serve exited (${c}): ${out}`)));
  });
  return { child, listening };
}
let server = startServer();
const base = await server.listening;
const stop = () => { server.child.kill(); allowed.srv.close(); other.srv.close(); rmSync(data, { recursive: true, force: true }); };

async function api(path, body, headers = {}) {
  const r = await fetch(base + path, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, headers: r.headers, body: await r.json() };
}

const { check, done } = checks();

const browser = await launch();
async function visit(pageOrigin, link) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const seat = { page, frames: [], errors: [] };
  page.on('websocket', (ws) => ws.on('framereceived', (f) => seat.frames.push(String(f.payload))));
  page.on('pageerror', (e) => seat.errors.push(String(e)));
  await page.goto(`${pageOrigin}/page.html?server=${encodeURIComponent(base)}&link=${encodeURIComponent(link)}`);
  return seat;
}
const shot = (seat, name) => seat.page.screenshot({ path: join(artifacts, `embed-serve-${name}.png`), fullPage: true });

const game = readFileSync(join(root, 'games', 'kuhn.sidl'), 'utf8');

try {
  await check('a page on an allowed origin plays a seat to the end against an AI seat', async () => {
    const made = await api('/api/sessions', { game, config: { seed: 11, seats: { p2: 'mcts:100' }, chronon_seconds: 300 } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const link = made.body.seats[0].link;
    const seat = await visit(allowed.origin, link);
    const el = seat.page.locator('#g');
    // the welcome step: nothing is joined before the button
    await seat.page.locator('#g button.join-button').waitFor();
    assert.equal((await api(`/api/sessions/${made.body.id}`)).body.seats[0].joined_ms, null);
    await seat.page.click('#g button.join-button');
    await seat.page.waitForSelector('#g[data-conn="connected"]');
    await seat.page.waitForSelector('#g .facts li');
    const facts = await seat.page.locator('#g .facts li').allTextContents();
    assert.ok(facts.some((f) => f.startsWith('Player 1 holds the ')), facts.join(' | '));
    assert.match(await seat.page.locator('#g .countdown').textContent(), /^\d+ s left$/);
    assert.match(await seat.page.locator('#g .about').textContent(), /Kuhn poker/);
    assert.equal(await seat.page.locator('#g .layout .hand').count(), 1, 'the layout the server computed');
    await shot(seat, 'playing');
    // the server dies (kill -9) and comes back: the element reconnects by itself, to the same
    // seat with its history
    server.child.kill('SIGKILL');
    await seat.page.waitForSelector('#g[data-conn="reconnecting"]');
    server = startServer();
    await server.listening;
    await seat.page.waitForSelector('#g[data-conn="connected"]', { timeout: 30000 });
    await seat.page.waitForSelector('#g .history > li');
    // play: the first action offered, until the end (the AI answers on the server)
    for (let i = 0; i < 10; i++) {
      await seat.page.waitForSelector('#g[data-status="finished"], #g button.action:not([disabled])');
      if ((await el.getAttribute('data-status')) === 'finished') break;
      await seat.page.locator('#g button.action').first().click();
      // rendered only from the server's answer: the clicked buttons are disabled until it comes
      await seat.page.waitForSelector('#g[data-status="finished"], #g .pending:not(:empty), #g button.action:not([disabled])');
    }
    await seat.page.waitForSelector('#g .end:not([hidden])');
    const payoff = Number(await seat.page.locator('#g .payoff').textContent());
    assert.ok([1, 2, -1, -2].includes(payoff), String(payoff));
    assert.match(await seat.page.locator('#g .result').textContent(), /wins|folds/);
    assert.ok(await seat.page.locator('#g .history > li').count() >= 2);
    const s = (await api(`/api/sessions/${made.body.id}`)).body;
    assert.equal(s.status, 'finished');
    assert.equal(Number(s.live.accounts['[p1]'] ?? payoff), payoff);
    await shot(seat, 'end');
    // nothing of the other seat's hidden card crossed the socket
    assert.ok(seat.frames.length > 3);
    for (const f of seat.frames) assert.ok(!f.includes('[card,p2,') && !f.includes('Player 2 holds'), f);
    assert.deepEqual(seat.errors, []);
  });

  await check('a bid being typed in the element survives another seat acting', async () => {
    const pn = readFileSync(join(root, 'games', 'priceNegotiation.sidl'), 'utf8');
    const seats = { clara: 'random', david: 'random', seller: 'random' };
    const made = await api('/api/sessions', { game: pn, config: { seed: 3, timeout: 'wait', seats } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const alice = await visit(allowed.origin, made.body.seats[0].link);
    const bob = await visit(allowed.origin, made.body.seats[1].link);
    for (const seat of [alice, bob]) {
      await seat.page.click('#g button.join-button');
      await seat.page.waitForSelector('#g form.template input[data-slot="price"]');
    }
    const price = (seat) => seat.page.locator('#g form.template input[data-slot="price"]');
    // alice types her bid, not yet sent; bob's bid reaches alice's element as a new state frame
    await price(alice).fill('13');
    await alice.page.waitForSelector('#g .waiting:text("Bob")');
    await price(bob).fill('11');
    await price(bob).press('Enter');
    await alice.page.locator('#g .waiting').filter({ hasNotText: 'Bob' }).waitFor();
    assert.equal(await price(alice).inputValue(), '13', 'what alice typed is still there');
    await price(alice).press('Enter');
    await alice.page.locator('#g .history', { hasText: 'you chose: Alice bids 13.00' }).waitFor();
    for (const seat of [alice, bob]) { assert.deepEqual(seat.errors, []); await seat.page.context().close(); }
  });

  await check('a page on another origin is refused with a clear message and joins nothing', async () => {
    const made = await api('/api/sessions', { game, config: { seed: 12, seats: { p2: 'random' } } });
    const link = made.body.seats[0].link;
    const seat = await visit(other.origin, link);
    await seat.page.waitForSelector('#g[data-conn="refused"]');
    const msg = await seat.page.locator('#g .error-box').textContent();
    assert.match(msg, /origin_not_allowed/);
    assert.ok(msg.includes(other.origin) && msg.includes('--allow-origin'), msg);
    assert.equal(await seat.page.locator('#g button.join-button').count(), 0);
    assert.equal((await api(`/api/sessions/${made.body.id}`)).body.seats[0].joined_ms, null);
    await shot(seat, 'refused');
    // a joined seat's WebSocket, opened from that origin: an error frame and the close, no state
    const tokenOf = link.split('/p/')[1];
    const join = await fetch(`${base}/p/${tokenOf}/join`, { method: 'POST', redirect: 'manual' });
    assert.equal(join.status, 303, 'a client without Origin (not a page) joins');
    const got = await seat.page.evaluate((url) => new Promise((resolve) => {
      const frames = [];
      const ws = new WebSocket(url);
      ws.onmessage = (e) => frames.push(JSON.parse(e.data));
      ws.onclose = (e) => resolve({ frames, code: e.code });
    }), `${base.replace(/^http/, 'ws')}/p/${tokenOf}/ws`);
    assert.equal(got.code, 1008);
    assert.deepEqual(got.frames.map((f) => f.type), ['error']);
    assert.equal(got.frames[0].code, 'origin_not_allowed');
    // and a POST join from there is refused, readable by the page
    const posted = await seat.page.evaluate(async (url) => {
      const r = await fetch(url, { method: 'POST', headers: { accept: 'application/json' } });
      return { status: r.status, body: await r.json() };
    }, `${base}/p/${tokenOf}/join`);
    assert.equal(posted.status, 403);
    assert.equal(posted.body.error.code, 'origin_not_allowed');
  });

  await check('CORS: listed origins on participant routes only, never on admin routes', async () => {
    const made = await api('/api/sessions', { game, config: { seed: 13 } });
    const tokenOf = made.body.seats[0].link.split('/p/')[1];
    const seatInfo = await fetch(`${base}/p/${tokenOf}/seat`, { headers: { origin: allowed.origin, accept: 'application/json' } });
    assert.equal(seatInfo.headers.get('access-control-allow-origin'), allowed.origin);
    assert.deepEqual(await seatInfo.json(), { session: 'kuhn', player: '[p1]', joined: false });
    const list = await api('/api/sessions', undefined, { origin: allowed.origin });
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('access-control-allow-origin'), null);
    const own = await fetch(`${base}/p/${tokenOf}/seat`, { headers: { origin: base } });
    assert.equal(own.status, 200, 'the server\'s own pages');
    assert.equal(own.headers.get('access-control-allow-origin'), null);
  });
} finally {
  await browser.close();
  stop();
}
done({ exit: true });
