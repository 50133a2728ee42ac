import { cb58Decode, isCb58Id } from './go-args.js';
import { type GorillaService, method, NodeRpcError } from './gorilla.js';
import { GIT_COMMIT } from './info.js';
import type { NodeState } from './node-state.js';

/**
 * `/ext/admin` (service `admin`, api/admin/service.go) and the C-Chain's `/ext/bc/C/admin`
 * (service `admin`, coreth plugin/evm/admin.go). Both exist only when the simulator runs with
 * admin enabled; otherwise their routes are not registered and the node answers 404.
 */

const MAX_ALIAS_LENGTH = 512;

function levelsOf(state: NodeState, names: string[]) {
  const out: Record<string, { logLevel: string; displayLevel: string }> = {};
  for (const name of [...names].sort()) {
    const l = state.loggers.get(name);
    if (!l) throw new NodeRpcError(`logger with name ${JSON.stringify(name)} not found`);
    out[name] = { logLevel: l.logLevel, displayLevel: l.displayLevel };
  }
  return out;
}

const namesOf = (state: NodeState, loggerName: string) =>
  loggerName === '' ? [...state.loggers.keys()] : [loggerName];

function profiler(state: NodeState, key: 'cpuProfiling' | 'cChainCpuProfiling') {
  return {
    startCPUProfiler: method({}, () => {
      if (state[key]) throw new NodeRpcError('cpu profiler already running');
      state[key] = true;
      return {};
    }),
    stopCPUProfiler: method({}, () => {
      if (!state[key]) throw new NodeRpcError("cpu profiler doesn't exist");
      state[key] = false;
      return {};
    }),
    memoryProfile: method({}, () => ({})),
    lockProfile: method({}, () => ({})),
  };
}

export function adminService(state: NodeState): GorillaService {
  return {
    name: 'admin',
    methods: {
      ...profiler(state, 'cpuProfiling'),
      alias: method({ endpoint: 'string', alias: 'string' }, ({ endpoint, alias }) => {
        if (alias.length > MAX_ALIAS_LENGTH) throw new NodeRpcError('alias length is too long');
        state.addRouteAlias(endpoint, alias);
        return {};
      }),
      aliasChain: method({ chain: 'string', alias: 'string' }, ({ chain, alias }) => {
        if (alias.length > MAX_ALIAS_LENGTH) throw new NodeRpcError('alias length is too long');
        const chainId = state.lookupChain(chain);
        state.aliasChain(alias, chainId);
        state.addRouteAlias(`bc/${alias}`, `bc/${chainId}`);
        return {};
      }),
      getChainAliases: method({ chain: 'string' }, ({ chain }) => {
        const bytes = cb58Decode(chain);
        if (!bytes)
          throw new NodeRpcError(
            chain.length < 5
              ? 'input string is smaller than the checksum size'
              : 'invalid input checksum',
          );
        if (!isCb58Id(chain)) throw new NodeRpcError(`expected 32 bytes but got ${bytes.length}`);
        return { aliases: state.chains.find((c) => c.id === chain)?.aliases ?? null };
      }),
      getLoggerLevel: method({ loggerName: 'string' }, ({ loggerName }) => ({
        loggerLevels: levelsOf(state, namesOf(state, loggerName)),
      })),
      setLoggerLevel: method(
        { loggerName: 'string', logLevel: 'logLevel?', displayLevel: 'logLevel?' },
        (a) => {
          if (a.logLevel === undefined && a.displayLevel === undefined)
            throw new NodeRpcError('need to specify either displayLevel or logLevel');
          const names = namesOf(state, a.loggerName);
          for (const name of names) {
            const l = state.loggers.get(name);
            if (!l) throw new NodeRpcError(`logger with name ${JSON.stringify(name)} not found`);
            if (a.logLevel) l.logLevel = a.logLevel;
            if (a.displayLevel) l.displayLevel = a.displayLevel;
          }
          return { loggerLevels: levelsOf(state, names) };
        },
      ),
      loadVMs: method({}, () => ({ newVMs: {} })),
      stacktrace: method({}, () => ({})),
      getConfig: method({}, () => ({
        'network-id': state.net.info.networkId,
        'api-admin-enabled': true,
        'api-info-enabled': true,
        'api-health-enabled': true,
        'http-host': '127.0.0.1',
        'http-port': 9650,
        'staking-port': 9651,
        'git-commit': GIT_COMMIT,
      })),
    },
  };
}

const C_LOG_LEVELS = new Set([
  'trace',
  'trce',
  'debug',
  'dbug',
  'info',
  'warn',
  'error',
  'eror',
  'crit',
]);

export function cChainAdminService(state: NodeState): GorillaService {
  return {
    name: 'admin',
    methods: {
      ...profiler(state, 'cChainCpuProfiling'),
      setLogLevel: method({ level: 'string' }, ({ level }) => {
        if (!C_LOG_LEVELS.has(level.toLowerCase()))
          throw new NodeRpcError(`failed to parse log level: unknown level: ${level} `);
        state.cChainLogLevel = level.toLowerCase();
        return {};
      }),
      getVMConfig: method({}, () => ({
        config: {
          'admin-api-enabled': true,
          'admin-api-dir': '',
          'warp-api-enabled': false,
          'eth-apis': [
            'eth',
            'eth-filter',
            'net',
            'web3',
            'internal-eth',
            'internal-blockchain',
            'internal-transaction',
          ],
          'rpc-gas-cap': 50_000_000,
          'rpc-tx-fee-cap': 100,
          'pruning-enabled': true,
          'state-sync-enabled': null,
          'allow-unfinalized-queries': false,
          'log-level': state.cChainLogLevel,
          'http-body-limit': 0,
          'batch-request-limit': 40,
          'batch-response-max-size': 25_000_000,
        },
      })),
    },
  };
}
