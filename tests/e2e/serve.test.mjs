// `sidl serve` in real headless Chromium: two participants, each in a browser context of its own,
// play games/kuhn.sidl (hidden cards) to the end through the served pages, which show the game's
// labels (computed per seat on the server); then kuhn in German, and a game whose labels are
// markup (shown as text).
//   BASE_URL=http://127.0.0.1:PORT ADMIN_TOKEN=... node tests/e2e/serve.test.mjs
// Run by scripts/serve-e2e.sh (which starts the server). Prints `ok - NAME` per check and a
// closing `N passed, N failed`. Screenshots go to $ARTIFACTS (default target/e2e-artifacts/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, checks, launch, root, served } from './support.mjs';

const base = (process.env.BASE_URL || 'http://127.0.0.1:8790').replace(/\/$/, '');
const token = process.env.ADMIN_TOKEN;

const browser = await launch();
const { api, participant, monitor } = served(browser, base, token);

const { check, done } = checks();


const game = readFileSync(join(root, 'games', 'kuhn.sidl'), 'utf8');
const created = await api('/api/sessions', { game, config: { seed: 3, timeout: 'wait' } });
assert.equal(created.status, 201, JSON.stringify(created.body));
const session = created.body;
const [link1, link2] = session.seats.map((s) => s.link);
const p1 = await participant(link1);
const p2 = await participant(link2);
const shot = (seat, name) => seat.page.screenshot({ path: join(artifacts, `serve-${name}.png`), fullPage: true });
const action = (seat, a) => seat.page.locator(`button.action[data-action="${a}"]`);

await check('the welcome pages join nothing until their button is pressed', async () => {
  assert.match(await p1.page.textContent('main'), /You will play as \[p1\]/);
  // (the welcome page names the raw player; the participant page its label)
  assert.match(await p2.page.textContent('main'), /You will play as \[p2\]/);
  const s = await api(`/api/sessions/${session.id}`);
  assert.deepEqual(s.body.seats.map((x) => x.joined_ms), [null, null]);
  await p1.page.click('#join');
  await p2.page.click('#join');
  for (const seat of [p1, p2]) await seat.page.waitForSelector('#conn:text("connected")');
  const t = await api(`/api/sessions/${session.id}`);
  assert.ok(t.body.seats.every((x) => typeof x.joined_ms === 'number'));
});

await check('each page shows its own card and not the other', async () => {
  await p1.page.waitForSelector('#view li');
  await p2.page.waitForSelector('#view li');
  const v1 = await p1.page.locator('#view li').allTextContents();
  const v2 = await p2.page.locator('#view li').allTextContents();
  assert.ok(v1.some((f) => f.startsWith('Player 1 holds the ')) && !v1.some((f) => f.startsWith('Player 2 holds')), v1.join(' '));
  assert.ok(v2.some((f) => f.startsWith('Player 2 holds the ')) && !v2.some((f) => f.startsWith('Player 1 holds')), v2.join(' '));
  // the raw term stays in the title, for the designer
  const t1 = await p1.page.locator('#view li').evaluateAll((ls) => ls.map((l) => l.title));
  assert.ok(t1.some((f) => f.startsWith('[card,p1,')) && !t1.some((f) => f.startsWith('[card,p2,')), t1.join(' '));
  assert.match(await p2.page.textContent('#waiting'), /Still to act: Player 1/);
  assert.match(await p1.page.textContent('#about'), /Kuhn poker: three cards.*You act first/);
  assert.match(await p1.page.textContent('#who'), /You play Player 1/);
  // the game's layout (docs/reference.md "Layouts"), computed by the server for the seat: its hand
  // (drawn with the game's labels; the raw card term is the fact's title)
  for (const [seat, p, owner] of [[p1, 'p1', 'Player 1'], [p2, 'p2', 'Player 2']]) {
    const titles = await seat.page.locator('#view li').evaluateAll((ls) => ls.map((l) => l.title));
    const card = titles.find((f) => f.startsWith(`[card,${p},`)).slice(-2, -1).toUpperCase();
    assert.deepEqual(await seat.page.locator('#layout .hand').allTextContents(), [`hand of ${owner}:${card}`]);
  }
  await shot(p1, 'p1-start');
});

// the experimenter's monitor (/admin/monitor): the designer's view, the seats' moves and the
// chronons' events in the game's labels, computed by the server (the engine's `present`) in the
// session's language; the "raw terms" box shows the terms
const monitorTexts = (page) => page.evaluate(() => ({
  view: document.querySelector('.designer-view').textContent,
  players: [...document.querySelectorAll('section.group td.player')].map((t) => t.textContent),
  moves: [...document.querySelectorAll('section.group td.moves')].map((t) => t.textContent),
  events: [...document.querySelectorAll('.game-events li')].map((t) => t.textContent),
  accounts: document.querySelector('section.group .accounts').textContent,
  texts: document.querySelector('section.group').dataset.texts,
}));

await check('the monitor shows the game in its labels (English), and raw terms on demand', async () => {
  const { page, errors } = await monitor(session.id);
  const m = await monitorTexts(page);
  assert.equal(m.texts, 'labels');
  assert.match(m.view, /Player 1 holds the /);
  assert.match(m.view, /Player 2 holds the /, 'the designer sees both cards');
  assert.doesNotMatch(m.view, /\[card,/);
  assert.deepEqual(m.players, ['Player 1', 'Player 2']);
  assert.deepEqual(m.moves, ["Player 1's move: Player 1 checks | Player 1 bets 1", '']);
  assert.equal(m.events.length, 1, m.events.join(' / '));
  assert.match(m.events[0], /^chronon 1: the deal ← cards are dealt \(drawn\)/);
  assert.match(m.accounts, /Accounts: Player 1: 0\.0 chips, Player 2: 0\.0 chips/);
  // the stored events (connections) name the seats' players by their labels
  const who = await page.locator('#events tbody td:nth-child(4)').allTextContents();
  assert.ok(who.includes('1 Player 1') && who.includes('2 Player 2'), who.join(' | '));
  await page.screenshot({ path: join(artifacts, 'serve-monitor-en.png'), fullPage: true });
  await page.click('#raw');
  await page.waitForFunction(() => document.querySelector('section.group').dataset.texts === 'raw');
  const r = await monitorTexts(page);
  assert.match(r.view, /\[card,p1,[jqk]\]/);
  assert.match(r.view, /\[card,p2,[jqk]\]/);
  assert.deepEqual(r.players, ['[p1]', '[p2]']);
  assert.deepEqual(r.moves, ['[p1]: [p1,check] | [p1,bet]', '']);
  assert.match(r.events[0], /^chronon 1: \[deal\] ← \[deal,/);
  await page.screenshot({ path: join(artifacts, 'serve-monitor-raw.png'), fullPage: true });
  await page.click('#raw'); // back to labels (the choice is kept in localStorage)
  await page.context().close();
  assert.deepEqual(errors, []);
});

await check('p1 bets; after a reload p1 is the same seat with its whole history', async () => {
  await action(p1, '[p1,bet]').click();
  await action(p2, '[p2,call]').waitFor();
  await p1.page.reload();
  await p1.page.waitForSelector('#conn:text("connected")');
  await p1.page.waitForFunction(() => document.querySelectorAll('#history > li').length === 2);
  assert.match(await p1.page.textContent('#who'), /You play Player 1/);
  assert.match(await p1.page.textContent('#history'), /you chose: Player 1 bets 1 at Player 1's move/);
  assert.match(await p1.page.textContent('#history'), /Player 1's move ← Player 1 bets 1/);
  assert.equal(await action(p1, '[p1,bet]').count(), 0, 'p1 has nothing to do while p2 decides');
});

await check('p2 calls: both see the end screen with their payoffs', async () => {
  await action(p2, '[p2,call]').click();
  for (const seat of [p1, p2]) await seat.page.waitForSelector('#end:not([hidden])');
  const pay = await Promise.all([p1, p2].map((s) => s.page.textContent('#payoff')));
  const values = pay.map(Number);
  assert.deepEqual(values.map(Math.abs), [2, 2], pay.join(' '));
  assert.equal(values[0] + values[1], 0);
  for (const seat of [p1, p2]) assert.match(await seat.page.textContent('#result'), /wins the showdown/);
  await shot(p1, 'p1-end');
  await shot(p2, 'p2-end');
});

await check("no frame or page of a participant holds the other's card", async () => {
  for (const [seat, other] of [[p1, 'p2'], [p2, 'p1']]) {
    assert.ok(seat.frames.length > 3);
    const name = other === 'p1' ? 'Player 1' : 'Player 2';
    for (const f of seat.frames) assert.ok(!f.includes(`[card,${other},`) && !f.includes(`${name} holds`), f);
    const html = await seat.page.evaluate(() => document.body.innerHTML);
    assert.ok(!html.includes(`[card,${other},`) && !html.includes(`${name} holds`));
    assert.deepEqual(seat.errors, []);
  }
});

await check("a typed template through the playground's form: the server fills and checks it", async () => {
  const pn = readFileSync(join(root, 'games', 'priceNegotiation.sidl'), 'utf8');
  const seats = { bob: 'random', clara: 'random', david: 'random', seller: 'random' };
  const made = await api('/api/sessions', { game: pn, config: { seed: 2, timeout: 'wait', seats } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const alice = await participant(made.body.seats[0].link);
  await alice.page.click('#join');
  const price = alice.page.locator('form.template input[data-slot="price"]');
  await price.fill('cheap');
  await price.press('Enter');
  await alice.page.waitForSelector('#error:text("rejected")');
  await price.fill('12');
  await price.press('Enter');
  await alice.page.waitForFunction(() => document.querySelector('#history').textContent.includes('you chose: Alice bids 12.00'));
  await shot(alice, 'alice-bid');
  assert.deepEqual(alice.errors, []);
});

await check('a bid being typed survives another seat acting (the state frame redraws nothing of it)', async () => {
  const pn = readFileSync(join(root, 'games', 'priceNegotiation.sidl'), 'utf8');
  const seats = { clara: 'random', david: 'random', seller: 'random' };
  const made = await api('/api/sessions', { game: pn, config: { seed: 3, timeout: 'wait', seats } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const [alice, bob] = [await participant(made.body.seats[0].link), await participant(made.body.seats[1].link)];
  for (const seat of [alice, bob]) await seat.page.click('#join');
  const price = (seat) => seat.page.locator('form.template input[data-slot="price"]');
  // alice types her bid, not yet sent; bob's bid reaches alice's page as a new state frame
  await price(alice).fill('13');
  await alice.page.waitForSelector('#waiting:text("Bob")');
  await price(bob).fill('11');
  await price(bob).press('Enter');
  await alice.page.waitForFunction(() => !document.querySelector('#waiting').textContent.includes('Bob'));
  assert.equal(await price(alice).inputValue(), '13', 'what alice typed is still there');
  await price(alice).press('Enter');
  await alice.page.waitForFunction(() => document.querySelector('#history').textContent.includes('you chose: Alice bids 13.00'));
  for (const seat of [alice, bob]) assert.deepEqual(seat.errors, []);
});

await check('a room link with participant labels: a group waits until full; the label returns its seat', async () => {
  const made = await api('/api/sessions', { game, config: { seed: 4, timeout: 'wait', room: 'e2e-room', groups: 'arrival', labels: ['A1', 'A2', 'A3'] } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const a1 = await participant(`${base}/room/e2e-room?participant_label=A1`);
  assert.match(await a1.page.textContent('main'), /Participant A1/);
  const before = await api(`/api/sessions/${made.body.id}`);
  assert.deepEqual(before.body.groups[0].seats.map((x) => x.label), [null, null], 'the GET took no seat');
  await a1.page.click('#join');
  await a1.page.waitForSelector('#chronon:text("Waiting for the other participants")');
  await shot(a1, 'room-waiting');
  const a2 = await participant(`${base}/room/e2e-room?participant_label=A2`);
  await a2.page.click('#join');
  for (const seat of [a1, a2]) await seat.page.waitForSelector('#chronon:text("Chronon 2")');
  assert.match(await a1.page.textContent('#who'), /You play Player 1/);
  assert.match(await a2.page.textContent('#who'), /You play Player 2/);
  await action(a1, '[p1,check]').click();
  // A1 again, from another browser: the same seat and its history
  const again = await participant(`${base}/room/e2e-room?participant_label=A1`);
  await again.page.click('#join');
  await again.page.waitForFunction(() => document.querySelector('#history').textContent.includes('you chose: Player 1 checks'));
  assert.match(await again.page.textContent('#who'), /You play Player 1/);
  // the third label opens group 2, which waits
  const a3 = await participant(`${base}/room/e2e-room?participant_label=A3`);
  await a3.page.click('#join');
  await a3.page.waitForSelector('#chronon:text("Waiting for the other participants")');
  const after = await api(`/api/sessions/${made.body.id}`);
  assert.deepEqual(after.body.groups.map((g) => [g.status, g.seats.map((x) => x.label)]),
    [['running', ['A1', 'A2']], ['waiting', ['A3', null]]]);
  await shot(again, 'room-again');
  for (const seat of [a1, a2, again, a3]) assert.deepEqual(seat.errors, []);
});

await check('kuhn in German (config lang: de): each page in German, the other\'s card in no frame', async () => {
  const made = await api('/api/sessions', { game, config: { seed: 4, timeout: 'wait', lang: 'de' } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const [a, b] = await Promise.all(made.body.seats.map((x) => participant(x.link)));
  for (const seat of [a, b]) { await seat.page.click('#join'); await seat.page.waitForSelector('#view li'); }
  assert.match(await a.page.textContent('#who'), /You play Spieler 1/);
  assert.match(await a.page.textContent('#about'), /Kuhn-Poker/);
  const v = await a.page.locator('#view li').allTextContents();
  assert.ok(v.some((f) => f.startsWith('Spieler 1 hat: ')) && !v.some((f) => f.startsWith('Spieler 2 hat: ')), v.join(' '));
  assert.match(await a.page.textContent('#switches'), /Spieler 1 setzt 1/);
  await shot(a, 'de-p1');
  // the monitor (admin API): the players' labels in the session's language
  const m = await api(`/api/sessions/${made.body.id}`);
  assert.deepEqual(m.body.live.labels.players, ['Spieler 1', 'Spieler 2']);
  // the monitor page: the designer's view, the moves and the events in German
  const mon = await monitor(made.body.id);
  const t = await monitorTexts(mon.page);
  assert.match(t.view, /Spieler 1 hat: /);
  assert.match(t.view, /Spieler 2 hat: /);
  assert.deepEqual(t.players, ['Spieler 1', 'Spieler 2']);
  assert.deepEqual(t.moves, ['Zug von Spieler 1: Spieler 1 schiebt | Spieler 1 setzt 1', '']);
  assert.match(t.events[0], /^chronon 1: das Geben ← Karten werden gegeben \(drawn\)/);
  assert.match(t.accounts, /Spieler 1: 0\.0 Chips/);
  await mon.page.screenshot({ path: join(artifacts, 'serve-monitor-de.png'), fullPage: true });
  await mon.page.context().close();
  assert.deepEqual(mon.errors, []);
  await a.page.locator('button.action[data-action="[p1,check]"]').click();
  await b.page.locator('button.action[data-action="[p2,check]"]').click();
  for (const seat of [a, b]) await seat.page.waitForSelector('#end:not([hidden])');
  assert.match(await a.page.textContent('#result'), /gewinnt beim Aufdecken/);
  await shot(b, 'de-p2-end');
  for (const f of a.frames) assert.ok(!f.includes('Spieler 2 hat: ') && !f.includes('[card,p2,'), f);
  for (const seat of [a, b]) assert.deepEqual(seat.errors, []);
});

await check('labels that are markup reach the page as text', async () => {
  const bad = `game(markup).
init([go]).
init([p], 0).
legal([main]) :- fact([go]).
owned([main], [p]).
switch([main], [stop]).
do([stop]) :- delete([go]), create([done]).
label(game, '<img src=x onerror="window.pwned = 1">').
label(fact(F), X) :- X is 1 / 0, atom(F).
label(action(_, [stop]), '<script>window.pwned = 2</script>stop').
label(result, '<b>over</b>') :- fact([done]).
`;
  const made = await api('/api/sessions', { game: bad, config: { seed: 1, timeout: 'wait' } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const s = await participant(made.body.seats[0].link);
  await s.page.click('#join');
  await s.page.waitForSelector('button.action');
  assert.equal(await s.page.textContent('#about'), '<img src=x onerror="window.pwned = 1">');
  assert.deepEqual(await s.page.locator('#view li').allTextContents(), ['[go]'], 'a throwing label: the raw term');
  assert.equal(await s.page.textContent('button.action'), '<script>window.pwned = 2</script>stop');
  await s.page.click('button.action');
  await s.page.waitForSelector('#end:not([hidden])');
  assert.equal(await s.page.textContent('#result'), '<b>over</b>');
  assert.equal(await s.page.locator('main img, main script, main b').count(), 0);
  assert.equal(await s.page.evaluate(() => window.pwned), undefined);
  await shot(s, 'markup');
  assert.deepEqual(s.errors, []);
});

await check("the experimenter's input from the monitor page: a participant waits for it, then plays", async () => {
  const announce = readFileSync(join(root, 'server', 'tests', 'it', 'monitor', 'announce.sidl'), 'utf8');
  const made = await api('/api/sessions', { game: announce, config: { seed: 1, timeout: 'wait' } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const p = made.body.seats.find((x) => x.player === '[p1]');
  assert.equal(made.body.seats.find((x) => x.player === '[experimenter]').link, null);
  const seat = await participant(p.link);
  await seat.page.click('#join');
  await seat.page.waitForSelector('#conn:text("connected")');
  await seat.page.waitForSelector('#waiting:text("experimenter")');
  const context = await browser.newContext();
  const mon = await context.newPage();
  await mon.goto(`${base}/admin/monitor#token=${token}&session=${made.body.id}`);
  const high = mon.locator('#experimenter button.action[data-action="[experimenter,high]"]');
  await high.waitFor();
  await mon.screenshot({ path: join(artifacts, 'serve-monitor-experimenter.png'), fullPage: true });
  await high.click();
  await action(seat, '[p1,accept]').click();
  await seat.page.waitForSelector('#end:not([hidden])');
  assert.equal(await seat.page.textContent('#payoff'), '5');
  const rows = await (await fetch(`${base}/api/sessions/${made.body.id}/export/events.jsonl`, { headers: { authorization: `Bearer ${token}` } })).text();
  assert.match(rows, /"source":"experimenter"/);
  assert.deepEqual(seat.errors, []);
  await context.close();
});

await check('a forged link opens nothing', async () => {
  const r = await fetch(`${base}/p/${'0'.repeat(64)}`);
  assert.equal(r.status, 404);
});

await browser.close();
done({ exit: true });
