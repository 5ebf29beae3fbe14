import { sleep, type Clock, type EventLog, type Logger } from '@leadfinder/platform';
import type { RunEvent, RunEventBody } from '@leadfinder/wire';

/**
 * Appends a run's events. Each body gets `at` and `runId`; each append carries dedupeId
 * `${runId}:${n}` with n a per-run counter, so a retried append never writes the event twice.
 */
export class RunEmitter {
  private counter = 0;
  constructor(
    private readonly events: EventLog,
    private readonly runId: string,
    private readonly clock: Clock,
    private readonly options: { dedupePrefix?: string; retries?: number } = {},
  ) {}

  async emit(body: RunEventBody): Promise<RunEvent> {
    this.counter += 1;
    const event = { ...body, at: new Date(this.clock.now()).toISOString(), runId: this.runId } as RunEvent;
    const dedupeId = `${this.options.dedupePrefix ?? this.runId}:${this.counter}`;
    await this.retried(() => this.events.append(this.runId, event, dedupeId));
    return event;
  }

  /**
   * Appends the run's end marker, on which event streams close; call it once the run record is
   * terminal. Best effort: when it cannot be written, streams close by the record instead.
   */
  async end(logger: Logger): Promise<void> {
    await this.retried(() => this.events.end(this.runId)).catch((error: unknown) => {
      logger.warn('could not append the run end marker', { runId: this.runId, error: String(error) });
    });
  }

  private async retried(write: () => Promise<number>): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await write();
        return;
      } catch (error) {
        if (attempt >= (this.options.retries ?? 3)) throw error;
        await sleep(100 * 2 ** attempt);
      }
    }
  }
}
