# The gateway and the simulator share this image (docker-compose.yml picks the command).
# Build stage: compile TypeScript to dist/ with the dev toolchain.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --include=dev
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run -s build

# Runtime: plain node over the compiled JavaScript, production dependencies only.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --omit=dev
COPY --from=build /app/dist ./dist
COPY schema ./schema
# V8's heap limit, as `npm start` sets it (src/heap-limit.ts): its heap grows by 1.35 instead of 4 times
# what a full collection leaves. Set NODE_OPTIONS to change it (a larger MEMORY_CACHE_MAX_BYTES needs more:
# the gateway refuses to start with a cache that does not fit, naming the value).
ENV NODE_OPTIONS=--max-old-space-size=384
EXPOSE 4000 4010
USER node
# One node process, so SIGTERM reaches the gateway (it drains in-flight requests; see README, Observability).
CMD ["node", "--enable-source-maps", "dist/server.js"]
