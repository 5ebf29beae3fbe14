import { pino, type Logger as PinoLogger } from 'pino';
import { trace } from '@opentelemetry/api';

/** A narrow logger: message first, structured fields second. Never pass secrets or key values. */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** JSON logs (pino) with the active trace and span ids on every line. */
export function createLogger(options: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const base = pino(
    {
      level: options.level ?? 'info',
      name: options.name ?? 'leadfinder',
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const ctx = span.spanContext();
        return { trace_id: ctx.traceId, span_id: ctx.spanId };
      },
      redact: { paths: ['authorization', 'apiKey', 'key', 'token', 'sessionToken', '*.authorization'], censor: '[redacted]' },
    },
    options.destination as pino.DestinationStream | undefined,
  );
  return wrap(base);
}

function wrap(p: PinoLogger): Logger {
  return {
    debug: (m, meta) => p.debug(meta ?? {}, m),
    info: (m, meta) => p.info(meta ?? {}, m),
    warn: (m, meta) => p.warn(meta ?? {}, m),
    error: (m, meta) => p.error(meta ?? {}, m),
    child: (b) => wrap(p.child(b)),
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};
