import { builder } from '../builder.js';

/**
 * The root Mutation type. Its fields live with their areas (`builder.mutationField(s)`): node admin and
 * transaction issuing in node-admin-mutations.ts, signature aggregation with the primary network.
 */
builder.mutationType({ description: 'Actions with effects upstream. None is ever cached.' });
