/**
 * Run work dispatch and stop flags. Adapters: in-process (embedded), and JetStream (a work-queue stream
 * `RUN_WORK`, the lease being the unacked message kept alive with in-progress acks; stop flags in a KV
 * bucket). The store's run lease (RunStore.claim) is the fencing authority; the message is dispatch.
 */
export interface WorkItem {
  runId: string;
  /** W3C trace context and other headers carried with the message. */
  headers: Record<string, string>;
  /** 1 on first delivery; more after a consumer died without acking. */
  deliveryCount: number;
  /** Keep the dispatch lease alive (JetStream in-progress ack). */
  working(): Promise<void>;
  /** Done with it; never redeliver. */
  ack(): Promise<void>;
  /** Give it back for redelivery after `delayMs`. */
  nak(delayMs?: number): Promise<void>;
}

export interface WorkSubscription extends AsyncIterable<WorkItem> {
  stop(): Promise<void>;
}

export interface WorkQueue {
  enqueue(runId: string, headers: Record<string, string>): Promise<void>;
  /** Deliveries for this consumer; each item must be acked or nak'ed. `ackWaitMs` is the dispatch lease. */
  consume(options: { ackWaitMs: number; maxInFlight: number }): WorkSubscription;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StopFlags {
  /** Raise the run's stop flag; raising twice is harmless. */
  raise(runId: string): Promise<void>;
  isRaised(runId: string): Promise<boolean>;
  /**
   * Resolves true when the flag is raised (at once if it already was), false when `signal` aborts or the
   * flags close first. The answer is the wait's own: a raise seen as it happens may not be readable yet.
   */
  wait(runId: string, signal: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}
