# Sourced by the scripts that install Debian packages (test.sh, code-server-install.sh,
# editors-test.sh): `apt_install PKG...` installs those not installed yet (apt-get update first,
# only when something is missing), with sudo when not root. Uses the caller's `log` function.
apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}
