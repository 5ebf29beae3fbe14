// A module-resolution hook for driver-free.test.ts: appends every resolved specifier to the file named
// by LEADFINDER_RESOLVE_LOG, so the test can see which packages an import pulled in.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(process.env.LEADFINDER_RESOLVE_LOG, `${specifier}\t${result.url}\n`);
  return result;
}
