import { type CuPrice, cuPrice } from './compute-units.js';
import type { UpstreamName } from './errors.js';
import { routeTemplate } from './observe.js';

/**
 * What one HTTP attempt costs in compute units: a JSON-RPC body by its methods (a batch: each of
 * them), any other call by its route template. `route` names the line item: the route template, or the
 * JSON-RPC method (`gateway_upstream_cu_total`'s label).
 */
export interface CuItem {
  route: string;
  cu: number;
}

export function attemptCost(
  name: UpstreamName,
  method: string,
  path: string,
  body: unknown,
  price: CuPrice = cuPrice,
): { total: number; items: CuItem[] } {
  const calls = name === 'node' ? rpcMethods(body) : undefined;
  const items = calls
    ? calls.map((m) => ({ route: m, cu: price('rpc', m) }))
    : [{ route: routeTemplate(path), cu: price(name, `${method} ${routeTemplate(path)}`) }];
  let total = 0;
  for (const i of items) total += i.cu;
  return { total, items };
}

/** The methods of a JSON-RPC request body (one call or a batch); undefined for anything else. */
function rpcMethods(body: unknown): string[] | undefined {
  const list = Array.isArray(body) ? body : [body];
  const out: string[] = [];
  for (const c of list) {
    const m = (c as { method?: unknown } | null)?.method;
    if (typeof m !== 'string') return undefined;
    out.push(m);
  }
  return out.length > 0 ? out : undefined;
}
