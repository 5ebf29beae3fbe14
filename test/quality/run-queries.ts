import { isTerminal, type FinalEvent, type RunStatus } from '@leadfinder/wire';

/** What one query came back with from the running service. */
export interface QueryOutcome {
  query: string;
  id: string;
  status: RunStatus;
  /** `result.table` rows, in order (empty when the run ended without a result); `relaxed` names loosened filters. */
  rows: { name: string; relaxed: string[] }[];
  result: FinalEvent | null;
  /** The charged figure, from the run record's `usdDisplay`. */
  chargedUsd: number;
}

interface RunRecord {
  id: string;
  status: RunStatus;
  result: FinalEvent | null;
  usdDisplay: string;
}

/**
 * Starts every query at once through `POST /v1/searches`, then watches the run list (one request for
 * all runs, so polling stays far below the per-credential rate limit) until each is terminal, and reads
 * each finished run's record once.
 */
export async function runQueries(options: {
  url: string;
  apiKey: string;
  queries: readonly { q: string; target: number }[];
  timeoutMs: number;
  pollMs?: number;
}): Promise<QueryOutcome[]> {
  const headers = { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' };
  const ids = await Promise.all(options.queries.map(async ({ q, target }) => {
    const r = await fetch(`${options.url}/v1/searches`, { method: 'POST', headers, body: JSON.stringify({ q, target }) });
    if (r.status !== 202) throw new Error(`POST /v1/searches for "${q}": ${r.status} ${await r.text()}`);
    return ((await r.json()) as { id: string }).id;
  }));

  const deadline = Date.now() + options.timeoutMs;
  const pending = new Set(ids);
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new Error(`${pending.size} of ${ids.length} runs still not terminal after ${options.timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, options.pollMs ?? 500));
    const r = await fetch(`${options.url}/v1/searches`, { headers });
    if (r.status !== 200) throw new Error(`GET /v1/searches: ${r.status} ${await r.text()}`);
    const { runs } = (await r.json()) as { runs: { id: string; status: RunStatus }[] };
    for (const run of runs) if (isTerminal(run.status)) pending.delete(run.id);
  }

  return await Promise.all(ids.map(async (id, i) => {
    const r = await fetch(`${options.url}/v1/searches/${id}`, { headers });
    if (r.status !== 200) throw new Error(`GET /v1/searches/${id}: ${r.status} ${await r.text()}`);
    const run = (await r.json()) as RunRecord;
    return {
      query: options.queries[i]!.q,
      id,
      status: run.status,
      rows: run.result?.table.map((row) => ({ name: row.name, relaxed: row.relaxed ?? [] })) ?? [],
      result: run.result,
      chargedUsd: Number(run.usdDisplay.replace(/^\$/, '')),
    };
  }));
}
