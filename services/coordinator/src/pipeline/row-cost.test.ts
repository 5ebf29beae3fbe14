import { describe, expect, it } from 'vitest';
import { RowCostMeter } from './row-cost.js';

describe('RowCostMeter', () => {
  it('per row and projected to target; null with no row; the spend itself once target is met', () => {
    const m = new RowCostMeter(10, undefined);
    expect(m.fields(12_000, 0)).toEqual({ per_row_usd: null, projected_usd: null });
    expect(m.fields(12_000, 4)).toEqual({ per_row_usd: 0.003, projected_usd: 0.03 });
    expect(m.fields(12_000, 10)).toEqual({ per_row_usd: 0.0012, projected_usd: 0.012 });
  });

  it('marginal cost: each rise shares its spend among the new rows; the last 3 rows plus spend since', () => {
    const m = new RowCostMeter(50, 5_000);
    m.observe(10_000, 0);
    expect(m.marginalMicrousd(10_000, 0)).toBeNull();
    m.observe(12_000, 4); // 3,000 each
    expect(m.marginalMicrousd(12_000, 4)).toBe(3_000);
    expect(m.exceeded(12_000, 4)).toBe(false);
    m.observe(15_000, 5); // the 5th row cost 3,000; last 3: 3,000 × 3
    expect(m.marginalMicrousd(15_000, 5)).toBe(3_000);
    m.observe(30_000, 6); // the 6th cost 15,000: (3,000 + 3,000 + 15,000) / 3
    expect(m.marginalMicrousd(30_000, 6)).toBe(7_000);
    expect(m.exceeded(30_000, 6)).toBe(true);
  });

  it('spending without new rows raises it; fewer than 3 rows average over those; no limit never stops', () => {
    const m = new RowCostMeter(50, 5_000);
    m.observe(4_000, 1);
    expect(m.exceeded(4_000, 1)).toBe(false);
    expect(m.marginalMicrousd(6_000, 1)).toBe(6_000);
    expect(m.exceeded(6_000, 1)).toBe(true);
    expect(new RowCostMeter(50, undefined).exceeded(1_000_000, 1)).toBe(false);
  });
});
