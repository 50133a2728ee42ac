/**
 * A piece of per-request state kept on the request object itself (a symbol-keyed property), where a
 * module would otherwise keep a `WeakMap` keyed by the request.
 *
 * Why not the WeakMap: on Node 20's V8 a WeakMap entry keeps its value alive through every
 * young-generation collection, even once its key is dead, so everything one request allocated and put
 * in such a value survives two scavenges and is promoted to the old generation, where it waits for the
 * next full collection (a twenty-line check: 234 MB promoted against 0.2 without the WeakMap; a key
 * alone, with a value that holds nothing, is not kept). Node 24's V8 keeps far fewer such values, but
 * still some (another check, 200,000 dead keys with a 100-object value each: 40 MB promoted on Node 24,
 * 484 on Node 20, 0.3 without the WeakMap on both). Measured under load (`bench/README.md`,
 * "What a request leaves behind"): with these entries gone and the loaders released when execution
 * ends, a warm query promotes 14.6 KB instead of 22.4. A property dies with its request.
 */
export interface RequestSlot<T> {
  get(owner: object): T | undefined;
  set(owner: object, value: T): void;
}

export function requestSlot<T>(name: string): RequestSlot<T> {
  const key = Symbol(name);
  return {
    get: (owner) => (owner as { [key]?: T })[key],
    set: (owner, value) => {
      (owner as { [key]?: T })[key] = value;
    },
  };
}
