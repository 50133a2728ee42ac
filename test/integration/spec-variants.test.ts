import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { L1ValidatorsDocument, NetworkValidatorsDocument } from '../__generated__/graphql.js';
import type { TestGateway } from '../support/gateway.js';
import { useSimAndGateway } from '../support/gateway.js';

/**
 * Spec-valid answers the simulator does not send by itself, served through a one-shot fault with the
 * answer's body: each must parse and render (issue 11, defect 1).
 */
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const rawGet = async (path: string) => (await fetch(`${sim.dataApiUrl}${path}`)).text();

describe('spec-valid variants', () => {
  it('an active validator with `geolocation: null` (required and nullable in the spec) renders with geolocation null', async () => {
    const nodeId = sim.world.selfNodeId;
    const path = `/v1/networks/mainnet/validators/${nodeId}?pageSize=100&validationStatus=active`;
    const body = JSON.parse(await rawGet(path)) as { validators: Record<string, unknown>[] };
    expect(body.validators.length).toBeGreaterThan(0);
    for (const v of body.validators) v.geolocation = null;
    sim.addFault({
      route: 'data-api GET /v1/networks/:network/validators/:nodeId',
      status: 200,
      body,
      count: 1,
    });
    const r = await gw.exec(NetworkValidatorsDocument, {
      network: 'mainnet',
      nodeId,
      validationStatus: 'ACTIVE' as never,
      first: 5,
    });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const nodes = r.data!.network.validators!.edges.map((e) => e.node as Record<string, unknown>);
    expect(nodes.length).toBe(Math.min(5, body.validators.length));
    for (const n of nodes) expect(n.geolocation ?? null).toBeNull();
  });

  it('L1 validator weight and remainingBalance above 2^53 render as exact decimal strings', async () => {
    const text = await rawGet('/v1/networks/mainnet/l1Validators?pageSize=100');
    const first = (
      JSON.parse(text) as {
        validators: { validationId: string; weight: number; remainingBalance: number }[];
      }
    ).validators[0]!;
    const big = '18446744073709551615'; // 2^64 - 1
    const big2 = '9007199254740993'; // 2^53 + 1: a float cannot hold it
    const patched = text
      .replace(`"weight":${first.weight}`, `"weight":${big}`)
      .replace(`"remainingBalance":${first.remainingBalance}`, `"remainingBalance":${big2}`);
    expect(patched).not.toBe(text);
    sim.addFault({
      route: 'data-api GET /v1/networks/:network/l1Validators',
      status: 200,
      body: patched,
      headers: { 'content-type': 'application/json' },
      count: 1,
    });
    const r = await gw.exec(L1ValidatorsDocument, { network: 'mainnet', first: 3 });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const v = r.data!.network.l1Validators!.edges.find(
      (e) => e.node.validationId === first.validationId,
    )!.node;
    expect(v.weight).toBe(big);
    expect(v.remainingBalance).toBe(big2);
  });
});
