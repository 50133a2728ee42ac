/**
 * The `operation` label of the request metrics, with bounded cardinality: a persisted operation's name
 * always (the allowlist is the operator's, so its names are few and known), a named operation's name for
 * the first `max` distinct names this process sees, and `other` for everything else (anonymous operations,
 * names past the bound, anything not shaped like a GraphQL name). A client sending 10,000 distinct names adds
 * at most `max` series, once; the names a dashboard cares about are the persisted ones, which never fall
 * into `other`.
 */
export const OTHER_OPERATION = 'other';
/** GraphQL's Name, at most 64 characters (a longer one is not a name an operator reads on a dashboard). */
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;

export class OperationLabels {
  readonly #seen = new Set<string>();
  #always: () => ReadonlySet<string> = () => new Set();
  constructor(readonly max = 100) {}

  /** Names labelled whatever the bound (the persisted operations'), read at each use (they reload). */
  always(names: () => ReadonlySet<string>): void {
    this.#always = names;
  }

  label(name: string | undefined): string {
    if (!name || !NAME.test(name) || name === OTHER_OPERATION) return OTHER_OPERATION;
    if (this.#seen.has(name) || this.#always().has(name)) return name;
    if (this.#seen.size >= this.max) return OTHER_OPERATION;
    this.#seen.add(name);
    return name;
  }
}
