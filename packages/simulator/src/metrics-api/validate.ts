/**
 * The Metrics API's error bodies and query validation. The service is NestJS: a 4xx body is
 * `{message, statusCode, error}` and validation failures list every problem in `message` (an
 * array of strings, class-validator's wording).
 */

const NAMES: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found' };

export class MetricsError extends Error {
  constructor(
    readonly status: 400 | 404,
    readonly messages: string[],
  ) {
    super(messages.join('; '));
  }

  body(): { message: string[]; statusCode: number; error: string } {
    return { message: this.messages, statusCode: this.status, error: NAMES[this.status]! };
  }
}

/** Collects the problems of one request, then throws them together as one 400. */
export class Checker {
  readonly problems: string[] = [];

  constructor(private readonly query: URLSearchParams) {}

  /** An optional integer query parameter within [min, max]. */
  int(name: string, min: number, max?: number): number | undefined {
    const raw = this.query.get(name);
    if (raw === null) return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n)) {
      this.problems.push(`${name} must be an integer number`);
      return undefined;
    }
    if (n < min) this.problems.push(`${name} must not be less than ${min}`);
    else if (max !== undefined && n > max)
      this.problems.push(`${name} must not be greater than ${max}`);
    else return n;
    return undefined;
  }

  /** An optional enum query parameter. */
  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = this.query.get(name);
    if (raw === null) return undefined;
    return this.value(name, raw, values);
  }

  /** A value (path or query) that must be one of `values`. */
  value<T extends string>(name: string, raw: string, values: readonly T[]): T | undefined {
    if ((values as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of the following values: ${values.join(', ')}`);
    return undefined;
  }

  /**
   * The query may name only these parameters, each once (NestJS `forbidNonWhitelisted`): another name, or
   * a list repeated instead of comma-separated, is a 400 rather than a silently ignored filter.
   */
  allowOnly(names: readonly string[]): void {
    for (const name of new Set(this.query.keys())) {
      if (!names.includes(name)) this.problems.push(`property ${name} should not exist`);
      else if (this.query.getAll(name).length > 1) this.problems.push(`${name} must be a string`);
    }
  }

  add(problem: string): void {
    this.problems.push(problem);
  }

  /** Throws the collected problems as a 400. */
  done(): void {
    if (this.problems.length > 0) throw new MetricsError(400, this.problems);
  }
}
