import { MongoClient } from 'mongodb';
import { UnavailableError } from '../../errors.js';

/** Command monitoring hooks (tests count round trips and bytes, the bench times writes). */
export interface MongoCommandHooks {
  /** Called with each command sent to the server. */
  onCommand?: (command: { name: string; collection: string; requestId: number; bytes: number; text: string }) => void;
  /** Called when a command has been answered (or failed), with the same requestId. */
  onCommandDone?: (command: { requestId: number; durationMs: number; failed: boolean }) => void;
}

export interface MongoConnectOptions extends MongoCommandHooks {
  /** mongodb:// URL of a MongoDB or FerretDB server. */
  url: string;
  /** @default 5000 */
  serverSelectionTimeoutMs?: number;
}

/**
 * One connected client (one connection pool) for the stores of a process: the composition root opens it
 * once and hands it to the run store, the idempotency store and the webhook store, and closes it after
 * them. Connection failures are UnavailableError.
 */
export async function connectMongo(options: MongoConnectOptions): Promise<MongoClient> {
  const { onCommand, onCommandDone } = options;
  const client = new MongoClient(options.url, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000,
    ...(onCommand || onCommandDone ? { monitorCommands: true } : {}),
  });
  if (onCommand) {
    client.on('commandStarted', (e) => {
      const text = JSON.stringify(e.command);
      const collection = String((e.command as Record<string, unknown>)[e.commandName] ?? '');
      onCommand({ name: e.commandName, collection, requestId: e.requestId, bytes: text.length, text });
    });
  }
  if (onCommandDone) {
    client.on('commandSucceeded', (e) => onCommandDone({ requestId: e.requestId, durationMs: e.duration, failed: false }));
    client.on('commandFailed', (e) => onCommandDone({ requestId: e.requestId, durationMs: e.duration, failed: true }));
  }
  try {
    await client.connect();
  } catch (cause) {
    throw new UnavailableError('mongodb', `cannot connect to MongoDB: ${(cause as Error).message}`, { cause });
  }
  return client;
}

/**
 * The client a store works on: the one it was given (its owner closes it), else one of its own made
 * from `url` (closed with the store).
 */
export async function storeClient(options: { client?: MongoClient; url?: string; serverSelectionTimeoutMs?: number } & MongoCommandHooks): Promise<{ client: MongoClient; close(): Promise<void> }> {
  if (options.client) return { client: options.client, close: async () => undefined };
  if (!options.url) throw new Error('a MongoDB store needs a client or a url');
  const client = await connectMongo({ ...options, url: options.url });
  return { client, close: () => client.close() };
}
