import { InsufficientBalanceDetail, ValidationIssue } from './wire.js';

/**
 * Base of every error the SDK raises for an HTTP refusal. `retryable` follows spec §7's retry rules:
 * 400, 401, 403, 404 and 422 are permanent for the same request, 402 must not be retried on a timer,
 * 500 is safe to retry once (the SDK already did when it raises one).
 */
export class LeadfinderApiError extends Error {
  override name = 'LeadfinderApiError';
  constructor(
    readonly status: number,
    /** The `detail` of the error body (a string, the 402 object, or the validation array). */
    readonly detail: unknown,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** 402: the balance cannot cover the 5.00 USD reservation. Nothing started. Never retry on a timer. */
export class InsufficientBalanceError extends LeadfinderApiError {
  override name = 'InsufficientBalanceError';
  readonly availableMicrousd: number;
  readonly availableUsd: string;
  readonly heldMicrousd: number;
  readonly neededMicrousd: number;
  readonly neededUsd: string;
  constructor(readonly balance: InsufficientBalanceDetail) {
    super(402, balance, balance.message, false);
    this.availableMicrousd = balance.availableMicrousd;
    this.availableUsd = balance.availableUsd;
    this.heldMicrousd = balance.heldMicrousd;
    this.neededMicrousd = balance.neededMicrousd;
    this.neededUsd = balance.neededUsd;
  }
}

/** 422: the request broke a rule; `issues` name the fields. */
export class ValidationError extends LeadfinderApiError {
  override name = 'ValidationError';
  constructor(readonly issues: ValidationIssue[]) {
    super(422, issues, issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ') || 'validation failed', false);
  }
}

/** 401/403: credentials missing, wrong, or the account is closed. */
export class AuthenticationError extends LeadfinderApiError {
  override name = 'AuthenticationError';
}

/** 404: the run (or key) is not yours, does not exist, or the id is malformed. */
export class NotFoundError extends LeadfinderApiError {
  override name = 'NotFoundError';
}

/** 429: too many requests; `retryAfterSeconds` says when to come back. */
export class RateLimitedError extends LeadfinderApiError {
  override name = 'RateLimitedError';
  constructor(detail: unknown, readonly retryAfterSeconds: number) {
    super(429, detail, `rate limited; retry after ${retryAfterSeconds}s`, true);
  }
}

/**
 * The request did not complete (network failure or client-side timeout). For `createSearch` this means
 * the server may or may not have accepted the search; the SDK has already looked before raising it.
 */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(message: string, readonly timedOut: boolean, options?: ErrorOptions) {
    super(message, options);
  }
}

/** The server answered something that does not match the wire schemas (a version mismatch or a bug). */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

export function errorFromResponse(status: number, body: unknown, retryAfter: string | null, statusText = ''): LeadfinderApiError {
  const detail = (body as { detail?: unknown } | null)?.detail ?? body;
  const text = typeof detail === 'string' ? detail : detail == null ? statusText || `HTTP ${status}` : JSON.stringify(detail);
  if (status === 402) {
    const balance = InsufficientBalanceDetail.safeParse(detail);
    if (balance.success) return new InsufficientBalanceError(balance.data);
  }
  if (status === 422) {
    const issues = ValidationIssue.array().safeParse(detail);
    if (issues.success) return new ValidationError(issues.data);
  }
  if (status === 401 || status === 403) return new AuthenticationError(status, detail, text, false);
  if (status === 404) return new NotFoundError(status, detail, text, false);
  if (status === 429) return new RateLimitedError(detail, Math.max(1, Number(retryAfter ?? '1') || 1));
  // 5xx may be transient; everything else is permanent for the same request.
  return new LeadfinderApiError(status, detail, text, status >= 500);
}
