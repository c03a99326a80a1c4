#!/usr/bin/env bash
# npm run trace:path [CHECKOUT]: traces one NFT and one Stars order through the code (POST /orders to the signed
# webhook and the owner's bot notice) and prints, per leg (create, job, scheduler/commit, webhook, bot notice), the
# files entered and the calls that go back into a file already visited, then the targets of one NFT order's path.
# Works on a throw-away copy of the tracked files; the checkout is not touched. The test it runs
# (path.test.ts) uses the project's own test helpers: keep it in step with them.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
src=$(readlink -f "${1:-.}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$src" && git ls-files | tar -cf - -T -) | (cd "$tmp" && tar -xf -)
ln -s "$src/node_modules" "$tmp/node_modules"
node "$here/instrument.mjs" "$tmp" >/dev/null
mkdir -p "$tmp/test/trace"
cp "$here/tracer.ts" "$here/path.test.ts" "$tmp/test/trace/"
cp "$here/vitest.trace.config.ts" "$tmp/"
(cd "$tmp" && TRACE_ROOT="$tmp" TRACE_OUT="$tmp" npx vitest run --config vitest.trace.config.ts >"$tmp/trace.log" 2>&1) || { tail -n 30 "$tmp/trace.log"; exit 1; }
python3 "$here/analyze2.py" "$tmp/trace-nft.json" "$tmp/trace-stars.json" | grep -v '^    '
python3 "$here/pingpong.py" "$tmp/trace-nft.json"
if [ -n "${TRACE_KEEP:-}" ]; then mkdir -p "$TRACE_KEEP" && cp "$tmp"/trace-*.json "$TRACE_KEEP"/ && echo "traces kept in $TRACE_KEEP"; fi
python3 "$here/summary.py" "$tmp/trace-nft.json"
