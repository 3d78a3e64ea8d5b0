#!/usr/bin/env bash
# Makes sure the headless browser the dashboard tests drive is installed:
#   bash scripts/chromium-for-tests.sh
# Installs Debian's chromium with apt-get (as root or through sudo) when /usr/bin/chromium (or
# $MEDIAGW_TEST_CHROMIUM) is missing. The tests use it through playwright-core, which downloads
# no browser of its own. Exits 0 when the browser is there, 1 when it could not be installed.
set -uo pipefail

browser="${MEDIAGW_TEST_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" != 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "chromium-for-tests: $browser is missing and installing it needs root" >&2
    exit 1
  fi
  sudo=(sudo -n)
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium-for-tests: $browser is missing and there is no apt-get to install it" >&2
  exit 1
fi
echo "chromium-for-tests: installing chromium with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { "${sudo[@]}" apt-get update -qq &&
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null; }; then
  echo "chromium-for-tests: apt-get could not install chromium" >&2
  exit 1
fi
if [ ! -x "$browser" ]; then
  echo "chromium-for-tests: chromium installed, but $browser is still missing" >&2
  exit 1
fi
