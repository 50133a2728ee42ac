import type { ChainMetric } from '../spec.js';

/** The chain-metric series' storage (one table of per-day columns per chain) and its seeded noise. */

/** FNV-1a: a seed string as 32 bits. */
export function hash32(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Per-day quantities of one chain (index 0 = its genesis day). */
export interface DayTable {
  genesisDay: number;
  /** Transactions per hour (index 0 = the genesis day's first hour). */
  hours: Float64Array;
  tx: Float64Array;
  gas: Float64Array;
  fees: Float64Array;
  maxTps: Float64Array;
  maxGps: Float64Array;
  maxGasPrice: Float64Array;
  contracts: Float64Array;
  deployers: Float64Array;
  active: Float64Array;
  senders: Float64Array;
  cumTx: Float64Array;
  cumAddresses: Float64Array;
  cumContracts: Float64Array;
  cumDeployers: Float64Array;
}

export type Column = Exclude<keyof DayTable, 'genesisDay' | 'hours'>;

/** Typical transactions per hour of a chain at maturity (other chains: 400). */
export const SCALE: Record<string, number> = { '43114': 14_000, '43113': 1_600 };
/** The Etna upgrade (Dec 2024): gas prices drop from 25 to about 1.5 nAVAX. */
export const ETNA = Date.UTC(2024, 11, 16, 17) / 1000;
export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Metrics answered for every interval; all others are daily only (per the spec's metric descriptions). */
export const ANY_INTERVAL: ReadonlySet<ChainMetric> = new Set([
  'activeAddresses',
  'activeSenders',
  'gasUsed',
  'txCount',
]);
