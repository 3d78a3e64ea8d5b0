#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given version, taken from the npm registry's
# `node-<platform>-<arch>` package and kept in .cache/node/<version>/. The version is a major
# (`24`: the newest 24.x) or an exact one (`20.18.1`, the lowest the engines field accepts).
#
#   bin=$(bash scripts/fetch-node.sh 20.18.1)
#   source scripts/fetch-node.sh && bin=$(fetch_node 24)
#   NODE_CACHE_DIR=/somewhere scripts/fetch-node.sh 22

# Whether the binary $1 runs and is of version $2 (a major, or an exact version).
node_is_version() {
  local actual
  actual=$("$1" -v 2>/dev/null) || return 1
  [[ $actual == "v$2" || $actual == "v$2".* ]]
}

# Prints the path of a Node binary of version $1, downloading it if not cached.
fetch_node() {
  local version=$1 root cache dir tmp tarball package
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  cache=${NODE_CACHE_DIR:-$root/.cache/node}
  dir=$cache/$version
  if [ -x "$dir/bin/node" ] && node_is_version "$dir/bin/node" "$version"; then
    echo "$dir/bin/node"
    return 0
  fi
  package="node-$(node -p 'process.platform + "-" + process.arch')"
  mkdir -p "$cache" || return 1
  tmp=$(mktemp -d "$cache/.fetch-$version.XXXXXX") || return 1
  # npm pack resolves "<package>@22" to the newest 22.x and downloads only that tarball.
  if ! tarball=$(cd "$tmp" && npm pack "$package@$version" --silent 2>"$tmp/npm.log" | tail -n 1) ||
    [ -z "$tarball" ] || [ ! -f "$tmp/$tarball" ]; then
    echo "fetch-node: npm pack $package@$version failed:" >&2
    cat "$tmp/npm.log" >&2
    rm -rf "$tmp"
    return 1
  fi
  mkdir "$tmp/unpacked" && tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" --strip-components=1 || {
    echo "fetch-node: could not unpack $tarball" >&2
    rm -rf "$tmp"
    return 1
  }
  if ! node_is_version "$tmp/unpacked/bin/node" "$version"; then
    echo "fetch-node: $tarball holds no working Node $version binary at bin/node" >&2
    rm -rf "$tmp"
    return 1
  fi
  echo "fetch-node: fetched $tarball" >&2
  # Only bin/node is used; the C headers and man pages are most of the rest.
  rm -rf "$tmp/unpacked/include" "$tmp/unpacked/share"
  rm -rf "$dir" && mv "$tmp/unpacked" "$dir" && rm -rf "$tmp" || return 1
  echo "$dir/bin/node"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -uo pipefail
  if [ $# -ne 1 ]; then
    echo "usage: scripts/fetch-node.sh <major or exact version>" >&2
    exit 2
  fi
  fetch_node "$1"
fi
