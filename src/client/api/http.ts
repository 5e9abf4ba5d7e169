import { ERRORS, isErrorCode, type ApiErrorBody, type ErrorCode } from '../../shared/errors';

/** A failed API call, carrying the server's code and the spec's message(s). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly messages: string[] = [message],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as Partial<ApiErrorBody> | null;
  const code = isErrorCode(body?.code) ? body.code : 'GENERIC';
  const message = body?.message ?? ERRORS[code];
  return new ApiError(response.status, code, message, body?.messages ?? [message]);
}

/**
 * The one way the client talks to the API: JSON in, JSON out, errors as ApiError. A network
 * failure becomes ApiError(0, 'GENERIC') so screens have one thing to handle.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'GENERIC', ERRORS.GENERIC);
  }
  if (!response.ok) throw await toApiError(response);
  return (response.status === 204 ? undefined : await response.json()) as T;
}
