/**
 * The GraphQL shape a Data API item should come out as, computed from the simulator's own JSON answer
 * (never hand-typed constants). Used by the EVM integration tests to compare whole items field by field.
 */
const gid = (typename: string, key: string) =>
  Buffer.from(`${typename}:${key}`, 'utf8').toString('base64url');
export const addressId = (chainId: string, address: string) =>
  gid('Address', `${chainId}:${address.toLowerCase()}`);
export const transactionId = (chainId: string, hash: string) =>
  gid('Transaction', `${chainId}:${hash.toLowerCase()}`);
export const blockId = (chainId: string, number: string) => gid('Block', `${chainId}:${number}`);
export const chainId = (id: string) => gid('Chain', id);
export const contractId = (typename: string, chain: string, address: string) =>
  gid(typename, `${chain}:${address.toLowerCase()}`);

const orNull = <T>(v: T | undefined) => (v === undefined ? null : v);
const ERC: Record<string, string> = {
  'ERC-20': 'ERC_20',
  'ERC-721': 'ERC_721',
  'ERC-1155': 'ERC_1155',
  UNKNOWN: 'UNKNOWN',
};
export const ercEnum = (t: string) => ERC[t];
export const money = (m: any) =>
  m ? { currencyCode: String(m.currencyCode).toUpperCase(), value: String(m.value) } : null;

/** TransactionFields' `from`/`to` (no id) as the upstream names the address. */
export const richAddress = (a: any) => ({
  address: a.address.toLowerCase(),
  name: orNull(a.name),
  symbol: orNull(a.symbol),
  decimals: orNull(a.decimals),
  logoUri: orNull(a.logoUri),
});

/** AddressLabelFields. */
export const labelled = (chain: string, a: any) => ({
  id: addressId(chain, a.address),
  chainId: chain,
  ...richAddress(a),
});

/** The TransactionFields fragment of a native transaction. */
export function transaction(tx: any) {
  return {
    id: transactionId(tx.chainId, tx.txHash),
    hash: tx.txHash,
    chainId: tx.chainId,
    blockNumber: tx.blockNumber,
    blockHash: tx.blockHash,
    blockTimestamp: tx.blockTimestamp,
    blockIndex: tx.blockIndex,
    status: tx.txStatus,
    type: tx.txType,
    gasLimit: tx.gasLimit,
    gasUsed: tx.gasUsed,
    gasPrice: tx.gasPrice,
    nonce: tx.nonce,
    value: tx.value,
    from: richAddress(tx.from),
    to: richAddress(tx.to),
    method: tx.method
      ? {
          callType: tx.method.callType,
          methodHash: tx.method.methodHash,
          methodName: orNull(tx.method.methodName),
        }
      : null,
  };
}

/** Where an item sits: given by list items themselves, or by the parent transaction for in-transaction items. */
export interface Position {
  chainId: string;
  txHash: string;
  blockNumber: string;
  blockHash: string;
  blockTimestamp: number;
}
export const positionOf = (chain: string, item: any): Position => ({
  chainId: chain,
  txHash: item.txHash,
  blockNumber: item.blockNumber,
  blockHash: item.blockHash,
  blockTimestamp: item.blockTimestamp,
});

const parties = (p: Position, x: any) => ({
  from: labelled(p.chainId, x.from),
  to: labelled(p.chainId, x.to),
});
const tokenContract = (p: Position, address: string) => ({
  id: addressId(p.chainId, address),
  address: address.toLowerCase(),
});
const nftMetadata = (m: any) => ({
  indexStatus: m.indexStatus,
  metadataLastUpdatedTimestamp: orNull(m.metadataLastUpdatedTimestamp),
  name: orNull(m.name),
  symbol: orNull(m.symbol),
  imageUri: orNull(m.imageUri),
  description: orNull(m.description),
  animationUri: orNull(m.animationUri),
  externalUrl: orNull(m.externalUrl),
  background: orNull(m.background),
});

export function erc20Transfer(p: Position, x: any) {
  const t = x.erc20Token;
  return {
    ...parties(p, x),
    logIndex: x.logIndex,
    ...p,
    value: x.value,
    token: {
      address: t.address.toLowerCase(),
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      logoUri: orNull(t.logoUri),
      ercType: ercEnum(t.ercType),
      price: money(t.price),
      contract: tokenContract(p, t.address),
    },
  };
}

export function erc721Transfer(p: Position, x: any) {
  const t = x.erc721Token;
  return {
    ...parties(p, x),
    logIndex: x.logIndex,
    ...p,
    token: {
      address: t.address.toLowerCase(),
      name: t.name,
      symbol: t.symbol,
      ercType: ercEnum(t.ercType),
      tokenId: t.tokenId,
      tokenUri: t.tokenUri,
      ownerAddress: t.ownerAddress ? t.ownerAddress.toLowerCase() : null,
      owner: t.ownerAddress
        ? { id: addressId(p.chainId, t.ownerAddress), address: t.ownerAddress.toLowerCase() }
        : null,
      metadata: { ...nftMetadata(t.metadata), attributes: orNull(t.metadata.attributes) },
      contract: tokenContract(p, t.address),
    },
  };
}

export function erc1155Transfer(p: Position, x: any) {
  const t = x.erc1155Token;
  return {
    ...parties(p, x),
    logIndex: x.logIndex,
    ...p,
    value: x.value,
    token: {
      address: t.address.toLowerCase(),
      ercType: ercEnum(t.ercType),
      tokenId: t.tokenId,
      tokenUri: t.tokenUri,
      metadata: {
        ...nftMetadata(t.metadata),
        decimals: orNull(t.metadata.decimals),
        properties: orNull(t.metadata.properties),
      },
      contract: tokenContract(p, t.address),
    },
  };
}

export function internalTransaction(p: Position, x: any) {
  return {
    ...parties(p, x),
    type: x.internalTxType,
    value: x.value,
    isReverted: x.isReverted,
    gasUsed: x.gasUsed,
    gasLimit: x.gasLimit,
    ...p,
  };
}

/** An edge of Address.transactions: the native transaction plus the transfers of it the list carries for the address. */
export function combinedEdge(item: any) {
  const tx = item.nativeTransaction;
  const p = positionOf(tx.chainId, tx);
  return {
    node: transaction(tx),
    erc20Transfers: (item.erc20Transfers ?? []).map((x: any) => erc20Transfer(p, x)),
    erc721Transfers: (item.erc721Transfers ?? []).map((x: any) => erc721Transfer(p, x)),
    erc1155Transfers: (item.erc1155Transfers ?? []).map((x: any) => erc1155Transfer(p, x)),
    internalTransactions: (item.internalTransactions ?? []).map((x: any) =>
      internalTransaction(p, x),
    ),
  };
}
