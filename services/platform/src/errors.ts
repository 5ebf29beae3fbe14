/**
 * The error catalog. Each failure a caller or operator can see has a stable code; HTTP and gRPC status
 * are mapped from the code in one place each (edge error handler, gRPC interceptors).
 */
const BRAND = Symbol.for('leadfinder.error');

export type ErrorCode =
  | 'LF_ERR_NOT_FOUND'
  | 'LF_ERR_INVALID_ARGUMENT'
  | 'LF_ERR_UNAUTHENTICATED'
  | 'LF_ERR_PERMISSION_DENIED'
  | 'LF_ERR_INSUFFICIENT_BALANCE'
  | 'LF_ERR_CONFLICT'
  | 'LF_ERR_UNAVAILABLE'
  | 'LF_ERR_DEADLINE_EXCEEDED'
  | 'LF_ERR_CANCELLED'
  | 'LF_ERR_LEASE_LOST'
  | 'LF_ERR_UPSTREAM'
  | 'LF_ERR_INTERNAL';

export interface LeadfinderErrorOptions extends ErrorOptions {
  retryable?: boolean;
  /** Suggested wait before a retry, for retryable errors. */
  nextRetryDelayMs?: number;
}

export class LeadfinderError extends Error {
  readonly [BRAND] = true;
  readonly retryable: boolean;
  readonly nextRetryDelayMs: number | undefined;
  constructor(readonly code: ErrorCode, message: string, options: LeadfinderErrorOptions = {}) {
    super(message, options);
    this.name = 'LeadfinderError';
    this.retryable = options.retryable ?? false;
    this.nextRetryDelayMs = options.nextRetryDelayMs;
  }
  static is(value: unknown): value is LeadfinderError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

export class NotFoundError extends LeadfinderError {
  constructor(readonly resource: string, options?: LeadfinderErrorOptions) {
    super('LF_ERR_NOT_FOUND', `${resource} not found`, options);
    this.name = 'NotFoundError';
  }
}
export class InvalidArgumentError extends LeadfinderError {
  constructor(message: string, readonly field?: string, options?: LeadfinderErrorOptions) {
    super('LF_ERR_INVALID_ARGUMENT', message, options);
    this.name = 'InvalidArgumentError';
  }
}
export class UnavailableError extends LeadfinderError {
  constructor(readonly dependency: string, message: string, options?: LeadfinderErrorOptions) {
    super('LF_ERR_UNAVAILABLE', message, { retryable: true, ...options });
    this.name = 'UnavailableError';
  }
}
export class DeadlineExceededError extends LeadfinderError {
  constructor(message = 'deadline exceeded', options?: LeadfinderErrorOptions) {
    super('LF_ERR_DEADLINE_EXCEEDED', message, { retryable: true, ...options });
    this.name = 'DeadlineExceededError';
  }
}
export class CancelledError extends LeadfinderError {
  constructor(message = 'cancelled', options?: LeadfinderErrorOptions) {
    super('LF_ERR_CANCELLED', message, options);
    this.name = 'CancelledError';
  }
}
export class LeaseLostError extends LeadfinderError {
  constructor(readonly runId: string, options?: LeadfinderErrorOptions) {
    super('LF_ERR_LEASE_LOST', `lease on run ${runId} lost`, options);
    this.name = 'LeaseLostError';
  }
}
export class UpstreamError extends LeadfinderError {
  constructor(readonly upstream: string, message: string, options?: LeadfinderErrorOptions) {
    super('LF_ERR_UPSTREAM', message, options);
    this.name = 'UpstreamError';
  }
}
export class InternalError extends LeadfinderError {
  constructor(message: string, options?: LeadfinderErrorOptions) {
    super('LF_ERR_INTERNAL', message, options);
    this.name = 'InternalError';
  }
}

export function assertNever(value: never): never {
  throw new InternalError(`unexpected value: ${String(value)}`);
}
