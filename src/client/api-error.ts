import { ErrorBody } from '../domain/error-body.js';
import { ApiError } from '../domain/errors.js';

/** An answer of the service, whatever its status. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A non-2xx answer as the typed error its body describes. */
export function toApiError(response: RawResponse): ApiError {
  const parsed = ErrorBody.safeParse(response.body);
  if (!parsed.success) {
    return new ApiError(response.status, 'unexpected_response', `The service answered ${response.status} without an error body.`);
  }
  const { type: _type, code, message, param, ...extra } = parsed.data.error;
  return new ApiError(response.status, code, message, { param, extra });
}
