// Unit tests of src/resolve.ts (compiled to out/ by `tsc -p .`): the order setting → bundled → PATH,
// the `--version` check, and the messages. A fake host stands for the file system and processes;
// the last tests run real executables through nodeHost().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const r = require('../../out/resolve.js');

/** A fake host: `files` maps a path to what `--version` does (a stdout string or an Error). */
function fakeHost(files) {
  const ran = [];
  return {
    ran,
    async isFile(p) {
      return Object.hasOwn(files, p);
    },
    async version(p) {
      ran.push(p);
      const v = files[p];
      return v instanceof Error ? { kind: 'error', message: v.message } : { kind: 'ok', stdout: v };
    },
  };
}

const base = {
  setting: '',
  extensionPath: '/ext',
  platform: 'linux',
  pathEnv: '/usr/local/bin:/usr/bin',
  home: '/home/me',
  workspaceFolder: '/work/game',
};

test('the setting wins when it works', async () => {
  const host = fakeHost({
    '/opt/sidl-lsp': 'sidl-lsp 0.2.0\n',
    '/ext/server/sidl-lsp': 'sidl-lsp 0.1.0\n',
  });
  const res = await r.resolveServer({ ...base, setting: '/opt/sidl-lsp' }, host);
  assert.equal(res.ok, true);
  assert.equal(res.source, 'setting');
  assert.equal(res.path, '/opt/sidl-lsp');
  assert.equal(res.version, 'sidl-lsp 0.2.0');
  assert.deepEqual(host.ran, ['/opt/sidl-lsp']);
  assert.equal(r.rejectionWarning(res), undefined);
});

test('an unset setting falls through to the bundled server', async () => {
  const host = fakeHost({ '/ext/server/sidl-lsp': 'sidl-lsp 0.1.0', '/usr/bin/sidl-lsp': 'sidl-lsp 0.0.9' });
  const res = await r.resolveServer({ ...base, setting: undefined }, host);
  assert.equal(res.ok, true);
  assert.equal(res.source, 'bundled');
  assert.equal(res.path, '/ext/server/sidl-lsp');
  assert.equal(r.rejectionWarning(res), undefined, 'an unset setting is no reason to warn');
});

test('a broken setting falls through to the bundled server, with a warning naming the setting', async () => {
  const host = fakeHost({ '/ext/server/sidl-lsp': 'sidl-lsp 0.1.0' });
  const res = await r.resolveServer({ ...base, setting: '/nowhere/sidl-lsp' }, host);
  assert.equal(res.ok, true);
  assert.equal(res.source, 'bundled');
  const w = r.rejectionWarning(res);
  assert.match(w, /sidl\.server\.path/);
  assert.match(w, /\/nowhere\/sidl-lsp/);
  assert.match(w, /no such file/);
});

test('PATH is searched in order when nothing else works; a wrong binary on PATH is skipped', async () => {
  const host = fakeHost({
    '/usr/local/bin/sidl-lsp': 'something else 1.0',
    '/usr/bin/sidl-lsp': 'sidl-lsp 0.3.0',
  });
  const res = await r.resolveServer(base, host);
  assert.equal(res.ok, true);
  assert.equal(res.source, 'PATH');
  assert.equal(res.path, '/usr/bin/sidl-lsp');
  assert.deepEqual(host.ran, ['/usr/local/bin/sidl-lsp', '/usr/bin/sidl-lsp']);
  assert.equal(res.rejected.at(-1).problem.includes('not the SIDL language server'), true);
});

test('nothing works: the message names the setting and every candidate tried', async () => {
  const host = fakeHost({
    '/work/game/bin/lsp': new Error('spawn EACCES'),
    '/usr/bin/sidl-lsp': '',
  });
  const res = await r.resolveServer({ ...base, setting: 'bin/lsp' }, host);
  assert.equal(res.ok, false);
  assert.deepEqual(
    res.tried.map((a) => [a.source, a.path]),
    [
      ['setting', '/work/game/bin/lsp'],
      ['bundled', '/ext/server/sidl-lsp'],
      ['PATH', '/usr/bin/sidl-lsp'],
    ],
  );
  assert.match(res.message, /`sidl\.server\.path`/);
  assert.match(res.message, /spawn EACCES/);
  assert.match(res.message, /\/ext\/server\/sidl-lsp\): no such file/);
  assert.match(res.message, /printed nothing/);
});

test('nothing at all: the message says the setting is not set and sidl-lsp is not on PATH', async () => {
  const res = await r.resolveServer({ ...base, pathEnv: undefined }, fakeHost({}));
  assert.equal(res.ok, false);
  assert.match(res.message, /setting `sidl\.server\.path`: not set/);
  assert.match(res.message, /PATH: not found on PATH/);
});

test('the setting expands ~ and is relative to the workspace folder', () => {
  assert.equal(r.expandSetting('~/bin/sidl-lsp', base), '/home/me/bin/sidl-lsp');
  assert.equal(r.expandSetting(' target/debug/sidl-lsp ', base), '/work/game/target/debug/sidl-lsp');
  assert.equal(r.expandSetting('/abs/sidl-lsp', base), '/abs/sidl-lsp');
});

test('a relative setting without a (trusted) workspace folder is not tried', async () => {
  const host = fakeHost({ 'bin/sidl-lsp': 'sidl-lsp 6.6.6', '/ext/server/sidl-lsp': 'sidl-lsp 0.1.0' });
  const res = await r.resolveServer({ ...base, setting: 'bin/sidl-lsp', workspaceFolder: undefined }, host);
  assert.equal(res.ok, true);
  assert.equal(res.source, 'bundled');
  assert.deepEqual(host.ran, ['/ext/server/sidl-lsp']);
  assert.match(r.rejectionWarning(res), /bin\/sidl-lsp.*a relative path is taken from the first workspace folder, and there is none \(or the workspace is not trusted\)/);
});

test('Windows: bundled .exe, PATH with ; and PATHEXT', async () => {
  const win = {
    ...base,
    platform: 'win32',
    extensionPath: 'C:\\ext',
    pathEnv: 'C:\\tools;"C:\\Program Files\\sidl"',
    pathExt: '.EXE;.CMD',
  };
  assert.equal(r.bundledServerPath('C:\\ext', 'win32'), 'C:\\ext\\server\\sidl-lsp.exe');
  assert.deepEqual(r.pathCandidates(win), [
    'C:\\tools\\sidl-lsp.exe',
    'C:\\tools\\sidl-lsp.cmd',
    'C:\\Program Files\\sidl\\sidl-lsp.exe',
    'C:\\Program Files\\sidl\\sidl-lsp.cmd',
  ]);
  const res = await r.resolveServer(win, fakeHost({ 'C:\\Program Files\\sidl\\sidl-lsp.exe': 'sidl-lsp 1.0.0\r\n' }));
  assert.equal(res.ok, true);
  assert.equal(res.path, 'C:\\Program Files\\sidl\\sidl-lsp.exe');
  assert.equal(res.version, 'sidl-lsp 1.0.0');
});

// POSIX shell scripts stand in for the executables (the extension's tests run on Linux in CI).
test('nodeHost runs real executables: version, wrong output, failure, missing file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sidl-resolve-'));
  try {
    const script = (name, body) => {
      const p = join(dir, name);
      writeFileSync(p, `#!/bin/sh\n${body}\n`);
      chmodSync(p, 0o755);
      return p;
    };
    const good = script('good', 'echo "sidl-lsp 9.9.9"');
    const other = script('other', 'echo "other 1.0"');
    const fails = script('fails', 'echo "boom" >&2; exit 3');
    const host = r.nodeHost(5000);
    assert.deepEqual(await host.version(good), { kind: 'ok', stdout: 'sidl-lsp 9.9.9\n' });
    assert.equal(await host.isFile(good), true);
    assert.equal(await host.isFile(dir), false, 'a directory is no server');
    assert.equal(await host.isFile(join(dir, 'missing')), false);
    const failed = await host.version(fails);
    assert.equal(failed.kind, 'error');
    assert.match(failed.message, /boom/);

    const res = await r.resolveServer({ ...base, setting: other, extensionPath: dir, pathEnv: dir }, host);
    assert.equal(res.ok, false, 'no candidate is named sidl-lsp except via the setting');
    assert.match(res.message, /"other 1\.0"/);
    const ok = await r.resolveServer({ ...base, setting: good, extensionPath: dir, pathEnv: '' }, host);
    assert.equal(ok.ok, true);
    assert.equal(ok.version, 'sidl-lsp 9.9.9');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
