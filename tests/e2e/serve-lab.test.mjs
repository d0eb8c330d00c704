// A lab session of `sidl serve` as issue 16 describes it, in real headless Chromium: three
// participants, each in a browser context of its own, and the experimenter's monitor in a fourth,
// play the common-value auction (games/econ/common_value.sidl: the item's value hidden from every
// bidder, each bidder's estimate hidden from the others, sealed bids typed into a `double` slot) to
// the end. Every participant's page and every WebSocket frame it received are checked: no fact
// hidden from that player (the value, another bidder's estimate), no other bidder's bid before the
// chronon closes; the experimenter sees everything.
//   BASE_URL=http://127.0.0.1:PORT ADMIN_TOKEN=... node tests/e2e/serve-lab.test.mjs
// Run by scripts/serve-e2e.sh (which starts the server). Screenshots go to $ARTIFACTS.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, checks, launch, root, served } from './support.mjs';

const base = (process.env.BASE_URL || 'http://127.0.0.1:8790').replace(/\/$/, '');
const token = process.env.ADMIN_TOKEN;
const browser = await launch();
const { api, participant, monitor } = served(browser, base, token);
const { check, done } = checks();
const shot = (page, name) => page.screenshot({ path: join(artifacts, `serve-lab-${name}.png`), fullPage: true });

const game = readFileSync(join(root, 'games', 'econ', 'common_value.sidl'), 'utf8');
const made = await api('/api/sessions', { game, config: { seed: 11, timeout: 'wait' } });
assert.equal(made.status, 201, JSON.stringify(made.body));
const id = made.body.id;
const names = ['p1', 'p2', 'p3'];
const seats = [];
for (const s of made.body.seats) seats.push(await participant(s.link));
const experimenter = await monitor(id);
// each seat's estimate, read from the experimenter's (designer's) view
const estimates = {};
let value = null;
// the sealed bids (a `double` slot: "2" is held as 2.0)
const bids = { p1: '3.5', p2: '6.25', p3: '2' };

await check('three participants join; each sees its own estimate only; the experimenter sees all', async () => {
  for (const s of seats) await s.page.click('#join');
  for (const s of seats) await s.page.waitForSelector('form.template input[data-slot="bid"]');
  await experimenter.page.click('#raw');
  await experimenter.page.waitForFunction(() => document.querySelector('section.group').dataset.texts === 'raw'
    && /\[signal,p3,/.test(document.querySelector('.designer-view').textContent));
  const view = await experimenter.page.textContent('.designer-view');
  for (const p of names) {
    const m = view.match(new RegExp(`\\[signal,${p},(\\d+)\\]`));
    assert.ok(m, `${p}'s estimate in the designer's view: ${view}`);
    estimates[p] = m[1];
  }
  value = view.match(/\[value,(\d+)\]/)[1];
  for (const [i, s] of seats.entries()) {
    const titles = await s.page.locator('#view li').evaluateAll((ls) => ls.map((l) => l.title || l.textContent));
    assert.ok(titles.includes(`[signal,${names[i]},${estimates[names[i]]}]`), titles.join(' '));
    assert.ok(!titles.some((t) => /\[signal,(p\d),/.exec(t)?.[1] !== names[i] && t.startsWith('[signal,')), titles.join(' '));
    assert.ok(!titles.some((t) => t.startsWith('[value,')), titles.join(' '));
    assert.match(await s.page.textContent('#waiting'), /Still to act: Player 1, Player 2, Player 3/);
  }
  await shot(seats[0].page, 'p1-start');
  await shot(experimenter.page, 'monitor');
});

await check('sealed bids: a bid reaches no other participant before the chronon closes', async () => {
  for (const [i, p] of names.entries()) {
    const s = seats[i];
    const input = s.page.locator('form.template input[data-slot="bid"]');
    await input.fill(bids[p]);
    await input.press('Enter');
    // confirmed by the server: pending (the others still bid) or, for the last bid, the end
    await s.page.waitForFunction(() => document.querySelector('#pending').textContent.startsWith('Submitted')
      || !document.querySelector('#end').hidden, null, { timeout: 30000 });
    if (i < 2) {
      // the others are told that p acted, not what it bid
      for (const o of seats.filter((_, j) => j > i)) {
        await o.page.waitForFunction((who) => !document.querySelector('#waiting').textContent.includes(who), `Player ${i + 1}`);
        assert.match(await o.page.textContent('#waiting'), new RegExp(`Still to act: ${names.slice(i + 1).map((q) => `Player ${q.slice(1)}`).join(', ')}`));
      }
      // nobody else has a frame with the bid yet
      for (const [j, o] of seats.entries()) {
        if (j === i) continue;
        for (const f of o.frames) assert.ok(!f.includes(`[${p},bid,`) && !f.includes(`Player ${i + 1} bids`), `${names[j]} got ${p}'s bid early: ${f}`);
      }
    }
  }
  for (const s of seats) await s.page.waitForSelector('#end:not([hidden])');
  await shot(seats[1].page, 'p2-end');
});

await check('the end: every bid and the value revealed, the payoffs those of the rules', async () => {
  const amounts = Object.fromEntries(names.map((p) => [p, Number(bids[p])]));
  const high = Math.max(...Object.values(amounts));
  const winner = names.find((p) => amounts[p] === high);
  for (const [i, s] of seats.entries()) {
    const titles = await s.page.locator('#view li').evaluateAll((ls) => ls.map((l) => l.title || l.textContent));
    assert.ok(titles.includes(`[revealed,${value}]`), titles.join(' '));
    for (const p of names) assert.ok(titles.some((t) => t.startsWith(`[bid,${p},`)), titles.join(' '));
    const payoff = Number(await s.page.textContent('#payoff'));
    const expected = names[i] === winner ? Number(value) - high : 0;
    assert.ok(Math.abs(payoff - expected) < 1e-9, `${names[i]}: ${payoff}, expected ${expected}`);
  }
  const end = await api(`/api/sessions/${id}`);
  assert.equal(end.body.status, 'finished');
});

await check('no frame or page of a participant ever held a fact hidden from it', async () => {
  for (const [i, s] of seats.entries()) {
    assert.ok(s.frames.length > 3);
    const others = names.filter((_, j) => j !== i);
    const html = await s.page.evaluate(() => document.body.innerHTML);
    for (const text of [...s.frames, html]) {
      for (const o of others) assert.ok(!text.includes(`[signal,${o},`), `${names[i]} saw ${o}'s estimate: ${text.slice(0, 300)}`);
      assert.ok(!text.includes('[value,'), `${names[i]} saw the value: ${text.slice(0, 300)}`);
    }
    assert.deepEqual(s.errors, []);
  }
  assert.deepEqual(experimenter.errors, []);
});

await browser.close();
done({ exit: true });
