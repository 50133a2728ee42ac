import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import {
  type L1ValidatorTxDetails,
  type PChainTransactionRaw,
  PRIMARY_NETWORK_TX_TYPES,
  type PrimaryNetworkTxType,
  pChainTxType,
} from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { conventionalValues, describedValues } from '../enum-docs.js';
import { exposed } from '../expose.js';
import { parseTimeRange } from '../primary-inputs.js';
import { L1ValidatorBlsRef, L1ValidatorRef, loadL1Validator } from './l1-validator.js';

/**
 * What a P-Chain transaction is and what it carries besides its UTXOs: its type (as the Data API names
 * it), the L1 validators it registered or changed, an L1's validator manager, a subnet's owners.
 */
const P_CHAIN_TX_TYPE_DOCS = {
  AddValidatorTx: 'Adds a primary-network validator (pre-Durango form), staking AVAX for a period.',
  AddSubnetValidatorTx: 'Adds a validator to a permissioned subnet.',
  AddDelegatorTx: 'Delegates stake to a primary-network validator (pre-Durango form).',
  CreateChainTx: 'Creates a blockchain in a subnet (with its VM and genesis data).',
  CreateSubnetTx: 'Creates a subnet with its owners.',
  ImportTx: 'Imports funds into the P-Chain from the X- or C-Chain (atomic, shared memory).',
  ExportTx: 'Exports funds from the P-Chain to the X- or C-Chain (atomic, shared memory).',
  AdvanceTimeTx: "Advances the P-Chain's clock (pre-Banff).",
  RewardValidatorTx: 'Ends a validation or delegation and pays (or withholds) its reward.',
  RemoveSubnetValidatorTx: 'Removes a validator from a permissioned subnet.',
  TransformSubnetTx: 'Turns a permissioned subnet into an elastic (permissionless) one.',
  AddPermissionlessValidatorTx:
    'Adds a validator with BLS credentials (primary network or an elastic subnet).',
  AddPermissionlessDelegatorTx: 'Delegates stake to a permissionless validator.',
  BaseTx: 'A plain transfer of P-Chain funds.',
  TransferSubnetOwnershipTx: "Changes a subnet's owners.",
  ConvertSubnetToL1Tx:
    'Converts a subnet into an L1 with its validator manager contract and initial validators.',
  RegisterL1ValidatorTx: 'Registers a validator of an L1 (with its balance for continuous fees).',
  SetL1ValidatorWeightTx: "Changes an L1 validator's weight (0 removes it).",
  DisableL1ValidatorTx: 'Disables an L1 validator and returns its remaining balance.',
  IncreaseL1ValidatorBalanceTx: "Tops up an L1 validator's balance for continuous fees.",
  UNKNOWN: 'A type the upstream does not recognise.',
} as const;

export const PChainTransactionTypeEnum = builder.enumType('PChainTransactionType', {
  description: "A P-Chain transaction's type, as the Data API names it.",
  values: conventionalValues(describedValues(pChainTxType.options, P_CHAIN_TX_TYPE_DOCS)),
});
export const PrimaryNetworkTxTypeEnum = builder.enumType('PrimaryNetworkTxType', {
  description: 'Transaction types the staking list can be filtered on.',
  values: conventionalValues(
    describedValues(PRIMARY_NETWORK_TX_TYPES, {
      ...P_CHAIN_TX_TYPE_DOCS,
      CreateAssetTx: 'X-Chain: creates an asset.',
      OperationTx: 'X-Chain: an operation on assets (e.g. minting NFTs).',
    }),
  ),
});

/** The filters the primary-network transaction lists share: transaction types and a time range. */
export const txFilterArgs = builder.args((t) => ({
  txTypes: t.field({
    type: [PrimaryNetworkTxTypeEnum],
    description: 'Only these transaction types; all when omitted.',
  }),
  startTimestamp: t.int({ description: 'Only transactions after this Unix time (seconds, ≥ 0).' }),
  endTimestamp: t.int({ description: 'Only transactions before this Unix time (seconds, ≥ 0).' }),
}));

/** `txFilterArgs` checked: the types deduplicated and sorted (one list identity per set), the range in order. */
export function parseTxFilter(args: {
  txTypes?: readonly PrimaryNetworkTxType[] | null;
  startTimestamp?: number | null;
  endTimestamp?: number | null;
}) {
  const { startTimestamp, endTimestamp } = parseTimeRange(args);
  const txTypes = args.txTypes ? [...new Set(args.txTypes)].sort() : undefined;
  return { txTypes, startTimestamp, endTimestamp };
}

type L1Detail = L1ValidatorTxDetails & { network: GatewayNetwork };

export const L1ValidatorTxDetailsRef = builder
  .objectRef<L1Detail>('L1ValidatorTxDetails')
  .implement({
    description: 'An L1 validator as this transaction registered or changed it.',
    fields: (t) => ({
      ...exposed(t, {
        validationId: [
          'String',
          'CB58 validation id: identifies this L1 validation network-wide until its weight drops to 0 (removed).',
        ],
        validationIdHex: ['String', 'The same validation id in hex (0x…).'],
        nodeId: ['String', 'Node id of the L1 validator (`NodeID-…`).'],
        subnetId: ['String', "CB58 id of the L1's subnet."],
      }),
      weight: t.field({
        description:
          "Weight used when sampling the L1's validators, as of this transaction; 0 means removed.",
        type: 'BigDecimal',
        resolve: (d) => String(d.weight),
      }),
      remainingBalance: t.field({
        type: 'BigDecimal',
        description:
          'Balance left for continuous fees, in nAVAX, until the validator becomes inactive.',
        resolve: (d) => String(d.remainingBalance),
      }),
      balanceChange: t.field({
        type: 'BigDecimal',
        nullable: true,
        description: 'nAVAX added (or returned) by this transaction.',
        resolve: (d) => (d.balanceChange == null ? null : String(d.balanceChange)),
      }),
      blsCredentials: t.field({
        description: 'BLS public key and proof of possession registered for this L1 validator.',
        type: L1ValidatorBlsRef,
        nullable: true,
        resolve: (d) => d.blsCredentials ?? null,
      }),
      l1Validator: t.field({
        type: L1ValidatorRef,
        nullable: true,
        description: 'The L1 validator now (inactive ones included).',
        resolve: (d, _args, ctx) => loadL1Validator(`${d.network}:${d.validationId}`, ctx),
      }),
    }),
  });

export const ManagerRef = builder
  .objectRef<NonNullable<PChainTransactionRaw['l1ValidatorManagerDetails']>>(
    'L1ValidatorManagerDetails',
  )
  .implement({
    description: "Where an L1's validator manager contract lives (set by ConvertSubnetToL1Tx).",
    fields: (t) =>
      exposed(t, {
        blockchainId: [
          'String',
          'CB58 id of the blockchain that hosts the validator manager contract.',
        ],
        contractAddress: [
          'EvmAddress',
          'Address (lower-case 0x-hex) of the validator manager contract on that blockchain.',
        ],
      }),
  });

export const SubnetOwnershipRef = builder
  .objectRef<NonNullable<PChainTransactionRaw['subnetOwnershipInfo']>>('SubnetOwnershipInfo')
  .implement({
    description: 'Subnet owners set by CreateSubnetTx or TransferSubnetOwnershipTx.',
    fields: (t) =>
      exposed(t, {
        locktime: [
          'Int',
          'Unix time (seconds) after which the owners can control the subnet; 0 = at once.',
        ],
        threshold: [
          'Int',
          'Minimum number of owner signatures needed for subnet update transactions.',
        ],
        addresses: [
          '[String]',
          'Owner addresses (bech32) eligible to sign subnet update transactions.',
        ],
      }),
  });
