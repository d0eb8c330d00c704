// A stand-in for the `vscode` module, enough for dist/extension.js and vscode-languageclient to run
// in plain node (VS Code itself cannot be downloaded here). It records what the extension shows
// (messages, progress, documents, output channels, diagnostics) in `stub.state`, and lets a test
// open documents and run commands. Members it does not define are inert: functions that return a
// disposable, events that never fire, and classes that keep their constructor arguments.
'use strict';

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const f = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.add(f);
      const d = { dispose: () => this.listeners.delete(f) };
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }
  fire(e) {
    for (const l of [...this.listeners]) l(e);
  }
  dispose() {
    this.listeners.clear();
  }
}

class Disposable {
  constructor(f) {
    this.f = f;
  }
  static from(...ds) {
    return new Disposable(() => ds.forEach((d) => d && d.dispose && d.dispose()));
  }
  dispose() {
    if (this.f) this.f();
    this.f = undefined;
  }
}

class Uri {
  constructor(scheme, authority, path, query, fragment) {
    Object.assign(this, { scheme, authority, path, query, fragment });
  }
  static parse(s) {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(s);
    if (!m) return new Uri('file', '', s, '', '');
    return new Uri(m[1], m[2] ?? '', decodeURIComponent(m[3]), m[4] ?? '', m[5] ?? '');
  }
  static file(p) {
    return new Uri('file', '', p, '', '');
  }
  static from(c) {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  get fsPath() {
    return this.path;
  }
  with(change) {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString() {
    const path = this.path.split('/').map(encodeURIComponent).join('/');
    const fragment = this.fragment ? '#' + encodeURIComponent(this.fragment) : '';
    return `${this.scheme}://${this.authority}${path}${this.query ? '?' + this.query : ''}${fragment}`;
  }
  toJSON() {
    return this.toString();
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
  }
}

class Diagnostic {
  constructor(range, message, severity) {
    Object.assign(this, { range, message, severity });
  }
}

class DocumentLink {
  constructor(range, target) {
    Object.assign(this, { range, target });
  }
}

class TabInputText {
  constructor(uri) {
    this.uri = uri;
  }
}

class FileSystemError extends Error {
  static NoPermissions(uri) {
    const e = new FileSystemError(`NoPermissions: ${uri}`);
    e.code = 'NoPermissions';
    return e;
  }
}

class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this.emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }
  cancel() {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this.emitter.fire(undefined);
    }
  }
  dispose() {}
}

const state = {
  config: {},
  messages: [],
  progress: [],
  progressOptions: [],
  commands: new Map(),
  documents: [],
  opened: [],
  shown: [],
  /** The editor tabs (one group, column 2), as showTextDocument leaves them. */
  tabs: [],
  /** FileSystemProviders (with their options) and DocumentLinkProviders by scheme. */
  fileSystems: new Map(),
  linkProviders: new Map(),
  outputs: new Map(),
  diagnostics: new Map(),
  activeTextEditor: undefined,
  /** Called with the CancellationTokenSource of each withProgress (a test may cancel it). */
  onProgressStart: undefined,
};

const events = {
  didOpen: new EventEmitter(),
  didClose: new EventEmitter(),
  didChange: new EventEmitter(),
  didChangeConfiguration: new EventEmitter(),
};

/** Inert members for what this stub does not define. */
function inert(name) {
  if (/^[A-Z]/.test(name)) {
    return new Proxy(
      class {
        constructor(...args) {
          this.args = args;
        }
      },
      { get: (t, p) => (p in t ? t[p] : String(p)) },
    );
  }
  if (/^onDid|^onWill/.test(name)) return new EventEmitter().event;
  return () => new Disposable();
}

function withInert(obj) {
  return new Proxy(obj, {
    get: (t, p) => (p in t || typeof p === 'symbol' ? t[p] : inert(String(p))),
  });
}

function textDocument(uri, languageId, text, version = 1) {
  const doc = {
    uri,
    fileName: uri.fsPath,
    languageId,
    version,
    isClosed: false,
    isDirty: false,
    isUntitled: uri.scheme === 'untitled',
    eol: 1,
    get lineCount() {
      return text.split('\n').length;
    },
    getText: () => text,
    /** What VS Code does when a content provider fires onDidChange for this document. */
    setText(t) {
      text = t;
      doc.version += 1;
    },
  };
  return doc;
}

function config(section) {
  const key = (k) => (section ? `${section}.${k}` : k);
  return {
    get: (k, def) => (key(k) in state.config ? state.config[key(k)] : def),
    has: (k) => key(k) in state.config,
    inspect: () => undefined,
    update: async () => {},
  };
}

function record(level) {
  return async (text, ...items) => {
    state.messages.push({ level, text, items: items.filter((i) => typeof i === 'string') });
    return undefined;
  };
}

const window = withInert({
  createOutputChannel(name) {
    const ch = {
      name,
      lines: [],
      append: (s) => ch.lines.push(s),
      appendLine: (s) => ch.lines.push(s),
      replace: (s) => {
        ch.lines = [s];
      },
      clear: () => {
        ch.lines = [];
      },
      show() {},
      hide() {},
      dispose() {},
    };
    state.outputs.set(name, ch);
    return ch;
  },
  showInformationMessage: record('info'),
  showWarningMessage: record('warning'),
  showErrorMessage: record('error'),
  async withProgress(options, task) {
    state.progressOptions.push(options);
    const cts = new CancellationTokenSource();
    if (state.onProgressStart) state.onProgressStart(cts);
    return task({ report: (v) => state.progress.push(v) }, cts.token);
  },
  async showTextDocument(docOrUri, options) {
    const doc = docOrUri instanceof Uri ? await workspace.openTextDocument(docOrUri) : docOrUri;
    state.shown.push({ doc, options });
    if (!state.tabs.some((t) => t.input.uri.toString() === doc.uri.toString())) {
      state.tabs.push({ input: new TabInputText(doc.uri), label: doc.uri.path.split('/').pop() });
    }
    return { document: doc, revealRange: () => {} };
  },
  get activeTextEditor() {
    return state.activeTextEditor;
  },
  visibleTextEditors: [],
  onDidChangeActiveTextEditor: new EventEmitter().event,
  onDidChangeVisibleTextEditors: new EventEmitter().event,
  tabGroups: {
    get all() {
      return state.tabs.length ? [{ viewColumn: 2, tabs: state.tabs }] : [];
    },
    onDidChangeTabs: new EventEmitter().event,
    onDidChangeTabGroups: new EventEmitter().event,
  },
});

const workspace = withInert({
  getConfiguration: config,
  get textDocuments() {
    return state.documents;
  },
  workspaceFolders: undefined,
  onDidOpenTextDocument: events.didOpen.event,
  onDidCloseTextDocument: events.didClose.event,
  onDidChangeTextDocument: events.didChange.event,
  onDidChangeConfiguration: events.didChangeConfiguration.event,
  createFileSystemWatcher: () =>
    withInert({ onDidCreate: inert('onDidCreate'), onDidChange: inert('onDidChange'), onDidDelete: inert('onDidDelete'), dispose() {} }),
  async openTextDocument(options) {
    if (options instanceof Uri) {
      // as VS Code: one document per URI; a provider's scheme is read from the provider
      const open = state.documents.find((d) => d.uri.toString() === options.toString());
      if (open) return open;
      if (options.scheme === 'file') throw new Error(`${options.toString()} is not open in the stub`);
      const fs = state.fileSystems.get(options.scheme);
      if (!fs) throw new Error(`no file system provider for ${options.toString()}`);
      const doc = textDocument(options, 'plaintext', new TextDecoder().decode(await fs.provider.readFile(options)));
      doc.isReadonly = Boolean(fs.options?.isReadonly);
      state.documents.push(doc);
      state.opened.push(doc);
      return doc;
    }
    const doc = textDocument(Uri.parse(`untitled:Untitled-${state.opened.length + 1}`), options.language, options.content ?? '');
    state.opened.push(doc);
    return doc;
  },
  registerFileSystemProvider(scheme, provider, options) {
    state.fileSystems.set(scheme, { provider, options });
    // as VS Code: a change event makes an open document read the file again
    const sub = provider.onDidChangeFile((events) =>
      events.forEach(async ({ uri }) => {
        const doc = state.documents.find((d) => d.uri.toString() === uri.toString());
        if (doc) doc.setText(new TextDecoder().decode(await provider.readFile(uri)));
      }),
    );
    return new Disposable(() => {
      state.fileSystems.delete(scheme);
      sub.dispose();
    });
  },
  asRelativePath: (u) => (typeof u === 'string' ? u : u.fsPath),
  applyEdit: async () => true,
});

const languages = withInert({
  registerDocumentLinkProvider(selector, provider) {
    state.linkProviders.set(selector.scheme, provider);
    return new Disposable(() => state.linkProviders.delete(selector.scheme));
  },
  match(selector, doc) {
    const sels = Array.isArray(selector) ? selector : [selector];
    return sels.some((s) => (typeof s === 'string' ? s === doc.languageId : (!s.language || s.language === doc.languageId) && (!s.scheme || s.scheme === doc.uri.scheme)))
      ? 10
      : 0;
  },
  createDiagnosticCollection(name) {
    return {
      name,
      set: (uri, diags) => {
        if (Array.isArray(uri)) uri.forEach(([u, d]) => state.diagnostics.set(u.toString(), d ?? []));
        else state.diagnostics.set(uri.toString(), diags ?? []);
      },
      delete: (uri) => state.diagnostics.delete(uri.toString()),
      clear: () => state.diagnostics.clear(),
      get: (uri) => state.diagnostics.get(uri.toString()),
      has: (uri) => state.diagnostics.has(uri.toString()),
      forEach: () => {},
      dispose: () => {},
    };
  },
});

const commands = withInert({
  registerCommand(id, fn) {
    // As in VS Code: a command id can be registered once.
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, fn);
    return new Disposable(() => state.commands.delete(id));
  },
  async executeCommand(id, ...args) {
    const fn = state.commands.get(id);
    return fn ? fn(...args) : undefined;
  },
});

const vscode = withInert({
  version: '1.82.0',
  env: withInert({ language: 'en', appName: 'vscode-stub', machineId: 'stub', sessionId: 'stub', openExternal: async () => true }),
  extensions: withInert({ getExtension: () => undefined, all: [] }),
  window,
  workspace,
  languages,
  commands,
  EventEmitter,
  Disposable,
  Uri,
  Position,
  Range,
  Diagnostic,
  DocumentLink,
  TabInputText,
  FileSystemError,
  CancellationError,
  CancellationTokenSource,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
  TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
  FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
  FilePermission: { Readonly: 1 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
});

/** The test's handle: the recorded state and helpers to drive the extension. */
vscode.__stub = {
  state,
  Uri,
  /** Opens a document: the client sends textDocument/didOpen. */
  open(path, languageId, text) {
    const doc = textDocument(Uri.file(path), languageId, text);
    state.documents.push(doc);
    events.didOpen.fire(doc);
    return doc;
  },
  setActive(doc) {
    state.activeTextEditor = doc ? { document: doc } : undefined;
  },
};

module.exports = vscode;
