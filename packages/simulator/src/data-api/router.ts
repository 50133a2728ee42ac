import type { SimRequest } from '../types.js';

/**
 * A tiny router over route templates like `/v1/chains/:chainId/addresses/:address/transactions:listNative`:
 * a segment starting with `:` is a parameter; any other segment (even with a colon inside) is literal.
 * Literal segments win over parameters.
 */

export interface Route<C> {
  method: string;
  template: string;
  handler: (ctx: C) => unknown;
}

interface Compiled<C> extends Route<C> {
  segments: string[];
  key: string;
  literalScore: number;
}

export interface Match<C> {
  route: Compiled<C>;
  params: Record<string, string>;
}

export class Router<C> {
  private readonly bySize = new Map<number, Compiled<C>[]>();

  add(routes: Route<C>[]): this {
    for (const r of routes) {
      const segments = r.template.split('/').slice(1);
      const c: Compiled<C> = {
        ...r,
        segments,
        key: `${r.method} ${r.template}`,
        literalScore: segments.filter((s) => !s.startsWith(':')).length,
      };
      const list = this.bySize.get(segments.length) ?? [];
      list.push(c);
      list.sort((a, b) => b.literalScore - a.literalScore);
      this.bySize.set(segments.length, list);
    }
    return this;
  }

  /** The matched route, or `methodMismatch` when the path exists under another method. */
  match(req: Pick<SimRequest, 'method' | 'path'>): Match<C> | { methodMismatch: boolean } {
    const parts = req.path.split('/').slice(1);
    if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    let mismatch = false;
    for (const c of this.bySize.get(parts.length) ?? []) {
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i]!;
        if (seg.startsWith(':')) {
          if (parts[i] === '') {
            ok = false;
            break;
          }
          params[seg.slice(1)] = parts[i]!;
        } else if (seg !== parts[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (c.method !== req.method) {
        mismatch = true;
        continue;
      }
      return { route: c, params };
    }
    return { methodMismatch: mismatch };
  }
}
