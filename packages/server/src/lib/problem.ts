/**
 * Problem details (RFC 9457) errors thrown by services and rendered by the app's
 * error handler (DESIGN §5): 400 invalid input, 401, 403, 404, 409, 422, 429.
 */
import type { TFieldError } from '@fleet/contracts';

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: TFieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
  }
}

export const notFound = (what: string) => new HttpProblem(404, 'Not Found', `${what} was not found`);
export const forbidden = (detail: string) => new HttpProblem(403, 'Forbidden', detail);
export const unauthorized = (detail: string) => new HttpProblem(401, 'Unauthorized', detail);
export const conflict = (detail: string, errors?: TFieldError[]) => new HttpProblem(409, 'Conflict', detail, errors);
export const unprocessable = (detail: string) => new HttpProblem(422, 'Unprocessable Content', detail);
export const badRequest = (errors: TFieldError[]) =>
  new HttpProblem(400, 'Bad Request', 'One or more fields are invalid', errors);
