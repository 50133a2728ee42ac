import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  ChainAvgTpsDocument,
  ChainMetricSeriesDocument,
  IcmMessagesDocument,
  L1ValidatorsDocument,
  NetworkValidatorsDocument,
  PrimaryBalancesDocument,
  StakingTransactionsDocument,
  ValidatorNodeDocument,
} from '../__generated__/graphql.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { expectBadInput, globalId } from './primary-support.js';

/**
 * Every primary-network, ICM and metrics input is checked before any upstream call: each bad value is a
 * BAD_USER_INPUT naming its argument, and the simulator counts no call at all.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let pAddr: string;
let fujiAddr: string;
let nodeId: string;
let validationId: string;

/** The same string with its last character changed: the checksum no longer verifies. */
const corrupt = (s: string) => `${s.slice(0, -1)}${s.endsWith('q') ? 'p' : 'q'}`;
const corruptB58 = (s: string) => `${s.slice(0, -1)}${s.endsWith('2') ? '3' : '2'}`;

useSimAndGateway({}, (s, g) => {
  sim = s;
  gw = g;
  pAddr = sim.world.fixtures.pChainAddress;
  fujiAddr = sim.world.primary.fuji.pAddresses[0]!;
  nodeId = sim.world.selfNodeId;
  validationId = sim.world.primary.mainnet.l1Validators[0]!.validationId;
});

async function bad(result: Promise<Parameters<typeof expectBadInput>[0]>, argument: string) {
  expectBadInput(await result, argument);
  expect(sim.stats().total).toBe(0);
}

describe('network names', () => {
  it.each(['devnet', 'Main net', '', 'local'])('network(name: %j)', (name) =>
    bad(gw.exec(NetworkValidatorsDocument, { network: name, nodeId }), 'name'),
  );
  it('icmMessages(network: "devnet")', () =>
    bad(
      gw.exec(IcmMessagesDocument, { address: sim.world.fixtures.icmAddress, network: 'devnet' }),
      'network',
    ));
});

describe('node ids', () => {
  it.each([
    ['a bad checksum', () => corruptB58(nodeId)],
    ['no NodeID- prefix', () => nodeId.slice('NodeID-'.length)],
    ['a 32-byte id', () => `NodeID-${validationId}`],
    ['not base58', () => 'NodeID-0OIl0OIl0OIl0OIl0OIl0OIl0OIl'],
  ])('validators(nodeId: %s)', (_what, value) =>
    bad(gw.exec(NetworkValidatorsDocument, { network: 'mainnet', nodeId: value() }), 'nodeId'),
  );
  it('l1Validators(nodeId: bad checksum)', () =>
    bad(
      gw.exec(L1ValidatorsDocument, { network: 'mainnet', nodeId: corruptB58(nodeId) }),
      'nodeId',
    ));
});

describe('CB58 ids with checksum', () => {
  it('l1Validators(l1ValidationId)', () =>
    bad(
      gw.exec(L1ValidatorsDocument, {
        network: 'mainnet',
        l1ValidationId: corruptB58(validationId),
      }),
      'l1ValidationId',
    ));
  it('l1Validators(subnetId)', () =>
    bad(
      gw.exec(L1ValidatorsDocument, {
        network: 'mainnet',
        subnetId: corruptB58(sim.world.fixtures.l1SubnetId),
      }),
      'subnetId',
    ));
  it('a node id whose parts do not check', () =>
    bad(
      gw.exec(ValidatorNodeDocument, {
        id: globalId('ActiveValidator', `mainnet:${nodeId}:${corruptB58(validationId)}`),
      }),
      'id',
    ));
  it('a node id on an unknown network', () =>
    bad(
      gw.exec(ValidatorNodeDocument, {
        id: globalId('CompletedValidator', `devnet:${nodeId}:${validationId}`),
      }),
      'id',
    ));
});

describe('P/X addresses: bech32 with the network’s prefix, optional P-/X-, checksum verified', () => {
  it.each([
    ['a bad checksum', () => corrupt(pAddr)],
    ['a fuji address on mainnet', () => fujiAddr],
    ['a C- prefix', () => `C-${pAddr}`],
    ['an EVM address', () => '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'],
    ['mixed case', () => pAddr.slice(0, 10) + pAddr.slice(10).toUpperCase()],
  ])('stakingTransactions(addresses: %s)', (_what, value) =>
    bad(
      gw.exec(StakingTransactionsDocument, { network: 'mainnet', addresses: [pAddr, value()] }),
      'addresses',
    ),
  );
  it('balances(addresses: [])', () =>
    bad(
      gw.exec(PrimaryBalancesDocument, {
        network: 'mainnet',
        blockchain: 'P_CHAIN',
        addresses: [],
      }),
      'addresses',
    ));
  it('balances(addresses: a mainnet address on fuji)', () =>
    bad(
      gw.exec(PrimaryBalancesDocument, {
        network: 'fuji',
        blockchain: 'X_CHAIN',
        addresses: [`X-${pAddr}`],
      }),
      'addresses',
    ));
  it('accepts P-, X- and bare forms of a valid address', async () => {
    for (const a of [pAddr, `P-${pAddr}`, `X-${pAddr}`]) {
      const r = await gw.exec(PrimaryBalancesDocument, {
        network: 'mainnet',
        blockchain: 'P_CHAIN',
        addresses: [a],
      });
      expect(r.errors).toBeUndefined();
    }
  });
});

describe('timestamps ≥ 0', () => {
  it('stakingTransactions(startTimestamp: -1)', () =>
    bad(
      gw.exec(StakingTransactionsDocument, { network: 'mainnet', startTimestamp: -1 }),
      'startTimestamp',
    ));
  it('stakingTransactions(endTimestamp: -1)', () =>
    bad(
      gw.exec(StakingTransactionsDocument, { network: 'mainnet', endTimestamp: -1 }),
      'endTimestamp',
    ));
  it('stakingTransactions(start after end)', () =>
    bad(
      gw.exec(StakingTransactionsDocument, {
        network: 'mainnet',
        startTimestamp: 20,
        endTimestamp: 10,
      }),
      'endTimestamp',
    ));
  it('balances(blockTimestamp: -1)', () =>
    bad(
      gw.exec(PrimaryBalancesDocument, {
        network: 'mainnet',
        blockchain: 'C_CHAIN',
        addresses: [pAddr],
        blockTimestamp: -1,
      }),
      'blockTimestamp',
    ));
  it('avgTps(startTimestamp: -5)', () =>
    bad(gw.exec(ChainAvgTpsDocument, { chainId: '43114', startTimestamp: -5 }), 'startTimestamp'));
  it('series(start after end)', () =>
    bad(
      gw.exec(ChainMetricSeriesDocument, {
        chainId: '43114',
        metric: 'TX_COUNT',
        startTimestamp: 20,
        endTimestamp: 10,
      }),
      'endTimestamp',
    ));
});

describe('other metrics and ICM inputs', () => {
  it('avgTps is per day only', () =>
    bad(gw.exec(ChainAvgTpsDocument, { chainId: '43114', timeInterval: 'HOUR' }), 'timeInterval'));
  it('a cumulative series is per day only', () =>
    bad(
      gw.exec(ChainMetricSeriesDocument, {
        chainId: '43114',
        metric: 'CUMULATIVE_ADDRESSES',
        timeInterval: 'WEEK',
      }),
      'timeInterval',
    ));
  it.each(['0x123', 'avax1abc', '0xZZ3b2784c75e510dD0fF1da844684a1aC0aa5fcf'])(
    'icmMessages(address: %j)',
    (address) => bad(gw.exec(IcmMessagesDocument, { address }), 'address'),
  );
  it('first beyond the maximum', () =>
    bad(
      gw.exec(IcmMessagesDocument, { address: sim.world.fixtures.icmAddress, first: 100_000 }),
      'first',
    ));
});

describe('upstream answers that break their contract are UPSTREAM_ERROR for that field, never a crash', () => {
  const route = (r: string) => `data-api GET ${r}`;
  it.each([
    [
      'validators',
      route('/v1/networks/:network/validators/:nodeId'),
      { validators: [{ txHash: 'x', validationStatus: 'retired' }] },
    ],
    ['l1Validators', route('/v1/networks/:network/l1Validators'), { validators: [] }],
    [
      'stakingTransactions',
      route('/v1/networks/:network/blockchains/:blockchainId/transactions:listStaking'),
      { transactions: [{ txHash: 1 }], chainInfo: { chainName: 'p-chain', network: 'mainnet' } },
    ],
    [
      'balances',
      route('/v1/networks/:network/blockchains/:blockchainId/balances'),
      { balances: {}, chainInfo: { chainName: 'd-chain', network: 'mainnet' } },
    ],
    [
      'icmMessages',
      route('/v1/icm/addresses/:address/messages'),
      { messages: [{ messageId: 'a', status: 'lost' }] },
    ],
    [
      'metrics',
      'metrics-api GET /v2/chains/:chainId/metrics/:metric',
      { results: [{ timestamp: 1, value: 'many' }] },
    ],
  ])('%s', async (field, faultRoute, body) => {
    sim.addFault({ route: faultRoute, status: 200, body, count: 1 });
    const r =
      field === 'validators'
        ? await gw.exec(NetworkValidatorsDocument, { network: 'mainnet', nodeId })
        : field === 'l1Validators'
          ? await gw.exec(L1ValidatorsDocument, { network: 'mainnet' })
          : field === 'stakingTransactions'
            ? await gw.exec(StakingTransactionsDocument, { network: 'mainnet', first: 1 })
            : field === 'balances'
              ? await gw.exec(PrimaryBalancesDocument, {
                  network: 'mainnet',
                  blockchain: 'P_CHAIN',
                  addresses: [sim.world.primary.mainnet.pAddresses[7]!],
                })
              : field === 'icmMessages'
                ? await gw.exec(IcmMessagesDocument, { address: sim.world.fixtures.icmAddress })
                : await gw.exec(ChainAvgTpsDocument, { chainId: '43114', first: 1 });
    expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['UPSTREAM_ERROR']);
    expect(r.errors![0]!.path?.at(-1)).toBe(field === 'metrics' ? 'avgTps' : field);
  });

  it('a body that is not JSON', async () => {
    sim.addFault({
      route: 'data-api GET /v1/icm/addresses/:address/messages',
      malformed: true,
      count: 1,
    });
    const r = await gw.exec(IcmMessagesDocument, { address: sim.world.fixtures.icmAddress });
    expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['UPSTREAM_ERROR']);
    expect(r.data!.icmMessages).toBeNull();
  });
});
