# The release image of the partner ordering service (docs/production.md, "The container"): built once, run
# from a pruned install as a non-root user, node itself as PID 1, the database on a volume.
# Its steps are the build-prune-start smoke test of .ci/run (scripts/smoke-production.mjs reads this file and
# runs them: the build stage's RUN steps after `npm ci`, the runtime stage's COPY list, ENV, ENTRYPOINT and
# HEALTHCHECK), so CI proves what the image does without a container engine.
#
#   docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD) -t partner-service .
#   docker run -d --name partner-service -p 127.0.0.1:8080:8080 -v partner-data:/data \
#     --env-file /etc/partner-service/env partner-service

# --- build: the whole install, the build, then the build tools pruned ---
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles its SQLite binding where its prebuilt binary cannot be fetched
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# the commit the start-up line and partner_service_build_info report (.git is not copied into the image)
ARG BUILD_COMMIT=unknown
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm run build -- --if-stale
RUN npm prune --omit=dev --no-audit --no-fund

# --- runtime: what the service reads, nothing else ---
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_PATH=/data/service.db \
    BACKUP_DIR=/data/backups
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/webapp/dist ./webapp/dist
# the database, its WAL, secret.key and the scheduled backups: one volume, owned by the service's user
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node as PID 1 (exec form, no shell): SIGTERM from `docker stop` reaches the service, which drains and exits 0
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "--max-semi-space-size=8", "dist/src/main.js"]
