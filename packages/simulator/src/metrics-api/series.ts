import type { ChainMetric } from '../spec.js';
import type { EvmChainInfo } from '../world/index.js';
import { genesisOf, type SeriesKey } from './chains.js';
import { type Column, type DayTable, ETNA, hash32, mix, round2, SCALE } from './series-table.js';
import { DAY, HOUR, type Interval, nextBucket } from './time.js';

export { CHAIN_METRICS, type ChainMetric } from '../spec.js';
export { ANY_INTERVAL } from './series-table.js';

/**
 * Deterministic chain-metric series. Every quantity derives from an hourly transaction count
 * (a growth curve × weekly and daily cycles × seeded noise), so the metrics agree with each other:
 * a day's txCount is the sum of its hours, avgTps = txCount / 86400, avgGasPrice = feesPaid /
 * gasUsed, cumulativeTxCount is the running sum of txCount. An aggregate key (`total`, `mainnet`,
 * `testnet`) sums its chains. The bucket holding `now` is partial (up to `now`).
 */

export class ChainSeries {
  private readonly tables = new Map<string, DayTable>();
  private readonly salts = new Map<string, number>();

  constructor(
    private readonly seed: string,
    /** World time: the newest bucket ends here. */
    readonly now: number,
  ) {}

  private noise(chain: EvmChainInfo, purpose: string, i: number): number {
    const key = `${chain.chainId}|${purpose}`;
    let salt = this.salts.get(key);
    if (salt === undefined) {
      salt = hash32(`${this.seed}|${key}`);
      this.salts.set(key, salt);
    }
    return mix(salt, i) / 4294967296;
  }

  /** Transactions of one chain in the hour starting at `t`. */
  hourTx(chain: EvmChainInfo, t: number): number {
    const genesis = genesisOf(chain);
    if (t < genesis || t > this.now) return 0;
    const ageDays = (t - genesis) / DAY;
    const growth = 0.25 + 0.75 * (1 - Math.exp(-ageDays / 400));
    const day = Math.floor(t / DAY);
    const weekly = 1 + 0.08 * Math.sin((2 * Math.PI * day) / 7);
    const diurnal = 1 + 0.3 * Math.sin((2 * Math.PI * (((t / HOUR) % 24) - 8)) / 24);
    const n = this.noise(chain, 'tx', t / HOUR);
    const burst = 1 + 0.8 * n ** 12;
    const scale = (SCALE[chain.chainId] ?? 400) * (0.8 + 0.4 * this.noise(chain, 'scale', 0));
    return Math.round(scale * growth * weekly * diurnal * (0.85 + 0.3 * n) * burst);
  }

  private gasPerTx(chain: EvmChainInfo, day: number): number {
    return 120_000 + Math.floor(100_000 * this.noise(chain, 'gasPerTx', day));
  }

  private gasPrice(chain: EvmChainInfo, day: number): number {
    const base = day * DAY < ETNA ? 25e9 : 1.5e9;
    return Math.round(base * (1 + 1.5 * this.noise(chain, 'gasPrice', day)));
  }

  private table(chain: EvmChainInfo): DayTable {
    const cached = this.tables.get(chain.chainId);
    if (cached) return cached;
    const genesisDay = Math.floor(genesisOf(chain) / DAY);
    const n = Math.max(0, Math.floor(this.now / DAY) - genesisDay + 1);
    const f = () => new Float64Array(n);
    const t: DayTable = {
      genesisDay,
      hours: new Float64Array(n * 24),
      tx: f(),
      gas: f(),
      fees: f(),
      maxTps: f(),
      maxGps: f(),
      maxGasPrice: f(),
      contracts: f(),
      deployers: f(),
      active: f(),
      senders: f(),
      cumTx: f(),
      cumAddresses: f(),
      cumContracts: f(),
      cumDeployers: f(),
    };
    let cumTx = 0;
    let cumAddr = 0;
    let cumC = 0;
    let cumD = 0;
    for (let i = 0; i < n; i++) {
      const day = genesisDay + i;
      let tx = 0;
      let peak = 0;
      for (let h = 0; h < 24; h++) {
        const v = this.hourTx(chain, day * DAY + h * HOUR);
        t.hours[i * 24 + h] = v;
        tx += v;
        peak = Math.max(peak, v);
      }
      const nz = (p: string) => this.noise(chain, p, day);
      const gasPer = this.gasPerTx(chain, day);
      const price = this.gasPrice(chain, day);
      t.tx[i] = tx;
      t.gas[i] = tx * gasPer;
      t.fees[i] = tx * gasPer * price;
      t.maxTps[i] = round2((peak / HOUR) * (3 + 4 * nz('maxTps')));
      t.maxGps[i] = round2((peak / HOUR) * gasPer * (3 + 4 * nz('maxGps')));
      t.maxGasPrice[i] = Math.round(price * (3 + 6 * nz('maxGasPrice')));
      t.contracts[i] = Math.round(tx * 0.0006 * (0.5 + nz('contracts')));
      t.deployers[i] = Math.round(t.contracts[i]! * 0.35 * (0.6 + 0.8 * nz('deployers')));
      t.active[i] = Math.round(tx * 0.18 * (0.9 + 0.2 * nz('active')));
      t.senders[i] = Math.round(t.active[i]! * 0.62);
      t.cumTx[i] = cumTx += tx;
      t.cumAddresses[i] = cumAddr += Math.round(t.active[i]! * 0.06);
      t.cumContracts[i] = cumC += t.contracts[i]!;
      t.cumDeployers[i] = cumD += Math.round(t.deployers[i]! * 0.5);
    }
    this.tables.set(chain.chainId, t);
    return t;
  }

  /** Sum (or max) of one day-table column over the days [from, to) (Unix s, day-aligned). */
  private overDays(
    key: SeriesKey,
    col: Column,
    from: number,
    to: number,
    op: 'sum' | 'max' | 'last',
  ): number {
    let acc = 0;
    for (const chain of key.chains) {
      const t = this.table(chain);
      const a = Math.max(0, Math.floor(from / DAY) - t.genesisDay);
      const b = Math.min(t[col].length, Math.floor(to / DAY) - t.genesisDay);
      let v = 0;
      if (op === 'last') v = b > 0 ? t[col][b - 1]! : 0;
      else for (let i = a; i < b; i++) v = op === 'sum' ? v + t[col][i]! : Math.max(v, t[col][i]!);
      acc = op === 'max' ? Math.max(acc, v) : acc + v;
    }
    return acc;
  }

  /** A chain's transactions in the hour starting at `t`, from its table. */
  private cachedHourTx(chain: EvmChainInfo, t: number): number {
    const table = this.table(chain);
    const i = t / HOUR - table.genesisDay * 24;
    return i >= 0 && i < table.hours.length ? table.hours[i]! : 0;
  }

  private hourSum(key: SeriesKey, t: number, per: (c: EvmChainInfo, tx: number) => number): number {
    let acc = 0;
    for (const c of key.chains) acc += per(c, this.cachedHourTx(c, t));
    return acc;
  }

  /** The metric's value for the bucket starting at `ts`. */
  value(key: SeriesKey, metric: ChainMetric, interval: Interval, ts: number): number {
    if (interval === 'hour') {
      const day = Math.floor(ts / DAY);
      switch (metric) {
        case 'txCount':
          return this.hourSum(key, ts, (_c, tx) => tx);
        case 'gasUsed':
          return this.hourSum(key, ts, (c, tx) => tx * this.gasPerTx(c, day));
        case 'activeAddresses':
          return this.hourSum(key, ts, (_c, tx) => Math.round(tx * 0.45));
        default:
          return this.hourSum(key, ts, (_c, tx) => Math.round(tx * 0.45 * 0.6));
      }
    }
    const end = Math.min(nextBucket(ts, interval), Math.floor(this.now / DAY) * DAY + DAY);
    const sum = (col: Column) => this.overDays(key, col, ts, end, 'sum');
    const distinct = interval === 'day' ? 1 : interval === 'week' ? 0.55 : 0.4;
    switch (metric) {
      case 'txCount':
        return sum('tx');
      case 'gasUsed':
        return sum('gas');
      case 'feesPaid':
        return sum('fees');
      case 'contracts':
        return sum('contracts');
      case 'deployers':
        return sum('deployers');
      case 'activeAddresses':
        return Math.round(sum('active') * distinct);
      case 'activeSenders':
        return Math.round(sum('senders') * distinct);
      case 'avgTps':
        return round2(sum('tx') / DAY);
      case 'avgGps':
        return round2(sum('gas') / DAY);
      case 'avgGasPrice': {
        const gas = sum('gas');
        return gas === 0 ? 0 : Math.round(sum('fees') / gas);
      }
      case 'maxTps':
        return this.overDays(key, 'maxTps', ts, end, 'max');
      case 'maxGps':
        return this.overDays(key, 'maxGps', ts, end, 'max');
      case 'maxGasPrice':
        return this.overDays(key, 'maxGasPrice', ts, end, 'max');
      case 'cumulativeTxCount':
        return this.overDays(key, 'cumTx', 0, end, 'last');
      case 'cumulativeAddresses':
        return this.overDays(key, 'cumAddresses', 0, end, 'last');
      case 'cumulativeContracts':
        return this.overDays(key, 'cumContracts', 0, end, 'last');
      case 'cumulativeDeployers':
        return this.overDays(key, 'cumDeployers', 0, end, 'last');
    }
  }

  /** Rolling windows ending at the last complete hour (windows of a day or more in whole days). */
  rolling(
    key: SeriesKey,
    metric: Exclude<ChainMetric, `cumulative${string}`>,
  ): Record<string, number> {
    const hourEnd = Math.floor(this.now / HOUR) * HOUR;
    const dayEnd = Math.floor(this.now / DAY) * DAY;
    const hours = (n: number, col: 'tx' | 'gas' | 'fees') => {
      let acc = 0;
      for (let t = hourEnd - n * HOUR; t < hourEnd; t += HOUR) {
        const day = Math.floor(t / DAY);
        acc += this.hourSum(key, t, (c, tx) =>
          col === 'tx'
            ? tx
            : col === 'gas'
              ? tx * this.gasPerTx(c, day)
              : tx * this.gasPerTx(c, day) * this.gasPrice(c, day),
        );
      }
      return acc;
    };
    const windows: [string, number, number][] = [
      ['lastHour', 1, 0],
      ['lastDay', 24, 0],
      ['lastWeek', 168, 0],
      ['lastMonth', 0, 30],
      ['last90Days', 0, 90],
      ['lastYear', 0, 365],
      ['allTime', 0, 100_000],
    ];
    const out: Record<string, number> = {};
    for (const [name, h, d] of windows) {
      if ((metric === 'activeAddresses' || metric === 'activeSenders') && h === 0) continue;
      const seconds = h > 0 ? h * HOUR : Math.min(d * DAY, dayEnd - key.genesis);
      const from = dayEnd - d * DAY;
      const col = (c: 'tx' | 'gas' | 'fees') =>
        h > 0 ? hours(h, c) : this.overDays(key, c, from, dayEnd, 'sum');
      const maxOf = (c: 'maxTps' | 'maxGps' | 'maxGasPrice') =>
        this.overDays(key, c, h > 0 ? dayEnd - DAY : from, h > 0 ? dayEnd + DAY : dayEnd, 'max');
      switch (metric) {
        case 'txCount':
          out[name] = col('tx');
          break;
        case 'gasUsed':
          out[name] = col('gas');
          break;
        case 'feesPaid':
          out[name] = col('fees');
          break;
        case 'avgTps':
          out[name] = round2(col('tx') / seconds);
          break;
        case 'avgGps':
          out[name] = round2(col('gas') / seconds);
          break;
        case 'avgGasPrice': {
          const g = col('gas');
          out[name] = g === 0 ? 0 : Math.round(col('fees') / g);
          break;
        }
        case 'maxTps':
        case 'maxGps':
        case 'maxGasPrice':
          out[name] = maxOf(metric);
          break;
        case 'contracts':
          out[name] = Math.round(col('tx') * 0.0006);
          break;
        case 'deployers':
          out[name] = Math.round(col('tx') * 0.0006 * 0.35);
          break;
        case 'activeAddresses':
          out[name] = Math.round(col('tx') * (h === 1 ? 0.45 : h === 24 ? 0.18 : 0.1));
          break;
        case 'activeSenders':
          out[name] = Math.round(col('tx') * (h === 1 ? 0.27 : h === 24 ? 0.11 : 0.06));
          break;
      }
    }
    return out;
  }
}
