import type { FastifyReply } from 'fastify';

/** W3C Trace Context version 00: `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/**
 * Answers with the run's `traceparent` (W3C format), so a client can quote its run's trace in a support
 * ticket and an operator can open it from there (issue 22). `carrier` is the run's stored trace context
 * (`RunDoc.trace`), or the context of the span that is creating the run. Nothing is sent when the carrier
 * holds no valid, non-zero traceparent (a run created before tracing ran, or by a process without it).
 */
export function setRunTraceparent(reply: FastifyReply, carrier: Record<string, string> | undefined): void {
  const value = carrier?.traceparent;
  const match = value === undefined ? null : TRACEPARENT.exec(value);
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return;
  void reply.header('traceparent', value);
}
