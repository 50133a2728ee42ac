/** Yoga's private request-parse hooks, result hooks and masking, which direct execution runs itself. */
export type Hook = (payload: Record<string, unknown>) => unknown;
export type Processor = (
  result: unknown,
  fetchAPI: unknown,
  mediaType: string,
) => Response | Promise<Response>;

interface Mask {
  maskError: (error: unknown, message: string, isDev?: boolean) => Error;
  errorMessage: string;
  isDev?: boolean;
}

/**
 * The parts of Yoga's HTTP layer that are not public: its `onRequestParse` hooks (plugins note what
 * they decide about a request there: whether introspection is off for it, CSRF), its `onResultProcess`
 * hooks (they choose the result processor and fix error codes) and its masking options (for an error
 * thrown out of a hook). Undefined when this Yoga does not have them as expected: then direct
 * execution stays off, and every request goes through Yoga. Pinned, with Yoga's version, by
 * test/unit/yoga-internals.test.ts.
 */
export function yogaInternals(
  yoga: object,
): { parseHooks: Hook[]; resultHooks: Hook[]; mask: Mask } | undefined {
  const y = yoga as unknown as {
    onRequestParseHooks?: unknown;
    onResultProcessHooks?: unknown;
    maskedErrorsOpts?: { maskError?: unknown; errorMessage?: unknown; isDev?: boolean } | null;
  };
  const functions = (a: unknown): a is Hook[] =>
    Array.isArray(a) && a.every((h) => typeof h === 'function');
  const parseHooks = y.onRequestParseHooks;
  const resultHooks = y.onResultProcessHooks;
  const mask = y.maskedErrorsOpts;
  if (!functions(parseHooks) || !functions(resultHooks)) return undefined;
  if (!mask || typeof mask.maskError !== 'function' || typeof mask.errorMessage !== 'string')
    return undefined;
  return { parseHooks, resultHooks, mask: mask as Mask };
}
