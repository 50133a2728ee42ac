import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  AddressBalanceDocument,
  AddressContractDocument,
  ContractDeploymentDocument,
} from '../__generated__/graphql.js';
import * as X from '../support/evm-expected.js';
import { codes, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/** Address.contract (metadata by token standard) and Address.balance (native, at a block, in a currency). */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;

useSimAndGateway({}, (s, g) => {
  sim = s;
  gw = g;
});

const TYPENAME: Record<string, string> = {
  'ERC-20': 'Erc20Contract',
  'ERC-721': 'Erc721Contract',
  'ERC-1155': 'Erc1155Contract',
  UNKNOWN: 'UnknownContract',
};
const asset = (a: any) => (a ? { assetId: a.assetId ?? null, imageUri: a.imageUri ?? null } : null);

function expectedContract(c: any) {
  const typename = TYPENAME[c.ercType]!;
  const d = c.deploymentDetails;
  const specific =
    c.ercType === 'ERC-20'
      ? {
          symbol: c.symbol ?? null,
          decimals: c.decimals,
          coingeckoCoinId: c.pricingProviders?.coingeckoCoinId ?? null,
        }
      : c.ercType === 'ERC-721'
        ? { symbol: c.symbol ?? null }
        : c.ercType === 'ERC-1155'
          ? {
              symbol: c.symbol ?? null,
              coingeckoCoinId: c.pricingProviders?.coingeckoCoinId ?? null,
            }
          : {};
  return {
    __typename: typename,
    id: X.contractId(typename, C, c.address),
    chainId: C,
    address: c.address.toLowerCase(),
    ercType: X.ercEnum(c.ercType),
    name: c.name ?? null,
    description: c.description ?? null,
    officialSite: c.officialSite ?? null,
    email: c.email ?? null,
    color: c.color ?? null,
    tags: c.tags ?? [],
    logo: asset(c.logoAsset),
    banner: asset(c.bannerAsset),
    resourceLinks: c.resourceLinks ?? [],
    deployment: d
      ? {
          txHash: d.txHash,
          deployerAddress: d.deployerAddress.toLowerCase(),
          deployerContractAddress: d.deployerContractAddress?.toLowerCase() ?? null,
          deployer: {
            id: X.addressId(C, d.deployerAddress),
            address: d.deployerAddress.toLowerCase(),
          },
          deployerContract: d.deployerContractAddress
            ? {
                id: X.addressId(C, d.deployerContractAddress),
                address: d.deployerContractAddress.toLowerCase(),
              }
            : null,
        }
      : null,
    account: { id: X.addressId(C, c.address) },
    ...specific,
  };
}

describe('Address.contract', () => {
  it('is the metadata of each token standard, every field as the upstream answers it', async () => {
    for (const address of Object.values(sim.world.fixtures.contracts)) {
      const upstream = await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${address}`);
      const r = await gw.exec(AddressContractDocument, { chainId: C, address });
      expect(r.errors).toBeUndefined();
      expect(r.data!.address!.contract).toEqual(expectedContract(upstream));
    }
  });

  it('links its deployment transaction when the chain holds it', async () => {
    const created = sim.world
      .chain(C)!
      .transactions.find(
        (t) => t.createdContract && sim.world.chain(C)!.contract(t.createdContract),
      )!;
    const r = await gw.exec(ContractDeploymentDocument, {
      chainId: C,
      address: created.createdContract!,
    });
    expect(r.errors).toBeUndefined();
    const d = r.data!.address!.contract!.deployment!;
    expect(d.txHash).toBe(created.hash);
    expect(d.transaction).toEqual({
      hash: created.hash,
      from: { address: created.from.toLowerCase() },
      to: { address: created.to.toLowerCase() },
    });
    expect(d.deployer.address).toBe(created.from.toLowerCase());
  });

  it('is null, without an error, for an address that is no contract; an unknown chain is an error', async () => {
    const eoa = await gw.exec(AddressContractDocument, {
      chainId: C,
      address: sim.world.fixtures.busyAddress,
    });
    expect(eoa.errors).toBeUndefined();
    expect(eoa.data!.address!.contract).toBeNull();
    const nowhere = await gw.exec(AddressContractDocument, {
      chainId: '999999',
      address: sim.world.fixtures.contracts.erc20,
    });
    expect(nowhere.data!.address!.contract).toBeNull();
    expect(codes(nowhere)).toEqual(['NOT_FOUND']);
  });
});

describe('Address.balance', () => {
  const busy = () => sim.world.fixtures.busyAddress;

  it('at the head, priced in USD by default', async () => {
    const b = (
      await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${busy()}/balances:getNative`)
    ).nativeTokenBalance;
    const r = await gw.exec(AddressBalanceDocument, { chainId: C, address: busy() });
    expect(r.errors).toBeUndefined();
    expect(r.data!.address!.balance).toEqual({
      chainId: b.chainId,
      blockNumber: null,
      name: b.name,
      symbol: b.symbol,
      decimals: b.decimals,
      logoUri: b.logoUri ?? null,
      balance: b.balance,
      price: X.money(b.price),
      balanceValue: X.money(b.balanceValue),
      chain: { chainId: C },
    });
    expect(r.data!.address!.balance!.price!.currencyCode).toBe('USD');
  });

  it('at an earlier block and in another currency, as the upstream answers those arguments', async () => {
    const head = Number(
      (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 })).blocks[0]
        .blockNumber,
    );
    const at = String(head - 200);
    const b = (
      await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${busy()}/balances:getNative`, {
        blockNumber: at,
        currency: 'eur',
      })
    ).nativeTokenBalance;
    const now = (
      await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${busy()}/balances:getNative`)
    ).nativeTokenBalance;
    expect(b.balance).not.toBe(now.balance);
    const r = await gw.exec(AddressBalanceDocument, {
      chainId: C,
      address: busy(),
      blockNumber: at,
      currency: 'EUR',
    });
    expect(r.errors).toBeUndefined();
    expect(r.data!.address!.balance).toMatchObject({
      blockNumber: at,
      balance: b.balance,
      price: X.money(b.price),
      balanceValue: X.money(b.balanceValue),
    });
    expect(r.data!.address!.balance!.price!.currencyCode).toBe('EUR');
  });

  it('an L1 whose token has no price gives null prices; a block beyond the head is the upstream’s 400', async () => {
    const l1 = sim.world.fixtures.l1ChainId;
    const holder = sim.world.chain(l1)!.transactions[0]!.from;
    const b = (
      await simGet(sim.dataApiUrl, `/v1/chains/${l1}/addresses/${holder}/balances:getNative`)
    ).nativeTokenBalance;
    const r = await gw.exec(AddressBalanceDocument, { chainId: l1, address: holder });
    expect(r.data!.address!.balance).toMatchObject({
      chainId: l1,
      symbol: b.symbol,
      balance: b.balance,
      price: null,
      balanceValue: null,
    });
    const future = await gw.exec(AddressBalanceDocument, {
      chainId: C,
      address: busy(),
      blockNumber: '999999999999',
    });
    expect(future.data!.address!.balance).toBeNull();
    expect(codes(future)).toEqual(['BAD_USER_INPUT']);
  });
});
