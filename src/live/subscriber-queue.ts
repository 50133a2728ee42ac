/**
 * One subscriber's unread items and the iterator that drains them: bounded by the feed (it calls `fail`
 * past its limit, with the error the subscriber then reads), ended by the subscriber (`return`) or the feed.
 */
export class SubscriberQueue<T> implements AsyncIterableIterator<T> {
  readonly #items: T[] = [];
  readonly #weight: (item: T) => number;
  readonly #onEnd: () => void;
  #held = 0;
  #wake: (() => void) | undefined;
  #failed: Error | undefined;
  #done = false;

  /** `onEnd` runs once the subscriber stops reading or fails (the feed forgets it there). */
  constructor(onEnd: () => void, weight: (item: T) => number = () => 1) {
    this.#onEnd = onEnd;
    this.#weight = weight;
  }

  /** Ended or failed: nothing more is queued. */
  get closed(): boolean {
    return this.#done || this.#failed !== undefined;
  }

  /** The unread items' total weight. */
  get held(): number {
    return this.#held;
  }

  push(item: T): void {
    this.#items.push(item);
    this.#held += this.#weight(item);
    this.wake();
  }

  /** Wakes a waiting reader (after the feed changed what it will read). */
  wake(): void {
    this.#wake?.();
  }

  /** Drops what is unread; the reader gets `error` next. */
  fail(error: Error): void {
    this.#failed = error;
    this.#items.length = 0;
    this.#held = 0;
    this.#onEnd();
    this.wake();
  }

  end(): void {
    this.#done = true;
    this.#onEnd();
    this.wake();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.#failed) throw this.#failed;
      if (this.#items.length > 0) {
        const item = this.#items.shift() as T;
        this.#held -= this.#weight(item);
        return { value: item, done: false };
      }
      if (this.#done) return { value: undefined, done: true };
      await new Promise<void>((r) => (this.#wake = r));
      this.#wake = undefined;
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.end();
    return { value: undefined, done: true };
  }

  async throw(e: unknown): Promise<IteratorResult<T>> {
    this.end();
    throw e;
  }
}
