import { TELEPORTER_ADDRESS } from './constants.js';
import { toChecksumAddress } from './keccak.js';
import { type Rng, rngFor } from './prng.js';
import type { ContractInfo, ErcType } from './types.js';

/**
 * The EVM addresses every chain shares: a few busy EOAs (thousands of txs each), many ordinary
 * EOAs, ICM relayers, and the token / app contracts. Same address on every chain, like real
 * deterministic deployments.
 */
export interface AddressBook {
  busy: string[];
  ordinary: string[];
  relayers: string[];
  erc20: ContractInfo[];
  erc721: ContractInfo[];
  erc1155: ContractInfo[];
  /** Contracts of unknown standard: [0] is a DEX router, [1] a multisender, last is TeleporterMessenger. */
  unknown: ContractInfo[];
  teleporter: ContractInfo;
  all: ContractInfo[];
}

const LOGO = (s: string) => `https://images.sim.invalid/tokens/${s.toLowerCase()}.png`;

function address(rng: Rng): string {
  return toChecksumAddress(`0x${rng.hex(20)}`);
}

export function contractInfo(
  rng: Rng,
  addr: string,
  ercType: ErcType,
  name: string,
  extra: Partial<ContractInfo> = {},
): ContractInfo {
  return {
    address: addr,
    ercType,
    name,
    description: `${name} (simulated ${ercType === 'UNKNOWN' ? 'contract' : `${ercType} token`}).`,
    logoUri: LOGO(extra.symbol ?? name.replace(/\W/g, '')),
    officialSite: `https://${name.toLowerCase().replace(/\W+/g, '-')}.sim.invalid`,
    color: `#${rng.hex(3)}`,
    tags: ercType === 'UNKNOWN' ? ['defi'] : ['token'],
    deployment: { txHash: `0x${rng.hex(32)}`, deployerAddress: address(rng) },
    ...extra,
  };
}

const ERC20 = [
  {
    name: 'Wrapped AVAX',
    symbol: 'WAVAX',
    decimals: 18,
    priceUsd: 24.17,
    coingeckoCoinId: 'wrapped-avax',
  },
  { name: 'USD Coin', symbol: 'USDC', decimals: 6, priceUsd: 1, coingeckoCoinId: 'usd-coin' },
  { name: 'Tether USD', symbol: 'USDt', decimals: 6, priceUsd: 1, coingeckoCoinId: 'tether' },
  { name: 'Sim Governance', symbol: 'SIMG', decimals: 18, priceUsd: 0.4312 },
  { name: 'Joe Token', symbol: 'JOE', decimals: 18, priceUsd: 0.21 },
  { name: 'Unpriced Meme', symbol: 'MEME', decimals: 9 },
];
const ERC721 = [
  { name: 'Sim Punks', symbol: 'SPUNK' },
  { name: 'Avalanche Apes', symbol: 'AAPE' },
  { name: 'Glacier Badges', symbol: 'GBDG' },
];
const ERC1155 = [
  { name: 'Sim Game Items', symbol: 'SGI' },
  { name: 'Event Tickets', symbol: 'TIX' },
];

export function createAddressBook(seed: string): AddressBook {
  const rng = rngFor(seed, 'address-book');
  const busy = Array.from({ length: 3 }, () => address(rng));
  const ordinary = Array.from({ length: 320 }, () => address(rng));
  const relayers = Array.from({ length: 4 }, () => address(rng));
  const erc20 = ERC20.map((t) => contractInfo(rng, address(rng), 'ERC-20', t.name, { ...t }));
  const erc721 = ERC721.map((t) =>
    contractInfo(rng, address(rng), 'ERC-721', t.name, { symbol: t.symbol }),
  );
  const erc1155 = ERC1155.map((t) =>
    contractInfo(rng, address(rng), 'ERC-1155', t.name, { symbol: t.symbol }),
  );
  const teleporter = contractInfo(rng, TELEPORTER_ADDRESS, 'UNKNOWN', 'TeleporterMessenger', {
    tags: ['icm'],
  });
  const unknown = [
    contractInfo(rng, address(rng), 'UNKNOWN', 'Sim DEX Router'),
    contractInfo(rng, address(rng), 'UNKNOWN', 'Sim Multisender'),
    contractInfo(rng, address(rng), 'UNKNOWN', 'Sim Vault'),
    teleporter,
  ];
  return {
    busy,
    ordinary,
    relayers,
    erc20,
    erc721,
    erc1155,
    unknown,
    teleporter,
    all: [...erc20, ...erc721, ...erc1155, ...unknown],
  };
}

/** A fresh checksummed address from an rng (contract creations). */
export const randomAddress = address;
