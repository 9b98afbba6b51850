#!/bin/sh
# Smoke test of the container's start, without a container: runs docker/entrypoint.sh
# (what the image runs) on a fresh data folder and a free port, waits until
# GET /api/health/ answers 200, then stops the server with SIGTERM and expects it to
# exit cleanly. For CI, after `npm run build`. Exits non-zero, with the server's log,
# when it does not come up within SMOKE_TIMEOUT seconds (default 120).
set -eu
cd "$(dirname "$0")/.."

port="${SMOKE_PORT:-8790}"
timeout="${SMOKE_TIMEOUT:-120}"
dir="$(mktemp -d)"
# mktemp makes the folder 0700; as root the embedded PostgreSQL runs as the 'postgres'
# user, which must be able to enter it.
chmod 755 "$dir"
log="$dir/server.log"
trap 'rm -rf "$dir"' EXIT

PORT="$port" HOST=127.0.0.1 EMBEDDED_PG_PORT="$((port + 1))" DATA_DIR="$dir/data" \
  LOG_LEVEL=warn docker/entrypoint.sh >"$log" 2>&1 &
pid=$!

healthy=""
i=0
while [ "$i" -lt "$timeout" ]; do
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  if node -e "fetch('http://127.0.0.1:$port/api/health/').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    healthy=1
    break
  fi
  sleep 1
  i=$((i + 1))
done

if [ -z "$healthy" ]; then
  if kill -0 "$pid" 2>/dev/null; then
    echo "smoke: the server did not answer GET /api/health/ with 200 within ${timeout}s" >&2
  else
    echo "smoke: the server exited before answering GET /api/health/" >&2
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  cat "$log" >&2
  exit 1
fi

kill -TERM "$pid"
status=0
wait "$pid" || status=$?
if [ "$status" -ne 0 ]; then
  echo "smoke: the server exited with status $status after SIGTERM" >&2
  cat "$log" >&2
  exit 1
fi
echo "smoke: docker/entrypoint.sh started the server, /api/health/ answered 200, it stopped cleanly"
