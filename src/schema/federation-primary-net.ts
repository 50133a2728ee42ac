import { builder } from './builder.js';
import { parseCb58Id, parseNetwork } from './primary-inputs.js';
import { BlockchainRef, loadBlockchain } from './types/blockchain.js';
import { loadSubnet, SubnetRef } from './types/subnet.js';

/**
 * Federation keys of subnets and blockchains: their natural identity (network + CB58 id), resolved
 * through the same loaders as `Network.subnet` / `Network.blockchain`. Async, so a malformed
 * representation fails for its entity only (see federation.ts).
 */
builder.asEntity(SubnetRef, {
  key: builder.selection<{ network: string; subnetId: string }>('network subnetId'),
  resolveReference: async (ref, ctx) =>
    loadSubnet(
      ctx,
      parseNetwork(String(ref.network), 'network'),
      parseCb58Id(String(ref.subnetId), 'subnetId', 'subnet id'),
    ),
});

builder.asEntity(BlockchainRef, {
  key: builder.selection<{ network: string; blockchainId: string }>('network blockchainId'),
  resolveReference: async (ref, ctx) =>
    loadBlockchain(
      ctx,
      parseNetwork(String(ref.network), 'network'),
      parseCb58Id(String(ref.blockchainId), 'blockchainId', 'blockchain id'),
    ),
});
