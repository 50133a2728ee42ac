import { readFileSync, statSync } from 'node:fs';
import { Kind, parse } from 'graphql';

/**
 * The persisted operations a gateway runs: the build-time manifest (schema/persisted-operations.json), or
 * the files a frontend team ships (`PERSISTED_OPERATIONS_FILE`, one or several), in the formats their
 * tools write:
 * - a map of id → document text: GraphQL Codegen's client preset (`persisted-documents.json`, ids are the
 *   SHA-256 of the text), Relay's compiler (`persistConfig.file`: its persisted queries map, ids by its
 *   algorithm), and our own manifest;
 * - Apollo's persisted query manifest (`{ format: "apollo-persisted-query-manifest", version: 1,
 *   operations: [{ id, name, type, body }] }`).
 * Every document must parse, at start-up and at each reload; a file that does not is refused whole
 * (start-up stops, naming the file and the id; a reload keeps the operations it had and says why).
 * Reloaded without a restart when a file changes (polled, so a ConfigMap's symlink swap is seen too) or
 * when `reload()` is called (the server calls it on SIGHUP).
 */
export interface PersistedOperations {
  /** The document of `id`, if the allowlist has it. */
  get(id: string): string | undefined;
  /** The names of the operations in the allowlist (their metrics label, src/metrics.ts). */
  names(): ReadonlySet<string>;
  /** Reads the files again; on a failure the operations already loaded stay, and the error is thrown. */
  reload(): void;
  /** Stops watching the files. */
  close(): void;
}

/** A manifest file larger than this is refused (a frontend's manifest is kilobytes to a few megabytes). */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;
/** Ids are hashes (MD5, SHA-1, SHA-256 in hex or base64) or short names; longer ones are refused. */
const ID = /^[A-Za-z0-9_:+/=.-]{1,128}$/;

export class PersistedFileError extends Error {}

/** The operations of one file, by id, whatever format its tool wrote. */
export function readOperationFile(path: string): Map<string, string> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    throw new PersistedFileError(`${path}: cannot read it (${(e as Error).message})`);
  }
  if (size > MAX_MANIFEST_BYTES)
    throw new PersistedFileError(`${path}: ${size} bytes, more than ${MAX_MANIFEST_BYTES}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new PersistedFileError(`${path}: not JSON (${(e as Error).message})`);
  }
  const entries = entriesOf(json, path);
  const out = new Map<string, string>();
  for (const [id, text] of entries) {
    if (!ID.test(id))
      throw new PersistedFileError(`${path}: id ${JSON.stringify(id.slice(0, 140))} is not an id`);
    if (typeof text !== 'string' || text.length === 0)
      throw new PersistedFileError(`${path}: the document of ${id} is not a string`);
    try {
      parse(text);
    } catch (e) {
      throw new PersistedFileError(
        `${path}: the document of ${id} does not parse (${(e as Error).message})`,
      );
    }
    out.set(id, text);
  }
  return out;
}

function entriesOf(json: unknown, path: string): [string, unknown][] {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new PersistedFileError(
      `${path}: expected an object (id → document, or Apollo's manifest)`,
    );
  const o = json as Record<string, unknown>;
  if (o.format === 'apollo-persisted-query-manifest') {
    if (o.version !== 1 || !Array.isArray(o.operations))
      throw new PersistedFileError(
        `${path}: an Apollo manifest of version 1 with an operations list is expected`,
      );
    return o.operations.map((op: unknown) => {
      const { id, body } = (op ?? {}) as { id?: unknown; body?: unknown };
      if (typeof id !== 'string')
        throw new PersistedFileError(`${path}: an operation without an id`);
      return [id, body];
    });
  }
  return Object.entries(o);
}

/** The names of the operations in `texts` (anonymous ones have none). */
function operationNames(texts: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const text of texts)
    for (const d of parse(text).definitions)
      if (d.kind === Kind.OPERATION_DEFINITION && d.name) names.add(d.name.value);
  return names;
}

export function createPersistedOperations(options: {
  /** The files, read in order (a later file's id wins). */
  files: readonly string[];
  /** Told each reload, or why one failed. */
  onReload?: (outcome: { ok: true; size: number } | { ok: false; error: string }) => void;
  /** Poll the files for changes every this many ms; 0: no watching. @default 2000 */
  watchMs?: number;
}): PersistedOperations {
  /** What each file looked like when it was last read: a change is any difference. */
  const stamp = () =>
    options.files
      .map((f) => {
        try {
          const st = statSync(f);
          return `${st.ino}:${st.size}:${st.mtimeMs}`;
        } catch {
          return 'missing';
        }
      })
      .join('|');
  let readStamp = '';
  const read = () => {
    const seen = stamp();
    const all = new Map<string, string>();
    for (const f of options.files) for (const [id, text] of readOperationFile(f)) all.set(id, text);
    readStamp = seen;
    return { operations: all, names: operationNames(all.values()) };
  };
  let current = read();
  const reload = () => {
    try {
      current = read();
      options.onReload?.({ ok: true, size: current.operations.size });
    } catch (e) {
      // Not read again until it changes again.
      readStamp = stamp();
      options.onReload?.({ ok: false, error: (e as Error).message });
      throw e;
    }
  };
  const watchMs = options.watchMs ?? 2000;
  // Polled, not fs.watch: a ConfigMap's files change by a symlink swap, which inotify on the file misses.
  const timer =
    watchMs > 0
      ? setInterval(() => {
          if (stamp() === readStamp) return;
          try {
            reload();
          } catch {
            // Kept what it had; onReload said why.
          }
        }, watchMs)
      : undefined;
  timer?.unref();
  return {
    get: (id) => current.operations.get(id),
    names: () => current.names,
    reload,
    close: () => clearInterval(timer),
  };
}

/**
 * The id a request names its persisted operation by: Apollo's and urql's
 * `extensions.persistedQuery.sha256Hash`, the GraphQL-over-HTTP draft's `documentId` (GraphQL Codegen's
 * client preset), or Relay's customary `doc_id`.
 */
export function persistedIdOf(params: Record<string, unknown>): string | null {
  const pq = (
    params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null
  )?.persistedQuery;
  if (pq && typeof pq === 'object' && pq.version === 1 && typeof pq.sha256Hash === 'string')
    return pq.sha256Hash;
  for (const key of PERSISTED_ID_PARAMS) {
    const v = params[key];
    if (typeof v === 'string') return v;
  }
  return null;
}

/** Request parameters, besides GraphQL's own, that name a persisted operation. */
export const PERSISTED_ID_PARAMS = ['documentId', 'doc_id'] as const;
