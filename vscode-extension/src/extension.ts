// The VS Code side of SIDL: starts the sidl-lsp language server (found by resolve.ts) with
// vscode-languageclient and adds the commands "SIDL: Check hidden-information consistency" and
// "SIDL: Solve the game (equilibrium)".
// Everything that can be tested without VS Code lives in resolve.ts and report.ts.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DocumentSymbol,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressReport,
} from 'vscode-languageclient/node';
import {
  bundledServerPath,
  nodeHost,
  processInput,
  rejectionWarning,
  resolveServer,
  SETTING,
} from './resolve';
import {
  CHECK_METHOD,
  checkParams,
  hiddenInformationReport,
  parseCheckResult,
  PredicateSymbol,
  summary,
} from './report';
import { OPEN_LOCATION, openLocation, ReportView } from './reportView';
import { parseSolveResult, SOLVE_METHOD, SOLVE_REPORT_KIND, solveParams, solveReport, solveSummary } from './solveReport';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let traceOutput: vscode.OutputChannel;
/** Why there is no client (shown by the commands), if the last start failed. */
let startError: string | undefined;
let extensionPath = '';
let progressCounter = 0;
let reports: ReportView;

/** The commands this extension contributes (package.json `contributes.commands`). */
const OWN_COMMANDS = new Set(['sidl.checkHiddenInformation', 'sidl.solve', 'sidl.restartServer', 'sidl.openReportLocation']);

/**
 * The server may offer `workspace/executeCommand` commands under ids this extension contributes
 * itself (sidl-lsp offers `sidl.checkHiddenInformation`, which our command of the same id calls as
 * the custom request, with progress and a report). VS Code refuses a second registration of an id,
 * which would make the client fail to start: the client registers only the others.
 */
function leaveOwnCommandsToUs(c: LanguageClient): void {
  const feature = c.getFeature(ExecuteCommandRequest.method);
  const register = feature.register.bind(feature);
  feature.register = (data) =>
    register({
      ...data,
      registerOptions: {
        ...data.registerOptions,
        commands: (data.registerOptions.commands ?? []).filter((id) => !OWN_COMMANDS.has(id)),
      },
    });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel('SIDL Language Server');
  traceOutput = vscode.window.createOutputChannel('SIDL Language Server Trace');
  reports = new ReportView(context.workspaceState);
  context.subscriptions.push(
    output,
    traceOutput,
    reports.register(),
    vscode.commands.registerCommand('sidl.checkHiddenInformation', checkHiddenInformation),
    vscode.commands.registerCommand('sidl.solve', solveGame),
    vscode.commands.registerCommand('sidl.restartServer', restart),
    vscode.commands.registerCommand(OPEN_LOCATION, openLocation),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTING)) {
        void restart();
      }
    }),
    // Trusting the workspace may bring in its sidl.server.path.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

/** A .vsix unpacked without file modes leaves the bundled server not executable: fix that. */
async function ensureBundledExecutable(): Promise<void> {
  if (process.platform === 'win32') {
    return;
  }
  const bundled = bundledServerPath(extensionPath, process.platform);
  try {
    const st = await fs.stat(bundled);
    if (st.isFile() && (st.mode & 0o111) === 0) {
      await fs.chmod(bundled, st.mode | 0o755);
    }
  } catch {
    // No bundled server (or not ours to change): resolution reports it.
  }
}

async function start(): Promise<void> {
  await ensureBundledExecutable();
  // In Restricted Mode VS Code leaves out the workspace's value of sidl.server.path
  // (package.json: capabilities.untrustedWorkspaces.restrictedConfigurations), and a relative path
  // is not taken from the untrusted folder either.
  const setting = vscode.workspace.getConfiguration('sidl').get<string>('server.path');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const trusted = vscode.workspace.isTrusted !== false;
  const resolution = await resolveServer(processInput(setting, extensionPath, trusted ? folder : undefined), nodeHost());
  if (!resolution.ok) {
    startError = resolution.message;
    output.appendLine(resolution.message);
    void showStartError(resolution.message);
    return;
  }
  startError = undefined;
  output.appendLine(`Using ${resolution.version} (${resolution.source}): ${resolution.path}`);
  const warning = rejectionWarning(resolution);
  if (warning !== undefined) {
    output.appendLine(warning);
    void vscode.window.showWarningMessage(warning);
  }

  const serverOptions: ServerOptions = {
    command: resolution.path,
    args: [],
    transport: TransportKind.stdio,
    options: { cwd: folder ?? path.dirname(resolution.path) },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'sidl' },
      { scheme: 'untitled', language: 'sidl' },
    ],
    outputChannel: output,
    traceOutputChannel: traceOutput,
    synchronize: { configurationSection: 'sidl' },
  };
  // The id `sidl` makes the client read `sidl.trace.server` (and follow its changes).
  client = new LanguageClient('sidl', 'SIDL Language Server', serverOptions, clientOptions);
  leaveOwnCommandsToUs(client);
  try {
    await client.start();
  } catch (e) {
    startError = `SIDL: the language server ${resolution.path} failed to start: ${String(e)}`;
    output.appendLine(startError);
    void showStartError(startError);
    client = undefined;
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    try {
      await c.stop();
    } catch (e) {
      output.appendLine(`Stopping the language server failed: ${String(e)}`);
    }
  }
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

async function showStartError(message: string): Promise<void> {
  const open = 'Open Settings';
  const choice = await vscode.window.showErrorMessage(message, open);
  if (choice === open) {
    await vscode.commands.executeCommand('workbench.action.openSettings', SETTING);
  }
}

/** What `longRequest` sends and how it speaks of it. */
interface LongRequest<T> {
  /** Names the work-done progress token (`sidl-KIND-PID-N`). */
  kind: string;
  title: string;
  method: string;
  params: (token: string) => object;
  parse: (value: unknown) => T | { error: string };
  /** Shown when the user cancels. */
  cancelled: string;
  /** Prefixes the server's error. */
  failed: string;
}

/**
 * Sends a long request (`sidl/checkHiddenInformation`, `sidl/solve`) in a cancellable notification
 * that shows the server's work-done progress, and says itself what went wrong: cancelled, the
 * server's error, or an answer of the wrong shape (then undefined).
 */
async function longRequest<T extends object>(c: LanguageClient, r: LongRequest<T>): Promise<T | undefined> {
  const token = `sidl-${r.kind}-${process.pid}-${++progressCounter}`;
  const raw = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: r.title, cancellable: true },
    async (progress, cancel) => {
      // The server reports work-done progress on our token; forward it to the notification.
      let lastPercent = 0;
      const forward = c.onProgress(WorkDoneProgress.type, token, (value) => {
        if (value.kind === 'end') {
          return;
        }
        const v = value as WorkDoneProgressBegin | WorkDoneProgressReport;
        const step: { message?: string; increment?: number } = {};
        if (v.message !== undefined) {
          step.message = v.message;
        }
        if (typeof v.percentage === 'number' && v.percentage > lastPercent) {
          step.increment = v.percentage - lastPercent;
          lastPercent = v.percentage;
        }
        progress.report(step);
      });
      try {
        const value: unknown = await c.sendRequest(r.method, r.params(token), cancel);
        // On Cancel the client sends $/cancelRequest and resolves with no value.
        return cancel.isCancellationRequested ? { cancelled: true as const } : { value };
      } catch (e) {
        // The server cancelled the request itself (e.g. the document changed): vscode.CancellationError.
        if (cancel.isCancellationRequested || e instanceof vscode.CancellationError) {
          return { cancelled: true as const };
        }
        return { error: e };
      } finally {
        forward.dispose();
      }
    },
  );
  if ('cancelled' in raw) {
    void vscode.window.showInformationMessage(r.cancelled);
    return undefined;
  }
  if ('error' in raw) {
    const e = raw.error as { message?: string } | undefined;
    const message = `${r.failed}: ${e?.message ?? String(raw.error)}`;
    output.appendLine(message);
    void vscode.window.showErrorMessage(message);
    return undefined;
  }
  const result = r.parse(raw.value);
  if ('error' in result) {
    const message = `SIDL: unexpected answer to ${r.method}: ${result.error}`;
    output.appendLine(message);
    void vscode.window.showErrorMessage(message);
    return undefined;
  }
  return result;
}

/** The active editor's game and the running client, or undefined (and the user told why). */
function activeGame(verb: string): { c: LanguageClient; document: vscode.TextDocument } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'sidl') {
    void vscode.window.showWarningMessage(`SIDL: open a .sidl game in the editor to ${verb} it.`);
    return undefined;
  }
  const c = client;
  if (c === undefined || c.state !== State.Running) {
    void showStartError(startError ?? 'SIDL: the language server is not running.');
    return undefined;
  }
  return { c, document: editor.document };
}

/** "SIDL: Check hidden-information consistency" for the active editor's game. */
async function checkHiddenInformation(): Promise<void> {
  const game = activeGame('check');
  if (game === undefined) {
    return;
  }
  const { c, document } = game;
  const maxStates = vscode.workspace.getConfiguration('sidl').get<number | null>('checkHiddenInformation.maxStates');
  const name = path.basename(document.uri.fsPath || document.uri.path);
  const result = await longRequest(c, {
    kind: 'check',
    title: `SIDL: checking hidden information of ${name}`,
    method: CHECK_METHOD,
    params: (token) => checkParams(document.uri.toString(), maxStates, token),
    parse: parseCheckResult,
    cancelled: 'SIDL: hidden-information check cancelled.',
    failed: 'SIDL: the hidden-information check failed',
  });
  if (result === undefined) {
    return;
  }
  const s = summary(result);
  output.appendLine(s.text);
  output.appendLine(`  ${name}: ${result.message}`);
  for (const e of result.errors ?? []) {
    output.appendLine(`  runtime error: ${e}`);
  }
  // The report replaces the game's previous one (a view of it that is open shows the new one).
  const predicates = result.counterexample === null ? [] : await predicatesOf(c, document.uri);
  const report = hiddenInformationReport(vscode.workspace.asRelativePath(document.uri), result, predicates);
  await reports.update(document.uri, report);
  if (result.counterexample === null) {
    if (s.level === 'info') {
      void vscode.window.showInformationMessage(s.text);
    } else {
      void vscode.window.showWarningMessage(s.text);
    }
    return;
  }
  output.appendLine(report.text);
  await reports.show(document.uri);
  const show = 'Show Output';
  const choice = await vscode.window.showWarningMessage(s.text, show);
  if (choice === show) {
    output.show(true);
  }
}

/** "SIDL: Solve the game (equilibrium)": `sidl/solve` on the active game, the report beside it. */
async function solveGame(): Promise<void> {
  const game = activeGame('solve');
  if (game === undefined) {
    return;
  }
  const { c, document } = game;
  const name = path.basename(document.uri.fsPath || document.uri.path);
  const result = await longRequest(c, {
    kind: 'solve',
    title: `SIDL: solving ${name}`,
    method: SOLVE_METHOD,
    params: (token) => solveParams(document.uri.toString(), token),
    parse: parseSolveResult,
    cancelled: 'SIDL: solve cancelled.',
    failed: 'SIDL: the game cannot be solved',
  });
  if (result === undefined) {
    return;
  }
  const file = vscode.workspace.asRelativePath(document.uri);
  await reports.update(document.uri, solveReport(file, result), SOLVE_REPORT_KIND);
  await reports.show(document.uri, SOLVE_REPORT_KIND);
  const summaryText = solveSummary(name, result);
  output.appendLine(summaryText);
  void vscode.window.showInformationMessage(summaryText);
}

/** The game's predicates and their clauses, from the server's document symbols (none if it fails). */
async function predicatesOf(c: LanguageClient, uri: vscode.Uri): Promise<PredicateSymbol[]> {
  try {
    const symbols = await c.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri.toString() } });
    return (symbols ?? [])
      .filter((x): x is DocumentSymbol => 'selectionRange' in x)
      .map((p) => ({
        name: p.name,
        clauses: (p.children ?? []).map((cl) => ({
          text: cl.name,
          line: cl.selectionRange.start.line,
          character: cl.selectionRange.start.character,
        })),
      }));
  } catch (e) {
    output.appendLine(`The game's symbols are not available for the report: ${String(e)}`);
    return [];
  }
}
