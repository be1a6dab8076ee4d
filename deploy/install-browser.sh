#!/usr/bin/env bash
# deploy/install-browser.sh — make sure a Chromium is available for the web chat browser test
# (cmd/bot/browser_test.go, which skips when there is none).
#
# Usage:
#   bash deploy/install-browser.sh
#
# Idempotent: when $HEARTH_CHROMIUM (if set) or /usr/bin/chromium exists, it does nothing.
# On Debian/Ubuntu as root it installs the distribution's `chromium` package with apt-get,
# without recommended extras, after saying which packages it will install (running
# `apt-get update` first only if the install fails because the package lists are missing or
# stale). Anywhere else it prints how to install a browser and exits 0, so a
# missing browser never fails a build: the test skips instead.
#
# It never downloads browser builds from anywhere but the OS packages.
set -euo pipefail

log() { printf 'install-browser: %s\n' "$*" >&2; }

browser="${HEARTH_CHROMIUM:-/usr/bin/chromium}"
if [[ -x "$browser" ]]; then
	exit 0
fi
if [[ -n "${HEARTH_CHROMIUM:-}" ]]; then
	log "HEARTH_CHROMIUM=$HEARTH_CHROMIUM does not exist or is not executable; looking at /usr/bin/chromium"
	if [[ -x /usr/bin/chromium ]]; then
		log "/usr/bin/chromium exists: unset HEARTH_CHROMIUM or point it there"
		exit 0
	fi
fi

how() {
	log "no Chromium found; the browser test (go test -run TestBrowser ./cmd/bot/) will skip."
	log "to run it, install Chromium from your OS packages, e.g.:"
	log "  Debian/Ubuntu: sudo apt-get install -y chromium"
	log "  Fedora:        sudo dnf install -y chromium"
	log "  macOS:         brew install --cask chromium"
	log "and, if it is not at /usr/bin/chromium, set HEARTH_CHROMIUM=/path/to/chromium"
}

if ! command -v apt-get >/dev/null 2>&1 || [[ ! -f /etc/debian_version ]]; then
	how
	exit 0
fi
if [[ "$(id -u)" -ne 0 ]]; then
	log "not root, so not installing anything."
	how
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# Only chromium and what it depends on: no recommended extras, and no
# upgrade of packages already installed unless chromium requires it.
install_chromium() {
	local plan
	plan=$(apt-get install -s --no-install-recommends chromium 2>/dev/null | awk '/^Inst /{print $2}' | tr '\n' ' ')
	[[ -n $plan ]] && log "installing: $plan"
	apt-get install -y --no-install-recommends chromium
}

log "installing chromium from the Debian packages…"
if ! install_chromium >&2; then
	log "install failed; refreshing the package lists (apt-get update) and trying again"
	apt-get update >&2
	install_chromium >&2
fi
if [[ ! -x /usr/bin/chromium ]]; then
	log "chromium was installed but /usr/bin/chromium is missing; set HEARTH_CHROMIUM to its path"
	exit 0
fi
log "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
