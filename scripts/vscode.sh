#!/usr/bin/env bash
# Builds, tests and packages the VS Code extension (vscode-extension/) into
# vscode-extension/sidl-<version>.vsix with the sidl-lsp server for this platform inside, then checks
# the package. Called by scripts/test.sh; by hand: `bash scripts/vscode.sh`.
#
# Steps: npm ci (skipped when node_modules was installed from the same package-lock.json), type-check
# (tsc, which also compiles the pure modules for the unit tests), esbuild bundle, unit tests (node
# --test test/unit/), grammar tests (vscode-tmgrammar-test), cargo build of sidl-lsp, copy to
# server/, extension tests (node --test test/extension/: the bundle in node with a stand-in `vscode`
# module, against a scripted server and the bundled sidl-lsp; VS Code itself cannot be downloaded
# here), vsce package, and a check of the .vsix contents and of the bundled server's --version.
#
# The server is a debug build by default: after `cargo test --workspace` (scripts/test.sh) it is
# already built, while a release build (thin LTO, tokio) would add minutes on a 2-core machine.
# SIDL_LSP_PROFILE=release packages an optimised server (for distribution); SIDL_LSP_BIN=PATH packages
# a server built elsewhere (no cargo build).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
ext="$root/vscode-extension"
profile="${SIDL_LSP_PROFILE:-debug}"

log() { printf '\n==> vscode: %s\n' "$*"; }

cd "$ext"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# --- npm packages: reinstall only when the lockfile changed since the last `npm ci` ------------------
stamp=node_modules/.sidl-lockfile.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x node_modules/.bin/vsce ]; then
  log "npm packages up to date with package-lock.json"
else
  log "npm ci"
  npm ci --loglevel=error
  echo "$want" >"$stamp"
fi

log "type-check (tsc; also compiles src/ to out/ for the unit tests)"
rm -rf out
npx --no-install tsc -p .

log "bundle (esbuild → dist/extension.js)"
npm run --silent bundle

log "unit tests (node --test)"
node --test test/unit/

log "grammar tests (vscode-tmgrammar-test)"
npx --no-install vscode-tmgrammar-test -g syntaxes/sidl.tmLanguage.json 'test/grammar/*.sidl'

# --- the server --------------------------------------------------------------------------------------
exe=sidl-lsp
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) exe=sidl-lsp.exe ;; esac
if [ -n "${SIDL_LSP_BIN:-}" ]; then
  log "using the server SIDL_LSP_BIN=$SIDL_LSP_BIN (no cargo build)"
  server_bin="$SIDL_LSP_BIN"
else
  log "cargo build -p sidl-lsp ($profile)"
  cargo_flags=(--locked -p sidl-lsp)
  [ "$profile" = release ] && cargo_flags+=(--release)
  (cd "$root" && cargo build "${cargo_flags[@]}")
  target_dir=$(cd "$root" && cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
  server_bin="$target_dir/$profile/$exe"
fi
rm -rf server
mkdir -p server
cp "$server_bin" "server/$exe"
chmod 755 "server/$exe"

log "extension tests (node --test test/extension/: dist/extension.js with a stand-in vscode module, against a scripted server and the bundled sidl-lsp)"
node --test test/extension/

# --- package -----------------------------------------------------------------------------------------
version=$(node -p 'require("./package.json").version')
name=$(node -p 'require("./package.json").name')
vsix="$name-$version.vsix"
log "vsce package → vscode-extension/$vsix"
rm -f ./*.vsix
npx --no-install vsce package --no-dependencies --out "$vsix"

log "check $vsix"
python3 - "$vsix" "$exe" <<'PY'
import os, stat, subprocess, sys, tempfile, zipfile

vsix, exe = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(vsix) as z:
    names = set(z.namelist())
    required = [
        "extension.vsixmanifest",
        "extension/package.json",
        "extension/readme.md",
        "extension/LICENSE.md",
        "extension/dist/extension.js",
        "extension/syntaxes/sidl.tmLanguage.json",
        "extension/language-configuration.json",
        "extension/snippets/sidl.json",
        f"extension/server/{exe}",
    ]
    missing = [n for n in required if n not in names]
    assert not missing, f"{vsix} lacks {missing}; it has {sorted(names)}"
    shipped_sources = [n for n in names if n.startswith(("extension/node_modules/", "extension/src/", "extension/out/", "extension/test/"))]
    assert not shipped_sources, f"{vsix} ships sources or node_modules: {shipped_sources[:10]}"
    info = z.getinfo(f"extension/server/{exe}")
    mode = info.external_attr >> 16
    if exe == "sidl-lsp":
        assert mode & stat.S_IXUSR, f"the server in {vsix} is not executable (mode {oct(mode)})"
    with tempfile.TemporaryDirectory() as tmp:
        server = z.extract(info, tmp)
        os.chmod(server, 0o755)
        out = subprocess.run([server, "--version"], capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, f"bundled server --version exited {out.returncode}: {out.stderr}"
        assert out.stdout.startswith("sidl-lsp "), f"bundled server --version printed {out.stdout!r}"
    size = os.path.getsize(vsix)
    print(f"{vsix}: {len(names)} files, {size // 1024} KiB; bundled server answers {out.stdout.strip()!r}")
PY
