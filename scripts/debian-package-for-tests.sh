#!/usr/bin/env bash
# Makes sure a program the tests run is installed, from Debian's packages:
#   bash scripts/debian-package-for-tests.sh <program path or name> <package>
# Installs <package> with apt-get (as root or through sudo) when <program> is not there. Exits 0
# when it is, 1 when it could not be installed (the tests that need it then fail, saying so).
set -uo pipefail

program="$1"
package="$2"
present() { [ -x "$program" ] || command -v "$program" >/dev/null 2>&1; }
if present; then
  exit 0
fi

name="$package-for-tests"
sudo=()
if [ "$(id -u)" != 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "$name: $program is missing and installing it needs root" >&2
    exit 1
  fi
  sudo=(sudo -n)
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$name: $program is missing and there is no apt-get to install it" >&2
  exit 1
fi
echo "$name: installing $package with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { "${sudo[@]}" apt-get update -qq &&
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$package" >/dev/null; }; then
  echo "$name: apt-get could not install $package" >&2
  exit 1
fi
if ! present; then
  echo "$name: $package installed, but $program is still missing" >&2
  exit 1
fi
