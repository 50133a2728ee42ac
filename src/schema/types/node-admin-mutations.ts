import type { ObjectRef } from '@pothos/core';
import { requireAdmin } from '../../admin-auth.js';
import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { NodeHandle } from '../../loaders/node.js';
import type { ProfilerAction } from '../../upstream/node-rpc.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import type { GatewayTypes } from '../field-builder.js';
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

builder.mutationFields((t) => ({
  nodeAdminAlias: t.field({
    type: NodeAdminPayloadRef,
    description:
      'Also serve an API endpoint of the node at /ext/<alias> (admin.alias). Affects only that node.',
    args: argTable(t.arg, {
      node: ['String', NODE_ARG],
      endpoint: ['String!', 'The part of the endpoint after /ext/, e.g. "bc/X".'],
      alias: ['String!', 'At most 512 characters.'],
    }),
    resolve: adminResolver('admin.alias', async (node, args) => {
      const endpoint = args.endpoint.replace(/^\/?(ext\/)?/, '');
      if (!/^[\w.\-/]{1,512}$/.test(endpoint))
        throw badInput('endpoint', 'endpoint must be a path below /ext/, such as "bc/X"');
      const alias = parseAlias(args.alias);
      await node.call((c) => c.admin.alias(endpoint, alias));
      return {};
    }),
  }),
  nodeAdminAliasChain: t.field({
    type: NodeAdminPayloadRef,
    description:
      'Give a chain an alias usable wherever its id is (admin.aliasChain). Affects only that node.',
    args: argTable(t.arg, {
      node: ['String', NODE_ARG],
      chain: ['String!', 'A blockchain id or existing alias.'],
      alias: ['String!', 'At most 512 characters.'],
    }),
    resolve: adminResolver('admin.aliasChain', async (node, args) => {
      const chain = parseChainRef(args.chain, 'chain');
      const alias = parseAlias(args.alias);
      await node.call((c) => c.admin.aliasChain(chain, alias));
      return {};
    }),
  }),
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
    resolve: adminResolver('admin.loadVMs', (node) => node.call((c) => c.admin.loadVms())),
  }),
  cChainAdminSetLogLevel: t.field({
    type: NodeAdminPayloadRef,
    description: 'Change the C-Chain VM log level (admin.setLogLevel on /ext/bc/C/admin).',
    args: {
      node: t.arg.string({ description: NODE_ARG }),
      level: t.arg({ type: EvmLogLevelEnum, required: true, description: 'The new log level.' }),
    },
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

builder.mutationFields((t) => ({
  xChainIssueTx: t.field({
    type: XChainIssueTxPayloadRef,
    description: 'Send a signed X-Chain tx to the network through the node (avm.issueTx).',
    args: {
      node: t.arg.string({ description: NODE_ARG }),
      tx: t.arg.string({
        required: true,
        description: "The signed tx in the node's hex encoding (0x, bytes, 4-byte checksum).",
      }),
    },
    resolve: async (_r, args, ctx) => {
      const node = adminNode(ctx, args.node);
      const tx = parseSignedTx(args.tx);
      return { node: node.name, txId: await node.call((c) => c.xChain.issueTx(tx)) };
    },
  }),
  cChainIssueAtomicTx: t.field({
    type: CChainIssueAtomicTxPayloadRef,
    description:
      'Send a signed C-Chain atomic (import/export) tx through the node (avax.issueTx on /ext/bc/C/avax).',
    args: {
      node: t.arg.string({ description: NODE_ARG }),
      tx: t.arg.string({
        required: true,
        description: "The signed tx in the node's hex encoding (0x, bytes, 4-byte checksum).",
      }),
    },
    resolve: async (_r, args, ctx) => {
      const node = adminNode(ctx, args.node);
      const tx = parseSignedTx(args.tx);
      return { node: node.name, txId: await node.call((c) => c.cChain.issueAtomicTx(tx)) };
    },
  }),
}));
