import type {
  AllowListConfig,
  GenesisConfig,
  GenesisFeeConfig,
  GenesisWarpConfig,
} from '../../upstream/schemas/primary-genesis.js';
import { builder } from '../builder.js';
import type { GatewayTypes } from '../builder-types.js';
import { exposed, refOrNull } from '../expose.js';

/**
 * An EVM chain's config at genesis (Subnet-EVM): its fork blocks, fee config, warp config and the
 * precompile allow-list configs, each typed. JSON numbers are exposed as exact decimal strings.
 */
type Num = number | null | undefined;
/** A JSON number as an exact decimal string (block numbers and gas values can pass 2^53 in principle). */
const dec = (n: Num): string | null =>
  n == null ? null : Number.isInteger(n) ? BigInt(n).toString() : String(n);

/** The JSON-number properties of `S`, with the description of each as a field. */
type DecimalTable<S> = { [P in keyof S & string]?: [S[P]] extends [Num] ? string : never };

/** Fields that show JSON numbers of the parent as exact decimal strings (BigDecimal), null when not set. */
export function decimalFields<S, K extends 'Object' | 'Interface'>(
  t: PothosSchemaTypes.FieldBuilder<GatewayTypes, S, K>,
  table: DecimalTable<NoInfer<S>>,
) {
  const fields: Record<string, PothosSchemaTypes.FieldRef<GatewayTypes, unknown, K>> = {};
  for (const [name, description] of Object.entries(table) as [keyof S & string, string][]) {
    const resolve = (parent: S) => dec(parent[name] as Num);
    fields[name] = t.field({ type: 'BigDecimal', nullable: true, description, resolve } as never);
  }
  return fields;
}

const AllowListConfigRef = builder
  .objectRef<AllowListConfig>('PrecompileAllowListConfig')
  .implement({
    description: 'A Subnet-EVM precompile enabled at genesis, with its role lists.',
    fields: (t) => ({
      blockTimestamp: t.field({
        type: 'Timestamp',
        nullable: true,
        description: 'Activation time.',
        resolve: (c) => c.blockTimestamp ?? null,
      }),
      adminAddresses: t.stringList({
        description:
          'Addresses (0x-hex) that may change every role, admins included; empty when none.',
        resolve: (c) => c.adminAddresses ?? [],
      }),
      managerAddresses: t.stringList({
        description: 'Addresses that may enable or disable others (not admins); empty when none.',
        resolve: (c) => c.managerAddresses ?? [],
      }),
      enabledAddresses: t.stringList({
        description: 'Addresses allowed to use the precompile; empty when none.',
        resolve: (c) => c.enabledAddresses ?? [],
      }),
    }),
  });

const FeeConfigRef = builder.objectRef<GenesisFeeConfig>('GenesisFeeConfig').implement({
  description: 'Subnet-EVM dynamic fee settings.',
  fields: (t) =>
    decimalFields(t, {
      gasLimit: 'Block gas limit.',
      targetBlockRate: 'Target time between blocks, in seconds.',
      minBaseFee: 'Lowest base fee per gas, in wei.',
      targetGas: 'Gas targeted over the 10-second fee window; above it the base fee rises.',
      baseFeeChangeDenominator: 'Bounds how fast the base fee moves: the larger, the slower.',
      minBlockGasCost:
        'Lowest block gas cost (the extra fee a block builder pays for producing quickly).',
      maxBlockGasCost: 'Highest block gas cost.',
      blockGasCostStep: 'How much the block gas cost changes per second off the target block rate.',
    }),
});

const WarpConfigRef = builder.objectRef<GenesisWarpConfig>('GenesisWarpConfig').implement({
  description: 'Avalanche Warp Messaging settings of a Subnet-EVM chain.',
  fields: (t) => ({
    ...exposed(t, {
      blockTimestamp: ['Timestamp?', 'When Warp activates, Unix seconds; null when not set.'],
      quorumNumerator: ['Int?', 'Percent of stake that must sign a warp message.'],
      requirePrimaryNetworkSigners: [
        'Boolean?',
        'True when messages from the primary network must be signed by primary-network validators; null when not set.',
      ],
    }),
  }),
});

type ConfigKey = Exclude<
  keyof GenesisConfig,
  'feeConfig' | 'warpConfig' | 'eip150Hash' | 'allowFeeRecipients' | `${string}Config`
>;
const FORK_FIELDS: ConfigKey[] = [
  'homesteadBlock',
  'eip150Block',
  'eip155Block',
  'eip158Block',
  'byzantiumBlock',
  'constantinopleBlock',
  'petersburgBlock',
  'istanbulBlock',
  'muirGlacierBlock',
  'berlinBlock',
  'londonBlock',
];
const PRECOMPILES = [
  'txAllowListConfig',
  'contractDeployerAllowListConfig',
  'contractNativeMinterConfig',
  'feeManagerConfig',
  'rewardManagerConfig',
] as const;

const PRECOMPILE_DOCS: Record<(typeof PRECOMPILES)[number], string> = {
  txAllowListConfig:
    'Transaction allow list: only enabled addresses may send transactions; null when not enabled at genesis.',
  contractDeployerAllowListConfig:
    'Contract deployer allow list: only enabled addresses may deploy contracts; null when not enabled at genesis.',
  contractNativeMinterConfig:
    'Native minter: enabled addresses may mint the native token; null when not enabled at genesis.',
  feeManagerConfig:
    'Fee manager: enabled addresses may change the fee config; null when not enabled at genesis.',
  rewardManagerConfig:
    'Reward manager: enabled addresses may set where fees go; null when not enabled at genesis.',
};

export const GenesisConfigRef = builder.objectRef<GenesisConfig>('EvmGenesisConfig').implement({
  description:
    'The chain config of an EVM genesis: chain id, fork activation blocks, fees, warp and precompiles.',
  fields: (t) => ({
    ...decimalFields(t, {
      chainId: 'The EVM chain id.',
      ...Object.fromEntries(
        FORK_FIELDS.map((k) => [
          k,
          `Block number at which the ${k.replace(/Block$/, '')} fork activates (0 = at genesis); null when not set.`,
        ]),
      ),
    }),
    ...exposed(t, {
      eip150Hash: ['String?', 'Hash of the EIP-150 fork block (0x-hex); null when not set.'],
      subnetEVMTimestamp: [
        'Timestamp?',
        'When the Subnet-EVM upgrade activates, Unix seconds; null when not set.',
      ],
      allowFeeRecipients: [
        'Boolean?',
        'True when block producers may name their own fee recipient (else fees are burned); null when not set.',
      ],
      feeConfig: refOrNull(FeeConfigRef, 'Dynamic fee settings; null when the genesis has none.'),
      warpConfig: refOrNull(WarpConfigRef, 'Warp settings; null when the genesis has none.'),
    }),
    ...Object.fromEntries(
      PRECOMPILES.map((k) => [
        k,
        t.field({
          type: AllowListConfigRef,
          nullable: true,
          description: PRECOMPILE_DOCS[k],
          resolve: (c) => c[k] ?? null,
        }),
      ]),
    ),
  }),
});
