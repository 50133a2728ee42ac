import { brandWithType } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import type {
  GatewayNetwork,
  ValidationStatus,
  Validator,
  ValidatorDetails,
} from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { type ExposeTable, exposed, ref, refOrNull } from '../expose.js';
import { parseCb58Id, parseNetwork, parseNodeId } from '../primary-inputs.js';
import { NetworkNameEnum } from './network.js';
import { BlsCredentialsRef, GeolocationRef, HealthRef, RewardsRef } from './validator-parts.js';

/**
 * A primary-network validation period of one node. The Data API answers a `oneOf` by status, so the graph
 * has one type per status behind the `Validator` interface. Global id: `Validator:<network>:<nodeId>:<txHash>`
 * (the validation tx names the period). A period changes status over time (pending → active → completed):
 * refetching an id returns the period in its current status, typed accordingly.
 */
export const ValidationStatusEnum = builder.enumType('ValidationStatus', {
  description: 'Where a validation period is in its life.',
  values: {
    COMPLETED: { value: 'completed', description: 'Ended and rewarded (or not).' },
    ACTIVE: { value: 'active', description: 'Under way.' },
    PENDING: { value: 'pending', description: 'Not started yet.' },
    REMOVED: {
      value: 'removed',
      description: 'A permissioned subnet validator removed before its end.',
    },
  } as const,
});

const TYPE_OF: Record<ValidationStatus, string> = {
  completed: 'CompletedValidator',
  active: 'ActiveValidator',
  pending: 'PendingValidator',
  removed: 'RemovedValidator',
};

export const ValidatorRef = builder.interfaceRef<Validator>('Validator').implement({
  description: 'A validation period of a node on the primary network, typed by its status.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (v) => TYPE_OF[v.validationStatus],
  fields: (t) =>
    exposed(t, {
      network: ref(NetworkNameEnum, 'The primary network of this validation period.'),
      txHash: ['String', 'The transaction that added this validator (CB58).'],
      nodeId: ['String', 'Node id of the validator (`NodeID-…`).'],
      subnetId: [
        'String',
        "CB58 id of the subnet validated (the primary network's is `11111111111111111111111111111111LpoYY`).",
      ],
      amountStaked: ['BigDecimal', 'Amount staked by the validator, in nAVAX (decimal string).'],
      delegationFee: ['BigDecimal?', 'Percent of delegator rewards kept by the validator.'],
      startTimestamp: ['Timestamp+Iso', 'Start of the validation period, Unix seconds.'],
      endTimestamp: ['Timestamp+Iso', 'End of the validation period, Unix seconds.'],
      blsCredentials: refOrNull(BlsCredentialsRef, 'Present for permissionless validators.'),
      validationStatus: ref(
        ValidationStatusEnum,
        'Status of the period: pending, active, completed or removed.',
      ),
    }),
});

/** Splits `<network>:<nodeId>:<txHash>`, checking each part. */
function parseValidatorKey(id: string): {
  network: ReturnType<typeof parseNetwork>;
  nodeId: string;
  txHash: string;
} {
  const [network, nodeId, txHash, ...rest] = id.split(':');
  if (!network || !nodeId || !txHash || rest.length > 0)
    throw badInput('id', 'Malformed validator id');
  return {
    network: parseNetwork(network, 'id'),
    nodeId: parseNodeId(nodeId, 'id'),
    txHash: parseCb58Id(txHash, 'id', 'transaction hash'),
  };
}

/** Upstream pages walked to find one period of a node (a node has a handful of periods; 100 per page). */
const MAX_LOOKUP_PAGES = 10;

/**
 * The first validation period of a node that matches. There is no single-period route: the node's list is
 * walked through the shared page loader, so a list read in the same query costs nothing more. Branded with
 * the type of its current status. Null when none matches.
 */
export async function findValidator(
  ctx: GatewayContext,
  network: GatewayNetwork,
  nodeId: string,
  match: (v: ValidatorDetails) => boolean,
): Promise<Validator | null> {
  let pageToken: string | null = null;
  for (let n = 0; n < MAX_LOOKUP_PAGES; n++) {
    const page = await ctx.loaders.primary.validatorsPage.load({ network, nodeId, pageToken });
    const found = page.items.find(match);
    if (found) return branded({ ...found, network });
    if (!page.nextPageToken) break;
    pageToken = page.nextPageToken;
  }
  return null;
}

/** One validation period by its key `<network>:<nodeId>:<txHash>`. */
export async function loadValidator(id: string, ctx: GatewayContext): Promise<Validator> {
  const { network, nodeId, txHash } = parseValidatorKey(id);
  const found = await findValidator(ctx, network, nodeId, (v) => v.txHash === txHash);
  if (!found)
    throw gqlError(
      'NOT_FOUND',
      `Not found: no validation period ${txHash} for ${nodeId} on ${network}`,
    );
  return found;
}

/** Brands a validation period with the GraphQL type of its status (for the `Validator` interface). */
export function branded(v: Validator): Validator {
  brandWithType(v, TYPE_OF[v.validationStatus] as never);
  return v;
}

type ValidatorOf<S extends ValidationStatus> = Extract<Validator, { validationStatus: S }>;

/** What the four status types share as Relay nodes: one key, one loader returning the current status. */
const nodeOptions = (status: ValidationStatus) => ({
  interfaces: [ValidatorRef],
  id: { resolve: (v: Validator) => `${v.network}:${v.nodeId}:${v.txHash}` },
  // The loader brands each result with the type of its current status; Relay must not re-brand it.
  brandLoadedObjects: false,
  // One promise per id: a failed id rejects alone (null plus its error), its siblings still resolve.
  loadMany: (ids: readonly string[], ctx: GatewayContext) =>
    ids.map((id) => loadValidator(id, ctx) as Promise<never>),
  isTypeOf: (v: unknown) => (v as Validator).validationStatus === status,
});

/** One status's type (named by TYPE_OF): a Relay node of `Validator` with the fields of `table`. */
function statusType<
  S extends ValidationStatus,
  T extends ExposeTable<ValidatorOf<S>> & {
    readonly [Name in Exclude<keyof T, keyof ValidatorOf<S>>]: never;
  },
>(status: S, description: string, table: T) {
  const typeRef = builder.objectRef<ValidatorOf<S>>(TYPE_OF[status]);
  builder.node(typeRef, {
    ...nodeOptions(status),
    description,
    // The table was checked against the status's shape where statusType was called.
    fields: (t) => exposed(t, table as ExposeTable<ValidatorOf<S>> as never),
  });
  return typeRef;
}

export const CompletedValidatorRef = statusType(
  'completed',
  'A validation period that ended and was rewarded.',
  {
    delegatorCount: ['Int', 'Number of delegations this validator had.'],
    amountDelegated: [
      'BigDecimal?',
      'Total delegated to the validator, in nAVAX; null when the upstream omits it.',
    ],
    rewards: ref(RewardsRef, 'Rewards paid for the period.'),
  },
);

export const ActiveValidatorRef = statusType('active', 'A validation period under way.', {
  stakePercentage: ['Float', "This validator's share of the total active stake, in percent."],
  delegatorCount: ['Int', 'Number of delegations to this validator.'],
  amountDelegated: [
    'BigDecimal?',
    'Total delegated to the validator, in nAVAX; null when the upstream omits it.',
  ],
  uptimePerformance: ['Float', 'Uptime percent as observed by the indexer’s node.'],
  avalancheGoVersion: [
    'String?',
    'AvalancheGo version the node reports (e.g. "avalanchego/1.13.0"); null when unknown.',
  ],
  delegationCapacity: ['BigDecimal?', 'nAVAX that can still be delegated.'],
  potentialRewards: ref(RewardsRef, 'Estimated rewards if the validation succeeds.'),
  validatorHealth: ref(HealthRef, "How the indexer's node sees this validator."),
  geolocation: refOrNull(
    GeolocationRef,
    'Where the node is; null when the indexer has no location.',
  ),
});

// A pending period carries only the fields every period has.
export const PendingValidatorRef = statusType(
  'pending',
  'A validation period that has not started yet.',
  {},
);

export const RemovedValidatorRef = statusType(
  'removed',
  'A permissioned subnet validator that was removed.',
  {
    removeTxHash: ['String', 'Hash (CB58) of the transaction that removed the validator.'],
    removeTimestamp: ['Timestamp', 'When the removal transaction was accepted, Unix seconds.'],
  },
);
