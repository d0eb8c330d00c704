// Finding the sidl-lsp language server: the setting `sidl.server.path`, then the server bundled in
// the extension (`server/sidl-lsp`), then `sidl-lsp` on PATH. Every candidate must answer
// `--version` with a line starting with `sidl-lsp `.
//
// Pure: the file system and process calls are injected (`ResolveHost`), so this module is tested
// with node's test runner without VS Code (test/unit/resolve.test.mjs). `nodeHost()` gives the real
// ones.

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The name of the setting, for messages. */
export const SETTING = 'sidl.server.path';

/** What `--version` must print first. */
export const VERSION_PREFIX = 'sidl-lsp ';

export type Source = 'setting' | 'bundled' | 'PATH';

/** The outcome of running a candidate with `--version`. */
export type RunResult =
  | { kind: 'ok'; stdout: string }
  /** The process could not be started or exited with an error (message says which). */
  | { kind: 'error'; message: string };

export interface ResolveHost {
  /** Whether `p` is an existing regular file (following symlinks). */
  isFile(p: string): Promise<boolean>;
  /** Runs `p --version` with a time limit. */
  version(p: string): Promise<RunResult>;
}

export interface ResolveInput {
  /** The value of `sidl.server.path` (may be empty or undefined). */
  setting: string | undefined;
  /** The extension's install folder (holds `server/`). */
  extensionPath: string;
  /** `process.platform`. */
  platform: NodeJS.Platform | string;
  /** The PATH environment variable. */
  pathEnv: string | undefined;
  /** PATHEXT on Windows (e.g. `.COM;.EXE;.BAT`); ignored elsewhere. */
  pathExt?: string;
  /** The home directory, for a leading `~` in the setting. */
  home?: string;
  /** The first workspace folder, for a relative setting (none in an untrusted workspace). */
  workspaceFolder?: string;
}

/** One candidate that was tried and why it was rejected. */
export interface Attempt {
  source: Source;
  /** The path tried, or a description when there was nothing to try. */
  path: string;
  problem: string;
}

export type Resolution =
  | {
      ok: true;
      path: string;
      source: Source;
      /** The first line of `--version`, e.g. `sidl-lsp 0.1.0`. */
      version: string;
      /** Candidates tried before this one (e.g. a broken setting): worth a warning. */
      rejected: Attempt[];
    }
  | { ok: false; message: string; tried: Attempt[] };

function pathModule(platform: string): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** The bundled server's path inside the extension. */
export function bundledServerPath(extensionPath: string, platform: string): string {
  const p = pathModule(platform);
  return p.join(extensionPath, 'server', platform === 'win32' ? 'sidl-lsp.exe' : 'sidl-lsp');
}

/** The setting's value as an absolute path: `~` expanded, relative paths from the workspace folder. */
export function expandSetting(value: string, input: ResolveInput): string {
  const p = pathModule(input.platform);
  let v = value.trim();
  if (input.home && (v === '~' || v.startsWith('~/') || (input.platform === 'win32' && v.startsWith('~\\')))) {
    v = p.join(input.home, v.slice(1));
  }
  if (!p.isAbsolute(v) && input.workspaceFolder) {
    v = p.join(input.workspaceFolder, v);
  }
  return v;
}

/** The places `sidl-lsp` may be on PATH, in PATH order. */
export function pathCandidates(input: ResolveInput): string[] {
  const win = input.platform === 'win32';
  const p = pathModule(input.platform);
  const dirs = (input.pathEnv ?? '').split(win ? ';' : ':').filter((d) => d.trim() !== '');
  const exts = win
    ? (input.pathExt && input.pathExt.trim() !== '' ? input.pathExt : '.COM;.EXE;.BAT;.CMD')
        .split(';')
        .filter((e) => e !== '')
        .map((e) => e.toLowerCase())
    : [''];
  const out: string[] = [];
  for (const dir of dirs) {
    for (const ext of exts) {
      const c = p.join(dir.trim().replace(/^"(.*)"$/, '$1'), 'sidl-lsp' + ext);
      if (!out.includes(c)) {
        out.push(c);
      }
    }
  }
  return out;
}

/** Checks that `candidate` is a file that answers `--version` like sidl-lsp; the problem if not. */
async function check(
  host: ResolveHost,
  candidate: string,
): Promise<{ version: string } | { problem: string }> {
  if (!(await host.isFile(candidate))) {
    return { problem: 'no such file' };
  }
  const r = await host.version(candidate);
  if (r.kind === 'error') {
    return { problem: `\`--version\` failed: ${r.message}` };
  }
  const first = r.stdout.trim().split(/\r?\n/)[0] ?? '';
  if (!first.startsWith(VERSION_PREFIX)) {
    const shown = first.length > 60 ? first.slice(0, 60) + '…' : first;
    return {
      problem: `\`--version\` printed ${shown === '' ? 'nothing' : JSON.stringify(shown)}, not "${VERSION_PREFIX}<version>" (not the SIDL language server)`,
    };
  }
  return { version: first };
}

/** Finds a working server: the setting, then the bundled server, then PATH. */
export async function resolveServer(input: ResolveInput, host: ResolveHost): Promise<Resolution> {
  const tried: Attempt[] = [];
  const accept = (source: Source, p: string, version: string): Resolution => ({
    ok: true,
    path: p,
    source,
    version,
    rejected: [...tried],
  });

  const setting = input.setting?.trim() ?? '';
  if (setting !== '') {
    const p = expandSetting(setting, input);
    if (!pathModule(input.platform).isAbsolute(p)) {
      // Never a program from wherever the extension host happens to run.
      tried.push({
        source: 'setting',
        path: p,
        problem: 'a relative path is taken from the first workspace folder, and there is none (or the workspace is not trusted)',
      });
    } else {
      const r = await check(host, p);
      if ('version' in r) {
        return accept('setting', p, r.version);
      }
      tried.push({ source: 'setting', path: p, problem: r.problem });
    }
  } else {
    tried.push({ source: 'setting', path: SETTING, problem: 'not set' });
  }

  const bundled = bundledServerPath(input.extensionPath, input.platform);
  const b = await check(host, bundled);
  if ('version' in b) {
    return accept('bundled', bundled, b.version);
  }
  tried.push({ source: 'bundled', path: bundled, problem: b.problem });

  let onPath = 0;
  for (const c of pathCandidates(input)) {
    if (!(await host.isFile(c))) {
      continue;
    }
    onPath += 1;
    const r = await check(host, c);
    if ('version' in r) {
      return accept('PATH', c, r.version);
    }
    tried.push({ source: 'PATH', path: c, problem: r.problem });
  }
  if (onPath === 0) {
    tried.push({ source: 'PATH', path: 'sidl-lsp', problem: 'not found on PATH' });
  }

  return { ok: false, message: failureMessage(tried), tried };
}

function describe(a: Attempt): string {
  switch (a.source) {
    case 'setting':
      return a.problem === 'not set' ? `setting \`${SETTING}\`: not set` : `setting \`${SETTING}\` (${a.path}): ${a.problem}`;
    case 'bundled':
      return `bundled server (${a.path}): ${a.problem}`;
    case 'PATH':
      return a.path === 'sidl-lsp' ? `PATH: ${a.problem}` : `PATH (${a.path}): ${a.problem}`;
  }
}

/** The error message when no server works: what was tried, and the setting to fix it. */
export function failureMessage(tried: Attempt[]): string {
  return (
    'SIDL: no working language server (sidl-lsp) found. Tried: ' +
    tried.map(describe).join('; ') +
    `. Set \`${SETTING}\` to the sidl-lsp binary (build it with \`cargo build --release -p sidl-lsp\`).`
  );
}

/** A warning for candidates that were rejected before the one in use (e.g. a broken setting). */
export function rejectionWarning(r: Resolution): string | undefined {
  if (!r.ok) {
    return undefined;
  }
  const broken = r.rejected.filter((a) => a.source === 'setting' && a.problem !== 'not set');
  if (broken.length === 0) {
    return undefined;
  }
  return `SIDL: ${broken.map(describe).join('; ')}. Using the ${r.source === 'PATH' ? 'server on PATH' : 'bundled server'} (${r.path}) instead.`;
}

/** The real host: node's file system and child processes. */
export function nodeHost(timeoutMs = 5000): ResolveHost {
  return {
    async isFile(p: string): Promise<boolean> {
      try {
        return (await fs.stat(p)).isFile();
      } catch {
        return false;
      }
    },
    version(p: string): Promise<RunResult> {
      return new Promise((resolve) => {
        execFile(
          p,
          ['--version'],
          { timeout: timeoutMs, windowsHide: true, maxBuffer: 64 * 1024 },
          (error, stdout, stderr) => {
            if (error) {
              const detail = String(stderr ?? '').trim().split(/\r?\n/)[0];
              const why = (error as NodeJS.ErrnoException & { killed?: boolean }).killed
                ? `no answer within ${timeoutMs} ms`
                : error.message.split(/\r?\n/)[0];
              resolve({ kind: 'error', message: detail ? `${why} (${detail})` : why });
            } else {
              resolve({ kind: 'ok', stdout: String(stdout) });
            }
          },
        );
      });
    },
  };
}

/** The resolve input from the process environment (VS Code fills in setting and folders). */
export function processInput(
  setting: string | undefined,
  extensionPath: string,
  workspaceFolder: string | undefined,
): ResolveInput {
  return {
    setting,
    extensionPath,
    platform: process.platform,
    pathEnv: process.env.PATH ?? process.env.Path,
    pathExt: process.env.PATHEXT,
    home: os.homedir(),
    workspaceFolder,
  };
}
