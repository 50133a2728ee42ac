import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  PrimaryBalancesDocument,
  StakingTransactionLinksDocument,
  StakingTransactionNodeDocument,
  StakingTransactionsDocument,
} from '../__generated__/graphql.js';
import { codes, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { readSpecJson } from '../support/specs.js';
import {
  globalId,
  iso,
  orNull,
  routeCalls,
  settle,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/** Network.stakingTransactions (with typed genesis data) and Network.balances, against the simulator's own answers. */
const STAKING_ROUTE =
  'data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions:listStaking';
const STAKING_PATH = '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking';

let sim: RunningSimulator;
let gw: TestGateway;
let owner: string;
// One query below follows 60 staking transactions to their validators (about 12,000 CU, twice the
// default limit): what it checks is the links, so this gateway's limit is raised.
useSimAndGateway({ redis: true, gateway: { env: { MAX_QUERY_COST: '20000' } } }, (s, g) => {
  sim = s;
  gw = g;
  owner = sim.world.fixtures.pChainAddress;
});

const asset = (a: any) => ({ ...a, type: a.type.toUpperCase() });
const utxo = (u: any) => ({
  utxoId: u.utxoId,
  txHash: u.txHash,
  outputIndex: u.outputIndex,
  addresses: u.addresses,
  threshold: orNull(u.threshold),
  asset: asset(u.asset),
  amount: u.amount,
  assetId: u.assetId,
  utxoType: u.utxoType,
  staked: orNull(u.staked),
  rewardType: orNull(u.rewardType),
  createdOnChainId: u.createdOnChainId,
  consumedOnChainId: u.consumedOnChainId,
  blockNumber: u.blockNumber,
  blockTimestamp: u.blockTimestamp,
  consumingTxHash: orNull(u.consumingTxHash),
  consumingBlockNumber: orNull(u.consumingBlockNumber),
  consumingBlockTimestamp: orNull(u.consumingBlockTimestamp),
  platformLocktime: orNull(u.platformLocktime),
  stakeableLocktime: orNull(u.stakeableLocktime),
  utxoStartTimestamp: orNull(u.utxoStartTimestamp),
  utxoEndTimestamp: orNull(u.utxoEndTimestamp),
  utxoBytes: orNull(u.utxoBytes),
});

/** The GraphQL rendering of one upstream P-Chain transaction, except `blockchainInfo` (checked on its own). */
function expectedTx(tx: any, network: string) {
  return {
    id: globalId('StakingTransaction', `${network}:${tx.txHash}`),
    network,
    txHash: tx.txHash,
    txType: tx.txType,
    blockNumber: tx.blockNumber,
    blockHash: tx.blockHash,
    blockTimestamp: tx.blockTimestamp,
    blockTimestampIso: iso(tx.blockTimestamp),
    consumedUtxos: tx.consumedUtxos.map(utxo),
    emittedUtxos: tx.emittedUtxos.map(utxo),
    sourceChain: orNull(tx.sourceChain),
    destinationChain: orNull(tx.destinationChain),
    value: tx.value.map(asset),
    amountBurned: tx.amountBurned.map(asset),
    amountStaked: tx.amountStaked.map(asset),
    amountL1ValidatorBalanceBurned: tx.amountL1ValidatorBalanceBurned.map(asset),
    startTimestamp: orNull(tx.startTimestamp),
    endTimestamp: orNull(tx.endTimestamp),
    delegationFeePercent: orNull(tx.delegationFeePercent),
    nodeId: orNull(tx.nodeId),
    subnetId: orNull(tx.subnetId),
    estimatedReward: orNull(tx.estimatedReward),
    rewardTxHash: orNull(tx.rewardTxHash),
    rewardAddresses: tx.rewardAddresses ?? [],
    memo: orNull(tx.memo),
    stakingTxHash: orNull(tx.stakingTxHash),
    blsCredentials: orNull(tx.blsCredentials),
    l1ValidatorManagerDetails: orNull(tx.l1ValidatorManagerDetails),
    l1ValidatorDetails: (tx.l1ValidatorDetails ?? []).map((d: any) => ({
      validationId: d.validationId,
      validationIdHex: d.validationIdHex,
      nodeId: d.nodeId,
      subnetId: d.subnetId,
      weight: String(d.weight),
      remainingBalance: String(d.remainingBalance),
      balanceChange: d.balanceChange == null ? null : String(d.balanceChange),
      blsCredentials: d.blsCredentials
        ? {
            publicKey: orNull(d.blsCredentials.publicKey),
            proofOfPossession: orNull(d.blsCredentials.proofOfPossession),
          }
        : null,
    })),
    subnetOwnershipInfo: orNull(tx.subnetOwnershipInfo),
  };
}

const stakingEdges = (vars: Record<string, unknown>, first: number) =>
  walk(async (after) => {
    const r = await gw.exec(StakingTransactionsDocument, {
      network: 'mainnet',
      first,
      after,
      ...vars,
    });
    expect(r.errors).toBeUndefined();
    return r.data!.network.stakingTransactions!;
  });

describe('Network.stakingTransactions', () => {
  it('pages an owner’s active staking transactions to the end, every field the upstream’s, with chainInfo', async () => {
    const expected = await upstreamWalk(sim.dataApiUrl, STAKING_PATH, 'transactions', {
      addresses: owner,
    });
    expect(expected.length).toBeGreaterThan(100);
    sim.reset();
    const edges = await stakingEdges({ addresses: [`P-${owner}`] }, 45);
    expect(
      edges.map(({ node: { blockchainInfo, ...rest } }) => {
        expect(blockchainInfo).toBeNull();
        return rest;
      }),
    ).toEqual(expected.map((t) => expectedTx(t, 'mainnet')));
    expect(new Set(edges.map((e) => e.node.txHash)).size).toBe(expected.length);
    expect(routeCalls(sim)).toEqual({ [STAKING_ROUTE]: Math.ceil(expected.length / 100) });
    const head = await gw.exec(StakingTransactionsDocument, {
      network: 'mainnet',
      addresses: [owner],
      first: 1,
    });
    expect(head.data!.network.stakingTransactions!.chainInfo).toEqual({
      chainName: 'P_CHAIN',
      network: 'mainnet',
    });
  });

  it('txTypes, time range and sortOrder reach the upstream (txTypes as a repeated parameter)', async () => {
    const txTypes = ['AddPermissionlessDelegatorTx', 'AddDelegatorTx'];
    const range = { startTimestamp: sim.world.now - 200 * 86_400, endTimestamp: sim.world.now };
    const expected = await upstreamWalk(sim.dataApiUrl, STAKING_PATH, 'transactions', {
      txTypes,
      sortOrder: 'asc',
      ...range,
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(expected.map((t) => t.txType)).size).toBeGreaterThan(0);
    const edges = await stakingEdges(
      { txTypes: ['AddDelegatorTx', 'AddPermissionlessDelegatorTx'], sortOrder: 'ASC', ...range },
      100,
    );
    expect(edges.map((e) => e.node.txHash)).toEqual(expected.map((t) => t.txHash));
    expect(edges.every((e) => txTypes.includes(e.node.txType))).toBe(true);
  });

  it('links a validator tx to its period and a delegation to the period it delegates to; a period back to its tx', async () => {
    const r = await gw.exec(StakingTransactionLinksDocument, {
      network: 'mainnet',
      addresses: [owner],
      first: 60,
    });
    expect(r.errors).toBeUndefined();
    const edges = r.data!.network.stakingTransactions!.edges;
    const kinds = new Set<string>();
    for (const { node: tx } of edges) {
      const v = tx.validator!;
      expect(v.nodeId).toBe(tx.nodeId);
      if (tx.txType.includes('Validator')) {
        kinds.add('validator');
        expect(v.txHash).toBe(tx.txHash);
        expect(v.stakingTransaction!.txHash).toBe(tx.txHash);
      } else {
        kinds.add('delegator');
        expect(v.startTimestamp).toBeLessThanOrEqual(tx.startTimestamp!);
        expect(v.endTimestamp).toBeGreaterThan(tx.startTimestamp!);
        const upstream = sim.world.primary.mainnet.validators.find((p) => p.txHash === v.txHash)!;
        expect(upstream.nodeId).toBe(tx.nodeId);
      }
    }
    expect(kinds).toEqual(new Set(['validator', 'delegator']));
  });

  it('node(id) refetches a staking transaction through get-by-hash; twice in a query is one call', async () => {
    const [tx] = await upstreamWalk(sim.dataApiUrl, STAKING_PATH, 'transactions', {
      addresses: owner,
    });
    sim.reset();
    const id = globalId('StakingTransaction', `mainnet:${tx.txHash}`);
    const r = await gw.exec(StakingTransactionNodeDocument, { id });
    expect(r.errors).toBeUndefined();
    const { __typename, blockchainInfo, ...rest } = r.data!.node as any;
    expect(__typename).toBe('StakingTransaction');
    expect(blockchainInfo).toBeNull();
    expect(rest).toEqual(expectedTx(tx, 'mainnet'));
    expect(routeCalls(sim)).toEqual({
      'data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions/:txHash': 1,
    });
    const missing = globalId('StakingTransaction', 'mainnet:11111111111111111111111111111111LpoYY');
    expect(codes(await gw.exec(StakingTransactionNodeDocument, { id: missing }))).toEqual([
      'NOT_FOUND',
    ]);
  });
});

describe('L1 and chain-creation transactions: genesis data, validator details and ownership all typed', () => {
  // The simulator's P-Chain holds staking transactions only; these types are injected once, in the real shape,
  // their genesis taken from the real spec's own example.
  const example = readSpecJson('examples/data-api/getTxByHash.response.PChainTransaction.json');

  it('renders ConvertSubnetToL1Tx and CreateChainTx (EVM and raw genesis) field for field', async () => {
    const [base] = (await upstreamGet(sim.dataApiUrl, STAKING_PATH, { pageSize: 1 })).transactions;
    const convert = {
      ...base,
      txType: 'ConvertSubnetToL1Tx',
      txHash: 'H86qtcRXMz4wwADdP2qXW8Td4J5RGj8LEP2NrUjQeg3knnG6X',
      amountStaked: [],
      l1ValidatorManagerDetails: {
        blockchainId: sim.world.fixtures.l1SubnetId,
        contractAddress: '0x0feedc0de0000000000000000000000000000000',
      },
      l1ValidatorDetails: [
        {
          validationId: 'wdusvX2J5GM22PRTzeBKWa4XDvcMMHhW1vEhWDTNrQsDoB2yh',
          validationIdHex: '0xab',
          nodeId: sim.world.selfNodeId,
          subnetId: sim.world.fixtures.l1SubnetId,
          weight: 100,
          remainingBalance: 5_000_000_000,
          balanceChange: 5_000_000_000,
          blsCredentials: { publicKey: '0x01', proofOfPossession: '0x02' },
        },
      ],
      subnetOwnershipInfo: example.subnetOwnershipInfo,
    };
    const evm = {
      ...base,
      txType: 'CreateChainTx',
      txHash: '2BV5dxB4sBQYGyhR3FibWMKhWYNDGBDDMhrfztGfg6r2iDri4Q',
      blockchainInfo: {
        ...example.blockchainInfo,
        chainName: 'Sim L1',
        vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
      },
    };
    const raw = {
      ...base,
      txType: 'CreateChainTx',
      txHash: '2m865vsv61A9bRTk5qyWFDQFURY6UbMdNY5qUbtPt2VgR9WSYy',
      blockchainInfo: {
        chainName: 'Other VM',
        vmId: 'qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT',
        genesisData: '{"custom":true}',
      },
    };
    sim.addFault({
      route: STAKING_ROUTE,
      status: 200,
      body: {
        transactions: [convert, evm, raw],
        chainInfo: { chainName: 'p-chain', network: 'mainnet' },
      },
      count: 1,
    });
    const r = await gw.exec(StakingTransactionsDocument, {
      network: 'mainnet',
      txTypes: ['ConvertSubnetToL1Tx', 'CreateChainTx'],
      first: 3,
    });
    expect(r.errors).toBeUndefined();
    const [c, e, w] = r.data!.network.stakingTransactions!.edges.map((x) => x.node);
    expect({ ...c!, blockchainInfo: undefined }).toEqual({
      ...expectedTx(convert, 'mainnet'),
      blockchainInfo: undefined,
    });
    expect(c!.l1ValidatorDetails[0]!.weight).toBe('100');
    expect(w!.blockchainInfo).toEqual({
      chainName: 'Other VM',
      vmId: raw.blockchainInfo.vmId,
      genesisData: { __typename: 'RawGenesis', raw: '{"custom":true}' },
    });
    const g = example.blockchainInfo.genesisData;
    const allow = (a: any) => ({
      blockTimestamp: a.blockTimestamp,
      adminAddresses: a.adminAddresses,
      managerAddresses: a.managerAddresses,
      enabledAddresses: a.enabledAddresses,
    });
    const fee = g.config.feeConfig;
    expect(e!.blockchainInfo).toEqual({
      chainName: 'Sim L1',
      vmId: evm.blockchainInfo.vmId,
      genesisData: {
        __typename: 'EvmGenesis',
        airdropAmount: null,
        airdropHash: g.airdropHash,
        baseFeePerGas: null,
        blobGasUsed: null,
        coinbase: g.coinbase,
        difficulty: g.difficulty,
        excessBlobGas: null,
        extraData: g.extraData,
        gasLimit: g.gasLimit,
        gasUsed: g.gasUsed,
        mixHash: g.mixHash,
        nonce: g.nonce,
        number: g.number,
        parentHash: g.parentHash,
        timestamp: g.timestamp,
        alloc: Object.entries(g.alloc).map(([address, a]: [string, any]) => ({
          address,
          balance: a.balance,
          code: a.code,
          storage: Object.entries(a.storage).map(([slot, value]) => ({ slot, value })),
        })),
        config: {
          chainId: String(g.config.chainId),
          homesteadBlock: '0',
          eip150Block: '0',
          eip150Hash: g.config.eip150Hash,
          eip155Block: '0',
          eip158Block: '0',
          byzantiumBlock: '0',
          constantinopleBlock: '0',
          petersburgBlock: '0',
          istanbulBlock: '0',
          muirGlacierBlock: '0',
          berlinBlock: '0',
          londonBlock: '0',
          subnetEVMTimestamp: 0,
          allowFeeRecipients: false,
          feeConfig: Object.fromEntries(Object.entries(fee).map(([k, v]) => [k, String(v)])),
          warpConfig: g.config.warpConfig,
          txAllowListConfig: allow(g.config.txAllowListConfig),
          contractDeployerAllowListConfig: allow(g.config.contractDeployerAllowListConfig),
          contractNativeMinterConfig: allow(g.config.contractNativeMinterConfig),
          feeManagerConfig: allow(g.config.feeManagerConfig),
          rewardManagerConfig: allow(g.config.rewardManagerConfig),
        },
      },
    });
  });
});

describe('Network.balances: one type per chain kind', () => {
  const balance = (b: any) => ({
    ...b,
    type: b.type.toUpperCase(),
    ...('sharedWithChainId' in b ? { status: orNull(b.status) } : {}),
  });
  const render = (body: any) => {
    const out: Record<string, unknown> = {
      chainInfo: {
        chainName: body.chainInfo.chainName.replace('-', '_').toUpperCase(),
        network: body.chainInfo.network,
      },
    };
    for (const [k, v] of Object.entries(body.balances)) out[k] = (v as any[]).map(balance);
    return out;
  };

  it.each([
    ['P_CHAIN', 'p-chain', 'PChainBalances'],
    ['X_CHAIN', 'x-chain', 'XChainBalances'],
    ['C_CHAIN', 'c-chain', 'CChainAtomicBalances'],
  ] as const)(
    '%s balances of two addresses equal the upstream’s',
    async (blockchain, alias, typename) => {
      // A second address that differs from the owner (the fixtures' busiest X address may be the same one).
      const xAddress = sim.world.primary.mainnet.xChain.addresses.find((a) => a !== owner)!;
      const expected = await upstreamGet(
        sim.dataApiUrl,
        `/v1/networks/mainnet/blockchains/${alias}/balances`,
        { addresses: [owner, xAddress].sort().join(',') },
      );
      sim.reset();
      const r = await gw.exec(PrimaryBalancesDocument, {
        network: 'mainnet',
        blockchain,
        addresses: [`X-${xAddress}`, owner],
      });
      expect(r.errors).toBeUndefined();
      const { __typename, ...rest } = r.data!.network.balances as any;
      expect(__typename).toBe(typename);
      expect(rest).toEqual(render(expected));
      expect(Object.values(rest).some((v) => Array.isArray(v) && v.length > 0)).toBe(true);
      expect(sim.stats().total).toBe(1);
    },
  );

  it('the same addresses in another order or spelling share one cached answer', async () => {
    await gw.exec(PrimaryBalancesDocument, {
      network: 'mainnet',
      blockchain: 'P_CHAIN',
      addresses: [owner, sim.world.fixtures.xChainAddress],
      blockTimestamp: 1_700_000_000,
    });
    await settle(gw);
    sim.reset();
    const again = await gw.exec(PrimaryBalancesDocument, {
      network: 'mainnet',
      blockchain: 'P_CHAIN',
      addresses: [`X-${sim.world.fixtures.xChainAddress}`, `P-${owner}`],
      blockTimestamp: 1_700_000_000,
    });
    expect(again.errors).toBeUndefined();
    expect(sim.stats().total).toBe(0);
  });
});
