import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import DirectivesPlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import RelayPlugin from '@pothos/plugin-relay';
import type { GatewayContext } from '../context.js';
import './cost-spec.js';
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
  // Cost declarations before Directives: they become directives that plugin prints (src/schema/cost-spec.ts).
  plugins: [RelayPlugin, DataloaderPlugin, 'costDeclarations', DirectivesPlugin, FederationPlugin],
  defaultFieldNullability: false,
  relay: {
    cursorType: 'String',
    clientMutationId: 'omit',
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    nodeQueryOptions: {
      description:
        'Any object with a global id (Relay refetch): null when the id names nothing that exists.',
      args: { id: { description: 'A global id, exactly as an `id` field returned it.' } },
    },
    nodesQueryOptions: {
      description:
        'Several objects by global id (Relay), in the order of `ids`; null for an id that names nothing.',
      args: { ids: { description: 'Global ids, exactly as `id` fields returned them.' } },
    },
    idFieldOptions: {
      description: 'Relay global id (opaque): refetch this object with `node(id)`.',
    },
    nodeTypeOptions: {
      description:
        'An object with a stable global id (Relay). Refetch any of them with `node(id)`.',
    },
    // Other subgraphs of a supergraph commonly define Relay's PageInfo too: let composition merge them.
    pageInfoTypeOptions: {
      shareable: true,
      description:
        'Where a page of a connection sits in its list (Relay). The upstreams page forward only: page on with `first` and `after: endCursor`.',
    },
    hasNextPageFieldOptions: {
      description:
        'True when more items follow this page: pass `endCursor` as `after` to read them.',
    },
    hasPreviousPageFieldOptions: {
      description:
        'True when items precede this page (it started after a cursor). Backward paging (`last`/`before`) is not supported.',
    },
    startCursorFieldOptions: {
      description: "Cursor of the page's first item; null when the page is empty.",
    },
    endCursorFieldOptions: {
      description:
        "Cursor of the page's last item, to pass as `after` for the next page; null when the page is empty.",
    },
    pageInfoFieldOptions: {
      description:
        'Position of this page in the list: whether more items follow and the cursor to continue from.',
    },
    edgesFieldOptions: {
      description: 'The items of this page, in list order, each with its cursor.',
    },
    nodeFieldOptions: { description: 'The item itself.' },
    cursorFieldOptions: {
      description:
        'Opaque, signed cursor of this item: pass it as `after` to continue the list after it. Valid only with the same filter arguments.',
    },
    // The default is in the schema so every cost reader (ours, a supergraph router) sizes a list without `first` alike.
    firstArgOptions: {
      defaultValue: 20,
      description:
        'How many items to return, from the start of the list or after `after` (default 20; at most MAX_PAGE_SIZE, 500 unless configured). May span several upstream pages.',
    },
    afterArgOptions: {
      description:
        "A cursor from this same list (an edge's `cursor` or `pageInfo.endCursor`): the page starts right after it.",
    },
    // Relay's backward arguments stay (removing them would break a client that sends null) but are
    // deprecated: every list here pages forward only (docs/schema-conventions.md).
    lastArgOptions: {
      description:
        'Not supported: the upstreams page forward only (a BAD_USER_INPUT error). Use `first`.',
      deprecationReason: 'Use `first`: this list pages forward only.',
    },
    beforeArgOptions: {
      description:
        'Not supported: the upstreams page forward only (a BAD_USER_INPUT error). Use `after`.',
      deprecationReason: 'Use `after`: this list pages forward only.',
    },
    defaultConnectionTypeOptions: {
      description:
        'A page of a list (Relay connection): its items as `edges`, and `pageInfo` to page on with `first`/`after`.',
    },
    defaultEdgeTypeOptions: {
      description: 'One item of a connection page, with the cursor that points at it.',
    },
  },
});

builder.queryType({
  description:
    'Avalanche chain data: EVM chains, the primary network, interchain messages and nodes.',
});
