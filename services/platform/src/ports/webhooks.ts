import type { WebhookDeliveryStatus, WebhookEventType } from '@leadfinder/wire';

/**
 * Storage of signed webhooks: an account's registered endpoints and its request-webhook signing secret,
 * one subscription per run that has somewhere to send, and one record per delivery. Deliveries are
 * created by a unique insert of a deterministic id (the `webhook-id`), so a run watched twice (its watcher
 * died) never makes a second delivery of one event; a delivery is changed by one sender at a time.
 */
export interface WebhookEndpointDoc {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[];
  /** `whsec_…`; kept to sign, shown only when created or rotated. */
  secret: string;
  /** The secret before the last rotation, still signing (next to the new one) until `previousUntil`. */
  previous?: RetiringSecret | null;
  createdAt: string;
}

/** A rotated-out secret and until when (epoch ms, injected clock) deliveries are signed with it too. */
export interface RetiringSecret {
  secret: string;
  until: number;
}

/** A signing secret with the one it replaced while that one still signs. */
export interface SigningSecret {
  secret: string;
  previous: RetiringSecret | null;
}

/** Where a run's events go, fixed when it was accepted. */
export interface WebhookRunDoc {
  runId: string;
  accountId: string;
  /** The request's own `webhook`, signed with the account's request secret. */
  request: { url: string; events: WebhookEventType[] } | null;
  /** The account's endpoints at acceptance. */
  endpointIds: string[];
  createdAt: string;
  /** Set once every delivery of the run has been created (the run is terminal). */
  finishedAt: string | null;
}

export interface WebhookDeliveryDoc {
  /** `msg_…`, the `webhook-id` of every attempt. */
  id: string;
  accountId: string;
  runId: string;
  endpointId: string | null;
  url: string;
  type: WebhookEventType;
  /** The exact JSON body sent (and signed) on every attempt. */
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  /** Epoch ms (injected clock) after which no attempt is made: createdAt + 24 h. */
  expiresAt: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

export type WebhookDeliveryPatch = Partial<Pick<WebhookDeliveryDoc, 'status' | 'attempts' | 'lastError' | 'nextAttemptAt' | 'deliveredAt'>>;

export interface WebhookStore {
  endpoints: {
    insert(endpoint: WebhookEndpointDoc): Promise<void>;
    listForAccount(accountId: string): Promise<WebhookEndpointDoc[]>;
    get(id: string): Promise<WebhookEndpointDoc | null>;
    /** False when it is not the account's. */
    delete(accountId: string, id: string): Promise<boolean>;
    /** False when it is not the account's. */
    setSecret(accountId: string, id: string, secret: string, previous: RetiringSecret | null): Promise<boolean>;
  };
  /** The account's secret for request webhooks; `fresh` is stored and returned when it has none yet. */
  requestSecret(accountId: string, fresh: string): Promise<SigningSecret>;
  setRequestSecret(accountId: string, secret: SigningSecret): Promise<void>;
  runs: {
    insert(run: WebhookRunDoc): Promise<void>;
    get(runId: string): Promise<WebhookRunDoc | null>;
    markFinished(runId: string, at: string): Promise<void>;
    /** Subscriptions not finished yet (an embedded restart watches them again). */
    listOpen(): Promise<WebhookRunDoc[]>;
  };
  deliveries: {
    /** Unique insert: false when a delivery with this id exists already. */
    create(delivery: WebhookDeliveryDoc): Promise<boolean>;
    get(id: string): Promise<WebhookDeliveryDoc | null>;
    update(id: string, patch: WebhookDeliveryPatch): Promise<void>;
    /** The account's deliveries, newest first, optionally of one run. */
    listForAccount(accountId: string, options: { runId?: string; limit: number }): Promise<WebhookDeliveryDoc[]>;
    /** Pending deliveries (an embedded restart queues them again). */
    listPending(): Promise<WebhookDeliveryDoc[]>;
  };
  close(): Promise<void>;
}
