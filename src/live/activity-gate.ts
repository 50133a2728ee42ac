/**
 * How many `addressActivity` subscriptions each client holds open on this replica: one more than
 * `perClient` is refused before it follows anything, and each one's end gives its place back.
 */
export class ActivityGate {
  readonly #open = new Map<string, number>();
  constructor(
    readonly perClient: number,
    readonly maxAddresses: number,
    /** Who a request is (its API key hashed, else its IP; the budgets' identity). */
    readonly identify: (headers: Headers, peer: string | undefined) => string,
  ) {}

  /** A release function, or undefined when `client` already holds `perClient` subscriptions. */
  enter(client: string): (() => void) | undefined {
    const n = this.#open.get(client) ?? 0;
    if (n >= this.perClient) return undefined;
    this.#open.set(client, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(client) ?? 1) - 1;
      if (left <= 0) this.#open.delete(client);
      else this.#open.set(client, left);
    };
  }

  clients(): number {
    return this.#open.size;
  }
}
