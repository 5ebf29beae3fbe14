import { z } from 'zod';
import { FinalEvent } from './events.js';

export const TerminalStatus = z.enum(['done', 'stopped', 'budget_exhausted', 'interrupted', 'error']);
export type TerminalStatus = z.infer<typeof TerminalStatus>;
export const RunStatus = z.enum(['running', 'done', 'stopped', 'budget_exhausted', 'interrupted', 'error']);
export type RunStatus = z.infer<typeof RunStatus>;
export const TERMINAL_STATUSES: readonly RunStatus[] = TerminalStatus.options;
export function isTerminal(status: RunStatus): status is TerminalStatus {
  return status !== 'running';
}

export const Speed = z.enum(['fast', 'advanced']);
export type Speed = z.infer<typeof Speed>;

/** The public run record (spec §2.1, operator contract "Run record and rows"). */
export const RunRecord = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/),
  status: RunStatus,
  query: z.string(),
  result: FinalEvent.nullable(),
  /** How far the run got: `queued`, `planning`, `round 2 · searching`, `round 2 · filter 3 of 4`, … */
  where: z.string(),
  usdDisplay: z.string(),
  stopReason: z.literal('deadline').nullable(),
  deadlineAt: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  target: z.number().int(),
  speed: Speed,
  relax: z.boolean(),
  sites: z.string(),
});
export type RunRecord = z.infer<typeof RunRecord>;
export const RunListItem = RunRecord.omit({ result: true });
export type RunListItem = z.infer<typeof RunListItem>;
export const RunList = z.object({ runs: z.array(RunListItem) });
export type RunList = z.infer<typeof RunList>;
