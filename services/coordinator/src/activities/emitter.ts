import { sleep, type Clock, type EventLog } from '@leadfinder/platform';
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
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.events.append(this.runId, event, dedupeId);
        return event;
      } catch (error) {
        if (attempt >= (this.options.retries ?? 3)) throw error;
        await sleep(100 * 2 ** attempt);
      }
    }
  }
}
