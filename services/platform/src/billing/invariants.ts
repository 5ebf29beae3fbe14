import { InternalError } from '../errors.js';
import type { Store } from '../ports/store.js';

/**
 * The money invariants of one account at rest (no reserve or settle in flight), as a list of
 * violations (empty when all hold):
 * - balance = Σtopup − Σcharge, and balance ≥ 0;
 * - held = Σhold − Σrelease = the sum of the account's open holds;
 * - available = balance − held ≥ 0;
 * - every open hold has its `hold` entry and no `charge`/`release` yet; every settled hold has both.
 */
export async function checkLedgerInvariants(store: Store, accountId: string): Promise<string[]> {
  const account = await store.accounts.get(accountId);
  if (!account) return [`account ${accountId} does not exist`];
  const entries = await store.ledger.list(accountId);
  const holds = await store.accounts.listHolds(accountId);
  const sum = (kind: string) => entries.filter((e) => e.kind === kind).reduce((n, e) => n + e.micros, 0);
  const byKey = new Set(entries.map((e) => e.key));
  const violations: string[] = [];
  const expect = (what: string, actual: number, expected: number) => {
    if (actual !== expected) violations.push(`${what}: ${actual}, expected ${expected}`);
  };
  const { balanceMicrousd: balance, heldMicrousd: held, availableMicrousd: available } = account;
  expect('balance vs Σtopup − Σcharge', balance, sum('topup') - sum('charge'));
  expect('held vs Σhold − Σrelease', held, sum('hold') - sum('release'));
  expect('held vs open holds', held, Object.values(holds).reduce((n, m) => n + m, 0));
  expect('available vs balance − held', available, balance - held);
  if (balance < 0) violations.push(`balance is negative: ${balance}`);
  if (available < 0) violations.push(`available is negative: ${available}`);
  for (const runId of Object.keys(holds)) {
    if (!byKey.has(`hold:${runId}`)) violations.push(`open hold of run ${runId} has no ledger hold entry`);
    if (byKey.has(`release:${runId}`)) violations.push(`open hold of run ${runId} already has a release entry`);
  }
  for (const e of entries.filter((x) => x.kind === 'hold')) {
    const open = e.runId !== null && e.runId in holds;
    if (!open && !(byKey.has(`charge:${e.runId}`) && byKey.has(`release:${e.runId}`))) {
      violations.push(`closed hold of run ${e.runId} lacks its charge or release entry`);
    }
  }
  return violations;
}

/** Throws (listing every violation) unless `checkLedgerInvariants` finds none. */
export async function assertLedgerInvariants(store: Store, accountId: string): Promise<void> {
  const violations = await checkLedgerInvariants(store, accountId);
  if (violations.length > 0) {
    throw new InternalError(`ledger invariants of account ${accountId} violated:\n- ${violations.join('\n- ')}`);
  }
}
