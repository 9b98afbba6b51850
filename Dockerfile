# syntax=docker/dockerfile:1
#
# Coldtrace in one image: the built server and web app, production dependencies only.
#
#   docker build -t coldtrace .
#   docker run -p 8000:8000 -v coldtrace-data:/data coldtrace
#
# Without DATABASE_URL the server starts its embedded PostgreSQL in /data (a volume:
# keep it). compose.yaml runs it with a PostgreSQL server instead.

ARG NODE_IMAGE=node:24-slim

# --- build: every dependency, then `npm run build` (the server bundle and the web app) ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests first: the install layer is reused until a dependency changes.
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/domain/package.json packages/domain/
RUN npm ci --no-audit --no-fund
COPY . .
# VITE_MAP_TILE_URL and VITE_MAP_TILE_ATTRIBUTION are baked into the web app (README).
ARG VITE_MAP_TILE_URL=
ARG VITE_MAP_TILE_ATTRIBUTION=
RUN npm run build

# --- runtime: production dependencies, the sources the build was made from, the build ---
FROM ${NODE_IMAGE} AS runtime
# The server allows the tile host in its Content-Security-Policy: the same value as the
# build's (blank: OpenStreetMap). WEB_DIST: serve the web build as it is (`npm start`
# checks only the server build against its sources).
ARG VITE_MAP_TILE_URL=
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    PORT=8000 \
    DATA_DIR=/data \
    WEB_DIST=/app/apps/web/dist \
    VITE_MAP_TILE_URL=${VITE_MAP_TILE_URL}
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/domain/package.json packages/domain/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# The same sources as the build stage: `npm start` finds the build current (its stamp is
# a hash of them) and runs it without rebuilding (it could not: no build tools here).
COPY . .
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# The data folder belongs to the user the server runs as (the node image's `node`, uid
# 1000); a new named volume mounted on it takes that owner.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
# Node's fetch, no curl in the slim image. The first start creates the database and
# seeds the demo data: allowed a minute before failures count.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/api/health/').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
