/**
 * Rows of `exposed` tables that several types declare alike, to spread into their tables.
 */

/** The windows ending now that the Metrics API aggregates over, each with its phrase. */
const WINDOWS = {
  lastHour: 'the last hour',
  lastDay: 'the last day',
  lastWeek: 'the last week',
  lastMonth: 'the last month',
  last90Days: 'the last 90 days',
  lastYear: 'the last year',
} as const;

type WindowRows = Record<keyof typeof WINDOWS | 'allTime', readonly ['Float?', string]>;

/** A value over each window ending now (`over` phrases it), then since the start (`allTime`). */
export function windowRows(over: (window: string) => string, allTime: string): WindowRows {
  const rows = Object.entries(WINDOWS).map(([name, window]) => [name, ['Float?', over(window)]]);
  return { ...Object.fromEntries(rows), allTime: ['Float?', allTime] } as WindowRows;
}

/** The token id of an NFT or of a multi-token's token, as the indexer gives it. */
export const TOKEN_ID = {
  tokenId: ['String', 'The token id (a decimal string: it may exceed 64 bits).'],
} as const;
