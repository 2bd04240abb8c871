# docs-etl container: `docker build -t docs-etl .` (docs/container.md).
# Two stages: the build stage compiles TypeScript with the dev dependencies; the runtime stage has
# only the production dependencies, the compiled dist/, the launcher and the SQL files.
# Node 22 LTS (Node 20 left support in April 2026; the AWS SDK requires 22 from January 2027).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` (the build) needs the sources, which come next (better layer caching).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY pipelines ./pipelines
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would run the TypeScript build, which is done and has no compiler here.
# DuckDB's native binding is a prebuilt optional dependency for this platform; no install script.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/dist ./dist
COPY bin ./bin
COPY sql ./sql
# The state volume (warehouse, request log, lake) must be writable by the unprivileged user.
RUN chmod 0755 bin/docs-etl.js \
 && ln -s /app/bin/docs-etl.js /usr/local/bin/docs-etl \
 && mkdir -p /app/state \
 && chown node:node /app/state
USER node
VOLUME /app/state
# The request log stays in the volume (outside a container it defaults to the user's state folder).
ENV DOCS_ETL_BUDGET_DIR=/app/state/budget
# Healthy when every project's last run succeeded (or stopped on budget) within 26h, or a sync is
# running right now. Until the first run has finished it reports unhealthy: start with --run-now.
HEALTHCHECK --interval=5m --timeout=30s --start-period=2m --retries=3 CMD ["docs-etl", "status", "--check"]
# The entrypoint is the launcher: its shebang starts Node with the memory settings it reads only at
# start (src/core/node-flags.ts): glibc's MALLOC_ARENA_MAX=2 (an arena of freed memory per DuckDB
# thread otherwise) and V8's --optimize-for-size --max-semi-space-size=1. A full sync's peak RSS at
# 4M turns: about 400 MB with Node's defaults, under 300 MB with them, for about 30% more CPU time; a
# sync under the API's budget waits on requests, not the CPU (docs/sync.md, Memory and threads).
ENTRYPOINT ["/app/bin/docs-etl.js"]
CMD ["schedule", "--run-now"]
