import { buildPersistedManifest } from '../../src/edge/persisted.js';
import { signBody } from '../../src/live/webhook-payload.js';
import { wsRaw } from './transports.js';

/**
 * The seeded fuzz's cases (issue 12), shared by `test/integration/fuzz.test.ts` (small, in `npm test`)
 * and `npm run fuzz` (scripts/fuzz.ts: 10,000 requests against a gateway process under the compose heap).
 */
/** mulberry32: small, seeded, good enough to pick cases. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
export type Rng = ReturnType<typeof rng>;

/** What the cases are drawn from: the head block, real cursors, and the switches. */
export interface FuzzWorld {
  /** The simulator's C-Chain head block number. */
  head: number;
  /** Real cursors of the gateway's lists (cursor-shaped junk otherwise). */
  cursors: string[];
  /** `_entities` representations with unknown typenames are part of the mix. @default true */
  unknownTypenames?: boolean;
  /** The share of operations sent over graphql-ws. @default 0.2 */
  wsShare?: number;
  /** The share of requests sent to the Data API's webhook route instead. @default 0 */
  webhookShare?: number;
  /** The shared secret that signs about half of the webhook deliveries (the simulator's). */
  webhookSecret?: string;
}

/** The route the Data API's webhook deliveries reach. */
export const WEBHOOK_PATH = '/webhooks/data-api';

export interface FuzzRequest {
  /** Sent as one graphql-ws operation instead of over HTTP. */
  ws?: { query: string; variables?: unknown };
  method: string;
  headers: Record<string, string>;
  body?: string;
  query?: string;
  /** Another path than /graphql (the webhook route). */
  path?: string;
}

/** A seeded generator of hostile requests: random operations, variables, representations and cursors. */
export function fuzzRequests(world: FuzzWorld): (r: Rng) => FuzzRequest {
  const { head, cursors } = world;
  const UNKNOWN_TYPENAMES = world.unknownTypenames !== false;
  const WS_SHARE = world.wsShare ?? 0.2;
  const WEBHOOK_SHARE = world.webhookShare ?? 0;
  const documents = Object.values(buildPersistedManifest());

  function junk(r: Rng, depth = 0): unknown {
    switch (r.int(depth > 3 ? 6 : 9)) {
      case 0:
        return r.pick([
          '',
          'x',
          '43114',
          '0x',
          '-1',
          '1e309',
          '\u0000',
          '🐢',
          'null',
          '__proto__',
          'A'.repeat(r.int(5000)),
        ]);
      case 1:
        return r.pick([0, -1, 1.5, 2 ** 31, 2 ** 64, Number.MAX_SAFE_INTEGER, 1e300]);
      case 2:
        return r.pick([true, false, null]);
      case 3:
        return String(head - r.int(300));
      case 4:
        return `0x${Array.from({ length: r.pick([40, 64, 3, 65]) }, () => r.pick([...'0123456789abcdefABCDEF'])).join('')}`;
      case 5:
        return r.chance(0.5) && cursors.length
          ? r.pick(cursors)
          : Buffer.from(JSON.stringify({ v: r.int(3), t: junk(r, 4), i: r.next() })).toString(
              'base64url',
            );
      case 6:
        return Array.from({ length: r.int(5) }, () => junk(r, depth + 1));
      case 7:
        return Object.fromEntries(
          Array.from({ length: r.int(4) }, () => [
            r.pick(['a', 'chainId', 'number', '__typename', 'hash', 'address', 'id']),
            junk(r, depth + 1),
          ]),
        );
      default:
        return r.pick(['mainnet', 'fuji', 'C', 'X', 'P', 'default', 'Block', 'Chain']);
    }
  }

  const TYPENAMES = [
    'Block',
    'Chain',
    'Transaction',
    'Address',
    'Erc20Contract',
    'ActiveValidator',
    'L1Validator',
    'PendingIcmMessage',
  ];
  function representation(r: Rng): unknown {
    const typename =
      UNKNOWN_TYPENAMES && r.chance(0.1)
        ? r.pick(['Nope', '', 'Query', '__Schema'])
        : r.pick(TYPENAMES);
    const rep: Record<string, unknown> = { __typename: typename };
    for (const k of [
      'chainId',
      'number',
      'hash',
      'address',
      'validationId',
      'messageId',
      'network',
      'nodeId',
      'txHash',
    ]) {
      if (r.chance(0.4))
        rep[k] =
          k === 'chainId' && r.chance(0.6)
            ? '43114'
            : k === 'number' && r.chance(0.5)
              ? String(head - r.int(100))
              : junk(r, 3);
    }
    return rep;
  }

  /** Variables for a document: right-looking values mostly, junk sometimes, undeclared extras now and then. */
  function variablesFor(r: Rng, text: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of text.matchAll(/\$(\w+):\s*([\w[\]!]+)/g)) {
      const [, name, type] = m as unknown as [string, string, string];
      if (!type.endsWith('!') && r.chance(0.5)) continue;
      if (r.chance(0.3)) out[name] = junk(r);
      else if (/Int/.test(type)) out[name] = r.pick([1, 2, 5, 20, 100, 500, 501, 0, -3]);
      else if (/chainId/i.test(name)) out[name] = r.pick(['43114', '43113', '999999', 'abc']);
      else if (/address/i.test(name))
        out[name] = r.pick([
          `0x${'ab'.repeat(20)}`,
          '0x71c7656ec7ab88b098defb751b7401b5f6d8976f',
          'nope',
        ]);
      else if (/after|cursor/i.test(name))
        out[name] = r.chance(0.5) && cursors.length ? r.pick(cursors) : junk(r);
      else if (/network/i.test(name)) out[name] = r.pick(['mainnet', 'fuji', 'nope']);
      else if (/first/i.test(name)) out[name] = r.int(600);
      else out[name] = junk(r);
    }
    if (r.chance(0.1)) out[`junk${r.int(1000)}`] = junk(r);
    return out;
  }

  const FIELDS = [
    'chainId',
    'name',
    'number',
    'hash',
    'parent { number }',
    'blocks(first: 3) { edges { cursor node { number } } }',
    'transactions(first: 2) { edges { node { hash } } }',
    '__typename',
    'nope',
  ];
  function randomQuery(r: Rng): string {
    switch (r.int(6)) {
      case 0: {
        const aliases = r.pick([1, 5, 31, 200]);
        return `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: block(chainId: "43114", id: "${head - r.int(300)}") { ${r.pick(FIELDS)} }`).join(' ')} }`;
      }
      case 1: {
        const depth = r.pick([2, 10, 25, 300]);
        return `{ block(chainId: "43114", id: "${head - r.int(50)}") { ${'parent { '.repeat(depth)} number ${'} '.repeat(depth + 1)} }`;
      }
      case 2:
        return `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Block { number } ... on Chain { name } } }`;
      case 3:
        return `{ chain(id: "${r.pick(['43114', '1', 'x'])}") { blocks(first: ${r.pick([1, 5, 100, 500, 501])}, after: ${JSON.stringify(r.chance(0.5) && cursors.length ? r.pick(cursors) : String(junk(r)))}) { edges { cursor node { ${r.pick(FIELDS)} } } } } }`;
      case 4: {
        const text = r.pick(documents);
        return text.slice(0, r.int(text.length));
      }
      default:
        return `{ ${Array.from({ length: r.int(4) + 1 }, () => r.pick(['__schema { types { name } }', '__typename', 'chains { chainId }', `network(name: "mainnet") { __typename }`, `__type(name: "Block") { ${'ofType { '.repeat(r.int(20))} name ${'} '.repeat(0)}`])).join(' ')} }`;
    }
  }

  /** A delivery-shaped body with random parts, or junk; signed truly, badly or not at all. */
  function webhookRequest(r: Rng): FuzzRequest {
    const headers: Record<string, string> = {
      'content-type': r.chance(0.9)
        ? 'application/json'
        : r.pick(['text/plain', 'application/xml']),
    };
    const hex = (n: number) => `0x${'ab'.repeat(n)}`;
    const body = r.chance(0.3)
      ? JSON.stringify(junk(r))
      : JSON.stringify({
          webhookId: r.chance(0.5) ? String(junk(r)) : 'x',
          eventType: r.pick(['address_activity', 'validator_activity', junk(r)]),
          messageId: String(junk(r)).slice(0, 200),
          event: {
            transaction: {
              blockHash: r.chance(0.8) ? hex(32) : junk(r),
              blockNumber: r.pick(['1', '0', '-1', '1e9', junk(r)]),
              from: r.chance(0.8) ? hex(20) : junk(r),
              to: r.pick([hex(20), '', null, junk(r)]),
              txHash: r.chance(0.8) ? hex(32) : junk(r),
              transactionIndex: r.pick([0, -1, 1.5, junk(r)]),
              value: r.pick(['0', '1', '9'.repeat(100), junk(r)]),
              blockTimestamp: r.pick([0, 1, junk(r)]),
              erc20Transfers: r.chance(0.8) ? [] : junk(r),
              erc721Transfers: [],
              erc1155Transfers: [],
            },
          },
        });
    if (world.webhookSecret && r.chance(0.5))
      headers['x-signature'] = signBody(world.webhookSecret, body);
    // Junk a client can send: an HTTP header value is visible ASCII (fetch refuses NUL or an emoji).
    else if (r.chance(0.4))
      headers['x-signature'] =
        String(junk(r))
          .replace(/[^\x20-\x7e]/g, '?')
          .slice(0, 300) || 'x';
    const method = r.chance(0.95) ? 'POST' : 'GET';
    return { method, path: WEBHOOK_PATH, headers, ...(method === 'POST' ? { body } : {}) };
  }

  const randomRequest = (r: Rng): FuzzRequest => {
    if (WEBHOOK_SHARE > 0 && r.chance(WEBHOOK_SHARE)) return webhookRequest(r);
    const headers: Record<string, string> = {
      accept: r.pick(['application/json', 'application/graphql-response+json', '*/*']),
      'content-type': 'application/json',
    };
    if (r.chance(0.05))
      headers['content-type'] = r.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'application/graphql',
      ]);
    if (r.chance(0.05))
      headers['x-forwarded-for'] =
        String(junk(r))
          .replace(/[^\x21-\x7e]/g, '?')
          .slice(0, 200) || '?';
    let payload: Record<string, unknown>;
    if (r.chance(0.4)) {
      const text = r.pick(documents);
      const op = /^(?:query|mutation) (\w+)/.exec(text)?.[1];
      payload = {
        query: text,
        variables: variablesFor(r, text),
        ...(r.chance(0.1) ? { operationName: r.chance(0.5) ? op : 'Nope' } : {}),
      };
    } else {
      const query = randomQuery(r);
      const variables = query.includes('$r')
        ? { r: Array.from({ length: r.pick([0, 1, 3, 20, 400]) }, () => representation(r)) }
        : r.chance(0.2)
          ? junk(r)
          : undefined;
      payload = { query, variables };
    }
    if (r.chance(0.03))
      return {
        method: 'GET',
        headers: {
          accept: 'application/json',
          ...(r.chance(0.5) ? { 'x-graphql-yoga-csrf': '1' } : {}),
        },
        query: `?query=${encodeURIComponent(String(payload.query).slice(0, 2000))}`,
      };
    if (r.chance(0.02)) return { method: r.pick(['PUT', 'DELETE', 'PATCH']), headers };
    if (r.chance(WS_SHARE) && typeof payload.query === 'string')
      return { method: 'WS', headers, ws: { query: payload.query, variables: payload.variables } };
    const body = r.chance(0.03)
      ? JSON.stringify(payload).slice(0, r.int(200))
      : JSON.stringify(r.chance(0.02) ? [payload, payload] : payload);
    return { method: 'POST', headers, body };
  };
  return randomRequest;
}

/** One fuzz request's answer, reduced to what the fuzz judges. */
export interface FuzzOutcome {
  /** The HTTP status; 0 for a graphql-ws operation; -1 when no HTTP answer came (see `transport`). */
  status: number;
  /** Each error's `extensions.code` (`uncoded` for one without). */
  codes: string[];
  /** Set when no answer came at all: the failure's code (ECONNRESET, UND_ERR_SOCKET, a timeout…). */
  transport?: string;
  /** Set when the answer is not one the gateway may give: a 5xx, INTERNAL, uncoded, not JSON, none. */
  problem?: string;
}

type WireError = { message?: string; extensions?: { code?: unknown } };
const codeOf = (e: WireError) =>
  typeof e.extensions?.code === 'string' ? e.extensions.code : 'uncoded';
const badError = (e: WireError) => codeOf(e) === 'uncoded' || codeOf(e) === 'INTERNAL';

/** The code of a failed `fetch` (undici puts the socket's error in `cause`). */
export function transportCode(e: unknown): string {
  const err = e as { name?: string; code?: string; cause?: { code?: string; name?: string } };
  return err.cause?.code ?? err.code ?? err.cause?.name ?? err.name ?? String(e);
}

/** Sends one fuzz request to the gateway at `url` (its /graphql) and judges the answer. */
export async function sendFuzz(url: string, req: FuzzRequest): Promise<FuzzOutcome> {
  if (req.ws) {
    // The same 30 s an HTTP request gets (below).
    const a = await wsRaw(
      url,
      { query: req.ws.query, rawVariables: JSON.stringify(req.ws.variables ?? null) },
      30_000,
    );
    // graphql-ws's protocol: a subscribe message whose variables are not an object is invalid (4400).
    const v = req.ws.variables;
    const invalidMessage =
      v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v));
    const bad = a.errors.filter(
      (e) => !(invalidMessage && e.message === 'socket closed: 4400') && badError(e),
    );
    // A closed socket, a timeout or an uncoded error: the operation was not answered as HTTP would.
    const failed = a.errors.find((e) => /^(?:socket error|timed out)/.test(e.message ?? ''));
    if (failed)
      return {
        status: -1,
        codes: [],
        transport: failed.message,
        problem: `graphql-ws ${failed.message}`,
      };
    return {
      status: 0,
      codes: a.errors.map((e) =>
        e.message?.startsWith('socket closed: ') ? `close ${e.message.slice(15)}` : codeOf(e),
      ),
      ...(bad.length ? { problem: `graphql-ws ${JSON.stringify(bad).slice(0, 400)}` } : {}),
    };
  }
  let res: Response;
  let text: string;
  try {
    const target = req.path ? new URL(req.path, url).href : url;
    res = await fetch(target + (req.query ?? ''), {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(30_000),
    });
    text = await res.text();
  } catch (e) {
    const transport = transportCode(e);
    return { status: -1, codes: [], transport, problem: `no answer: ${transport}` };
  }
  let errors: WireError[] = [];
  try {
    errors = text ? ((JSON.parse(text) as { errors?: WireError[] }).errors ?? []) : [];
  } catch {
    return { status: res.status, codes: [], problem: `not JSON: ${text.slice(0, 200)}` };
  }
  const bad = errors.filter(badError);
  return {
    status: res.status,
    codes: errors.map(codeOf),
    ...(res.status >= 500 || bad.length
      ? { problem: `${res.status} ${(bad.length ? JSON.stringify(bad) : text).slice(0, 400)}` }
      : {}),
  };
}
