import { badInput } from '../../errors.js';
import type { NodeRpcClient } from '../../upstream/node-rpc.js';
import type { PeerInfo } from '../../upstream/schemas/node-info.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';
import { parseNodeId } from '../primary-inputs.js';
import { NetworkNodeRef } from './network-node.js';
import { resolveListConnection } from './network-node-connection.js';
import { nodeByName } from './network-node-inputs.js';

/**
 * The node's peers (info.peers): its current connections, as a connection over the whole list the node
 * answers (peers have no upstream paging), optionally filtered by node ids. The list is head data: it is
 * cached for about one block time. Links to the peers' validator records are added in network-node-validators.ts.
 */
export interface PeerShape extends PeerInfo {
  /** The configured node this peer is connected to. */
  node: string;
}

export const NetworkPeerRef = builder.objectRef<PeerShape>('NetworkPeer');

NetworkPeerRef.implement({
  description:
    'A node connected to a configured node, as that node reports the connection (info.peers).',
  fields: (t) => ({
    nodeId: t.exposeString('nodeID', { description: 'Node id of the peer (`NodeID-…`).' }),
    ip: t.exposeString('ip', { description: 'The address the connection uses (ip:port).' }),
    publicIp: t.exposeString('publicIP', {
      nullable: true,
      description: 'The address the peer advertises (ip:port).',
    }),
    ...exposed(t, {
      version: ['String', 'e.g. "avalanchego/1.14.2".'],
      lastSent: [
        'String',
        'When a message was last sent to the peer: ISO 8601 as the node gives it.',
      ],
      lastReceived: [
        'String',
        'When a message was last received from the peer: ISO 8601 as the node gives it.',
      ],
      observedUptime: ['Int?', "The peer's uptime as this node observes it, in percent."],
      trackedSubnets: ['[String]', 'Subnet (L1) ids the peer tracks besides the primary network.'],
    }),
    supportedAcps: t.exposeIntList('supportedACPs', {
      description: 'Community proposals the peer supports.',
    }),
    objectedAcps: t.exposeIntList('objectedACPs', {
      description: 'Community proposals the peer objects to.',
    }),
    benched: t.exposeStringList('benched', {
      description: 'Chain ids on which this node benched the peer (it stopped sending it queries).',
    }),
    connectedTo: t.field({
      type: NetworkNodeRef,
      description: 'The configured node that reported this peer.',
      resolve: (p) => ({ name: p.node }),
    }),
  }),
});

const MAX_NODE_IDS = 256;

builder.objectFields(NetworkNodeRef, (t) => ({
  peers: t.connection(
    {
      type: NetworkPeerRef,
      nullable: true,
      description:
        "The node's connected peers, in node id order (stable across reads, unlike the node's own); filter with nodeIds (ids without a connection are left out).",
      args: { nodeIds: t.arg.stringList({ description: 'NodeID-… values; omit for every peer.' }) },
      resolve: async (n, args, ctx) => {
        const ids = args.nodeIds ?? [];
        if (ids.length > MAX_NODE_IDS)
          throw badInput('nodeIds', `nodeIds takes at most ${MAX_NODE_IDS} ids`);
        const nodeIds = [...new Set(ids.map((id) => parseNodeId(id, 'nodeIds')))].sort();
        const node = nodeByName(ctx, n.name);
        const peers = (c: NodeRpcClient) => c.info.peers(nodeIds);
        const result = await node.read(peers);
        const conn = resolveListConnection(args, ctx.connections, {
          identity: node.identityOf(peers),
          items: result.peers.map((p) => ({ ...p, node: n.name })),
          itemKey: (p) => p.nodeID,
        });
        return { ...conn, totalCount: result.numPeers };
      },
    },
    {
      description: 'A page of peers.',
      fields: (c) => ({
        totalCount: c.int({
          description: 'How many peers the node reported (numPeers).',
          resolve: (conn) => (conn as { totalCount: number }).totalCount,
        }),
      }),
    },
    { description: 'A peer and its cursor.' },
  ),
}));
