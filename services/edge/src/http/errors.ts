import { LeadfinderError, assertNever } from '@leadfinder/platform';
import type { ErrorCode, Logger } from '@leadfinder/platform';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { InsufficientBalanceDetail, ValidationIssue } from '@leadfinder/wire';

/**
 * Errors the edge answers with. Each carries the exact public `detail` (spec §7); the HTTP status is
 * decided from the error code in `statusFor`, the one place that maps errors to statuses.
 */
export class ApiError extends LeadfinderError {
  constructor(code: ErrorCode, readonly detail: string) {
    super(code, detail);
    this.name = 'ApiError';
  }
}

/** FastAPI-shaped 422: `detail` is the list of failed fields. */
export class RequestValidationError extends LeadfinderError {
  constructor(readonly issues: ValidationIssue[]) {
    super('LF_ERR_INVALID_ARGUMENT', 'request validation failed');
    this.name = 'RequestValidationError';
  }
}

/** 422 with a sentence for `detail` (a well-formed request the service cannot act on, e.g. a reused Idempotency-Key). */
export class UnprocessableError extends ApiError {
  constructor(detail: string) {
    super('LF_ERR_INVALID_ARGUMENT', detail);
    this.name = 'UnprocessableError';
  }
}

/** 402: the insufficient-balance object of spec §2.4. */
export class InsufficientBalanceError extends LeadfinderError {
  constructor(readonly detail: InsufficientBalanceDetail) {
    super('LF_ERR_INSUFFICIENT_BALANCE', detail.message);
    this.name = 'InsufficientBalanceError';
  }
}

/** 429 with Retry-After; not a domain failure, so it has no code of its own in the catalog. */
export class RateLimitedError extends LeadfinderError {
  constructor(readonly retryAfterS: number, readonly detail = 'Too many requests') {
    super('LF_ERR_UNAVAILABLE', detail, { retryable: true, nextRetryDelayMs: retryAfterS * 1000 });
    this.name = 'RateLimitedError';
  }
}

export const notFound = (detail: string) => new ApiError('LF_ERR_NOT_FOUND', detail);
export const unauthenticated = (detail: string) => new ApiError('LF_ERR_UNAUTHENTICATED', detail);
export const forbidden = (detail: string) => new ApiError('LF_ERR_PERMISSION_DENIED', detail);
export const badRequest = (detail: string) => new ApiError('LF_ERR_INVALID_ARGUMENT', detail);
export const conflict = (detail: string) => new ApiError('LF_ERR_CONFLICT', detail);
export const internal = (detail = 'Internal server error') => new ApiError('LF_ERR_INTERNAL', detail);

const INTERNAL_DETAIL = 'Internal server error';

/** The one mapping from error to HTTP status. */
export function statusFor(error: LeadfinderError): number {
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof RequestValidationError || error instanceof UnprocessableError) return 422;
  const code = error.code;
  switch (code) {
    case 'LF_ERR_NOT_FOUND':
      return 404;
    case 'LF_ERR_INVALID_ARGUMENT':
      return 400;
    case 'LF_ERR_UNAUTHENTICATED':
      return 401;
    case 'LF_ERR_PERMISSION_DENIED':
      return 403;
    case 'LF_ERR_INSUFFICIENT_BALANCE':
      return 402;
    case 'LF_ERR_CONFLICT':
      return 409;
    // Dependency and internal failures all read as a retryable 500 (spec §7 "Safe to retry once").
    case 'LF_ERR_UNAVAILABLE':
    case 'LF_ERR_DEADLINE_EXCEEDED':
    case 'LF_ERR_CANCELLED':
    case 'LF_ERR_LEASE_LOST':
    case 'LF_ERR_UPSTREAM':
    case 'LF_ERR_INTERNAL':
      return 500;
    default:
      return assertNever(code);
  }
}

/** The public body of an error; internal messages never leave the process. */
function detailFor(error: LeadfinderError, status: number): unknown {
  if (error instanceof RequestValidationError) return error.issues;
  if (error instanceof InsufficientBalanceError) return error.detail;
  if (error instanceof RateLimitedError) return error.detail;
  if (error instanceof ApiError) return error.detail;
  return status === 500 ? INTERNAL_DETAIL : STATUS_TEXT[status] ?? INTERNAL_DETAIL;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
};

/** Fastify's own transport errors (body parsing, limits) in the same shapes. */
function fromFastify(error: FastifyError): { status: number; detail: unknown } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, detail: STATUS_TEXT[413] };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? { status: 415, detail: STATUS_TEXT[415] }
        : { status: 400, detail: STATUS_TEXT[400] };
    default:
      if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
        return { status: error.statusCode, detail: STATUS_TEXT[error.statusCode] ?? 'Bad Request' };
      }
      return null;
  }
}

/** Root error handler: the only place errors become HTTP answers. */
export function installErrorHandler(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error, request, reply) => {
    if (LeadfinderError.is(error)) {
      const status = statusFor(error);
      if (error instanceof RateLimitedError) void reply.header('retry-after', String(error.retryAfterS));
      if (status >= 500) logger.error('request failed', { err: describe(error), method: request.method, url: request.routeOptions.url });
      return reply.code(status).send({ detail: detailFor(error, status) });
    }
    const mapped = fromFastify(error as FastifyError);
    if (mapped) return reply.code(mapped.status).send({ detail: mapped.detail });
    logger.error('unhandled error', { err: describe(error), method: request.method, url: request.routeOptions.url });
    return reply.code(500).send({ detail: INTERNAL_DETAIL });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not Found' }));
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, cause: error.cause instanceof Error ? error.cause.message : undefined };
  }
  return { value: String(error) };
}
