import type { GatewayContext } from '../../context.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import { NodeMethodUnavailableError } from '../../upstream/node-rpc.js';
import type { GatewayNetwork, Validator } from '../../upstream/schemas/primary.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, pageDocs, resolveTokenConnection } from '../connection.js';
import { NetworkRef } from './network.js';
import { NetworkNodeRef, type NetworkNodeShape, readNode } from './network-node.js';
import { NetworkPeerRef } from './network-node-peers.js';
import { ValidationStatusEnum, ValidatorRef } from './validator.js';

/**
 * Links between the configured nodes and the Data API's primary-network records: a node and each of its
 * peers → their validation periods (the validators-by-node-id route, through the primary loaders and the
 * shared cache); a validation period → the configured node when it is that node. The Data API indexes
 * mainnet and fuji only: a node on another network (a local one) has no records.
 */

/** The Data API network a node is on, from info.getNetworkName; null for networks the Data API does not index. */
async function dataApiNetwork(
  n: NetworkNodeShape,
  ctx: GatewayContext,
): Promise<GatewayNetwork | null> {
  const name = await readNode(n, ctx, (c) => c.info.networkName());
  return name === 'mainnet' ? 'mainnet' : name === 'fuji' || name === 'testnet' ? 'fuji' : null;
}

type Status = Validator['validationStatus'];

function validatorsOf(
  network: GatewayNetwork | null,
  nodeId: string,
  status: Status | null | undefined,
  args: ConnectionArgs,
  ctx: GatewayContext,
) {
  if (network === null) {
    return {
      edges: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    };
  }
  const validationStatus = status ?? undefined;
  return resolveTokenConnection<Validator>(args, ctx.connections, {
    // The same list identity as Network.validators(nodeId, validationStatus): the cached pages are shared.
    pages: ctx.loaders.primary.validatorsPage
      .list({
        network,
        nodeId,
        validationStatus,
      })
      .mapItems((v) => ({ ...v, network })),
    pageSize: PRIMARY_PAGE_SIZE.validators,
    itemKey: (v) => v.txHash,
  });
}

builder.objectFields(NetworkNodeRef, (t) => ({
  network: t.field({
    type: NetworkRef,
    nullable: true,
    description:
      'The primary network this node is on (null for networks other than mainnet and fuji).',
    resolve: async (n, _a, ctx) => {
      const name = await dataApiNetwork(n, ctx);
      return name ? { name } : null;
    },
  }),
  validators: t.connection(
    {
      type: ValidatorRef,
      nullable: true,
      description:
        "This node's validation periods on the primary network, from the Data API (needs info.getNodeID).",
      args: argTable(t.arg, {
        validationStatus: [ValidationStatusEnum, 'Only periods in this status.'],
      }),
      resolve: async (n, args, ctx) => {
        const [network, { nodeID }] = await Promise.all([
          dataApiNetwork(n, ctx),
          readNode(n, ctx, (c) => c.info.nodeId()),
        ]);
        return validatorsOf(network, nodeID, args.validationStatus, args, ctx);
      },
    },
    ...pageDocs('validation periods', 'A validation period'),
  ),
}));

builder.objectFields(NetworkPeerRef, (t) => ({
  validators: t.connection(
    {
      type: ValidatorRef,
      nullable: true,
      description: "This peer's validation periods on the primary network, from the Data API.",
      args: argTable(t.arg, {
        validationStatus: [ValidationStatusEnum, 'Only periods in this status.'],
      }),
      resolve: async (p, args, ctx) =>
        validatorsOf(
          await dataApiNetwork({ name: p.node }, ctx),
          p.nodeID,
          args.validationStatus,
          args,
          ctx,
        ),
    },
    ...pageDocs('validation periods', 'A validation period'),
  ),
}));

builder.interfaceFields(ValidatorRef, (t) => ({
  networkNode: t.field({
    type: NetworkNodeRef,
    nullable: true,
    description:
      'The configured node this validator is, when it is one of them (matched by node id and network).',
    resolve: async (v, _a, ctx) => {
      // Every configured node's id and network (one cached call each per request, all at once). Only a
      // genuine "not this node" is null: a different id, another network, or a node that refuses
      // info.getNodeID (a public API node cannot be anyone's validator node). A node that fails (5xx,
      // timeout, a broken answer) is an error when no other node matched: a null in its place would be a
      // wrong answer, and one the whole-response cache would keep.
      const outcomes = await Promise.all(
        ctx.loaders.node.names.map(
          async (name): Promise<{ node: NetworkNodeShape } | { failed: unknown } | null> => {
            const node = { name };
            try {
              const id = await readNode(node, ctx, (c) => c.info.nodeId()).then(
                (r) => r.nodeID,
                (e: unknown) => {
                  if (e instanceof NodeMethodUnavailableError) return null;
                  throw e;
                },
              );
              if (id !== v.nodeId) return null;
              return (await dataApiNetwork(node, ctx)) === v.network ? { node } : null;
            } catch (e) {
              return { failed: e };
            }
          },
        ),
      );
      const match = outcomes.find((o) => o !== null && 'node' in o);
      if (match && 'node' in match) return match.node;
      const failure = outcomes.find((o) => o !== null && 'failed' in o);
      if (failure && 'failed' in failure) throw failure.failed;
      return null;
    },
  }),
}));
