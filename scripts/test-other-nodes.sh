#!/usr/bin/env bash
# Runs the vitest suite under other Node.js major versions (default: 22 and 24), each binary taken
# from the npm registry's `node-<platform>-<arch>` package and kept in .cache/node/<major>/.
# Each run writes its JSON report to .vitest-report-node<major>.json.
# Prints one line per version, "node vX.Y.Z: N passed, M failed", and exits non-zero if any run fails.
#
#   scripts/test-other-nodes.sh          # Node 22 and 24
#   scripts/test-other-nodes.sh 22       # Node 22 only
#   NODE_CACHE_DIR=/somewhere scripts/test-other-nodes.sh
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

majors=("$@")
[ ${#majors[@]} -eq 0 ] && majors=(22 24)
cache=${NODE_CACHE_DIR:-$root/.cache/node}
vitest=$root/node_modules/vitest/vitest.mjs
package="node-$(node -p 'process.platform + "-" + process.arch')"

if [ ! -f "$vitest" ]; then
  echo "test-other-nodes: $vitest is missing; run npm ci first" >&2
  exit 1
fi

# Prints the path of a Node binary of major version $1, downloading it if not cached.
fetch_node() {
  local major=$1 dir=$cache/$1 tmp tarball
  if [ -x "$dir/bin/node" ] && "$dir/bin/node" -v 2>/dev/null | grep -q "^v$major\."; then
    echo "$dir/bin/node"
    return 0
  fi
  mkdir -p "$cache" || return 1
  tmp=$(mktemp -d "$cache/.fetch-$major.XXXXXX") || return 1
  # npm pack resolves "<package>@22" to the newest 22.x and downloads only that tarball.
  if ! tarball=$(cd "$tmp" && npm pack "$package@$major" --silent 2>"$tmp/npm.log" | tail -n 1) ||
    [ -z "$tarball" ] || [ ! -f "$tmp/$tarball" ]; then
    echo "test-other-nodes: npm pack $package@$major failed:" >&2
    cat "$tmp/npm.log" >&2
    rm -rf "$tmp"
    return 1
  fi
  mkdir "$tmp/unpacked" && tar -xzf "$tmp/$tarball" -C "$tmp/unpacked" --strip-components=1 || {
    echo "test-other-nodes: could not unpack $tarball" >&2
    rm -rf "$tmp"
    return 1
  }
  if ! "$tmp/unpacked/bin/node" -v 2>/dev/null | grep -q "^v$major\."; then
    echo "test-other-nodes: $tarball holds no working Node $major binary at bin/node" >&2
    rm -rf "$tmp"
    return 1
  fi
  echo "test-other-nodes: fetched $tarball" >&2
  # Only bin/node is used; the C headers and man pages are most of the rest.
  rm -rf "$tmp/unpacked/include" "$tmp/unpacked/share"
  rm -rf "$dir" && mv "$tmp/unpacked" "$dir" && rm -rf "$tmp" || return 1
  echo "$dir/bin/node"
}

# Prints "N passed, M failed" from a vitest JSON report; a missing or unreadable report counts as one failure.
report_counts() {
  node -e '
    const fs = require("fs");
    try {
      const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
      console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed`);
    } catch {
      console.log("0 passed, 1 failed (no report)");
    }
  ' "$1"
}

status=0
summary=()
for major in "${majors[@]}"; do
  report=.vitest-report-node$major.json
  rm -f "$report"
  if ! bin=$(fetch_node "$major"); then
    summary+=("node $major: could not fetch the binary; 0 passed, 1 failed")
    status=1
    continue
  fi
  version=$("$bin" -v)
  echo "== vitest under node $version ($bin)"
  start=$SECONDS
  # The binary's folder goes first on PATH so child processes started as `node` use it too.
  # The config in scripts/ is the repository's, with the JSON report sent to $VITEST_JSON_REPORT.
  PATH="$(dirname "$bin"):$PATH" VITEST_JSON_REPORT=$report \
    "$bin" "$vitest" run --config scripts/vitest-other-nodes.config.mjs
  code=$?
  counts=$(report_counts "$report")
  [ "$code" -ne 0 ] && status=1
  case $counts in *" 0 failed") ;; *) status=1 ;; esac
  summary+=("node $version: $counts (exit $code, $((SECONDS - start)) s)")
done

printf '%s\n' "${summary[@]}"
exit "$status"
