import type { GraphQLField } from 'graphql';
import type { GatewayContext } from '../context.js';
import { gqlError } from './errors.js';

/**
 * Query cost, measured on the shape of the query before anything reaches an upstream. What costs
 * upstream calls is nesting connections: every item of a connection may fetch its own nested lists. So a
 * connection multiplies the cost of its selection by the `first` it asks for (default 20; a `first` above
 * the maximum is left to the connection to refuse, naming the argument), while plain lists — data that
 * arrives inline with their parent — count once.
 * `{ chain { blocks(first: 500) { edges { node { transactions(first: 500) { … } } } } } }` would be
 * hundreds of upstream calls; it is refused instead, with a BAD_USER_INPUT naming the limit.
 */
const DEFAULT_FIRST = 20;

export function fieldComplexity(args: Record<string, unknown>, ctx: GatewayContext, field: GraphQLField<unknown, GatewayContext, Record<string, unknown>>) {
  if (!field.args.some((a) => a.name === 'first')) return { field: 1, multiplier: 1 };
  const first = typeof args.first === 'number' && args.first >= 0 ? args.first : DEFAULT_FIRST;
  return { field: 1, multiplier: Math.max(1, Math.min(first, ctx.connections.maxFirst)) };
}

export function complexityError(kind: string, result: { complexity: number; depth: number; breadth: number; maxComplexity?: number; maxDepth?: number; maxBreadth?: number }) {
  const what = kind.toLowerCase();
  const [got, max] =
    what === 'depth' ? [result.depth, result.maxDepth] : what === 'breadth' ? [result.breadth, result.maxBreadth] : [result.complexity, result.maxComplexity];
  return gqlError('BAD_USER_INPUT', `The query is too ${what === 'complexity' ? 'costly' : what === 'depth' ? 'deep' : 'broad'}: ${what} ${got} exceeds ${max}. Ask for fewer items (smaller first) or fewer nested lists.`, {
    reason: 'QUERY_TOO_COMPLEX',
    [what]: got,
    limit: max,
  });
}
