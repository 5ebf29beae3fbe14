import type { MongoClient } from 'mongodb';
import { storeClient } from './client.js';
import type { SigningSecret, WebhookDeliveryDoc, WebhookEndpointDoc, WebhookRunDoc, WebhookStore } from '../../ports/webhooks.js';

export interface MongoWebhookStoreOptions {
  /** mongodb:// URL; ignored when `client` is given. */
  url?: string;
  /** A connected client shared with the process's other stores (connectMongo); its owner closes it. */
  client?: MongoClient;
  dbName: string;
  /** @default 5000 */
  serverSelectionTimeoutMs?: number;
}

const DUPLICATE_KEY = 11000;
const isDuplicateKey = (e: unknown) => (e as { code?: number } | null)?.code === DUPLICATE_KEY;
const withoutId = <T extends { _id: string }>({ _id, ...rest }: T): Omit<T, '_id'> => rest;

/**
 * Webhook records on a MongoDB-wire server (`webhook_endpoints`, `webhook_secrets`, `webhook_runs`,
 * `webhook_deliveries`). Deliveries and subscriptions are created by inserts with a unique `_id` (atomic
 * on FerretDB too); the in-place updates (a delivery's attempt, a rotated secret) have one writer at a
 * time, the delivery's sender or the account's own request, so FerretDB's unisolated updates lose nothing.
 */
export async function createMongoWebhookStore(options: MongoWebhookStoreOptions): Promise<WebhookStore> {
  const { client, close } = await storeClient(options);
  const db = client.db(options.dbName);
  const endpoints = db.collection<WebhookEndpointDoc & { _id: string }>('webhook_endpoints');
  const secrets = db.collection<SigningSecret & { _id: string }>('webhook_secrets');
  const runs = db.collection<WebhookRunDoc & { _id: string }>('webhook_runs');
  const deliveries = db.collection<WebhookDeliveryDoc & { _id: string }>('webhook_deliveries');
  await Promise.all([
    endpoints.createIndex({ accountId: 1 }),
    runs.createIndex({ finishedAt: 1 }),
    deliveries.createIndex({ accountId: 1, createdAt: -1 }),
    deliveries.createIndex({ status: 1 }),
  ]);
  const insertOnce = async (insert: () => Promise<unknown>): Promise<boolean> => {
    try {
      await insert();
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  };

  return {
    endpoints: {
      async insert(endpoint) {
        await endpoints.insertOne({ _id: endpoint.id, ...endpoint });
      },
      listForAccount: async (accountId) => (await endpoints.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray()).map(withoutId),
      get: async (id) => {
        const doc = await endpoints.findOne({ _id: id });
        return doc && withoutId(doc);
      },
      delete: async (accountId, id) => (await endpoints.deleteOne({ _id: id, accountId })).deletedCount > 0,
      setSecret: async (accountId, id, secret, previous) => (await endpoints.updateOne({ _id: id, accountId }, { $set: { secret, previous } })).matchedCount > 0,
    },
    async requestSecret(accountId, fresh) {
      if (await insertOnce(() => secrets.insertOne({ _id: accountId, secret: fresh, previous: null }))) return { secret: fresh, previous: null };
      const { _id, ...kept } = (await secrets.findOne({ _id: accountId }))!;
      return kept;
    },
    async setRequestSecret(accountId, secret) {
      await secrets.replaceOne({ _id: accountId }, secret, { upsert: true });
    },
    runs: {
      async insert(run) {
        await insertOnce(() => runs.insertOne({ _id: run.runId, ...run }));
      },
      get: async (runId) => {
        const doc = await runs.findOne({ _id: runId });
        return doc && withoutId(doc);
      },
      async markFinished(runId, at) {
        await runs.updateOne({ _id: runId, finishedAt: null }, { $set: { finishedAt: at } });
      },
      listOpen: async () => (await runs.find({ finishedAt: null }).toArray()).map(withoutId),
    },
    deliveries: {
      create: (delivery) => insertOnce(() => deliveries.insertOne({ _id: delivery.id, ...delivery })),
      get: async (id) => {
        const doc = await deliveries.findOne({ _id: id });
        return doc && withoutId(doc);
      },
      async update(id, patch) {
        await deliveries.updateOne({ _id: id }, { $set: patch });
      },
      listForAccount: async (accountId, { runId, limit }) =>
        (await deliveries.find({ accountId, ...(runId === undefined ? {} : { runId }) }).sort({ createdAt: -1, _id: 1 }).limit(limit).toArray()).map(withoutId),
      listPending: async () => (await deliveries.find({ status: 'pending' }).toArray()).map(withoutId),
    },
    close,
  };
}
