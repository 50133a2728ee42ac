import { z } from 'zod';
import type { NodeTarget } from './config-shape.js';

/**
 * One environment variable, declared once: its zod type (default included), what it accepts (the
 * start-up error's wording and the docs'), whether it is secret, and its one line of doc.
 */
export interface Setting<T extends z.ZodType = z.ZodType> {
  readonly type: T;
  readonly accepts: string;
  readonly doc: string;
  /** Never echoed in a configuration error; kept in a Kubernetes Secret. */
  readonly secret: boolean;
  /** What leaving it unset means where no default value says it (docs/configuration.md's Default). */
  readonly unset: string | undefined;
}

/** A variable's type with what it accepts, derived by the helpers below; `doc` makes it a Setting. */
export class Kind<T extends z.ZodType> {
  constructor(
    readonly type: T,
    readonly accepts: string,
    readonly secret = false,
    readonly unset: string | undefined = undefined,
  ) {}

  /** Says what the derived text cannot: `an integer 0-30000 (0: no cross-replica coalescing)`. */
  note(text: string): Kind<T> {
    return new Kind(this.type, `${this.accepts} (${text})`, this.secret, this.unset);
  }

  /** The value when unset; `unset` says what an empty default means (`[]`: "TTLs only"). */
  default(value: Exclude<z.output<T>, undefined>, unset?: string): Kind<z.ZodDefault<T>> {
    const type = (this.type as z.ZodType).default(value as never) as z.ZodDefault<T>;
    return new Kind(type, this.accepts, this.secret, unset);
  }

  /** No default: the mapping decides what unset means, which `unset` says for the docs. */
  optional(unset?: string): Kind<z.ZodOptional<T>> {
    return new Kind(this.type.optional(), this.accepts, this.secret, unset);
  }

  /** A value never echoed in errors (an API key, headers carrying one). */
  hidden(): Kind<T> {
    return new Kind(this.type, this.accepts, true, this.unset);
  }

  doc(line: string): Setting<T> {
    const { type, accepts, secret, unset } = this;
    return { type, accepts, doc: line, secret, unset };
  }
}

/** A type whose accepted values only prose can say. */
export const kind = <T extends z.ZodType>(type: T, accepts: string) => new Kind(type, accepts);

export const int = (min: number, max: number) =>
  new Kind(z.coerce.number().int().min(min).max(max), `an integer ${min}-${max}`);

export const number = (min: number, max: number) =>
  new Kind(z.coerce.number().min(min).max(max), `a number ${min}-${max}`);

export const bool = () =>
  new Kind(
    z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
    'true or false',
  );

/** `a or b`, `a, b or c`. */
export const oneOf = <const V extends readonly [string, ...string[]]>(values: V) =>
  new Kind(z.enum(values), `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);

/** A secret value (a token, a signing secret) of at least `min` characters; never echoed. */
export const secretOf = (min: number, noun: 'secret' | 'token') =>
  new Kind(
    z.string().min(min, `must be at least ${min} characters`),
    `a ${noun} of at least ${min} characters`,
    true,
  );

const httpUrlType = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
  .transform((u) => u.replace(/\/+$/, ''));

/** An http(s) URL, its trailing slashes trimmed. */
export const httpUrl = () => new Kind(httpUrlType, 'an http(s) URL');

export const redisUrl = () =>
  new Kind(
    z.string().refine((u) => /^rediss?:\/\/[^\s]+$/.test(u), 'must be a redis:// or rediss:// URL'),
    'a redis:// or rediss:// URL',
  );

/** A comma list's trimmed, non-empty entries. */
export const list = (raw: string) =>
  raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

/** `NODE_RPC_URL` is one URL or a list `name=url,name=url`; the first entry is the default node. */
export const nodeList = z.string().transform((raw, ctx): NodeTarget[] => {
  const out: NodeTarget[] = [];
  for (const part of list(raw)) {
    const eq = part.indexOf('=');
    const name = eq > 0 && !part.slice(0, eq).includes('/') ? part.slice(0, eq) : 'default';
    const url = eq > 0 && name !== 'default' ? part.slice(eq + 1) : part;
    const parsed = httpUrlType.safeParse(url);
    if (!parsed.success || !/^[A-Za-z][\w-]*$/.test(name)) {
      ctx.addIssue({ code: 'custom', message: `"${part}" is not a URL or name=URL` });
      return z.NEVER;
    }
    if (out.some((n) => n.name === name)) {
      ctx.addIssue({ code: 'custom', message: `node name "${name}" appears twice` });
      return z.NEVER;
    }
    out.push({ name, url: parsed.data });
  }
  if (out.length === 0) ctx.addIssue({ code: 'custom', message: 'needs at least one URL' });
  return out;
});

/** An `EVM_CHAINS` entry: a CB58 blockchain id, optionally prefixed by a node name and a colon. */
const EVM_CHAIN_ENTRY = /^([A-Za-z][\w-]*:)?[1-9A-HJ-NP-Za-km-z]{40,60}$/;

/** `EVM_CHAINS`: its default sits before the transform, so unset parses as no entries. */
export const evmChainList = z
  .string()
  .default('')
  .refine(
    (raw) => list(raw).every((p) => EVM_CHAIN_ENTRY.test(p)),
    'expected node:blockchainId entries',
  )
  .transform((raw) =>
    list(raw).map((p) => {
      const [node, blockchainId] = p.includes(':') ? p.split(':') : ['', p];
      return { node: node!, blockchainId: blockchainId! };
    }),
  );

/** `LIVE_WS`: a comma list of chainId=ws(s)://url, one websocket per EVM chain. */
export const liveList = z.string().transform((raw, ctx) => {
  const out: { chainId: string; url: string }[] = [];
  for (const part of list(raw)) {
    const m = /^(\d{1,20})=(wss?:\/\/\S+)$/.exec(part);
    if (!m || out.some((c) => c.chainId === m[1])) {
      ctx.addIssue({
        code: 'custom',
        message: `"${part}" is not chainId=ws://URL (once per chain)`,
      });
      return z.NEVER;
    }
    out.push({ chainId: m[1]!, url: m[2]! });
  }
  return out;
});

/** `OTEL_EXPORTER_OTLP_HEADERS`: key=value entries, the values URL-encoded. */
export const headerList = z.string().transform((raw, ctx) => {
  const out: Record<string, string> = {};
  for (const part of list(raw)) {
    const eq = part.indexOf('=');
    const key = eq > 0 ? part.slice(0, eq).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
      ctx.addIssue({ code: 'custom', message: 'each entry must be key=value' });
      return z.NEVER;
    }
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: 'a value is not URL-encoded' });
      return z.NEVER;
    }
  }
  return out;
});

export type Settings = Record<string, Setting>;
type Shape<S extends Settings> = { [K in keyof S]: S[K]['type'] };

/** The zod object that parses the environment, one key per declared variable. */
export function envSchema<S extends Settings>(settings: S): z.ZodObject<Shape<S>> {
  const shape = Object.fromEntries(Object.entries(settings).map(([name, s]) => [name, s.type]));
  return z.object(shape as Shape<S>);
}

/** The parsed environment of a table of settings. */
export type Env<S extends Settings> = z.output<z.ZodObject<Shape<S>>>;
