#!/usr/bin/env bash
# Builds, tests and packages the VS Code extension (vscode-extension/) into
# vscode-extension/sidl-<target>-<version>.vsix, a platform-specific package (vsce --target, e.g.
# linux-x64) with the release build of sidl-lsp for that platform inside, then checks the package.
# Called by scripts/test.sh (then scripts/vscode-e2e.sh runs the package in code-server); by hand:
# `bash scripts/vscode.sh`.
#
# Steps: npm ci (skipped when node_modules was installed from the same package-lock.json), type-check
# (tsc, which also compiles the pure modules for the unit tests), esbuild bundle, unit tests (node
# --test test/unit/), grammar tests (vscode-tmgrammar-test), cargo build --release of sidl-lsp, copy
# to server/ (debug info stripped), extension tests (node --test test/extension/: the bundle in node
# with a stand-in `vscode` module, against a scripted server and the bundled sidl-lsp), vsce package
# --target, and a check of the .vsix: contents, target platform, size, and the bundled server's
# --version.
#
# The server is a release build (the workspace's release profile): the hidden-information check
# runs 4-7x slower in a debug build. Measured on the 2-core machine (busy with other builds), a
# release build of sidl-lsp from scratch costs 313 s of CPU (thin LTO, codegen-units 4); without
# LTO, 16 codegen units and no debug info it would cost 297 s: not worth a profile of its own.
# SIDL_LSP_PROFILE=debug packages a debug server (quick local iterations, never for distribution);
# SIDL_LSP_BIN=PATH packages a server built elsewhere (no cargo build; scripts/test.sh passes the
# debug one its `cargo test` built, the engine at opt-level 1: CI tests the package, not the build); SIDL_VSCODE_TARGET names
# the vsce target when it is not this machine's (with SIDL_LSP_BIN built for it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
ext="$root/vscode-extension"
profile="${SIDL_LSP_PROFILE:-release}"

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
  profile=prebuilt
else
  log "cargo build -p sidl-lsp ($profile)"
  cargo_flags=(--locked -p sidl-lsp)
  # In release, sidl-cli is built in the same invocation, as scripts/oracles.sh builds it: one
  # feature resolution, so a run of both (CI) compiles the release engine once, not twice (the two
  # packages alone resolve serde_json's and syn's features differently: two engine builds).
  [ "$profile" = release ] && cargo_flags+=(--release -p sidl-cli)
  (cd "$root" && cargo build "${cargo_flags[@]}")
  target_dir=$(cd "$root" && cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
  server_bin="$target_dir/$profile/$exe"
fi
rm -rf server
mkdir -p server
cp "$server_bin" "server/$exe"
chmod 755 "server/$exe"
# The release profile keeps line tables (debug = 1, for profiling): 32 MB; without them, 6 MB. The
# symbols stay, for readable panics.
case "$(uname -s)" in
  Linux) if command -v strip >/dev/null 2>&1; then strip --strip-debug "server/$exe"; fi ;;
  Darwin) strip -S "server/$exe" ;;
esac

# --- the vsce target: this platform, as VS Code names it ---------------------------------------------
target="${SIDL_VSCODE_TARGET:-}"
if [ -z "$target" ]; then
  target=$(node -p '
    const arch = { x64: "x64", arm64: "arm64", arm: "armhf" }[process.arch] ?? process.arch;
    const musl = process.platform === "linux" && !process.report.getReport().header.glibcVersionRuntime;
    `${musl ? "alpine" : process.platform}-${arch}`')
fi
case "$target" in
  win32-x64 | win32-arm64 | linux-x64 | linux-arm64 | linux-armhf | alpine-x64 | alpine-arm64 | darwin-x64 | darwin-arm64) ;;
  *) echo "vscode.sh: no VS Code target for this platform ($target); set SIDL_VSCODE_TARGET" >&2; exit 1 ;;
esac

log "extension tests (node --test test/extension/: dist/extension.js with a stand-in vscode module, against a scripted server and the bundled sidl-lsp)"
node --test test/extension/

# --- package -----------------------------------------------------------------------------------------
version=$(node -p 'require("./package.json").version')
name=$(node -p 'require("./package.json").name')
vsix="$name-$target-$version.vsix"
log "vsce package --target $target → vscode-extension/$vsix"
rm -f ./*.vsix
npx --no-install vsce package --no-dependencies --target "$target" --out "$vsix"

log "check $vsix"
python3 - "$vsix" "$exe" "$target" "$profile" <<'PY'
import json, os, re, stat, subprocess, sys, tempfile, zipfile

vsix, exe, target, profile = sys.argv[1:5]
with zipfile.ZipFile(vsix) as z:
    names = set(z.namelist())
    manifest = z.read("extension.vsixmanifest").decode()
    m = re.search(r'TargetPlatform="([^"]*)"', manifest)
    assert m and m.group(1) == target, f"{vsix} is not a {target} package: {m and m.group(0)}"
    pkg = json.loads(z.read("extension/package.json"))
    assert pkg["icon"] == "images/icon.png", pkg.get("icon")
    trust = pkg["capabilities"]["untrustedWorkspaces"]
    assert trust["supported"] == "limited" and trust["restrictedConfigurations"] == ["sidl.server.path"], trust
    assert pkg["contributes"]["configuration"]["properties"]["sidl.server.path"]["scope"] == "machine-overridable"
    assert z.getinfo("extension/images/icon.png").file_size > 1000
    required = [
        "extension.vsixmanifest",
        "extension/package.json",
        "extension/readme.md",
        "extension/LICENSE.md",
        "extension/dist/extension.js",
        "extension/syntaxes/sidl.tmLanguage.json",
        "extension/language-configuration.json",
        "extension/snippets/sidl.json",
        "extension/images/icon.png",
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
    server_size = info.file_size
    # a debug server is 77 MB (20 MB packed); the release one, stripped of line tables, about 6 MB
    if profile == "release":
        assert server_size < 20 * 2**20, f"the bundled server is {server_size} bytes: not a stripped release build?"
    print(f"{vsix}: {target}, {len(names)} files, {size // 1024} KiB (server {server_size // 1024} KiB, {profile}); "
          f"bundled server answers {out.stdout.strip()!r}")
PY
