#!/usr/bin/env bash
# Installs what the tests and the demo need on a fresh Debian machine: Chromium, Firefox ESR and
# WebKitGTK's driver with an X server for it (the element suites run in all three engines:
# scripts/wtr-engine.mjs), Go and Yaegi's
# source from Debian (no browser or toolchain download), bubblewrap (the Node runner's sandbox:
# without it the runner runs no command), util-linux's unshare and iproute2's ip (npm test gives
# each e2e lane a network namespace of its own: scripts/test-shards.mjs), Noto CJK (without a Japanese font the playground's
# Japanese UI renders as empty boxes, in screenshots too), Noto Color Emoji (without it the slides'
# `:sparkles:` is an empty box), then the npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
[ -x "${CHROME_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
[ -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}" ] || missing+=(firefox-esr)
command -v WebKitWebDriver >/dev/null 2>&1 || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v go >/dev/null 2>&1 || missing+=(golang-go)
[ -d /usr/share/gocode/src/github.com/traefik/yaegi ] || missing+=(golang-github-traefik-yaegi-dev)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 || missing+=(util-linux)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || missing+=(fonts-noto-color-emoji)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
npm ci --no-audit --no-fund
