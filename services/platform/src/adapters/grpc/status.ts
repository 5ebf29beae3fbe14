import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError, StatusObject } from '@grpc/grpc-js';
import {
  CancelledError, DeadlineExceededError, InternalError, InvalidArgumentError, LeadfinderError, LeaseLostError, NotFoundError,
  UnavailableError, UpstreamError, assertNever,
} from '../../errors.js';
import type { ErrorCode } from '../../errors.js';

/**
 * LeadfinderError ⇄ gRPC status, the one place each direction is decided (conventions §7). The status
 * code is what gRPC itself acts on (retry policy, deadlines); the exact error travels beside it in the
 * `lf-error-bin` trailer so the client rebuilds the same typed error with its structured fields.
 */
export const ERROR_TRAILER = 'lf-error-bin';
/** grpc-js honours this trailer in its retry policy: a delay in ms, or negative for "do not retry". */
const PUSHBACK_TRAILER = 'grpc-retry-pushback-ms';

/** The wire form of a LeadfinderError in the trailer. */
interface ErrorDetail {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  nextRetryDelayMs?: number;
  /** The subclass's structured field (resource, field, dependency, runId, upstream), when it has one. */
  subject?: string;
}

/** The gRPC status a code travels as. */
export function grpcStatusOf(code: ErrorCode): GrpcStatus {
  switch (code) {
    case 'LF_ERR_NOT_FOUND': return GrpcStatus.NOT_FOUND;
    case 'LF_ERR_INVALID_ARGUMENT': return GrpcStatus.INVALID_ARGUMENT;
    case 'LF_ERR_UNAUTHENTICATED': return GrpcStatus.UNAUTHENTICATED;
    case 'LF_ERR_PERMISSION_DENIED': return GrpcStatus.PERMISSION_DENIED;
    case 'LF_ERR_INSUFFICIENT_BALANCE': return GrpcStatus.FAILED_PRECONDITION;
    case 'LF_ERR_CONFLICT': return GrpcStatus.ABORTED;
    case 'LF_ERR_UNAVAILABLE': return GrpcStatus.UNAVAILABLE;
    case 'LF_ERR_DEADLINE_EXCEEDED': return GrpcStatus.DEADLINE_EXCEEDED;
    case 'LF_ERR_CANCELLED': return GrpcStatus.CANCELLED;
    case 'LF_ERR_LEASE_LOST': return GrpcStatus.ABORTED;
    // Not UNAVAILABLE: the provider answered, so a transport-level retry is not obviously right; the
    // error's own `retryable` tells the coordinator.
    case 'LF_ERR_UPSTREAM': return GrpcStatus.UNKNOWN;
    case 'LF_ERR_INTERNAL': return GrpcStatus.INTERNAL;
    default: return assertNever(code);
  }
}

function subjectOf(error: LeadfinderError): string | undefined {
  if (error instanceof NotFoundError) return error.resource;
  if (error instanceof InvalidArgumentError) return error.field;
  if (error instanceof UnavailableError) return error.dependency;
  if (error instanceof LeaseLostError) return error.runId;
  if (error instanceof UpstreamError) return error.upstream;
  return undefined;
}

/** Server side: any thrown value → the status object handed to grpc-js. Unknown throws become INTERNAL. */
export function toGrpcStatus(thrown: unknown): Partial<StatusObject> & { code: GrpcStatus } {
  const error = LeadfinderError.is(thrown)
    ? thrown
    : new InternalError('internal error', { cause: thrown });
  const detail: ErrorDetail = { code: error.code, message: error.message, retryable: error.retryable };
  if (error.nextRetryDelayMs !== undefined) detail.nextRetryDelayMs = error.nextRetryDelayMs;
  const subject = subjectOf(error);
  if (subject !== undefined) detail.subject = subject;
  const metadata = new Metadata();
  metadata.set(ERROR_TRAILER, Buffer.from(JSON.stringify(detail), 'utf8'));
  if (!error.retryable) metadata.set(PUSHBACK_TRAILER, '-1');
  else if (error.nextRetryDelayMs !== undefined) metadata.set(PUSHBACK_TRAILER, String(error.nextRetryDelayMs));
  return { code: grpcStatusOf(error.code), details: error.message, metadata };
}

function readDetail(metadata: Metadata | undefined): ErrorDetail | undefined {
  const raw = metadata?.get(ERROR_TRAILER)[0];
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw) as ErrorDetail;
    return typeof parsed.code === 'string' && typeof parsed.message === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Rebuilds the server's typed error from its trailer. */
function fromDetail(d: ErrorDetail, cause: unknown): LeadfinderError {
  const options = { cause, retryable: d.retryable, ...(d.nextRetryDelayMs === undefined ? {} : { nextRetryDelayMs: d.nextRetryDelayMs }) };
  switch (d.code) {
    case 'LF_ERR_NOT_FOUND': {
      const e = new NotFoundError(d.subject ?? 'resource', options);
      e.message = d.message;
      return e;
    }
    case 'LF_ERR_INVALID_ARGUMENT': return new InvalidArgumentError(d.message, d.subject, options);
    case 'LF_ERR_UNAVAILABLE': return new UnavailableError(d.subject ?? 'unknown', d.message, options);
    case 'LF_ERR_DEADLINE_EXCEEDED': return new DeadlineExceededError(d.message, options);
    case 'LF_ERR_CANCELLED': return new CancelledError(d.message, options);
    case 'LF_ERR_LEASE_LOST': {
      const e = new LeaseLostError(d.subject ?? 'unknown', options);
      e.message = d.message;
      return e;
    }
    case 'LF_ERR_UPSTREAM': return new UpstreamError(d.subject ?? 'unknown', d.message, options);
    case 'LF_ERR_INTERNAL': return new InternalError(d.message, options);
    // Codes without a subclass travel as the base class with the same code.
    case 'LF_ERR_UNAUTHENTICATED':
    case 'LF_ERR_PERMISSION_DENIED':
    case 'LF_ERR_INSUFFICIENT_BALANCE':
    case 'LF_ERR_CONFLICT':
      return new LeadfinderError(d.code, d.message, options);
    default: return assertNever(d.code);
  }
}

/** A status that did not come from our server (transport, deadline, cancel, proxy) → a typed error. */
function fromBareStatus(error: ServiceError, peer: string): LeadfinderError {
  const options = { cause: error };
  const code = error.code as GrpcStatus;
  switch (code) {
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return new UnavailableError(peer, `${peer}: ${error.details}`, options);
    case GrpcStatus.DEADLINE_EXCEEDED: return new DeadlineExceededError(`${peer}: ${error.details}`, options);
    case GrpcStatus.CANCELLED: return new CancelledError(`${peer}: ${error.details}`, options);
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.OUT_OF_RANGE:
      return new InvalidArgumentError(`${peer}: ${error.details}`, undefined, options);
    case GrpcStatus.NOT_FOUND: return new NotFoundError(peer, options);
    case GrpcStatus.UNAUTHENTICATED: return new LeadfinderError('LF_ERR_UNAUTHENTICATED', error.details, options);
    case GrpcStatus.PERMISSION_DENIED: return new LeadfinderError('LF_ERR_PERMISSION_DENIED', error.details, options);
    case GrpcStatus.ABORTED:
    case GrpcStatus.ALREADY_EXISTS:
      return new LeadfinderError('LF_ERR_CONFLICT', error.details, options);
    case GrpcStatus.UNKNOWN:
    case GrpcStatus.FAILED_PRECONDITION:
      return new UpstreamError(peer, `${peer}: ${error.details}`, options);
    case GrpcStatus.OK:
    case GrpcStatus.UNIMPLEMENTED:
    case GrpcStatus.INTERNAL:
    case GrpcStatus.DATA_LOSS:
      return new InternalError(`${peer}: ${error.details}`, options);
    default: return assertNever(code);
  }
}

/**
 * Client side: a failed call → the typed error. `peer` names the service for errors gRPC raised itself.
 */
export function fromGrpcError(error: ServiceError, peer: string): LeadfinderError {
  const detail = readDetail(error.metadata);
  return detail ? fromDetail(detail, error) : fromBareStatus(error, peer);
}
