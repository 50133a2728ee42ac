# The gateway and the simulator share this image (docker-compose.yml picks the command).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# tsx runs the TypeScript sources directly; it is a devDependency, so install everything.
RUN npm ci --no-audit --no-fund --include=dev
COPY tsconfig.json ./
COPY src ./src
COPY schema ./schema
EXPOSE 4000 4010
USER node
# One node process, so SIGTERM reaches the gateway (it drains in-flight requests; see README, Observability).
CMD ["node", "--import", "tsx", "src/server.ts"]
