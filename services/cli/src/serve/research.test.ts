import { describe, expect, it } from 'vitest';
import type { FilterPort } from '@leadfinder/platform';
import { filterOnFirstUse } from './research.js';

const METHODS = ['plan', 'queries', 'screen', 'extract', 'verify', 'relax'] as const;

/** A filter that answers each call with the method's name and what it was given. */
function echoFilter(): FilterPort {
  const port: Record<string, unknown> = {};
  for (const method of METHODS) port[method] = async (request: unknown, options: unknown) => ({ method, request, options });
  return port as unknown as FilterPort;
}

describe('filterOnFirstUse', () => {
  it('loads nothing until the first call, then loads once however many calls come at once', async () => {
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const filter = filterOnFirstUse(async () => {
      loads++;
      await gate;
      return echoFilter();
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(loads).toBe(0);

    const calls = [filter.plan({} as never, {} as never), filter.verify({} as never, {} as never), filter.screen({} as never, {} as never)];
    release();
    await Promise.all(calls);
    await filter.relax({} as never, {} as never);
    expect(loads).toBe(1);
  });

  it('hands every call, with its request and options, to the loaded filter and returns its answer', async () => {
    const filter = filterOnFirstUse(async () => echoFilter());
    const options = { signal: new AbortController().signal };
    for (const method of METHODS) {
      const request = { for: method };
      const call = filter[method] as (r: unknown, o: unknown) => Promise<unknown>;
      await expect(call.call(filter, request, options)).resolves.toEqual({ method, request, options });
    }
  });

  it('fails each call with the load error when the filter cannot be loaded', async () => {
    const filter = filterOnFirstUse(async () => {
      throw new Error('no such module');
    });
    await expect(filter.plan({} as never, {} as never)).rejects.toThrow('no such module');
    await expect(filter.verify({} as never, {} as never)).rejects.toThrow('no such module');
  });
});
