/**
 * @leadfinder/cli: the `leadfinder` command and the composition root that starts the service.
 *
 * @example
 * import { startService } from '@leadfinder/cli';
 * const service = await startService(loadConfig(), 'all', createLogger());
 * console.log(service.url);
 * await service.stop();
 */
export { startService } from './serve/serve.js';
export type { RunningService } from './serve/serve.js';
