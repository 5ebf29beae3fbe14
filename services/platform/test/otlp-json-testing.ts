/** Test support for the OTLP/JSON encoder's tests: compare its output with the official serializer's. */

const DEFAULT_OMITTED = new Set(['attributes', 'events', 'links']);

/** Drops what proto3 JSON may omit at its default, where the official encoder writes it anyway. */
export function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutDefaults(v));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (DEFAULT_OMITTED.has(k) && Array.isArray(v) && v.length === 0) continue;
      if (/^dropped\w*Count$/.test(k) && v === 0) continue;
      if (['version', 'schemaUrl', 'traceState'].includes(k) && v === '') continue;
      out[k] = withoutDefaults(v);
    }
    return out;
  }
  return value;
}
