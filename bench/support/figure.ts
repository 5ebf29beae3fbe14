/** What every figure module exports, and the row it reports for the table and bench/results.json. */

export interface BenchContext {
  /** `--quick`: shorter durations and fewer samples (numbers are then indicative only). */
  quick: boolean;
  /** NATS and MongoDB/FerretDB for the distributed rows; null prints "skipped (no server)". */
  natsUrl: string | null;
  mongoUrl: string | null;
  /** Progress line on stderr (the table goes to stdout). */
  log(message: string): void;
}

export type Verdict = 'pass' | 'FAIL' | 'report' | 'skipped' | 'error';

export interface FigureRow {
  /** Figure name as in the table, e.g. "POST /v1/searches". */
  figure: string;
  /** Which set-up: embedded, distributed (FerretDB + NATS), … */
  setup: string;
  /** The measured figures, human-readable. */
  result: string;
  /** The goal it is held to ("report" when there is none). */
  goal: string;
  verdict: Verdict;
  /** Raw numbers for results.json. */
  data?: Record<string, unknown>;
}

export interface Figure {
  /** Short id used by `--only`. */
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<FigureRow[]>;
}

export function verdict(ok: boolean): Verdict {
  return ok ? 'pass' : 'FAIL';
}

export function skippedRow(figure: string, setup: string, goal: string, why = 'skipped (no server)'): FigureRow {
  return { figure, setup, result: why, goal, verdict: 'skipped' };
}

export function errorRow(figure: string, setup: string, goal: string, error: unknown): FigureRow {
  const message = error instanceof Error ? error.message : String(error);
  return { figure, setup, result: `failed: ${message.replace(/\s+/g, ' ').trim().slice(0, 200)}`, goal, verdict: 'error', data: { error: message } };
}
