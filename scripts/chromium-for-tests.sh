#!/usr/bin/env bash
# Makes sure the headless browser the dashboard tests drive is installed:
#   bash scripts/chromium-for-tests.sh
# Installs Debian's chromium (scripts/debian-package-for-tests.sh) when /usr/bin/chromium (or
# $MEDIAGW_TEST_CHROMIUM) is missing. The tests use it through playwright-core, which downloads
# no browser of its own. Exits 0 when the browser is there, 1 when it could not be installed.
exec bash "$(dirname "$0")/debian-package-for-tests.sh" "${MEDIAGW_TEST_CHROMIUM:-/usr/bin/chromium}" chromium
