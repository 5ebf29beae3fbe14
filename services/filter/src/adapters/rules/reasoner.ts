import { InvalidArgumentError } from '@leadfinder/platform';
import type { ReasonerUsage } from '@leadfinder/wire';
import type { Reasoner } from '../../ports/reasoner.js';
import { warmGazetteer } from '../../domain/places.js';
import { specOf, type FilterSpec } from '../../domain/spec.js';
import { extractCandidates } from './extract.js';
import { buildPlan, nextQueries } from './plan.js';
import { relaxFilter } from './relax.js';
import { screenHits } from './screen.js';
import { verifyCandidate } from './verify.js';

const NO_USAGE: ReasonerUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };

function parseNow(now: string): Date {
  const at = new Date(now);
  if (Number.isNaN(at.getTime())) throw new InvalidArgumentError(`not an ISO time: "${now}"`, 'now');
  return at;
}

/**
 * The embedded reasoner: keyword cues, date rules and passage matching. Offline, deterministic, free,
 * and it never invents — every name and quote is cut from a page.
 */
export function createRuleReasoner(): Reasoner {
  warmGazetteer();
  return {
    mode: 'rules',
    async plan(request) {
      return { plan: buildPlan(request.query, parseNow(request.now), request.sites), usage: NO_USAGE };
    },
    async queries(request) {
      return { queries: nextQueries(request.plan, request.used, request.productiveSites ?? []), usage: NO_USAGE };
    },
    async screen(request) {
      return { scores: screenHits(request.plan, request.hits), usage: NO_USAGE };
    },
    async extract(request) {
      return { candidates: extractCandidates(request.plan, request.page, request.round), usage: NO_USAGE };
    },
    async verify(request) {
      return { verdict: verifyCandidate(request.plan, request.filter, request.candidate, request.pages), usage: NO_USAGE };
    },
    async relax(request) {
      // Widening an open range needs the run start, which the planner stored in the spec.
      return { filter: relaxFilter(request.filter, relaxNow(specOf(request.filter))), usage: NO_USAGE };
    },
  };
}

function relaxNow(spec: FilterSpec | null): Date {
  const asOf = spec && 'asOf' in spec && spec.asOf !== undefined ? Date.parse(spec.asOf) : Number.NaN;
  return Number.isNaN(asOf) ? new Date() : new Date(asOf);
}
