#!/bin/sh
# Starts Coldtrace as `npm start` does (its script, directly), after checking what a container gets wrong most:
# a data folder the server cannot write. The Docker image's entrypoint; CI runs it too
# (docker/smoke.sh). Arguments are passed on to the server.
#
# The server checks every setting itself at start (a wrong value stops it with every
# problem listed); this script only checks what it needs before that.
set -eu
cd "$(dirname "$0")/.."

fail() {
  echo "coldtrace: $*" >&2
  exit 1
}

# DATA_DIR holds the embedded PostgreSQL (without DATABASE_URL) and the generated
# secret key (without SECRET_KEY): then it must be a folder this user can write.
if [ -z "${DATABASE_URL:-}" ] || [ -z "${SECRET_KEY:-}" ]; then
  data_dir="${DATA_DIR:-./data}"
  mkdir -p "$data_dir" 2>/dev/null ||
    fail "cannot create DATA_DIR ($data_dir) as uid $(id -u)"
  [ -w "$data_dir" ] ||
    fail "DATA_DIR ($data_dir) is not writable by uid $(id -u): give the volume or folder to that user, or set DATABASE_URL and SECRET_KEY"
fi

# What `npm start` runs, without npm in between: npm exits on SIGTERM without waiting for
# its child, which would leave the server and its PostgreSQL running (and is no PID 1).
exec node apps/server/scripts/start.mjs "$@"
