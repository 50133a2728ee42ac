import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { buildGateway, rssMb } from './serve-command.js';

/**
 * `npx tsx bench/idle-rss.ts`: start-up time and idle resident memory of the gateway as `npm start` runs
 * it (`node --enable-source-maps dist/server.js`, no Redis, no upstream traffic). Samples RSS every
 * second for IDLE_SECONDS (default 45) and reports it at the first `/live` answer, 5 s later, and at the
 * end: V8 shrinks the young generation and returns start-up garbage to the system once the process has
 * been idle for a while (its memory reducer), so "just started" and "idle" are different numbers.
 */
const SECONDS = Number(process.env.IDLE_SECONDS ?? 45);
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const PORT = Number(process.env.PORT ?? (await freePort()));
const { REDIS_URL: _redis, ...withoutRedis } = process.env;
buildGateway();
const started = Date.now();
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server.js'], {
  // No Redis: the process as a fresh `npm start` runs it.
  env: { ...withoutRedis, PORT: String(PORT), LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const rss = () => rssMb(child.pid);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let readyMs = -1;
for (let i = 0; i < 300 && readyMs < 0; i++) {
  const ok = await fetch(`http://127.0.0.1:${PORT}/live`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) readyMs = Date.now() - started;
  else await sleep(50);
}
if (readyMs < 0) throw new Error('the gateway did not answer /live');
const samples: number[] = [rss()];
for (let s = 1; s <= SECONDS; s++) {
  await sleep(1000);
  samples.push(rss());
}
child.kill('SIGTERM');
console.log(
  `ready in ${readyMs} ms; RSS at ready ${samples[0]} MB, after ${Math.min(5, SECONDS)} s ${samples[Math.min(5, SECONDS)]} MB, after ${SECONDS} s idle ${samples.at(-1)} MB (min ${Math.min(...samples)})`,
);
console.log(`per second: ${samples.join(' ')}`);
