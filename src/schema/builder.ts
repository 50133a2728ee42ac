import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import DirectivesPlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import RelayPlugin from '@pothos/plugin-relay';
import type { GatewayContext } from '../context.js';
import { decodeGlobalId, encodeGlobalId } from './global-id.js';

export type Scalars = {
  BigDecimal: { Input: string; Output: string };
  Timestamp: { Input: number; Output: number };
};

/**
 * The one Pothos builder. Fields are non-null unless they reach an upstream: those are nullable, so one
 * failing field (a 404, an unavailable upstream) yields null plus an error while its siblings still answer.
 */
export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  Scalars: Scalars;
  DefaultFieldNullability: false;
}>({
  // Federation comes last: it wraps resolvers the others define (Pothos' recommended order).
  plugins: [RelayPlugin, DataloaderPlugin, DirectivesPlugin, FederationPlugin],
  defaultFieldNullability: false,
  relay: {
    cursorType: 'String',
    clientMutationId: 'omit',
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    nodeTypeOptions: { description: 'An object with a stable global id (Relay). Refetch any of them with `node(id)`.' },
    // Other subgraphs of a supergraph commonly define Relay's PageInfo too: let composition merge them.
    pageInfoTypeOptions: { shareable: true },
  },
});

builder.queryType({ description: 'Avalanche chain data: EVM chains, the primary network, interchain messages and nodes.' });
