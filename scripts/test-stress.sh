#!/usr/bin/env bash
# SUITE-1: the suite as a busier machine runs it. A timing test is done when it passes here.
#   scripts/test-stress.sh                     the whole suite (node scripts/test.mjs) with one core
#                                              kept busy by a CPU hog beside it
#   scripts/test-stress.sh -n 10 FILE...       each FILE 10 times in a row, the hog beside it; FILE is
#                                              a web-test-runner file (test/**/*.test.ts, Chromium;
#                                              WEBMCP=1 for the browser's own WebMCP) or a node:test
#                                              file (test/**/*.test.mjs; AI_OPS_BROWSER_MODE=webmcp)
#   HOGS=0 scripts/test-stress.sh -n 5 FILE    the same without the hog (HOGS=2: both cores busy)
# Ends with `N passed, M failed` counting runs (files × repeats) in the second form. Build first for
# the e2e files (`npm run build && node esbuild.config.mjs`); the whole suite builds itself.
set -uo pipefail
cd "$(dirname "$0")/.."
repeat=0
if [ "${1:-}" = "-n" ]; then
  repeat="${2:?-n needs a count}"
  shift 2
  [ $# -gt 0 ] || { echo "usage: $0 [-n COUNT FILE...]" >&2; exit 2; }
fi
hogs=()
for _ in $(seq 1 "${HOGS:-1}"); do
  node -e 'for (;;) {}' &
  hogs+=($!)
done
# The hogs' pids, for a file that wants to see them (test/scripts/test-stress.test.mjs).
export AI_OPS_STRESS_HOGS="${hogs[*]:-}"
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null; }
trap stop_hogs EXIT
echo "test-stress: ${#hogs[@]} CPU hog(s) running (pids ${hogs[*]:-none})" >&2

if [ "$repeat" -eq 0 ]; then
  node scripts/test.mjs
  exit $?
fi

passed=0
failed=0
for run in $(seq 1 "$repeat"); do
  for file in "$@"; do
    log=$(mktemp)
    start=$(date +%s)
    case "$file" in
      *.test.ts) npx web-test-runner "$file" >"$log" 2>&1 ;;
      *.test.mjs) node --test --test-concurrency=1 "$file" >"$log" 2>&1 ;;
      *) echo "not a test file: $file" >&2; exit 2 ;;
    esac
    code=$?
    if [ $code -eq 0 ]; then
      passed=$((passed + 1))
      echo "run $run $file: passed ($(( $(date +%s) - start )) s)"
    else
      failed=$((failed + 1))
      echo "run $run $file: FAILED ($(( $(date +%s) - start )) s); its output follows"
      grep -E "not ok|✗|❌|Error|expected|timed out" "$log" | head -40
    fi
    rm -f "$log"
  done
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
