import type {
  ContractInfo,
  EvmBlock,
  EvmChainData,
  EvmTx,
  InternalTx,
  TokenTransfer,
} from '../world/index.js';

/** World records → the Data API's EVM JSON shapes (decimal strings for amounts, gas, numbers). */

const s = (v: bigint | number) => v.toString();

export function blockJson(b: EvmBlock) {
  return {
    chainId: b.chainId,
    blockNumber: s(b.number),
    blockTimestamp: b.timestamp,
    blockTimestampMilliseconds: b.timestampMs,
    blockHash: b.hash,
    txCount: b.txCount,
    baseFee: s(b.baseFee),
    gasUsed: s(b.gasUsed),
    gasLimit: s(b.gasLimit),
    gasCost: s(b.gasCost),
    parentHash: b.parentHash,
    feesSpent: s(b.feesSpent),
    cumulativeTransactions: s(b.cumulativeTransactions),
  };
}

/** RichAddress: token contracts carry their name, symbol, decimals and logo. */
export function richAddress(chain: EvmChainData, address: string) {
  const c = chain.contract(address);
  if (!c) return { address };
  if (c.ercType === 'UNKNOWN') return { name: c.name, address };
  return {
    name: c.name,
    symbol: c.symbol,
    ...(c.decimals !== undefined ? { decimals: c.decimals } : {}),
    logoUri: c.logoUri,
    address,
  };
}

function price(c: ContractInfo) {
  return c.priceUsd === undefined ? {} : { price: { currencyCode: 'usd', value: c.priceUsd } };
}

export function erc20Token(c: ContractInfo) {
  return {
    address: c.address,
    name: c.name,
    symbol: c.symbol ?? '',
    decimals: c.decimals ?? 18,
    logoUri: c.logoUri,
    ercType: 'ERC-20' as const,
    ...price(c),
  };
}

export function nftMetadata(c: ContractInfo, tokenId: string, ts: number) {
  return {
    indexStatus: 'INDEXED' as const,
    metadataLastUpdatedTimestamp: ts,
    name: `${c.name} #${tokenId}`,
    symbol: c.symbol,
    imageUri: `https://nft.sim.invalid/${c.address.toLowerCase()}/${tokenId}.png`,
    description: `Token ${tokenId} of ${c.name}.`,
  };
}

export function tokenUri(c: ContractInfo, tokenId: string) {
  return `https://nft.sim.invalid/${c.address.toLowerCase()}/${tokenId}.json`;
}

function contractOf(chain: EvmChainData, address: string): ContractInfo {
  return (
    chain.contract(address) ?? {
      address,
      ercType: 'UNKNOWN',
      name: 'Unknown',
      description: '',
      logoUri: '',
      tags: [],
      deployment: { txHash: '', deployerAddress: '' },
    }
  );
}

/** A transfer as it sits inside a transaction (no block fields). */
export function transferDetails(chain: EvmChainData, t: TokenTransfer, ts: number) {
  const c = contractOf(chain, t.token);
  const base = {
    from: richAddress(chain, t.from),
    to: richAddress(chain, t.to),
    logIndex: t.logIndex,
  };
  if (t.kind === 'erc20') return { ...base, value: s(t.value), erc20Token: erc20Token(c) };
  const tokenId = t.tokenId ?? '0';
  if (t.kind === 'erc721') {
    return {
      ...base,
      erc721Token: {
        address: c.address,
        name: c.name,
        symbol: c.symbol ?? '',
        ercType: 'ERC-721' as const,
        tokenId,
        tokenUri: tokenUri(c, tokenId),
        metadata: { ...nftMetadata(c, tokenId, ts), attributes: '[]' },
        ownerAddress: t.to,
      },
    };
  }
  return {
    ...base,
    value: s(t.value),
    erc1155Token: {
      address: c.address,
      ercType: 'ERC-1155' as const,
      tokenId,
      tokenUri: tokenUri(c, tokenId),
      metadata: { ...nftMetadata(c, tokenId, ts), decimals: 0, properties: '{}' },
    },
  };
}

export function internalDetails(chain: EvmChainData, it: InternalTx) {
  return {
    from: richAddress(chain, it.from),
    to: richAddress(chain, it.to),
    internalTxType: it.type,
    value: s(it.value),
    isReverted: it.isReverted,
    gasUsed: s(it.gasUsed),
    gasLimit: s(it.gasLimit),
  };
}

/** The block fields list items of the transfer / internal lists carry. */
export function blockFields(tx: EvmTx) {
  return {
    blockNumber: s(tx.blockNumber),
    blockTimestamp: tx.timestamp,
    blockHash: tx.blockHash,
    txHash: tx.hash,
  };
}

export function nativeTx(chain: EvmChainData, tx: EvmTx) {
  return {
    blockNumber: s(tx.blockNumber),
    blockTimestamp: tx.timestamp,
    blockHash: tx.blockHash,
    chainId: tx.chainId,
    blockIndex: tx.blockIndex,
    txHash: tx.hash,
    txStatus: String(tx.status),
    txType: tx.txType,
    gasLimit: s(tx.gasLimit),
    gasUsed: s(tx.gasUsed),
    gasPrice: s(tx.gasPrice),
    nonce: s(tx.nonce),
    from: richAddress(chain, tx.from),
    to: richAddress(chain, tx.to),
    method: { ...tx.method },
    value: s(tx.value),
  };
}

export function fullNativeTx(chain: EvmChainData, tx: EvmTx) {
  return {
    ...nativeTx(chain, tx),
    input: tx.input,
    baseFeePerGas: s(tx.baseFeePerGas),
    ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: s(tx.maxFeePerGas) } : {}),
    ...(tx.maxPriorityFeePerGas !== undefined
      ? { maxPriorityFeePerGas: s(tx.maxPriorityFeePerGas) }
      : {}),
  };
}

const involves = (a: string) => (x: { from: string; to: string }) =>
  x.from.toLowerCase() === a || x.to.toLowerCase() === a;

/** A combined-list item: the native tx plus only the transfers / internals the address is in. */
export function transactionDetails(chain: EvmChainData, tx: EvmTx, address?: string) {
  const a = address?.toLowerCase();
  const keep = <T extends { from: string; to: string }>(list: T[]) =>
    a === undefined ? list : list.filter(involves(a));
  const out: Record<string, unknown> = { nativeTransaction: nativeTx(chain, tx) };
  const e20 = keep(tx.erc20);
  const e721 = keep(tx.erc721);
  const e1155 = keep(tx.erc1155);
  const ints = keep(tx.internals);
  if (e20.length) out.erc20Transfers = e20.map((t) => transferDetails(chain, t, tx.timestamp));
  if (e721.length) out.erc721Transfers = e721.map((t) => transferDetails(chain, t, tx.timestamp));
  if (e1155.length)
    out.erc1155Transfers = e1155.map((t) => transferDetails(chain, t, tx.timestamp));
  if (ints.length) out.internalTransactions = ints.map((it) => internalDetails(chain, it));
  return out;
}
