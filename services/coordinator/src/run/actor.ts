import type { RunDoc, RunLease, WorkItem } from '@leadfinder/platform';
import { isTerminal } from '@leadfinder/wire';
import type { Span } from '@opentelemetry/api';
import { deadlineReason, interruptRun } from '../activities/settlement.js';
import { traceRun } from '../activities/tracing.js';
import { driveRun } from '../pipeline/drive-run.js';
import type { EndDecision } from './run-end.js';
import { RunSession, type RunDeps } from './session.js';

/**
 * One delivery of a run: claim it (the store's fenced lease is the authority: two replicas never drive
 * the same run), then drive it, end a half-driven one, or hand the message back.
 */
export async function handleWorkItem(deps: RunDeps, item: WorkItem): Promise<void> {
  const ttl = deps.config.LEADFINDER_LEASE_TTL_MS;
  const now = deps.clock.now();
  const claimed = await deps.store.runs.claim(item.runId, deps.instanceId, ttl, now);
  if (!claimed) {
    const run = await deps.store.runs.get(item.runId);
    if (!run || isTerminal(run.status)) return item.ack();
    // Someone else holds it; look again once their lease could have lapsed. The record's expiry is its
    // claim's (renewals may live apart from the run and extend it), so it is no sooner than a renewal
    // period away: an expiry already past means renewed, not lapsed (the claim would have succeeded).
    const wait = run.lease ? Math.max(Math.floor(ttl / 3), run.lease.expiresAt - now + 250) : Math.floor(ttl / 3);
    return requeue(deps, item, wait, 'leased by another coordinator');
  }
  deps.logger.info('run claimed', { runId: item.runId, epoch: claimed.lease.epoch, deliveryCount: item.deliveryCount, started: claimed.before.started });
  if (claimed.before.started) {
    // Driven before and its lease lapsed: never resume a half-driven run.
    await interruptRun(deps, claimed.before, claimed.lease, deadlineReason(claimed.before, now));
    return item.ack();
  }
  const wrote = await driveClaimedRun(deps, claimed.before, claimed.lease, item);
  if (wrote) return item.ack();
  // Lease lost or shutting down: nothing written; whoever picks the message up next sorts it out.
  const run = await deps.store.runs.get(item.runId).catch(() => null);
  if (!run || isTerminal(run.status)) return item.ack();
  return requeue(deps, item, ttl, 'left without writing');
}

/** Hands the message back to the queue, to be delivered again after `delayMs` (a run state change: logged). */
export async function requeue(deps: Pick<RunDeps, 'logger'>, item: WorkItem, delayMs: number, why: string): Promise<void> {
  await item.nak(delayMs);
  deps.logger.info('run requeued', { runId: item.runId, delayMs, why });
}

/** Drives a claimed, never-started run to its end. Returns whether it wrote the terminal state. */
export function driveClaimedRun(deps: RunDeps, run: RunDoc, lease: RunLease, item: WorkItem | null): Promise<boolean> {
  return traceRun(run.id, (span) => drive(deps, run, lease, item, span));
}

async function drive(deps: RunDeps, run: RunDoc, lease: RunLease, item: WorkItem | null, runSpan: Span): Promise<boolean> {
  const session = RunSession.open(deps, run, lease, item, runSpan);
  let end: EndDecision;
  try {
    await session.markStarted();
    await driveRun(session);
    end = session.conclude();
  } catch (thrown) {
    end = session.conclude({ thrown });
  }
  return session.settle(end);
}
