import type { RunDoc } from '@leadfinder/platform';
import {
  MAX_EXCLUDE_ENTRIES, MAX_EXPECTED_ENTRIES, entityIdentity, type CreateSearchRequest, type EntityIdentity, type RunExclusions,
} from '@leadfinder/wire';
import { badRequest } from '../http/errors.js';
import { findOwnRun } from './run-view.js';

/** The rows `exclude.runs` may bring in together: what one run document carries without growing unbounded. */
export const MAX_EXCLUDED_ROWS = 50_000;

/**
 * The request's `exclude` and `expected`, checked and resolved before anything is held: the entry caps
 * (400), and each run of `exclude.runs` read back as the identities of the rows it returned. A run id the
 * account does not own is treated exactly like one that does not exist: it excludes nothing, and the
 * request is accepted either way, so an answer never tells whether another account's run exists (and a
 * schema-valid body is never refused for naming a run). `final.excluded` shows what was excluded. A run
 * still going contributes the rows of its `final` only, so none yet.
 */
export async function resolveExclusions(
  runs: { get(id: string): Promise<RunDoc | null> },
  accountId: string,
  body: Pick<CreateSearchRequest, 'exclude' | 'expected'>,
): Promise<{ exclude?: RunExclusions; expected?: string[] }> {
  const out: { exclude?: RunExclusions; expected?: string[] } = {};
  if (body.expected !== undefined) {
    if (body.expected.length > MAX_EXPECTED_ENTRIES) {
      throw badRequest(`expected has ${body.expected.length} entries; at most ${MAX_EXPECTED_ENTRIES} are allowed.`);
    }
    out.expected = [...body.expected];
  }
  const exclude = body.exclude;
  if (exclude === undefined) return out;
  const names = exclude.names ?? [];
  const domains = exclude.domains ?? [];
  const runIds = [...new Set(exclude.runs ?? [])];
  const total = names.length + domains.length + (exclude.runs?.length ?? 0);
  if (total > MAX_EXCLUDE_ENTRIES) {
    throw badRequest(`exclude has ${total} entries (names, domains and runs together); at most ${MAX_EXCLUDE_ENTRIES} are allowed.`);
  }
  const entities: EntityIdentity[] = [];
  for (const id of runIds) {
    const run = await findOwnRun(runs, accountId, id);
    if (!run) continue;
    for (const row of run.result?.table ?? []) {
      entities.push(entityIdentity({ name: row.name, entityType: row.entity_type, domain: row.domain ?? null, urls: row.source_urls }));
    }
    if (entities.length > MAX_EXCLUDED_ROWS) {
      throw badRequest(`exclude.runs returned more than ${MAX_EXCLUDED_ROWS} rows together; name fewer runs.`);
    }
  }
  out.exclude = { names: [...names], domains: [...domains], runs: runIds, entities };
  return out;
}
