/**
 * Argument checks that run before execution (src/plugins/use-argument-checks.ts), for fields whose
 * parent costs an upstream call to reach: `Contract.transfers(startBlock, endBlock)` under a
 * contract, a balance list under an address reached through a list. Each check is the same parse
 * the resolver makes (it still makes it); run up front, a bad value is refused before any upstream
 * call however deep it is. A check throws the resolver's own BAD_USER_INPUT error. Arguments arrive
 * untyped (variables substituted).
 */
export type ArgumentCheck = (args: Record<string, unknown>) => void;

const checks = new Map<string, ArgumentCheck[]>();

/**
 * Registers a check of `field` on each of `typeNames` (an interface field: name its implementations
 * too).
 */
export function registerArgumentCheck(
  typeNames: readonly string[],
  field: string,
  check: ArgumentCheck,
): void {
  for (const t of typeNames) {
    const key = `${t}.${field}`;
    checks.set(key, [...(checks.get(key) ?? []), check]);
  }
}

export function argumentChecksOf(typeName: string, field: string): readonly ArgumentCheck[] {
  return checks.get(`${typeName}.${field}`) ?? [];
}

/** A string argument's value when it was given (null and absent are the same: not given). */
export const given = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
