import type { GatewayContext } from '../../context.js';
import type { NodeRpcClient } from '../../upstream/node-rpc.js';
import type { UpstreamRequest } from '../../upstream/request.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
import {
  AcpPreferenceRef,
  FeatureExtensionRef,
  NetworkUpgradesRef,
  NodeProofOfPossessionRef,
  NodeTxFeesRef,
  NodeUptimeRef,
  NodeVersionRef,
  VirtualMachineRef,
} from './network-node-info.js';
import { nodeByName, parseChainRef, parseId } from './network-node-inputs.js';

/**
 * An AvalancheGo node the operator configured (`NODE_RPC_URL`: one URL or `name=url,…`, the first being the
 * default). Clients address nodes by name only, never by URL. Global id: `NetworkNode:<configured name>`.
 * Fields here are the info API (`/ext/info`); the X-Chain, C-Chain, peers, admin and validator links are
 * added by their own files. Every field reaching the node is nullable: one refused method (public API nodes
 * refuse node-specific ones) yields null and a typed error while the rest still answer.
 */
export interface NetworkNodeShape {
  name: string;
}

/** A cacheable read of this node. */
export const readNode = <T>(
  n: NetworkNodeShape,
  ctx: GatewayContext,
  describe: (c: NodeRpcClient) => UpstreamRequest<T>,
) => nodeByName(ctx, n.name).read(describe);

export const NetworkNodeRef = builder.objectRef<NetworkNodeShape>('NetworkNode');

/** The `networkNode` field of an answer from one configured node (the answer names the node). */
export const answeredBy = <S extends { node: string }>(t: ObjectFields<S>, description: string) =>
  t.field({ type: NetworkNodeRef, description, resolve: (p) => ({ name: p.node }) });

builder.node(NetworkNodeRef, {
  description:
    'An AvalancheGo node configured on this gateway: its identity, software, network, peers, X-Chain and C-Chain.',
  id: { resolve: (n) => n.name },
  loadOne: (name, ctx) => (ctx.loaders.node.get(name) ? { name } : null),
  fields: (t) => ({
    name: t.exposeString('name', {
      description: 'The name the operator configured (not the URL, which stays private).',
    }),
    isDefault: t.boolean({
      description: 'True for the default node (the first configured).',
      resolve: (n, _a, ctx) => n.name === ctx.loaders.node.defaultName,
    }),
    nodeId: t.string({
      nullable: true,
      description: 'NodeID-… (info.getNodeID; node-specific: public API nodes refuse it).',
      resolve: async (n, _a, ctx) => (await readNode(n, ctx, (c) => c.info.nodeId())).nodeID,
    }),
    proofOfPossession: t.field({
      type: NodeProofOfPossessionRef,
      nullable: true,
      description: "The node's BLS public key and proof of possession (info.getNodeID).",
      resolve: async (n, _a, ctx) =>
        (await readNode(n, ctx, (c) => c.info.nodeId())).nodePOP ?? null,
    }),
    ip: t.string({
      nullable: true,
      description:
        'The IP and staking port peers reach the node at (info.getNodeIP; node-specific).',
      resolve: (n, _a, ctx) => readNode(n, ctx, (c) => c.info.nodeIp()),
    }),
    version: t.field({
      type: NodeVersionRef,
      nullable: true,
      description: 'What software the node runs (info.getNodeVersion).',
      resolve: (n, _a, ctx) => readNode(n, ctx, (c) => c.info.nodeVersion()),
    }),
    networkId: t.int({
      nullable: true,
      description: '1 for mainnet, 5 for fuji (info.getNetworkID).',
      resolve: (n, _a, ctx) => readNode(n, ctx, (c) => c.info.networkId()),
    }),
    networkName: t.string({
      nullable: true,
      description: 'e.g. "mainnet", "fuji" (info.getNetworkName).',
      resolve: (n, _a, ctx) => readNode(n, ctx, (c) => c.info.networkName()),
    }),
    isBootstrapped: t.boolean({
      nullable: true,
      description: 'Whether the node finished bootstrapping a chain (info.isBootstrapped).',
      args: argTable(t.arg, {
        chain: ['String!', 'A blockchain id or alias ("X", "P", "C").'],
      }),
      resolve: (n, args, ctx) => {
        const chain = parseChainRef(args.chain, 'chain');
        return readNode(n, ctx, (c) => c.info.isBootstrapped(chain));
      },
    }),
    blockchainId: t.string({
      nullable: true,
      description: 'The blockchain id a chain alias names on this node (info.getBlockchainID).',
      args: { alias: t.arg.string({ required: true, description: 'e.g. "X", "P", "C".' }) },
      resolve: (n, args, ctx) => {
        const alias = parseChainRef(args.alias, 'alias');
        return readNode(n, ctx, (c) => c.info.blockchainId(alias));
      },
    }),
    upgrades: t.field({
      type: NetworkUpgradesRef,
      nullable: true,
      description: "The network's upgrade schedule as the node knows it (info.upgrades).",
      resolve: (n, _a, ctx) => readNode(n, ctx, (c) => c.info.upgrades()),
    }),
    acps: t.field({
      type: [AcpPreferenceRef],
      nullable: true,
      description:
        'Community proposal preferences of the validators, by proposal number (info.acps).',
      resolve: (n, _a, ctx) => readNode(n, ctx, (c) => c.info.acps()),
    }),
    vms: t.field({
      type: [VirtualMachineRef],
      nullable: true,
      description: 'VMs installed on the node (info.getVMs; node-specific).',
      resolve: async (n, _a, ctx) => (await readNode(n, ctx, (c) => c.info.vms())).vms,
    }),
    featureExtensions: t.field({
      type: [FeatureExtensionRef],
      nullable: true,
      description: 'Feature extensions installed on the node (info.getVMs; node-specific).',
      resolve: async (n, _a, ctx) => (await readNode(n, ctx, (c) => c.info.vms())).fxs,
    }),
    uptime: t.field({
      type: NodeUptimeRef,
      nullable: true,
      description:
        "The network's view of this node's uptime on the primary network, or on an L1/subnet (info.uptime).",
      args: argTable(t.arg, {
        subnetId: ['String', 'An L1 or subnet id; omit for the primary network.'],
      }),
      resolve: (n, args, ctx) => {
        const subnetId =
          args.subnetId == null ? undefined : parseId(args.subnetId, 'subnetId', 'subnet id');
        return readNode(n, ctx, (c) => c.info.uptime(subnetId));
      },
    }),
    txFee: t.field({
      type: NodeTxFeesRef,
      nullable: true,
      description: 'Static transaction fees in nAVAX (info.getTxFee).',
      deprecationReason:
        'info.getTxFee is deprecated as of AvalancheGo v1.12.2 (fees are dynamic since Etna); use xChain.fees for the X-Chain.',
      resolve: (n, _a, ctx) => readNode(n, ctx, (c) => c.info.txFee()),
    }),
  }),
});

builder.queryFields((t) => ({
  networkNode: t.field({
    type: NetworkNodeRef,
    nullable: true,
    description:
      'A node configured on this gateway, by name; the default node when the name is omitted.',
    args: { name: t.arg.string({ description: 'A configured node name (see networkNodes).' }) },
    resolve: (_root, args, ctx) => ({ name: nodeByName(ctx, args.name).name }),
  }),
  networkNodes: t.field({
    type: [NetworkNodeRef],
    description: 'Every node configured on this gateway, the default first.',
    resolve: (_root, _args, ctx) => ctx.loaders.node.names.map((name) => ({ name })),
  }),
}));
