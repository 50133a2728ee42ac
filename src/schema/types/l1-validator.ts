import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { L1Validator } from '../../upstream/schemas/primary.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { exposed, ref } from '../expose.js';
import { resolveCarryingConnection } from '../page-value.js';
import { parseCb58Id, parseNetwork, parseNodeId } from '../primary-inputs.js';
import { NetworkNameEnum, NetworkRef } from './network.js';

/**
 * An L1 validator (ACP-77): a validation of an L1's subnet, paid for by a balance on the P-Chain.
 * Global id: `L1Validator:<network>:<validationId>`. Items carry the P-Chain height their page was read
 * at, since `remainingBalance` is computed at that height.
 */
export type L1ValidatorItem = L1Validator & { blockHeight: string };

const OwnerSetRef = builder.objectRef<L1Validator['remainingBalanceOwner']>('OwnerSet').implement({
  description: 'P-Chain addresses and how many of them must sign.',
  fields: (t) =>
    exposed(t, {
      addresses: ['[String]', 'Owner addresses (bech32, P-Chain).'],
      threshold: ['Int', 'How many of the owners must sign.'],
    }),
});

export const L1ValidatorBlsRef = builder
  .objectRef<L1Validator['blsCredentials']>('L1ValidatorBlsCredentials')
  .implement({
    description:
      'The BLS key of an L1 validator (the upstream leaves its shape open: both parts may be absent).',
    fields: (t) =>
      exposed(t, {
        publicKey: ['String?', 'BLS public key, 0x-hex; null when the upstream omits it.'],
        proofOfPossession: [
          'String?',
          'BLS proof of possession, 0x-hex; null when the upstream omits it.',
        ],
      }),
  });

export const L1ValidatorRef = builder.objectRef<L1ValidatorItem>('L1Validator');

/** One L1 validation by id: the list filtered on it, inactive ones included (a refetch must find it). */
export async function loadL1Validator(id: string, ctx: GatewayContext): Promise<L1ValidatorItem> {
  const sep = id.indexOf(':');
  if (sep <= 0) throw badInput('id', 'Malformed L1Validator id');
  const network = parseNetwork(id.slice(0, sep), 'id');
  const validationId = parseCb58Id(id.slice(sep + 1), 'id', 'validation id');
  const page = await ctx.loaders.primary.l1ValidatorsPage.load({
    network,
    l1ValidationId: validationId,
    includeInactive: true,
    pageToken: null,
  });
  const found = page.items.find((v) => v.validationId === validationId);
  if (!found)
    throw gqlError('NOT_FOUND', `Not found: no L1 validation ${validationId} on ${network}`);
  return { ...found, network, blockHeight: page.blockHeight };
}

builder.node(L1ValidatorRef, {
  description: 'A validator of an Avalanche L1, with its remaining P-Chain balance and owners.',
  id: { resolve: (v) => `${v.network}:${v.validationId}` },
  loadMany: (ids, ctx) => ids.map((id) => loadL1Validator(id, ctx)),
  fields: (t) => ({
    ...exposed(t, {
      network: ref(NetworkNameEnum, 'The network the L1 is on.'),
      validationId: ['String', 'CB58 validation id, stable until the weight drops to 0.'],
      validationIdHex: ['String', 'The same validation id in hex (0x…).'],
      nodeId: ['String', 'Node id of the validator (`NodeID-…`).'],
      subnetId: ['String', "CB58 id of the L1's subnet."],
    }),
    weight: t.field({
      type: 'BigDecimal',
      description: 'Sampling weight within the L1 (0 = removed).',
      resolve: (v) => String(v.weight),
    }),
    remainingBalance: t.field({
      type: 'BigDecimal',
      description: 'nAVAX left before the validator becomes inactive, at `blockHeight`.',
      resolve: (v) => String(v.remainingBalance),
    }),
    ...exposed(t, {
      blockHeight: ['BigDecimal', 'The P-Chain height the balance was computed at.'],
      creationTimestamp: ['Timestamp+Iso', 'When the validator was registered, Unix seconds.'],
      blsCredentials: ref(L1ValidatorBlsRef, "The validator's BLS key and proof of possession."),
      remainingBalanceOwner: ref(
        OwnerSetRef,
        'Receives the remaining balance when the validator is disabled or removed.',
      ),
      deactivationOwner: ref(OwnerSetRef, 'May disable or remove the validator.'),
    }),
  }),
});

builder.objectFields(NetworkRef, (t) => ({
  l1Validators: t.connection(
    {
      type: L1ValidatorRef,
      nullable: true,
      description:
        'L1 validators, newest first; only active ones unless includeInactive. Forward paging only (first/after).',
      args: argTable(t.arg, {
        l1ValidationId: ['String', 'Only this validation (CB58).'],
        includeInactive: [
          'Boolean',
          'Include validators whose balance ran out or that were removed. Default false.',
        ],
        nodeId: ['String', 'Only this node (NodeID-…).'],
        subnetId: ['String', 'Only this L1 (its CB58 subnet id).'],
      }),
      resolve: (network, args, ctx) => {
        const filter = {
          l1ValidationId:
            args.l1ValidationId == null
              ? undefined
              : parseCb58Id(args.l1ValidationId, 'l1ValidationId', 'validation id'),
          includeInactive: args.includeInactive ?? undefined,
          nodeId: args.nodeId == null ? undefined : parseNodeId(args.nodeId, 'nodeId'),
          subnetId:
            args.subnetId == null ? undefined : parseCb58Id(args.subnetId, 'subnetId', 'subnet id'),
        };
        const pages = ctx.loaders.primary.l1ValidatorsPage
          .list({ network: network.name, ...filter })
          .mapItems((v) => ({ ...v, network: network.name }));
        return resolveCarryingConnection(
          args,
          ctx.connections,
          { pages, key: 'blockHeight', value: (page) => page.blockHeight, show: 'blockHeight' },
          { pageSize: PRIMARY_PAGE_SIZE.l1Validators, itemKey: (v) => v.validationId },
        );
      },
    },
    {
      description: 'A page of L1 validators.',
      fields: (c) => ({
        blockHeight: c.field({
          type: 'BigDecimal',
          nullable: true,
          description: 'The P-Chain height the upstream computed these balances at.',
          resolve: (conn) => (conn as { blockHeight?: string | null }).blockHeight ?? null,
        }),
      }),
    },
    { description: 'An L1 validator and its cursor.' },
  ),
}));
