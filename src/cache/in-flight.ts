/** A load in flight: its result, and a promise that settles when one of its attempts failed (retries follow). */
export interface Running {
  p: Promise<unknown>;
  failedAttempt: Promise<void>;
}

/** Which comes first: the load settling ('settled'), or a failed attempt / the budget running out ('early'). */
export async function firstOf(
  running: Running,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<'settled' | 'early'> {
  let timer: NodeJS.Timeout | undefined;
  const budget = Number.isFinite(budgetMs)
    ? new Promise<'early'>((resolve) => (timer = setTimeout(() => resolve('early'), budgetMs)))
    : new Promise<'early'>(() => {});
  try {
    return await Promise.race([
      running.p.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      running.failedAttempt.then(() => 'early' as const),
      budget,
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
