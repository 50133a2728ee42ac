/** Small fetch helpers for the simulator's own tests. */

export interface Got<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function get<T = any>(
  base: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
  headers: Record<string, string> = {},
): Promise<Got<T>> {
  const u = new URL(base + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  const res = await fetch(u, { headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

export async function send<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Got<T>> {
  const res = await fetch(base + path, {
    method,
    ...(body !== undefined
      ? {
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        }
      : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

/** Every item of a list, following nextPageToken; also returns the number of pages. */
export async function walk<T = any>(
  base: string,
  path: string,
  field: string,
  query: Record<string, string | number | undefined> = {},
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pageToken = query.pageToken === undefined ? undefined : String(query.pageToken);
  let pages = 0;
  do {
    const r = await get(base, path, { ...query, pageToken });
    if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    items.push(...(r.body[field] as T[]));
    pageToken = r.body.nextPageToken;
    pages++;
    if (pages > 10_000) throw new Error('too many pages');
  } while (pageToken);
  return { items, pages };
}
