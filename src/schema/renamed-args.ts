import { badInput } from '../errors.js';

/**
 * Arguments renamed under the schema's conventions (docs/schema-conventions.md) keep their old name
 * as a deprecated alias. The value a field reads is the new name's, else the old one's; both given
 * with different values is a BAD_USER_INPUT naming the old one (never a silent pick).
 */
export function renamedArg<
  A extends object,
  N extends keyof A & string,
  O extends keyof A & string,
>(args: A, name: N, old: O): { value: NonNullable<A[N] | A[O]> | undefined; argument: N | O } {
  const now = (args[name] ?? undefined) as NonNullable<A[N]> | undefined;
  const before = (args[old] ?? undefined) as NonNullable<A[O]> | undefined;
  if (now !== undefined && before !== undefined && (now as unknown) !== before)
    throw badInput(old, `${old} is the deprecated name of ${name}: pass only ${name}`);
  // `argument` is the name the client used, for the errors of the value's own checks.
  return now === undefined && before !== undefined
    ? { value: before, argument: old }
    : { value: now, argument: name };
}

/** The deprecation of an old argument name: "Use `name`", as the schema lint requires. */
export const useInstead = (name: string) => `Use \`${name}\` (the same argument, renamed).`;
