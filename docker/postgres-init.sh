#!/bin/sh
# The two roles Coldtrace uses (docs/security.md, "Running the two roles on your own
# PostgreSQL"), made by the postgres image the first time its volume is empty:
# compose.yaml mounts this file into /docker-entrypoint-initdb.d/.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v owner_password="$COLDTRACE_OWNER_PASSWORD" \
  -v app_password="$COLDTRACE_APP_PASSWORD" <<'SQL'
CREATE ROLE coldtrace_owner LOGIN PASSWORD :'owner_password';
-- NOSUPERUSER NOCREATEDB NOCREATEROLE by default: it owns nothing.
CREATE ROLE coldtrace_app LOGIN PASSWORD :'app_password';
CREATE DATABASE coldtrace OWNER coldtrace_owner;
\connect coldtrace
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SQL
