import type { EvmGenesis, GenesisAlloc } from '../../upstream/schemas/primary-genesis.js';
import type { BlockchainInfo } from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';
import { decimalFields, GenesisConfigRef } from './genesis-config.js';

/**
 * The blockchain a CreateChainTx created, with its genesis. EVM chains (Subnet-EVM) get the parsed genesis:
 * fork blocks, fee config, warp config and the precompile allow-list configs, each typed; other VMs keep
 * their genesis as the string the upstream gives. JSON numbers are exposed as exact decimal strings.
 */
type AllocEntry = GenesisAlloc & { address: string };

const StorageSlotRef = builder
  .objectRef<{ slot: string; value: string }>('GenesisStorageSlot')
  .implement({
    description: 'One storage slot of a contract set at genesis.',
    fields: (t) =>
      exposed(t, {
        slot: ['String', 'Storage key, 0x-hex (32 bytes).'],
        value: ['String', 'Stored value, 0x-hex (32 bytes).'],
      }),
  });

const AllocRef = builder.objectRef<AllocEntry>('GenesisAllocation').implement({
  description: 'An account funded or deployed at genesis (hex values, as in the genesis file).',
  fields: (t) => ({
    ...exposed(t, {
      address: ['EvmAddress', 'Account address, lower-case 0x-hex.'],
      balance: [
        'String?',
        'Balance in wei, as hex (e.g. "0x52b7d2dcc80cd2e4000000"); null when not set.',
      ],
      code: ['String?', 'Contract bytecode, 0x-hex; null for an account without code.'],
    }),
    storage: t.field({
      type: [StorageSlotRef],
      description: 'Storage slots set at genesis; empty when none.',
      resolve: (a) => Object.entries(a.storage ?? {}).map(([slot, value]) => ({ slot, value })),
    }),
  }),
});

const HEADER_FIELDS = [
  'airdropHash',
  'blobGasUsed',
  'coinbase',
  'difficulty',
  'excessBlobGas',
  'extraData',
  'gasLimit',
  'gasUsed',
  'mixHash',
  'nonce',
  'number',
  'parentHash',
  'timestamp',
] as const;

export const EvmGenesisRef = builder.objectRef<EvmGenesis>('EvmGenesis').implement({
  description: 'The genesis of an EVM chain. Header values are hex strings as in the genesis file.',
  fields: (t) => ({
    ...Object.fromEntries(
      HEADER_FIELDS.map((k) => [
        k,
        t.string({
          nullable: true,
          description: `Genesis block header \`${k}\` (hex, as in the genesis file); null when absent.`,
          resolve: (g) => g[k] ?? null,
        }),
      ]),
    ),
    ...decimalFields(t, {
      airdropAmount: 'Airdrop amount in wei; null when none.',
      baseFeePerGas: 'Base fee per gas of the genesis block, in wei.',
    }),
    config: t.field({
      type: GenesisConfigRef,
      nullable: true,
      description: 'The chain config; null when absent.',
      resolve: (g) => g.config ?? null,
    }),
    alloc: t.field({
      type: [AllocRef],
      description: 'Accounts funded or deployed at genesis; empty when none.',
      resolve: (g) => Object.entries(g.alloc ?? {}).map(([address, a]) => ({ ...a, address })),
    }),
  }),
});

export const RawGenesisRef = builder.objectRef<{ raw: string }>('RawGenesis').implement({
  description: 'The genesis of a chain of a non-EVM VM, as the upstream gives it.',
  fields: (t) => ({
    raw: t.exposeString('raw', {
      description: 'The genesis data as the upstream gives it (often hex or JSON text).',
    }),
  }),
});

export const GenesisDataRef = builder.unionType('GenesisData', {
  description: 'A chain genesis: parsed for an EVM chain, raw for other VMs.',
  types: [EvmGenesisRef, RawGenesisRef],
  // The raw form is wrapped as { raw } below; a parsed EVM genesis never has that key.
  resolveType: (g) => ('raw' in g ? 'RawGenesis' : 'EvmGenesis'),
});

export const BlockchainInfoRef = builder.objectRef<BlockchainInfo>('BlockchainInfo').implement({
  description: 'A blockchain created by a CreateChainTx.',
  fields: (t) => ({
    ...exposed(t, {
      chainName: ['String', 'Name given to the blockchain.'],
      vmId: ['String', 'CB58 id of the virtual machine it runs.'],
    }),
    genesisData: t.field({
      type: GenesisDataRef,
      nullable: true,
      description: 'Its genesis; null when the upstream gives none.',
      resolve: (b) =>
        b.genesisData == null
          ? null
          : typeof b.genesisData === 'string'
            ? { raw: b.genesisData }
            : b.genesisData,
    }),
  }),
});
