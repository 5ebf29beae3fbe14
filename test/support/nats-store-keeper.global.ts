import { RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { silentLogger } from '@leadfinder/platform';
import { connectNats } from '@leadfinder/platform/nats';
import type { TestProject } from 'vitest/node';
import { isRunSetup } from './run-setup.js';

/**
 * vitest global setup: keeps one file-backed stream on the shared JetStream test server
 * (LEADFINDER_TEST_NATS_URL) for the whole run. nats-server (2.11) removes an account's store folder in
 * the background once its last stream is deleted ("no op if not empty"), and a stream another test file
 * creates at that moment fails with "error creating store for stream" (mkdir …/$G/streams: no such file
 * or directory). Test files create and delete streams of their own all the time; with this one there the
 * folder is never empty. A deployment never meets it: its streams stay.
 */
const KEEPER = 'LF_TEST_STORE_KEEPER';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const url = process.env.LEADFINDER_TEST_NATS_URL;
  if (!url || !isRunSetup(project)) return;
  const nats = await connectNats({ url, name: 'test-store-keeper', logger: silentLogger });
  try {
    await nats.jsm.streams.add({
      name: KEEPER, subjects: ['lf-test-store-keeper'], storage: StorageType.File, retention: RetentionPolicy.Limits, max_msgs: 1,
    });
  } catch (error) {
    // Kept from an earlier run (a run that ended without its teardown): as good.
    if (!(await nats.jsm.streams.info(KEEPER).catch(() => null))) throw error;
  } finally {
    await nats.close();
  }
  return async () => {
    const closing = await connectNats({ url, name: 'test-store-keeper', logger: silentLogger });
    await closing.jsm.streams.delete(KEEPER).catch(() => undefined);
    await closing.close();
  };
}
