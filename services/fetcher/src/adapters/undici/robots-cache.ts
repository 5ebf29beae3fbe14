import robotsParser from 'robots-parser';
import type { Logger } from '@leadfinder/platform';
import { untilAborted } from './outcome.js';

export const ROBOTS_USER_AGENT = 'leadfinder';

type Robots = ReturnType<typeof robotsParser>;

/** Reads `url` as text with no robots check of its own; null when there is no usable answer. */
export type RobotsDownloader = (url: string) => Promise<{ status: number; body: string } | null>;

export interface RobotsCache {
  /** True when robots.txt of the URL's origin lets `leadfinder` fetch it. */
  allowed(url: string, signal: AbortSignal): Promise<boolean>;
}

/**
 * One robots.txt per origin, fetched once and kept for the process lifetime. A missing file (4xx) or
 * an unreachable/failing one (5xx, network) allows everything: fail-open, since a page we then cannot
 * reach fails on its own, and a flaky robots.txt should not blank a run.
 */
export function createRobotsCache(download: RobotsDownloader, logger: Logger): RobotsCache {
  const byOrigin = new Map<string, Promise<Robots | null>>();

  const load = (origin: string): Promise<Robots | null> => {
    const robotsUrl = `${origin}/robots.txt`;
    return download(robotsUrl).then(
      (res) => (res && res.status >= 200 && res.status < 300 ? robotsParser(robotsUrl, res.body) : null),
      (err: unknown) => {
        logger.debug('robots.txt unavailable, allowing', { origin, err: String(err) });
        return null;
      },
    );
  };

  return {
    async allowed(url, signal) {
      const origin = new URL(url).origin;
      let entry = byOrigin.get(origin);
      if (!entry) byOrigin.set(origin, (entry = load(origin)));
      const robots = await untilAborted(entry, signal);
      return robots?.isAllowed(url, ROBOTS_USER_AGENT) ?? true;
    },
  };
}
