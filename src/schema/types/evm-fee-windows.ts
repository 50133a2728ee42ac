import type { GraphQLObjectType, GraphQLResolveInfo } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { badInput } from '../../errors.js';
import type { FeeWindow } from '../../upstream/evm-state.js';
import { selectedChildFields } from '../prefetch.js';

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
  for (const node of selectedChildFields(info, 'feeHistory')) {
    try {
      const w = feeWindowOf(getArgumentValues(field, node, info.variableValues));
      windows.set(windowKey(w), w);
    } catch {
      // refused by the field itself
    }
  }
  return [...windows.values()];
}
