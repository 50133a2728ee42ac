/** Errors in the Data API's shape: `{message: string | string[], statusCode, error}`. */

const NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string | string[],
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
  }

  body(): { message: string | string[]; statusCode: number; error: string } {
    return {
      message: this.messages,
      statusCode: this.status,
      error: NAMES[this.status] ?? 'Error',
    };
  }
}

/** Validation failures come back as a list, like NestJS's ValidationPipe answers them. */
export const badRequest = (...messages: string[]) => new HttpError(400, messages);
export const notFound = (message: string) => new HttpError(404, message);
