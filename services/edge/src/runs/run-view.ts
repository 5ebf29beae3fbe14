import type { RunDoc } from '@leadfinder/platform';
import { isTerminal, microsToUsdDisplay, type RunListItem, type RunRecord } from '@leadfinder/wire';

/** The public run record (spec §2.1): the stored document minus money internals, lease and trace. */
export function toRunRecord(run: RunDoc): RunRecord {
  return { ...toRunListItem(run), result: run.result };
}

/** A list element: every run field except `result` (spec §4.2). */
export function toRunListItem(run: RunDoc): RunListItem {
  return {
    id: run.id,
    status: run.status,
    query: run.query,
    where: run.where,
    usdDisplay: usdDisplayOf(run),
    stopReason: run.stopReason,
    deadlineAt: run.deadlineAt,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    target: run.target,
    speed: run.speed,
    relax: run.relax,
    sites: run.sites,
  };
}

/**
 * The charged figure to show when polling (spec §2.1). A terminal run's is the charge written with it;
 * a running run's follows its spend, which the coordinator persists right before each `cost` event.
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
