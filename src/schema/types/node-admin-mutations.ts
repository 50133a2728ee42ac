import type { ObjectRef } from '@pothos/core';
import { requireAdmin } from '../../admin-auth.js';
import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { NodeHandle } from '../../loaders/node.js';
import type { NodeRpcClient, ProfilerAction } from '../../upstream/node-rpc.js';
import type { UpstreamRequest } from '../../upstream/request.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import type { GatewayTypes } from '../builder-types.js';
import { ADMIN_ONLY } from '../service-sdl.js';
import { CChainAtomicTransactionRef } from './c-chain-types.js';
import { answeredBy } from './network-node.js';
import { nodeByName, parseChainRef, parseSignedTx } from './network-node-inputs.js';
import {
  NodeAdminPayloadRef,
  NodeLoadVmsPayloadRef,
  NodeLoggerLevelsPayloadRef,
  NodeLogLevelEnum,
  parseLoggerName,
} from './node-admin.js';
import { XChainTransactionRef } from './x-chain-tx.js';
import './mutation.js';

/**
 * Node admin mutations (`/ext/admin`, `/ext/bc/C/admin`) and transaction issuing (`avm.issueTx`,
 * `avax.issueTx`). Each one: the admin token first (UNAUTHENTICATED without one, FORBIDDEN with a wrong one
 * or when the gateway has none configured), then the arguments — both before anything reaches the node.
 * Sent once, without retries (they change node state), and never cached.
 */
function adminNode(ctx: GatewayContext, name: string | null | undefined): NodeHandle {
  requireAdmin(ctx.adminAuth);
  return nodeByName(ctx, name, 'node');
}

/**
 * An admin mutation's resolver: the admin token and the node first, then `run` (argument checks, then
 * the call); the answer names the node and the method, with what `run` returned.
 */
function adminResolver<A extends { node?: string | null }, R extends object>(
  method: string,
  run: (node: NodeHandle, args: A) => Promise<R>,
) {
  return async (_r: unknown, args: A, ctx: GatewayContext) => {
    const node = adminNode(ctx, args.node);
    return { node: node.name, method, ...(await run(node, args)) };
  };
}

const NODE_ARG = 'A configured node name; the default node when omitted.';

const MAX_ALIAS = 512;
function parseAlias(value: string, argument = 'alias'): string {
  if (value.length === 0 || value.length > MAX_ALIAS || /[\s/]/.test(value)) {
    throw badInput(
      argument,
      `${argument} must be 1 to ${MAX_ALIAS} characters without spaces or slashes`,
    );
  }
  return value;
}

export const EvmLogLevelEnum = builder.enumType('EvmLogLevel', {
  description: 'Log levels of the C-Chain VM (go-ethereum style).',
  values: {
    TRACE: { value: 'trace', description: 'Everything, including traces.' },
    DEBUG: { value: 'debug', description: 'Debugging detail and above.' },
    INFO: { value: 'info', description: 'Informational messages and above (the default).' },
    WARN: { value: 'warn', description: 'Warnings and above.' },
    ERROR: { value: 'error', description: 'Errors and above.' },
    CRIT: { value: 'crit', description: 'Only critical errors.' },
  } as const,
});

/** An endpoint as `admin.alias` takes it: the path below /ext/. */
function parseEndpoint(value: string): string {
  const endpoint = value.replace(/^\/?(ext\/)?/, '');
  if (!/^[\w.\-/]{1,512}$/.test(endpoint))
    throw badInput('endpoint', 'endpoint must be a path below /ext/, such as "bc/X"');
  return endpoint;
}

/** The alias methods: what gets the alias (an argument of its own, checked first), then the alias. */
const ALIASES = [
  {
    field: 'nodeAdminAlias',
    method: 'alias',
    description:
      'Also serve an API endpoint of the node at /ext/<alias> (admin.alias). Affects only that node.',
    target: ['endpoint', 'The part of the endpoint after /ext/, e.g. "bc/X".'],
    parse: parseEndpoint,
  },
  {
    field: 'nodeAdminAliasChain',
    method: 'aliasChain',
    description:
      'Give a chain an alias usable wherever its id is (admin.aliasChain). Affects only that node.',
    target: ['chain', 'A blockchain id or existing alias.'],
    parse: (value: string) => parseChainRef(value, 'chain'),
  },
] as const;
for (const { field, method, description, target, parse } of ALIASES) {
  const [name, targetDescription] = target;
  builder.mutationField(field, (t) =>
    t.field({
      type: NodeAdminPayloadRef,
      description,
      args: argTable(t.arg, {
        node: ['String', NODE_ARG],
        [name]: ['String!', targetDescription],
        alias: ['String!', 'At most 512 characters.'],
      }),
      extensions: ADMIN_ONLY,
      resolve: adminResolver(`admin.${method}`, async (node, args) => {
        // Both are String!: given whenever this runs (the computed key widens their types).
        const value = parse(args[name] as string);
        const alias = parseAlias(args.alias as string);
        await node.call((c) => c.admin[method](value, alias));
        return {};
      }),
    }),
  );
}

builder.mutationFields((t) => ({
  nodeAdminSetLoggerLevel: t.field({
    type: NodeLoggerLevelsPayloadRef,
    description:
      'Change the log and/or display level of one logger, or of every logger (admin.setLoggerLevel).',
    args: argTable(t.arg, {
      node: ['String', NODE_ARG],
      loggerName: ['String', 'Omit for every logger.'],
      logLevel: [NodeLogLevelEnum, 'New level for the log files; unchanged when omitted.'],
      displayLevel: [NodeLogLevelEnum, 'New level for the console; unchanged when omitted.'],
    }),
    extensions: ADMIN_ONLY,
    resolve: adminResolver('admin.setLoggerLevel', async (node, args) => {
      if (args.logLevel == null && args.displayLevel == null)
        throw badInput('logLevel', 'Give logLevel, displayLevel or both');
      const request = {
        loggerName: args.loggerName == null ? undefined : parseLoggerName(args.loggerName),
        logLevel: args.logLevel ?? undefined,
        displayLevel: args.displayLevel ?? undefined,
      };
      return { loggerLevels: await node.call((c) => c.admin.setLoggerLevel(request)) };
    }),
  }),
  nodeAdminLoadVms: t.field({
    type: NodeLoadVmsPayloadRef,
    description:
      "Load the VMs installed in the node's plugin directory since it started (admin.loadVMs).",
    args: { node: t.arg.string({ description: NODE_ARG }) },
    extensions: ADMIN_ONLY,
    resolve: adminResolver('admin.loadVMs', (node) => node.call((c) => c.admin.loadVms())),
  }),
  cChainAdminSetLogLevel: t.field({
    type: NodeAdminPayloadRef,
    description: 'Change the C-Chain VM log level (admin.setLogLevel on /ext/bc/C/admin).',
    args: {
      node: t.arg.string({ description: NODE_ARG }),
      level: t.arg({ type: EvmLogLevelEnum, required: true, description: 'The new log level.' }),
    },
    extensions: ADMIN_ONLY,
    resolve: adminResolver('admin.setLogLevel', async (node, args) => {
      await node.call((c) => c.cChain.setLogLevel(args.level));
      return {};
    }),
  }),
}));

/** The profilers exist on both admin endpoints with the same methods. */
const PROFILERS: [suffix: string, action: ProfilerAction, what: string][] = [
  ['StartCpuProfiler', 'startCPUProfiler', 'Start the CPU profiler'],
  ['StopCpuProfiler', 'stopCPUProfiler', 'Stop the CPU profiler and write cpu.profile'],
  ['MemoryProfile', 'memoryProfile', 'Write a memory profile to mem.profile'],
  ['LockProfile', 'lockProfile', 'Write mutex statistics to lock.profile'],
];
for (const [suffix, action, what] of PROFILERS) {
  for (const target of ['node', 'cChain'] as const) {
    builder.mutationField(`${target}Admin${suffix}`, (t) =>
      t.field({
        type: NodeAdminPayloadRef,
        description: `${what} ${target === 'node' ? 'of the node (admin.' : 'of the C-Chain VM (/ext/bc/C/admin admin.'}${action}).`,
        args: { node: t.arg.string({ description: NODE_ARG }) },
        extensions: ADMIN_ONLY,
        resolve: adminResolver(`admin.${action}`, async (node) => {
          await node.call((c) =>
            target === 'node' ? c.admin.profiler(action) : c.cChain.profiler(action),
          );
          return {};
        }),
      }),
    );
  }
}

type Issued = { node: string; txId: string };

/** The answer of an issueTx call: the node, the id it accepted, and that transaction read back. */
const issuePayload = (
  name: string,
  o: {
    description: string;
    txId: string;
    readBack: { field: string; type: ObjectRef<GatewayTypes, Issued>; description: string };
  },
) =>
  builder.objectRef<Issued>(name).implement({
    description: o.description,
    fields: (t) => ({
      networkNode: answeredBy(t, 'The configured node the transaction went through.'),
      txId: t.exposeString('txId', { description: o.txId }),
      [o.readBack.field]: t.field({
        type: o.readBack.type,
        description: o.readBack.description,
        resolve: (p) => ({ node: p.node, txId: p.txId }),
      }),
    }),
  });

const XChainIssueTxPayloadRef = issuePayload('XChainIssueTxPayload', {
  description:
    'The answer of avm.issueTx: the id of the transaction the node accepted for issuing.',
  txId: 'Id (CB58) of the issued transaction.',
  readBack: {
    field: 'transaction',
    type: XChainTransactionRef,
    description: 'The issued transaction, read back from the node.',
  },
});

const CChainIssueAtomicTxPayloadRef = issuePayload('CChainIssueAtomicTxPayload', {
  description:
    'The answer of avax.issueTx: the id of the atomic transaction the node accepted for issuing.',
  txId: 'Id (CB58) of the issued atomic transaction.',
  readBack: {
    field: 'atomicTransaction',
    type: CChainAtomicTransactionRef,
    description: 'The issued atomic transaction, read back from the node.',
  },
});

const SIGNED_TX = "The signed tx in the node's hex encoding (0x, bytes, 4-byte checksum).";

/** An issue mutation's resolver: the admin token and the node, then the signed tx, then `issue`. */
const issueResolver =
  (issue: (client: NodeRpcClient, tx: string) => UpstreamRequest<string>) =>
  async (_r: unknown, args: { node?: string | null; tx: string }, ctx: GatewayContext) => {
    const node = adminNode(ctx, args.node);
    const tx = parseSignedTx(args.tx);
    return { node: node.name, txId: await node.call((c) => issue(c, tx)) };
  };

builder.mutationFields((t) => ({
  xChainIssueTx: t.field({
    type: XChainIssueTxPayloadRef,
    description: 'Send a signed X-Chain tx to the network through the node (avm.issueTx).',
    args: argTable(t.arg, { node: ['String', NODE_ARG], tx: ['String!', SIGNED_TX] }),
    extensions: ADMIN_ONLY,
    resolve: issueResolver((c, tx) => c.xChain.issueTx(tx)),
  }),
  cChainIssueAtomicTx: t.field({
    type: CChainIssueAtomicTxPayloadRef,
    description:
      'Send a signed C-Chain atomic (import/export) tx through the node (avax.issueTx on /ext/bc/C/avax).',
    args: argTable(t.arg, { node: ['String', NODE_ARG], tx: ['String!', SIGNED_TX] }),
    extensions: ADMIN_ONLY,
    resolve: issueResolver((c, tx) => c.cChain.issueAtomicTx(tx)),
  }),
}));
