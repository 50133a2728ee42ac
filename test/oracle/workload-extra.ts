import { ledgerOf } from '@avalanche-gateway/simulator/node-rpc/ledger.js';
import type { World } from '@avalanche-gateway/simulator/world/index.js';
import type { GraphQLSchema } from 'graphql';
import { cb58Encode } from '../../src/upstream/schemas/node-codec.js';
import { type ArgValues, type Step, selectionOf, type WorldIds } from './workload.js';

/**
 * Hand-written steps for what the generated ones cannot reach: arguments that are optional yet
 * decide what is read (a named block, storage keys, percentiles, a logs range), fields of a
 * concrete type behind an interface (a collection's tokens, a validator's proposed blocks), and the
 * federation roots. Their selections are generated (`selectionOf`), so a new field of these types
 * enters the workload by itself.
 */

/** The world's ids the fixtures do not name. */
export function worldIds(world: World): WorldIds {
  const x = world.primary.mainnet.xChain;
  return {
    cAtomicTxId: [...ledgerOf(world).cAtomicTxs.keys()][0],
    xTxId: x.txs[0]?.id,
    xAssetId: x.assets[0]?.assetId,
    pTxHash: world.primary.mainnet.stakingTxs[0]?.txHash,
  };
}

/** A well-formed node id no world knows. */
const UNKNOWN_NODE = `NodeID-${cb58Encode(new Uint8Array(20).fill(7))}`;

export function extraSteps(schema: GraphQLSchema, args: ArgValues, world: World): Step[] {
  const f = world.fixtures;
  const sel = (type: string, op: string, depth = 2) => selectionOf(schema, type, op, args, depth);
  const step = (name: string, query: string, variables: Record<string, unknown> = {}): Step => ({
    name,
    query,
    variables,
    pages: query.includes('$after'),
  });
  const holder = f.busyAddress;
  const balanceOf = `0x70a08231${holder.slice(2).toLowerCase().padStart(64, '0')}`;
  /** Every read of an account at a block: balance, nonce, code, storage, calls, ERC-20, proof. */
  const account = (proof: boolean) =>
    `address blockNumber balance nonce code storage(slot: "0x1") call(data: "${balanceOf}") estimateGas(data: "${balanceOf}", from: "${holder}") erc20 { balanceOf(owner: "${holder}") symbol decimals }${proof ? ` proof(storageKeys: ["0x0", "0x1"]) { ${sel('EvmAccountProof', 'x:proof')} }` : ''}`;
  const state = (proof: boolean, logs: string) =>
    `chainId blockNumber blockHash stateRoot timestamp token: account(address: "${f.contracts.erc20}") { ${account(proof)} } holder: account(address: "${holder}") { address balance nonce } logs(${logs}first: 3, after: $after) { edges { cursor node { ${sel('EvmLog', 'x:logs')} } } pageInfo { hasNextPage endCursor } } feeHistory(blockCount: 4, rewardPercentiles: [10, 50, 90]) { oldestBlock baseFeePerGas gasUsedRatio reward { percentiles } }`;
  const named = f.blockNumber;
  const validators = world.primary.mainnet.validators;
  const statusesOf = (id: string) => validators.filter((v) => v.nodeId === id).map((v) => v.status);
  const ids = [...new Set(validators.flatMap((v) => (v.nodeId ? [v.nodeId] : [])))];
  const lowUptime = validators.find((v) => v.status === 'active' && v.uptime < 90)?.nodeId;
  const veteran = ids.find((id) => statusesOf(id).filter((s) => s === 'completed').length > 1);
  const rewardNodes: Record<string, string[]> = {
    unknown: [UNKNOWN_NODE],
    ...(lowUptime ? { lowUptime: [lowUptime] } : {}),
    ...(veteran ? { pastValidator: [veteran], mixed: [UNKNOWN_NODE, veteran] } : {}),
  };
  const contract = (kind: 'Erc721Contract' | 'Erc1155Contract', address: string) =>
    step(
      `x:${kind}.tokens`,
      `query X($after: String) { address(chainId: "43114", address: "${address}") { contract { __typename ... on ${kind} { tokens(first: 3, after: $after) { edges { cursor node { ${sel('NftToken', 'x:tokens', 3)} } } pageInfo { hasNextPage endCursor } } } } } }`,
    );
  return [
    // EVM state at `latest` (head-resolved: the head class) and at a block named by number and by hash.
    step(
      'x:evmState.latest',
      `query X($after: String) { evmState(chainId: "43114") { ${state(true, '')} } }`,
    ),
    step(
      'x:evmState.number',
      `query X($after: String) { evmState(chainId: "43114", block: "${named}") { ${state(false, `startBlock: "${named - 40}", `)} } }`,
    ),
    step(
      'x:evmState.hash',
      `query X($after: String) { evmState(chainId: "43114", block: "${f.blockHash}") { ${state(false, '')} } }`,
    ),
    step(
      'x:address.state',
      `query X { address(chainId: "43114", address: "${holder}") { address latest: state { ${account(true)} } named: state(block: "${named}") { address blockNumber balance nonce code } } }`,
    ),
    step(
      'x:block.state',
      `query X($after: String) { block(chainId: "43114", id: "${named}") { number hash state { ${state(false, '')} } } }`,
    ),
    step(
      'x:l1.evmState',
      `query X { evmState(chainId: "${f.l1ChainId}") { blockNumber holder: account(address: "${holder}") { balance nonce } } }`,
    ),
    contract('Erc721Contract', f.contracts.erc721),
    contract('Erc1155Contract', f.contracts.erc1155),
    step(
      'x:validator.proposedBlocks',
      `query X { network(name: "mainnet") { validators(first: 2) { edges { node { __typename nodeId proposedBlocks(first: 2) { edges { cursor node { ${sel('PChainBlock', 'x:proposed', 3)} } } pageInfo { hasNextPage endCursor } } } } } } }`,
    ),
    step(
      'x:validator.delegators',
      `query X { network(name: "mainnet") { validators(first: 2) { edges { node { __typename nodeId delegators(first: 3) { edges { cursor node { ${sel('ActiveDelegator', 'x:vdel', 2)} } } pageInfo { hasNextPage endCursor } } } } } } }`,
    ),
    step(
      'x:transaction.logs',
      `query X { transaction(chainId: "43114", hash: "${f.txHash}") { hash logs { ${sel('EvmLog', 'x:txlogs')} } } }`,
    ),
    step(
      'x:subnet.validators',
      `query X { network(name: "mainnet") { subnet(subnetId: "${f.l1SubnetId}") { subnetId validators(first: 2) { edges { cursor node { __typename nodeId } } pageInfo { hasNextPage endCursor } } l1Validators(first: 2) { edges { cursor node { ${sel('L1Validator', 'x:l1v', 3)} } } pageInfo { hasNextPage endCursor } } } } }`,
    ),
    step(
      'x:_entities',
      `query X($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Chain { chainId name } ... on Block { number hash baseFee } ... on Transaction { hash } ... on Address { address balance { balance } } } }`,
      {
        r: [
          { __typename: 'Chain', chainId: '43114' },
          { __typename: 'Block', chainId: '43114', number: String(named) },
          { __typename: 'Transaction', chainId: '43114', hash: f.txHash },
          { __typename: 'Address', chainId: '43114', address: holder },
        ],
      },
    ),
    step('x:_service', 'query X { _service { sdl } }'),
    // Pending rewards of nodes asked alone: derived "none" for nodes with no stake now (a node the
    // network never saw, a node that validated before: whether all its validations ended moves as the world does), read for the others (one under 90 % uptime,
    // which the validators route leaves out by default, and one of each asked together).
    ...Object.entries(rewardNodes).map(([name, nodeIds]) =>
      step(
        `x:pendingRewards.${name}`,
        `query X($after: String) { network(name: "mainnet") { pendingRewards(nodeIds: ${JSON.stringify(nodeIds)}, first: 3, after: $after) { edges { cursor node { ${sel('PendingReward', 'x:pending', 2)} } } pageInfo { hasNextPage endCursor } } } }`,
      ),
    ),
  ];
}
