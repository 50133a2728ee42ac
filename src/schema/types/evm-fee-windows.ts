import {
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { badInput } from '../../errors.js';
import type { FeeWindow } from '../../upstream/evm-state.js';

/** A `feeHistory` field's arguments, checked: BAD_USER_INPUT before any call. */
export function feeWindowOf(args: {
  blockCount?: number | null;
  rewardPercentiles?: readonly number[] | null;
}): FeeWindow {
  const blockCount = args.blockCount ?? 10;
  if (!Number.isInteger(blockCount) || blockCount < 1 || blockCount > 1024)
    throw badInput('blockCount', 'blockCount must be 1-1024');
  const percentiles = [...(args.rewardPercentiles ?? [])];
  if (
    percentiles.length > 100 ||
    percentiles.some((p, i) => !(p >= 0 && p <= 100) || (i > 0 && p < percentiles[i - 1]!))
  ) {
    throw badInput(
      'rewardPercentiles',
      'rewardPercentiles must be at most 100 increasing numbers from 0 to 100',
    );
  }
  return { blockCount, percentiles };
}

export const windowKey = (w: FeeWindow) => `${w.blockCount}|${w.percentiles.join(',')}`;

/**
 * The valid `feeHistory` windows this `evmState` field selects (fragments followed, arguments with
 * the operation's variables), so `latest` can be pinned by the answer that carries them; a window with
 * bad arguments is left to its own field, which refuses it.
 */
export function selectedFeeWindows(info: GraphQLResolveInfo): FeeWindow[] {
  const type = info.schema.getType('EvmState') as GraphQLObjectType;
  const field = type.getFields().feeHistory!;
  const windows = new Map<string, FeeWindow>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value !== 'feeHistory') continue;
        try {
          const w = feeWindowOf(getArgumentValues(field, s, info.variableValues));
          windows.set(windowKey(w), w);
        } catch {
          // refused by the field itself
        }
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet);
      } else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        walk(info.fragments[s.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet);
  return [...windows.values()];
}
