import { requireAdmin } from '../../admin-auth.js';
import { badInput } from '../../errors.js';
import type { LoadVmsResult, LoggerLevel } from '../../upstream/schemas/node-admin.js';
import { builder } from '../builder.js';
import { exposed, refList } from '../expose.js';
import { ADMIN_ONLY } from '../service-sdl.js';
import { answeredBy, NetworkNodeRef, type NetworkNodeShape } from './network-node.js';
import { VirtualMachineRef } from './network-node-info.js';
import { nodeByName, parseId } from './network-node-inputs.js';

/**
 * The node admin API (`/ext/admin`; the node serves it only with `--api-admin-enabled=true`). Everything
 * here needs the gateway's admin token (`Authorization: Bearer <token>`; off unless ADMIN_TOKEN is set),
 * is checked before any upstream call, and is never cached. Reads live under `NetworkNode.admin`; the
 * mutations are in node-admin-mutations.ts.
 */

export const LoggerLevelRef = builder.objectRef<LoggerLevel>('NodeLoggerLevel').implement({
  description: "One of the node's loggers and its levels.",
  fields: (t) =>
    exposed(t, {
      name: ['String', 'The logger name, e.g. "C", "P", "X", "main".'],
      logLevel: ['String', 'Level written to the log files.'],
      displayLevel: ['String', 'Level written to the console.'],
    }),
});

export const NodeLogLevelEnum = builder.enumType('NodeLogLevel', {
  description: "AvalancheGo's log levels, least to most verbose.",
  values: {
    OFF: { description: 'No logging.' },
    FATAL: { description: 'Only fatal errors.' },
    ERROR: { description: 'Errors and above.' },
    WARN: { description: 'Warnings and above.' },
    INFO: { description: 'Informational messages and above (the default).' },
    TRACE: { description: 'Traces of operations and above.' },
    DEBUG: { description: 'Debugging detail and above.' },
    VERBO: { description: 'Everything (verbose).' },
  } as const,
});

const NetworkNodeAdminRef = builder.objectRef<NetworkNodeShape>('NetworkNodeAdmin').implement({
  description: 'Admin reads of a configured node (the node admin API). Never cached.',
  fields: (t) => ({
    chainAliases: t.stringList({
      nullable: true,
      description: 'The aliases of a chain on this node (admin.getChainAliases).',
      args: { chain: t.arg.string({ required: true, description: 'A blockchain id (CB58).' }) },
      resolve: (n, args, ctx) => {
        const chain = parseId(args.chain, 'chain', 'blockchain id');
        return nodeByName(ctx, n.name).call((c) => c.admin.chainAliases(chain));
      },
    }),
    loggerLevels: t.field({
      type: [LoggerLevelRef],
      nullable: true,
      description: 'Levels of one logger, or of every logger (admin.getLoggerLevel).',
      args: { loggerName: t.arg.string({ description: 'Omit for every logger.' }) },
      resolve: (n, args, ctx) => {
        const name = args.loggerName == null ? undefined : parseLoggerName(args.loggerName);
        return nodeByName(ctx, n.name).call((c) => c.admin.loggerLevels(name));
      },
    }),
  }),
});

export function parseLoggerName(value: string, argument = 'loggerName'): string {
  const v = value.trim();
  if (!/^[\w.\-/]{1,128}$/.test(v))
    throw badInput(argument, `${argument} must be a logger name such as "C", "P", "X" or "main"`);
  return v;
}

builder.objectFields(NetworkNodeRef, (t) => ({
  admin: t.field({
    type: NetworkNodeAdminRef,
    nullable: true,
    description:
      'Admin reads (aliases, logger levels). Needs the admin token (Authorization: Bearer …).',
    extensions: ADMIN_ONLY,
    resolve: (n, _a, ctx) => {
      requireAdmin(ctx.adminAuth);
      return n;
    },
  }),
}));

/** What every admin mutation answers: the node it acted on and the node method it called. */
export interface AdminPayload {
  node: string;
  method: string;
}

export const NodeAdminPayloadRef = builder.objectRef<AdminPayload>('NodeAdminPayload').implement({
  description: 'The result of an admin action the node answers with an empty object.',
  fields: (t) => ({
    networkNode: answeredBy(t, 'The configured node the call went to.'),
    method: t.exposeString('method', {
      description: 'The node method called, e.g. "admin.alias".',
    }),
  }),
});

export const NodeLoggerLevelsPayloadRef = builder
  .objectRef<AdminPayload & { loggerLevels: LoggerLevel[] | null }>('NodeLoggerLevelsPayload')
  .implement({
    description: 'The answer of a logger-level admin call: the node and the levels it now has.',
    fields: (t) => ({
      networkNode: answeredBy(t, 'The configured node the call went to.'),
      method: t.exposeString('method', {
        description: 'The node method called (e.g. "admin.setLoggerLevel").',
      }),
      loggerLevels: t.field({
        type: [LoggerLevelRef],
        nullable: true,
        description:
          'The levels after the change, as the node reported them (null from nodes that answer {}).',
        resolve: (p) => p.loggerLevels,
      }),
    }),
  });

const VmLoadFailureRef = builder
  .objectRef<LoadVmsResult['failedVms'][number]>('NodeVmLoadFailure')
  .implement({
    description: 'A VM the node failed to load.',
    fields: (t) =>
      exposed(t, {
        id: ['String', 'CB58 id of the VM.'],
        error: ['String', 'Why it failed, as the node says.'],
      }),
  });

export const NodeLoadVmsPayloadRef = builder
  .objectRef<AdminPayload & LoadVmsResult>('NodeLoadVmsPayload')
  .implement({
    description: 'The answer of admin.loadVMs: the VMs registered and those that failed.',
    fields: (t) => ({
      networkNode: answeredBy(t, 'The configured node the call went to.'),
      method: t.exposeString('method', {
        description: 'The node method called ("admin.loadVMs").',
      }),
      ...exposed(t, {
        newVms: refList(VirtualMachineRef, 'VMs registered by this call, with their aliases.'),
        failedVms: refList(
          VmLoadFailureRef,
          'VMs that failed to load, with the reason; empty when none.',
        ),
      }),
    }),
  });
