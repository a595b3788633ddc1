#!/usr/bin/env bash
# Run by `npm test` (pretest): makes sure the Debian packages the tests need are installed.
#   chromium    the browser test drives /usr/bin/chromium through playwright-core
#   tmux        the terminal tests (dispute form, events tail) run gw in a tmux pane
#   postgresql  the PostgreSQL store tests start a throwaway cluster with initdb/pg_ctl
#   libnss3-tools  certutil: gw ca install puts the local CA in the browsers' NSS databases
# Nothing missing: silent. Missing and root: one `apt-get update` and one `apt-get install -y`
# of what is missing, quietly; if that fails, the reason and apt's last lines, exit 1.
# Missing and not root: one message naming the one command to run, exit 1.
set -u
root="${GW_TEST_DEPS_ROOT:-}" # test seam: a directory standing in for / when probing files

have_postgres() {
  local d
  for d in "$root"/usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && return 0
  done
  return 1
}

missing_packages() {
  local m=()
  [ -x "$root/usr/bin/chromium" ] || m+=(chromium)
  command -v tmux >/dev/null 2>&1 || m+=(tmux)
  have_postgres || m+=(postgresql)
  [ -x "$root/usr/bin/certutil" ] || m+=(libnss3-tools)
  echo "${m[*]:-}"
}

missing=$(missing_packages)
[ -z "$missing" ] && exit 0

say() { printf 'npm test: %s\n' "$*" >&2; }

if ! command -v apt-get >/dev/null 2>&1; then
  say "the tests need $missing (chromium at /usr/bin/chromium, tmux, PostgreSQL's initdb and pg_ctl, certutil of libnss3-tools) and this is not a Debian system with apt-get: install them with your package manager, then run npm test again."
  exit 1
fi

if [ "$(id -u)" != 0 ]; then
  say "the tests need Debian packages that are not installed: $missing. Install them once, then run npm test again:"
  printf '\n    sudo apt-get update && sudo apt-get install -y %s\n\n' "$missing" >&2
  exit 1
fi

log=$(mktemp "${TMPDIR:-/tmp}/gw-test-deps.XXXXXX")
trap 'rm -f "$log"' EXIT
fail() {
  say "could not install $missing: $1. The last lines of apt-get:"
  tail -n 15 "$log" | sed 's/^/    /' >&2
  exit 1
}
say "installing the Debian packages the tests need: $missing ..."
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # one word per package
apt-get update -qq >"$log" 2>&1 || fail "apt-get update failed (no network, or no package sources?)"
# shellcheck disable=SC2086
apt-get install -y -qq $missing >>"$log" 2>&1 || fail "apt-get install failed"
still=$(missing_packages)
[ -z "$still" ] || fail "installed, yet still missing: $still"
say "installed $missing."
