/**
 * @leadfinder/filter: the filter role — turns a query into a research plan and pages into verified,
 * quoted rows. Two reasoners: an embedded rule-based one (offline, never invents) and an
 * OpenAI-compatible chat-completions one.
 *
 * @example
 * import { createFilter, createRuleReasoner } from '@leadfinder/filter';
 * const filter = createFilter({ reasoner: createRuleReasoner(), logger, clock: systemClock });
 * const { plan } = await filter.plan({ query: 'AI startups in Berlin', now: new Date().toISOString(), sites: '' }, { signal });
 */
export { createFilter } from './filter.js';
export { createRuleReasoner } from './adapters/rules/reasoner.js';
export { createOpenAiReasoner } from './adapters/openai/reasoner.js';
export { parsePeriod, statedDates } from './domain/dates.js';
export { detectEntityType } from './domain/entity-types.js';
export { parseSites, MAX_SITE_DOMAINS } from './domain/sites.js';
export { normaliseKey } from './domain/text.js';

export type { FilterOptions } from './filter.js';
export type { Reasoner } from './ports/reasoner.js';
export type { OpenAiReasonerOptions } from './adapters/openai/reasoner.js';
export type { ParsedPeriod, StatedDate } from './domain/dates.js';
