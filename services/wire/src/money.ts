/** Money is integer micro-USD everywhere; these are the only conversions to and from text and USD. */
export const MICROS_PER_USD = 1_000_000;
export const RESERVATION_MICROUSD = 5_000_000;

/** Parse a USD amount given as JSON number or decimal string into micro-USD, exactly (no float sums). */
export function usdToMicros(value: number | string): number {
  const text = typeof value === 'number' ? value.toFixed(6) : value.trim();
  const match = /^(-)?(\d+)(?:\.(\d{0,6})\d*)?$/.exec(text);
  if (!match) throw new RangeError(`not a USD amount: ${String(value)}`);
  const whole = Number(match[2]);
  const frac = Number((match[3] ?? '').padEnd(6, '0'));
  const micros = whole * MICROS_PER_USD + frac;
  if (!Number.isSafeInteger(micros)) throw new RangeError(`USD amount out of range: ${String(value)}`);
  return match[1] ? -micros : micros;
}

/** "4.99" style: two decimals, truncated toward zero so a shown balance is never more than real. */
export function microsToUsdString(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const cents = Math.floor(abs / 10_000);
  return `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** `usdDisplay`: "$" then the amount with 2 to 4 decimals ("$0.00", "$0.0123", "$1.25"). */
export function microsToUsdDisplay(micros: number): string {
  const tenThousandths = Math.round(Math.abs(micros) / 100);
  let frac = String(tenThousandths % 10_000).padStart(4, '0').replace(/0+$/, '');
  frac = frac.padEnd(2, '0');
  return `${micros < 0 ? '-' : ''}$${Math.floor(tenThousandths / 10_000)}.${frac}`;
}

/** The `cost.usd` JSON number: exact to 6 decimals. */
export function microsToUsdNumber(micros: number): number {
  return Number((micros / MICROS_PER_USD).toFixed(6));
}
