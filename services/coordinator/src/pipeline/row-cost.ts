import { microsToUsdNumber } from '@leadfinder/wire';

/** Rows the marginal-cost stop looks back over (`max_usd_per_row`). */
export const MARGINAL_COST_ROWS = 3;

/**
 * What the run's rows cost: the `cost` event's `per_row_usd` and `projected_usd`, and the request's
 * marginal-cost stop. Pure: it is told the spend and the row count after each priced step.
 *
 * - `per_row_usd` = spend ÷ rows; null with no row (nothing to divide by).
 * - `projected_usd` = spend × target ÷ rows while rows < target (the run's own yield so far, carried to
 *   `target`), the spend itself once rows ≥ target; null with no row (no yield to project from).
 * - Marginal cost, once the run has r ≥ 1 rows: each time the row count rises, the spend since the previous
 *   rise (or the start) is shared evenly by the rows that came in; with k = min(N, r), the marginal cost is
 *   (the shares of the last k rows + the spend since the last rise) ÷ k. The spend since the last row
 *   counts too, so a run that keeps spending without finding rows sees it rise.
 */
export class RowCostMeter {
  /** Per accepted row, in order, its share of the spend that brought it (microusd). */
  private readonly shares: number[] = [];
  /** Spend when the row count last rose (0: the start). */
  private spendAtLastRise = 0;

  constructor(private readonly target: number, private readonly maxMicrousdPerRow: number | undefined) {}

  /** Records the state after a priced step (rows: accepted rows so far, at most target). */
  observe(spendMicrousd: number, rows: number): void {
    const added = rows - this.shares.length;
    if (added <= 0) return;
    const share = (spendMicrousd - this.spendAtLastRise) / added;
    for (let i = 0; i < added; i += 1) this.shares.push(share);
    this.spendAtLastRise = spendMicrousd;
  }

  /** The `cost` event's additive fields for this spend and row count. */
  fields(spendMicrousd: number, rows: number): { per_row_usd: number | null; projected_usd: number | null } {
    if (rows <= 0) return { per_row_usd: null, projected_usd: null };
    const projected = rows >= this.target ? spendMicrousd : Math.round((spendMicrousd * this.target) / rows);
    return { per_row_usd: microsToUsdNumber(Math.round(spendMicrousd / rows)), projected_usd: microsToUsdNumber(projected) };
  }

  /** Marginal cost per row (microusd) over the last N rows, or null before the first row. */
  marginalMicrousd(spendMicrousd: number, rows: number): number | null {
    if (rows <= 0) return null;
    this.observe(spendMicrousd, rows);
    const k = Math.min(MARGINAL_COST_ROWS, rows);
    const last = this.shares.slice(-k).reduce((sum, share) => sum + share, 0);
    return (last + spendMicrousd - this.spendAtLastRise) / k;
  }

  /** True when the request set `max_usd_per_row` and the marginal cost passes it. */
  exceeded(spendMicrousd: number, rows: number): boolean {
    if (this.maxMicrousdPerRow === undefined) return false;
    const marginal = this.marginalMicrousd(spendMicrousd, rows);
    return marginal !== null && marginal > this.maxMicrousdPerRow;
  }
}
