// The reports of "SIDL: Check hidden-information consistency" and "SIDL: Solve the game
// (equilibrium)": one read-only document per game and kind,
// under the scheme `sidl-report` (a read-only FileSystemProvider, so that VS Code restores a report
// tab after a reload: it starts the extension for the scheme, `onFileSystem:sidl-report`, which a
// TextDocumentContentProvider would not get), replaced on the next run of the check on that game
// (onDidChangeFile), with its locations as links into the game (a DocumentLinkProvider whose links
// run the command sidl.openReportLocation). The reports are kept in the workspace state. The text
// and the links come from report.ts.

import * as vscode from 'vscode';
import { Report, REPORT_SCHEME, reportPath } from './report';

interface Stored {
  /** The game's URI. */
  game: string;
  report: Report;
  /** When it was made (ms since the epoch): the file's mtime. */
  time?: number;
}

const STATE_KEY = 'sidl.hiddenInformationReports';
/** The most reports kept in the workspace state (the oldest go first). */
const KEEP = 50;

const NO_REPORT =
  'No report: run "SIDL: Check hidden-information consistency" on the game again (command palette, with the game in the editor).\n';

export class ReportView implements vscode.FileSystemProvider, vscode.DocumentLinkProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly reports = new Map<string, Stored>();
  private readonly encoder = new TextEncoder();

  constructor(private readonly memento: vscode.Memento | undefined) {
    const saved = memento?.get<Record<string, Stored>>(STATE_KEY) ?? {};
    for (const [uri, stored] of Object.entries(saved)) {
      this.reports.set(uri, stored);
    }
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      this.changed,
      vscode.workspace.registerFileSystemProvider(REPORT_SCHEME, this, { isReadonly: true, isCaseSensitive: true }),
      vscode.languages.registerDocumentLinkProvider({ scheme: REPORT_SCHEME }, this),
    );
  }

  /** The URI of the report of `game` of kind `kind` (reportPath). */
  static uriFor(game: vscode.Uri, kind?: string): vscode.Uri {
    return vscode.Uri.from({ scheme: REPORT_SCHEME, path: reportPath(game.path, kind) });
  }

  /** Stores `report` as the report of `game` (an open view shows it at once). */
  async update(game: vscode.Uri, report: Report, kind?: string): Promise<vscode.Uri> {
    const uri = ReportView.uriFor(game, kind);
    this.reports.delete(uri.toString());
    this.reports.set(uri.toString(), { game: game.toString(), report, time: Date.now() });
    for (const old of [...this.reports.keys()].slice(0, Math.max(0, this.reports.size - KEEP))) {
      this.reports.delete(old);
    }
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    if (this.memento !== undefined) {
      await this.memento.update(STATE_KEY, Object.fromEntries(this.reports));
    }
    return uri;
  }

  /** Shows the report of `game`: its open tab if there is one, else a new tab beside the game. */
  async show(game: vscode.Uri, kind?: string): Promise<vscode.TextEditor> {
    const uri = ReportView.uriFor(game, kind);
    let column: vscode.ViewColumn = vscode.ViewColumn.Beside;
    for (const g of vscode.window.tabGroups.all) {
      if (g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString())) {
        column = g.viewColumn;
      }
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { viewColumn: column, preview: false, preserveFocus: true });
  }

  /** The text of the report at `uri` (a note when there is none). */
  text(uri: vscode.Uri): string {
    return this.reports.get(uri.toString())?.report.text ?? NO_REPORT;
  }

  // --- vscode.FileSystemProvider: one read-only file per report, no folders ---------------------------
  stat(uri: vscode.Uri): vscode.FileStat {
    const time = this.reports.get(uri.toString())?.time ?? 0;
    return {
      type: vscode.FileType.File,
      ctime: time,
      mtime: time,
      size: this.encoder.encode(this.text(uri)).byteLength,
      permissions: vscode.FilePermission?.Readonly,
    };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.encoder.encode(this.text(uri));
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const stored = this.reports.get(document.uri.toString());
    if (stored === undefined) {
      return [];
    }
    return stored.report.links.map((l) => {
      const args = [stored.game, l.target.line, l.target.character];
      const link = new vscode.DocumentLink(
        new vscode.Range(l.line, l.start, l.line, l.end),
        vscode.Uri.parse(`command:${OPEN_LOCATION}?${encodeURIComponent(JSON.stringify(args))}`),
      );
      link.tooltip = l.tooltip;
      return link;
    });
  }
}

/**
 * The command behind the report's links (not in the command palette): opens the game at a
 * location, in the editor group where the game already is (the report stays beside it), else in
 * the first group.
 */
export const OPEN_LOCATION = 'sidl.openReportLocation';

export async function openLocation(game: string, line: number, character: number): Promise<void> {
  const uri = vscode.Uri.parse(game);
  let column: vscode.ViewColumn = vscode.ViewColumn.One;
  for (const g of vscode.window.tabGroups.all) {
    if (g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString())) {
      column = g.viewColumn;
      break;
    }
  }
  const at = new vscode.Position(line, character);
  const editor = await vscode.window.showTextDocument(uri, { viewColumn: column, selection: new vscode.Range(at, at), preview: false });
  editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
