import type { AllowListConfig, EvmGenesis, GenesisAlloc, GenesisConfig, GenesisFeeConfig, GenesisWarpConfig } from '../../upstream/schemas/primary-genesis.js';
import type { BlockchainInfo } from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';

/**
 * The blockchain a CreateChainTx created, with its genesis. EVM chains (Subnet-EVM) get the parsed genesis:
 * fork blocks, fee config, warp config and the precompile allow-list configs, each typed; other VMs keep
 * their genesis as the string the upstream gives. JSON numbers are exposed as exact decimal strings.
 */
type Num = number | null | undefined;
/** A JSON number as an exact decimal string (block numbers and gas values can pass 2^53 in principle). */
const dec = (n: Num): string | null => (n == null ? null : Number.isInteger(n) ? BigInt(n).toString() : String(n));
const big = (description?: string) => ({ type: 'BigDecimal', nullable: true, ...(description ? { description } : {}) }) as const;

const AllowListConfigRef = builder.objectRef<AllowListConfig>('PrecompileAllowListConfig').implement({
  description: 'A Subnet-EVM precompile enabled at genesis, with its role lists.',
  fields: (t) => ({
    blockTimestamp: t.field({ type: 'Timestamp', nullable: true, description: 'Activation time.', resolve: (c) => c.blockTimestamp ?? null }),
    adminAddresses: t.stringList({ resolve: (c) => c.adminAddresses ?? [] }),
    managerAddresses: t.stringList({ resolve: (c) => c.managerAddresses ?? [] }),
    enabledAddresses: t.stringList({ resolve: (c) => c.enabledAddresses ?? [] }),
  }),
});

const FeeConfigRef = builder.objectRef<GenesisFeeConfig>('GenesisFeeConfig').implement({
  description: 'Subnet-EVM dynamic fee settings.',
  fields: (t) => ({
    gasLimit: t.field({ ...big(), resolve: (c) => dec(c.gasLimit) }),
    targetBlockRate: t.field({ ...big('Seconds.'), resolve: (c) => dec(c.targetBlockRate) }),
    minBaseFee: t.field({ ...big('wei.'), resolve: (c) => dec(c.minBaseFee) }),
    targetGas: t.field({ ...big(), resolve: (c) => dec(c.targetGas) }),
    baseFeeChangeDenominator: t.field({ ...big(), resolve: (c) => dec(c.baseFeeChangeDenominator) }),
    minBlockGasCost: t.field({ ...big(), resolve: (c) => dec(c.minBlockGasCost) }),
    maxBlockGasCost: t.field({ ...big(), resolve: (c) => dec(c.maxBlockGasCost) }),
    blockGasCostStep: t.field({ ...big(), resolve: (c) => dec(c.blockGasCostStep) }),
  }),
});

const WarpConfigRef = builder.objectRef<GenesisWarpConfig>('GenesisWarpConfig').implement({
  fields: (t) => ({
    blockTimestamp: t.field({ type: 'Timestamp', nullable: true, resolve: (c) => c.blockTimestamp ?? null }),
    quorumNumerator: t.field({ type: 'Int', nullable: true, description: 'Percent of stake that must sign a warp message.', resolve: (c) => c.quorumNumerator ?? null }),
    requirePrimaryNetworkSigners: t.boolean({ nullable: true, resolve: (c) => c.requirePrimaryNetworkSigners ?? null }),
  }),
});

type ConfigKey = Exclude<keyof GenesisConfig, 'feeConfig' | 'warpConfig' | 'eip150Hash' | 'allowFeeRecipients' | `${string}Config`>;
const FORK_FIELDS: ConfigKey[] = [
  'homesteadBlock', 'eip150Block', 'eip155Block', 'eip158Block', 'byzantiumBlock', 'constantinopleBlock', 'petersburgBlock',
  'istanbulBlock', 'muirGlacierBlock', 'berlinBlock', 'londonBlock',
];
const PRECOMPILES = ['txAllowListConfig', 'contractDeployerAllowListConfig', 'contractNativeMinterConfig', 'feeManagerConfig', 'rewardManagerConfig'] as const;

const GenesisConfigRef = builder.objectRef<GenesisConfig>('EvmGenesisConfig').implement({
  description: 'The chain config of an EVM genesis: chain id, fork activation blocks, fees, warp and precompiles.',
  fields: (t) => ({
    chainId: t.field({ ...big('The EVM chain id.'), resolve: (c) => dec(c.chainId) }),
    ...Object.fromEntries(FORK_FIELDS.map((k) => [k, t.field({ ...big(), resolve: (c) => dec(c[k]) })])),
    eip150Hash: t.string({ nullable: true, resolve: (c) => c.eip150Hash ?? null }),
    subnetEVMTimestamp: t.field({ type: 'Timestamp', nullable: true, resolve: (c) => c.subnetEVMTimestamp ?? null }),
    allowFeeRecipients: t.boolean({ nullable: true, resolve: (c) => c.allowFeeRecipients ?? null }),
    feeConfig: t.field({ type: FeeConfigRef, nullable: true, resolve: (c) => c.feeConfig ?? null }),
    warpConfig: t.field({ type: WarpConfigRef, nullable: true, resolve: (c) => c.warpConfig ?? null }),
    ...Object.fromEntries(PRECOMPILES.map((k) => [k, t.field({ type: AllowListConfigRef, nullable: true, resolve: (c) => c[k] ?? null })])),
  }),
});

type AllocEntry = GenesisAlloc & { address: string };

const StorageSlotRef = builder.objectRef<{ slot: string; value: string }>('GenesisStorageSlot').implement({
  fields: (t) => ({ slot: t.exposeString('slot'), value: t.exposeString('value') }),
});

const AllocRef = builder.objectRef<AllocEntry>('GenesisAllocation').implement({
  description: 'An account funded or deployed at genesis (hex values, as in the genesis file).',
  fields: (t) => ({
    address: t.exposeString('address'),
    balance: t.string({ nullable: true, resolve: (a) => a.balance ?? null }),
    code: t.string({ nullable: true, resolve: (a) => a.code ?? null }),
    storage: t.field({ type: [StorageSlotRef], resolve: (a) => Object.entries(a.storage ?? {}).map(([slot, value]) => ({ slot, value })) }),
  }),
});

const HEADER_FIELDS = ['airdropHash', 'blobGasUsed', 'coinbase', 'difficulty', 'excessBlobGas', 'extraData', 'gasLimit', 'gasUsed', 'mixHash', 'nonce', 'number', 'parentHash', 'timestamp'] as const;

export const EvmGenesisRef = builder.objectRef<EvmGenesis>('EvmGenesis').implement({
  description: 'The genesis of an EVM chain. Header values are hex strings as in the genesis file.',
  fields: (t) => ({
    ...Object.fromEntries(HEADER_FIELDS.map((k) => [k, t.string({ nullable: true, resolve: (g) => g[k] ?? null })])),
    airdropAmount: t.field({ ...big(), resolve: (g) => dec(g.airdropAmount) }),
    baseFeePerGas: t.field({ ...big('wei.'), resolve: (g) => dec(g.baseFeePerGas) }),
    config: t.field({ type: GenesisConfigRef, nullable: true, resolve: (g) => g.config ?? null }),
    alloc: t.field({ type: [AllocRef], resolve: (g) => Object.entries(g.alloc ?? {}).map(([address, a]) => ({ ...a, address })) }),
  }),
});

export const RawGenesisRef = builder.objectRef<{ raw: string }>('RawGenesis').implement({
  description: 'The genesis of a chain of a non-EVM VM, as the upstream gives it.',
  fields: (t) => ({ raw: t.exposeString('raw') }),
});

export const GenesisDataRef = builder.unionType('GenesisData', {
  types: [EvmGenesisRef, RawGenesisRef],
  // The raw form is wrapped as { raw } below; a parsed EVM genesis never has that key.
  resolveType: (g) => ('raw' in g ? 'RawGenesis' : 'EvmGenesis'),
});

export const BlockchainInfoRef = builder.objectRef<BlockchainInfo>('BlockchainInfo').implement({
  description: 'A blockchain created by a CreateChainTx.',
  fields: (t) => ({
    chainName: t.exposeString('chainName'),
    vmId: t.exposeString('vmId'),
    genesisData: t.field({
      type: GenesisDataRef,
      nullable: true,
      resolve: (b) => (b.genesisData == null ? null : typeof b.genesisData === 'string' ? { raw: b.genesisData } : b.genesisData),
    }),
  }),
});
