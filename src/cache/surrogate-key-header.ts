/**
 * The tags of a whole response, bounded. Fastly takes a `Surrogate-Key` header of at most 16 KiB and
 * Cloudflare a `Cache-Tag` header of at most 16 KiB in all, each tag at most 1,024 characters. A response
 * naming more (a page of a hundred transfers names a hundred addresses) is not cut short, which would
 * leave facts a purge never reaches: its finest tags are replaced by their parents, which every purge of
 * a child's change purges too (src/cache/surrogate-keys.ts), until the list fits.
 */

/** @default Fastly's and Cloudflare's limit on the whole header, in bytes. */
export const MAX_TAG_HEADER_BYTES = 16 * 1024;
/** Cloudflare's limit on one tag. */
export const MAX_TAG_LENGTH = 1024;

/** The header names the setting SURROGATE_KEY_HEADER stands for. */
export const TAG_HEADERS = {
  'Surrogate-Key': ['surrogate-key'],
  'Cache-Tag': ['cache-tag'],
  both: ['surrogate-key', 'cache-tag'],
  off: [],
} as const satisfies Record<string, readonly string[]>;

/**
 * The coarser tag that stands for `tag` when a response names too many. An address's head data becomes
 * its chain's head (purged on every block, so on every block touching the address too); a final entity
 * becomes its chain (never purged by a block: nothing is lost); a validator its network's staking sets,
 * a subnet or blockchain its network's subnets, an ICM message the global list (each changes with its
 * children). A tag that is already coarse stands for itself.
 */
export function parentOf(tag: string): string {
  const [kind, scope, id] = tag.split(':');
  if (id === undefined || id === 'head') {
    if (kind === 'address') return 'chains:head';
    if (kind === 'icm' || kind === 'icm-address') return tag === 'icm:head' ? tag : 'icm:head';
    return tag;
  }
  switch (kind) {
    case 'address':
      return `chain:${scope}:head`;
    case 'block':
    case 'tx':
    case 'asset':
    case 'contract':
      return `chain:${scope}`;
    case 'validator':
      return `network:${scope}:staking`;
    case 'subnet':
    case 'blockchain':
      return `network:${scope}:subnets`;
    default:
      return tag;
  }
}

const bytesOf = (tags: readonly string[]) =>
  tags.reduce((n, t) => n + Buffer.byteLength(t), Math.max(0, tags.length - 1));
const fits = (tags: readonly string[], maxBytes: number) =>
  bytesOf(tags) <= maxBytes && tags.every((t) => t.length <= MAX_TAG_LENGTH);

/**
 * The tags of a response, sorted and deduplicated, within `maxBytes` once joined by one separator (a space
 * for `Surrogate-Key`, a comma for `Cache-Tag`: the same length). Over it, the groups of tags sharing a
 * parent are collapsed into their parent, the largest groups first, until the list fits; undefined when
 * even every parent does not fit (then no shared cache may keep the response: see use-http-caching.ts).
 */
export function boundedTags(
  tags: Iterable<string>,
  maxBytes: number = MAX_TAG_HEADER_BYTES,
): string[] | undefined {
  const set = new Set<string>();
  for (const t of tags) set.add(t.length > MAX_TAG_LENGTH ? parentOf(t) : t);
  let list = [...set].sort();
  if (fits(list, maxBytes)) return list;
  const groups = new Map<string, string[]>();
  for (const t of list) {
    const parent = parentOf(t);
    const group = groups.get(parent);
    if (group) group.push(t);
    else groups.set(parent, [t]);
  }
  // The groups whose collapse saves the most bytes go first: the fewest facts lose their own tag.
  const saved = (parent: string, group: string[]) =>
    bytesOf(group) - (group.includes(parent) ? bytesOf([parent]) - 1 : bytesOf([parent]));
  const order = [...groups].sort(([pa, a], [pb, b]) => saved(pb, b) - saved(pa, a));
  const kept = new Set(list);
  let bytes = bytesOf(list);
  for (const [parent, group] of order) {
    if (bytes <= maxBytes) break;
    if (group.length === 1 && group[0] === parent) continue;
    for (const t of group) kept.delete(t);
    kept.add(parent);
    list = [...kept];
    bytes = bytesOf(list);
  }
  list = [...kept].sort();
  return fits(list, maxBytes) ? list : undefined;
}
