import type { PrimaryNetworkData, World } from '../world/index.js';
import type { LogLevel } from './go-args.js';
import { NodeRpcError } from './gorilla.js';

/**
 * The mutable state of one simulated node (a mainnet node whose C-Chain is the world's 43114):
 * its chain aliases (avalanchego's chain manager), HTTP route aliases (`admin.alias`), logger
 * levels, profiler flags and the transactions issued to it. One instance per `createNodeRpc`.
 */

export interface ChainEntry {
  id: string;
  /** Aliases in the order avalanchego reports them: short name, VM name, then the id itself. */
  aliases: string[];
}

export interface LoggerLevels {
  logLevel: LogLevel;
  displayLevel: LogLevel;
}

export interface IssuedTx {
  id: string;
  bytesHex: string;
  chain: 'X' | 'C';
}

export class NodeState {
  readonly net: PrimaryNetworkData;
  readonly chains: ChainEntry[];
  /** `/ext/<alias>` → `/ext/<endpoint>` route aliases added through admin.alias / admin.aliasChain. */
  readonly routeAliases = new Map<string, string>();
  readonly loggers = new Map<string, LoggerLevels>();
  cpuProfiling = false;
  cChainCpuProfiling = false;
  cChainLogLevel = 'info';
  readonly issued = new Map<string, IssuedTx>();

  constructor(
    readonly world: World,
    readonly adminEnabled: boolean,
  ) {
    this.net = world.primary.mainnet;
    const info = this.net.info;
    this.chains = [
      { id: info.pChainId, aliases: ['P', 'platform', info.pChainId] },
      { id: info.xChainId, aliases: ['X', 'avm', info.xChainId] },
      { id: info.cChainId, aliases: ['C', 'evm', info.cChainId] },
    ];
    for (const name of ['C', 'P', 'X', 'main'])
      this.loggers.set(name, { logLevel: 'INFO', displayLevel: 'INFO' });
  }

  /** avalanchego's aliaser `Lookup`: an alias (or the id itself) → chain id. */
  lookupChain(alias: string): string {
    const c = this.chains.find((ch) => ch.aliases.includes(alias));
    if (!c) throw new NodeRpcError(`there is no ID with alias: ${alias}`);
    return c.id;
  }

  /** The chain an alias names, or undefined. */
  chainOf(alias: string): ChainEntry | undefined {
    return this.chains.find((ch) => ch.aliases.includes(alias));
  }

  aliasChain(alias: string, chainId: string): void {
    if (this.chains.some((ch) => ch.aliases.includes(alias)))
      throw new NodeRpcError(`alias already mapped to an ID: ${alias}`);
    this.chains.find((ch) => ch.id === chainId)!.aliases.push(alias);
  }

  /** admin.alias: serve `/ext/<endpoint>` (and everything below it) also at `/ext/<alias>`. */
  addRouteAlias(endpoint: string, alias: string): void {
    const from = `/ext/${alias}`;
    if (this.routeAliases.has(from))
      throw new NodeRpcError(
        `route is either already aliased or already maps to a handle: ${from}`,
      );
    this.routeAliases.set(from, `/ext/${endpoint}`);
  }

  /** Rewrites a path through the route aliases (longest alias first). */
  resolvePath(path: string): string {
    let best: [string, string] | undefined;
    for (const entry of this.routeAliases) {
      const [from] = entry;
      if ((path === from || path.startsWith(`${from}/`)) && (!best || from.length > best[0].length))
        best = entry;
    }
    return best ? best[1] + path.slice(best[0].length) : path;
  }
}
