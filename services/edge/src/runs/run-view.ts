import type { RunDoc } from '@leadfinder/platform';
import { isTerminal, microsToUsdDisplay, type RunListItem, type RunRecord } from '@leadfinder/wire';

/**
 * Whether callers see the run as ended. The operator contract has a terminal run's hold released "in the
 * same step that makes a run terminal", but ending is two writes (billing.endRun: the fenced finish, then
 * the settlement; no MongoDB-wire server here commits two documents at once). So the API shows a run as
 * ended once it is also settled: in between (milliseconds, or until the reconciler finishes a settlement
 * a crash cut short) it still reads as running, and no caller sees a terminal run whose hold is held.
 */
export function hasEnded(run: RunDoc): boolean {
  return isTerminal(run.status) && run.settled;
}

/** The status callers see: the terminal one once the run has ended (see hasEnded), else `running`. */
export function shownStatus(run: RunDoc): RunListItem['status'] {
  return hasEnded(run) ? run.status : 'running';
}

/** The public run record (spec §2.1): the stored document minus money internals, lease and trace. */
export function toRunRecord(run: RunDoc): RunRecord {
  return { ...toRunListItem(run), result: hasEnded(run) ? run.result : null };
}

/** A list element: every run field except `result` (spec §4.2). */
export function toRunListItem(run: RunDoc): RunListItem {
  const ended = hasEnded(run);
  return {
    id: run.id,
    status: shownStatus(run),
    query: run.query,
    where: run.where,
    usdDisplay: usdDisplayOf(run),
    stopReason: ended ? run.stopReason : null,
    deadlineAt: run.deadlineAt,
    createdAt: run.createdAt,
    finishedAt: ended ? run.finishedAt : null,
    target: run.target,
    speed: run.speed,
    relax: run.relax,
    sites: run.sites,
  };
}

/**
 * The charged figure to show when polling (spec §2.1). A terminal run's is the charge written with it
 * (also while its settlement is under way); a running run's follows its spend, which the coordinator
 * persists right before each `cost` event.
 */
function usdDisplayOf(run: RunDoc): string {
  if (isTerminal(run.status)) return run.usdDisplay;
  return microsToUsdDisplay(Math.min(run.spendMicrousd, run.holdMicrousd));
}

const RUN_ID = /^[0-9a-f]{32}$/;

/** The caller's run, or null for a foreign, missing or malformed id (all answered identically). */
export async function findOwnRun(
  runs: { get(id: string): Promise<RunDoc | null> },
  accountId: string,
  id: string,
): Promise<RunDoc | null> {
  if (!RUN_ID.test(id)) return null;
  const run = await runs.get(id);
  return run && run.accountId === accountId ? run : null;
}
