# Two images from one file: the gateway (the default, last stage) and the upstream simulator (`--target
# simulator`, docker-compose.yml's `simulator` service), each only its own compiled code. Node.js 24 LTS;
# .ci/run runs the build and the unit, integration and e2e suites on the same major (package.json engines).
# Build stage: compile TypeScript to dist/ with the dev toolchain.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces' manifests: npm ci installs from the one lockfile, which names the simulator package.
COPY packages/simulator/package.json ./packages/simulator/
RUN npm ci --no-audit --no-fund --include=dev
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run -s build
COPY packages/simulator ./packages/simulator
RUN npm run -s -w @avalanche-gateway/simulator build

# The simulator (a dev and test tool): its compiled code and its own dependencies.
FROM node:24-bookworm-slim AS simulator
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY packages/simulator/package.json ./packages/simulator/
RUN npm ci --no-audit --no-fund --omit=dev
COPY --from=build /app/packages/simulator/dist ./packages/simulator/dist
EXPOSE 4010
USER node
CMD ["node", "packages/simulator/dist/main.js"]

# Runtime: plain node over the compiled JavaScript, production dependencies only.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# The workspace's manifest only (npm ci needs it for the lockfile): the simulator's code is not in here.
COPY packages/simulator/package.json ./packages/simulator/
RUN npm ci --no-audit --no-fund --omit=dev
COPY --from=build /app/dist ./dist
COPY schema ./schema
# V8's heap limit is Node's default unless NODE_OPTIONS sets one (docker-compose.yml does: 384 MB, for
# about half the resident memory under load, at some CPU and cold-path p99; see src/heap-limit.ts). A
# MEMORY_CACHE_MAX_BYTES that does not fit a set limit is refused at start-up, naming the value to set.
EXPOSE 4000
USER node
# One node process, so SIGTERM reaches the gateway (it drains in-flight requests; see README, Observability).
CMD ["node", "--enable-source-maps", "dist/server.js"]
