import { context, propagation } from '@opentelemetry/api';
import type { AccountDoc, RunDoc } from '@leadfinder/platform';
import { RESERVATION_MICROUSD, microsToUsdDisplay, microsToUsdString, usdToMicros } from '@leadfinder/wire';
import type { CreateSearchRequest, InsufficientBalanceDetail } from '@leadfinder/wire';
import type { EdgeDeps } from '../deps.js';
import { InsufficientBalanceError, badRequest, forbidden, internal, unauthenticated } from '../http/errors.js';
import { resolveExclusions } from './exclusions.js';

type AcceptDeps = Pick<EdgeDeps, 'config' | 'logger' | 'clock' | 'ids' | 'store' | 'work' | 'billing' | 'webhooks'>;

const RESERVATION_FAILED = 'The reservation for this search could not be opened.';

/**
 * Accept a validated search: hold 5.00 USD, write the run, hand it to the coordinator. Nothing is
 * written for a refused request except the 402 refusal row (spec §3).
 */
export async function acceptSearch(
  deps: AcceptDeps, account: AccountDoc, body: CreateSearchRequest, idempotent?: { runId: string; key: string },
): Promise<{ id: string }> {
  // Length is judged on the raw string first (422 by the schema); only then whitespace-only is 400.
  if (body.q.trim() === '') throw badRequest('Empty query');

  // Before anything is held: an unknown run in exclude.runs, or too many entries, is a 400.
  const extras = await resolveExclusions(deps.store.runs, account.id, body);
  // An Idempotency-Key names the run before it is started (runs/idempotency.ts); the run keeps its key.
  const id = idempotent?.runId ?? deps.ids.runId();
  const now = deps.clock.now();
  const base = { ...baseDoc(deps, account, id, body, now), ...extras, ...(idempotent ? { idempotencyKey: idempotent.key } : {}) };

  let reserved;
  try {
    reserved = await deps.billing.reserve(account.id, id, RESERVATION_MICROUSD);
  } catch (error) {
    deps.logger.error('reservation failed', { runId: id, err: String(error) });
    throw internal(RESERVATION_FAILED);
  }
  if (!reserved.ok) {
    if (reserved.reason === 'insufficient') {
      await writeRefusalRow(deps, base);
      throw new InsufficientBalanceError(insufficientDetail(reserved.availableMicrousd, reserved.heldMicrousd));
    }
    // The account changed between authentication and reservation.
    throw reserved.reason === 'closed' ? forbidden('Account disabled') : unauthenticated('Invalid credentials');
  }

  const run: RunDoc = { ...base, holdMicrousd: RESERVATION_MICROUSD };
  let inserted = false;
  try {
    await deps.store.runs.insert(run);
    inserted = true;
    // Before the coordinator can have it: the run's webhook subscription (none without targets).
    await deps.webhooks?.runAccepted(run, body.webhook);
    await deps.work.enqueue(id, run.trace);
  } catch (error) {
    deps.logger.error('run could not be started; releasing its hold', { runId: id, err: String(error) });
    await releaseHold(deps, run, inserted);
    throw internal();
  }
  return { id };
}

export function insufficientDetail(availableMicrousd: number, heldMicrousd: number): InsufficientBalanceDetail {
  const availableUsd = microsToUsdString(availableMicrousd);
  const neededUsd = microsToUsdString(RESERVATION_MICROUSD);
  return {
    error: 'insufficient_balance',
    message: `Insufficient balance: $${availableUsd} available, $${neededUsd} must be reserved to start a search. Top up or wait for a running search to finish.`,
    availableMicrousd,
    availableUsd,
    heldMicrousd,
    neededMicrousd: RESERVATION_MICROUSD,
    neededUsd,
  };
}

function baseDoc(deps: AcceptDeps, account: AccountDoc, id: string, body: CreateSearchRequest, now: number): RunDoc {
  const nowIso = new Date(now).toISOString();
  const trace: Record<string, string> = {};
  propagation.inject(context.active(), trace);
  return {
    id,
    accountId: account.id,
    query: body.q,
    target: body.target ?? 50,
    speed: body.speed === 'fast' ? 'fast' : 'advanced',
    relax: body.relax ?? true,
    sites: body.sites ?? '',
    status: 'running',
    where: 'queued',
    spendMicrousd: 0,
    holdMicrousd: 0,
    chargeMicrousd: null,
    settled: false,
    usdDisplay: microsToUsdDisplay(0),
    stopReason: null,
    deadlineAt: new Date(now + deps.config.LEADFINDER_RUN_DEADLINE_S * 1000).toISOString(),
    createdAt: nowIso,
    updatedAt: nowIso,
    finishedAt: null,
    result: null,
    lease: null,
    started: false,
    trace,
    ...(body.max_usd_per_row === undefined ? {} : { maxMicrousdPerRow: usdToMicros(body.max_usd_per_row) }),
    // Additive request flags, stored only when asked for so today's runs look as they did.
    ...(body.near_misses === true ? { nearMisses: true as const } : {}),
    ...(body.keep_unclear === true ? { keepUnclear: true as const } : {}),
  };
}

/** The terminal `error` row of a 402: no events, no hold, nothing charged. */
async function writeRefusalRow(deps: AcceptDeps, base: RunDoc): Promise<void> {
  try {
    await deps.store.runs.insert({
      ...base,
      status: 'error',
      where: 'refused: insufficient balance',
      chargeMicrousd: 0,
      settled: true,
      finishedAt: base.createdAt,
    });
  } catch (error) {
    // The refusal stands either way; no money moved.
    deps.logger.error('refusal row could not be written', { runId: base.id, err: String(error) });
  }
}

/**
 * Give the hold back (charge 0) when the run never reached the coordinator, the way every run ends
 * (billing.endRun: terminal, then settled with its ledger entries). A run whose insert failed has no
 * record to finish: only its hold is settled.
 */
async function releaseHold(deps: AcceptDeps, run: RunDoc, inserted: boolean): Promise<void> {
  const finishedAt = new Date(deps.clock.now()).toISOString();
  try {
    await deps.billing.endRun(run, null, {
      status: 'error',
      where: run.where,
      spendMicrousd: 0,
      chargeMicrousd: 0,
      usdDisplay: run.usdDisplay,
      stopReason: null,
      result: null,
      finishedAt,
    }, { recorded: inserted });
  } catch (error) {
    // Still running (the finish failed): the reaper ends it at its deadline and settles it then.
    deps.logger.error('hold could not be released', { runId: run.id, inserted, err: String(error) });
  }
}
