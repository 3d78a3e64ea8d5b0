#!/usr/bin/env bash
# Runs the vitest suite under other Node.js versions (default: 22 and 24), each binary taken
# from the npm registry's `node-<platform>-<arch>` package and kept in .cache/node/<version>/
# (scripts/fetch-node.sh). A version is a major (`22`) or an exact one (`20.18.1`).
# Each run writes its JSON report to .vitest-report-node<version>.json.
# Prints one line per version, "node vX.Y.Z: N passed, M failed", and exits non-zero if any run fails.
#
#   scripts/test-other-nodes.sh          # Node 22 and 24
#   scripts/test-other-nodes.sh 22       # Node 22 only
#   scripts/test-other-nodes.sh 20.18.1  # exactly Node 20.18.1
#   NODE_CACHE_DIR=/somewhere scripts/test-other-nodes.sh
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

versions=("$@")
[ ${#versions[@]} -eq 0 ] && versions=(22 24)
vitest=$root/node_modules/vitest/vitest.mjs
# shellcheck source=scripts/fetch-node.sh
source "$root/scripts/fetch-node.sh"

if [ ! -f "$vitest" ]; then
  echo "test-other-nodes: $vitest is missing; run npm ci first" >&2
  exit 1
fi

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
for version in "${versions[@]}"; do
  report=.vitest-report-node$version.json
  rm -f "$report"
  if ! bin=$(fetch_node "$version"); then
    summary+=("node $version: could not fetch the binary; 0 passed, 1 failed")
    status=1
    continue
  fi
  actual=$("$bin" -v)
  echo "== vitest under node $actual ($bin)"
  start=$SECONDS
  # The binary's folder goes first on PATH so child processes started as `node` use it too.
  # The config in scripts/ is the repository's, with the JSON report sent to $VITEST_JSON_REPORT.
  PATH="$(dirname "$bin"):$PATH" VITEST_JSON_REPORT=$report \
    "$bin" "$vitest" run --config scripts/vitest-other-nodes.config.mjs
  code=$?
  counts=$(report_counts "$report")
  [ "$code" -ne 0 ] && status=1
  case $counts in *" 0 failed") ;; *) status=1 ;; esac
  summary+=("node $actual: $counts (exit $code, $((SECONDS - start)) s)")
done

printf '%s\n' "${summary[@]}"
exit "$status"
