import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import { PRIMARY_NET_PAGE_SIZE } from '../../loaders/primary-net.js';
import type { SubnetRaw } from '../../upstream/schemas/primary-net.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { pageDocs, resolveTokenConnection } from '../connection.js';
import { exposed, ref } from '../expose.js';
import { inNetwork, loadEachInNetwork, type NetworkLoad } from '../node-load.js';
import { type GatewayNetwork, parseNodeId } from '../primary-inputs.js';
import { BlockchainRef, type BlockchainShape } from './blockchain.js';
import { type L1ValidatorItem, L1ValidatorRef } from './l1-validator.js';
import { byCb58Id, createdList, NetworkNameEnum, NetworkRef } from './network.js';

/**
 * A subnet or L1 (`listSubnets`, `getSubnetById`), with its blockchains (carried inline by the
 * upstream, so they cost no call) and its L1 validators. Global id `Subnet:<network>:<subnetId>`;
 * federation key `network subnetId`. A blockchain links back with `Blockchain.subnet`.
 */
export type SubnetShape = SubnetRaw & { network: GatewayNetwork };

export const loadSubnet: NetworkLoad<SubnetShape> = inNetwork((ctx, network, subnetId) =>
  ctx.loaders.primaryNet.subnet.load({ network, subnetId }),
);

export const SubnetRef = builder.loadableNodeRef<SubnetShape, string>('Subnet', {
  id: { resolve: (s) => `${s.network}:${s.subnetId}` },
  load: loadEachInNetwork('subnet id', loadSubnet),
});

const SubnetOwnershipRef = builder
  .objectRef<SubnetRaw['subnetOwnershipInfo']>('SubnetOwnership')
  .implement({
    description: 'Who controls a subnet: the addresses that may sign its update transactions.',
    fields: (t) =>
      exposed(t, {
        addresses: ['[String]', 'P-Chain addresses eligible to sign subnet update transactions.'],
        threshold: ['Int', 'Signatures needed.'],
        locktime: ['Timestamp', 'Unix seconds after which the owners may act (0: at once).'],
      }),
  });

const L1ManagerRef = builder
  .objectRef<NonNullable<SubnetRaw['l1ValidatorManagerDetails']>>('L1ValidatorManager')
  .implement({
    description: "An L1's validator manager contract.",
    fields: (t) =>
      exposed(t, {
        blockchainId: ['String', 'CB58 id of the blockchain the contract lives on.'],
        contractAddress: [
          'EvmAddress',
          'Address (lower-case 0x-hex) of the validator manager contract.',
        ],
      }),
  });

SubnetRef.implement({
  description:
    'A subnet of the P-Chain, or an L1 (a subnet converted with ConvertSubnetToL1Tx), and its ' +
    'blockchains.',
  fields: (t) => ({
    ...exposed(t, {
      network: ref(NetworkNameEnum, 'The network the subnet is on.'),
      subnetId: ['String', 'CB58 id of the subnet.'],
      isL1: ['Boolean', 'True for an L1 (converted by ConvertSubnetToL1Tx).'],
      createBlockIndex: [
        'BigDecimal',
        'Height of the P-Chain block that created it (decimal string).',
      ],
      createBlockTimestamp: ['Timestamp+Iso', 'When it was created, Unix seconds.'],
    }),
    ownership: t.field({
      type: SubnetOwnershipRef,
      description: 'Its current owners.',
      resolve: (s) => s.subnetOwnershipInfo,
    }),
    l1ConversionTransactionHash: t.exposeString('l1ConversionTransactionHash', {
      nullable: true,
      description: 'The ConvertSubnetToL1Tx that made it an L1; null for a subnet.',
    }),
    l1ValidatorManager: t.field({
      type: L1ManagerRef,
      nullable: true,
      description: "An L1's validator manager; null for a subnet.",
      resolve: (s) => s.l1ValidatorManagerDetails ?? null,
    }),
    blockchains: t.field({
      type: [BlockchainRef],
      description:
        'The blockchains this subnet validates (carried in the subnet answer: no further call).',
      resolve: (s) => s.blockchains.map((b): BlockchainShape => ({ ...b, network: s.network })),
    }),
    l1Validators: t.connection(
      {
        type: L1ValidatorRef,
        nullable: true,
        description:
          "The L1's validators (`listL1Validators` with this `subnetId`), newest first; " +
          'empty for a subnet that is not an L1. Forward paging only.',
        args: argTable(t.arg, {
          includeInactive: [
            'Boolean',
            'Include validators whose balance ran out or that were removed. Default false.',
          ],
          nodeId: ['String', 'Only this node (NodeID-…).'],
        }),
        resolve: (s, args, ctx) => {
          const filter = {
            subnetId: s.subnetId,
            includeInactive: args.includeInactive ?? undefined,
            nodeId: args.nodeId == null ? undefined : parseNodeId(args.nodeId, 'nodeId'),
          };
          // The same upstream request as `Network.l1Validators(subnetId:)`, so the same list: they
          // share pages and cursors.
          return resolveTokenConnection<L1ValidatorItem>(args, ctx.connections, {
            pages: ctx.loaders.primary.l1ValidatorsPage
              .list({ network: s.network, ...filter })
              .mapItems((v, page) => ({
                ...v,
                network: s.network,
                blockHeight: page.blockHeight,
              })),
            pageSize: PRIMARY_PAGE_SIZE.l1Validators,
            itemKey: (v) => v.validationId,
          });
        },
      },
      { name: 'SubnetL1ValidatorsConnection', description: 'A page of L1 validators of a subnet.' },
      { name: 'SubnetL1ValidatorsConnectionEdge', description: 'An L1 validator and its cursor.' },
    ),
  }),
});

builder.objectFields(BlockchainRef, (t) => ({
  subnet: t.field({
    type: SubnetRef,
    nullable: true,
    description:
      'The subnet (or L1) that validates this blockchain (`getSubnetById`); one call per ' +
      'distinct subnet.',
    resolve: (b, _args, ctx) => loadSubnet(ctx, b.network, b.subnetId),
  }),
}));

builder.objectFields(NetworkRef, (t) => ({
  subnets: createdList(t, {
    type: SubnetRef,
    description:
      'Every subnet and L1 of this network (`listSubnets`), newest first by default, each ' +
      'with its blockchains.',
    list: (ctx, network, sortOrder) =>
      ctx.loaders.primaryNet.subnetsPage.list({ network, sortOrder }),
    pageSize: PRIMARY_NET_PAGE_SIZE.subnets,
    itemKey: (s) => s.subnetId,
    docs: pageDocs('subnets', 'A subnet'),
  }),
  subnet: byCb58Id(t, {
    type: SubnetRef,
    argument: 'subnetId',
    description: 'One subnet or L1 by its CB58 id (`getSubnetById`)',
    load: loadSubnet,
  }),
}));
