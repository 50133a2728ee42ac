import { z } from 'zod';

/**
 * Results of the node admin API (`/ext/admin`, gorilla service `admin`; only served by nodes started with
 * `--api-admin-enabled=true`), after avalanchego api/admin/service.go and the node's
 * admin examples (SPEC_DIR `examples/node/admin/`).
 */

export const chainAliasesResult = z.object({
  aliases: z
    .array(z.string())
    .nullable()
    .transform((v) => v ?? []),
});

const levels = z.record(z.string(), z.object({ logLevel: z.string(), displayLevel: z.string() }));

/** Logger name → levels, as a list ordered by logger name. */
export const loggerLevelsResult = z
  .object({ loggerLevels: levels.nullable().optional() })
  .transform((r) =>
    Object.entries(r.loggerLevels ?? {})
      .map(([name, l]) => ({ name, ...l }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  );
export type LoggerLevel = z.output<typeof loggerLevelsResult>[number];

/** `admin.loadVMs`: VMs newly registered (id → aliases) and, only when some failed, id → error. */
export const loadVmsResult = z
  .object({
    newVMs: z.record(z.string(), z.array(z.string()).nullable()).nullable().optional(),
    failedVMs: z.record(z.string(), z.string()).nullable().optional(),
  })
  .transform((r) => ({
    newVms: Object.entries(r.newVMs ?? {}).map(([id, aliases]) => ({ id, aliases: aliases ?? [] })),
    failedVms: Object.entries(r.failedVMs ?? {}).map(([id, error]) => ({ id, error })),
  }));
export type LoadVmsResult = z.output<typeof loadVmsResult>;

/** `admin.setLoggerLevel`: recent nodes answer the resulting levels, older ones `{}` (then null). */
export const setLoggerLevelResult = z
  .object({ loggerLevels: levels.nullable().optional() })
  .transform((r) =>
    r.loggerLevels
      ? Object.entries(r.loggerLevels)
          .map(([name, l]) => ({ name, ...l }))
          .sort((a, b) => a.name.localeCompare(b.name))
      : null,
  );
