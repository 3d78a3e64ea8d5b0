#!/usr/bin/env bash
# Prints the path of a Bun binary of the pinned version, installed from the npm registry's `bun`
# package (its binary comes in the `@oven/bun-<platform>-<arch>` package it depends on) into
# .cache/bun/<version>/, outside the project's package.json and lock file.
#
#   bun=$(bash scripts/bun-for-tests.sh)
#   BUN_VERSION=1.4.5 BUN_CACHE_DIR=/somewhere bash scripts/bun-for-tests.sh
set -uo pipefail

version=${BUN_VERSION:-1.4.4}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${BUN_CACHE_DIR:-$root/.cache/bun}
dir=$cache/$version

# Whether the binary $1 runs and is of the pinned version.
bun_is_version() {
  [ -x "$1" ] && [ "$("$1" --version 2>/dev/null)" = "$version" ]
}

# The binary in an install: the `bun` package's own bin (filled by its postinstall), else the
# platform package's, where npm ran no install scripts.
find_bun() {
  local candidate
  for candidate in "$1/node_modules/bun/bin/bun.exe" "$1"/node_modules/@oven/bun-*/bin/bun; do
    if bun_is_version "$candidate"; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

if found=$(find_bun "$dir"); then
  echo "$found"
  exit 0
fi
mkdir -p "$cache" || exit 1
tmp=$(mktemp -d "$cache/.install-$version.XXXXXX") || exit 1
echo '{ "private": true }' >"$tmp/package.json"
if ! npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error "bun@$version" >"$tmp/npm.log" 2>&1; then
  echo "bun-for-tests: npm install bun@$version failed:" >&2
  cat "$tmp/npm.log" >&2
  rm -rf "$tmp"
  exit 1
fi
if ! find_bun "$tmp" >/dev/null; then
  echo "bun-for-tests: bun@$version installed no working binary (node_modules/bun/bin or @oven/bun-*/bin):" >&2
  cat "$tmp/npm.log" >&2
  rm -rf "$tmp"
  exit 1
fi
rm -rf "$dir" && mv "$tmp" "$dir" || exit 1
echo "bun-for-tests: installed bun $version in $dir" >&2
find_bun "$dir"
