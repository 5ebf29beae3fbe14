import { readPeriod } from '../../domain/dates.js';
import { detectEntityType } from '../../domain/entity-types.js';
import { tokens } from '../../domain/text.js';

/**
 * Phrasings the planner reads as another it already knows: a funding stage before the kind is the round raised,
 * "recent" a window back from now, a state after the noun a qualifier before it.
 */

/** Words that start the clause about something that happened ("that raised …", "published in 2024"). */
export const EVENT_START = new Set([
  'that', 'which', 'who', 'whose', 'raised', 'raising', 'secured', 'closed', 'launched', 'released', 'published',
  'opened', 'opening', 'founded', 'won', 'received', 'hiring', 'announced', 'acquired', 'speaking', 'presented',
  'premiered', 'running', 'taking', 'held', 'happening', 'cited', 'awarded', 'started', 'began', 'begun', 'born', 'established',
  'incorporated',
]);

/**
 * A funding stage said before the kind ("Series A fintech startups in Berlin", "seed-stage AI startups"): the
 * round they raised, not a kind of company. Plain "seed" stays a word ("seed companies" sell seeds).
 */
const STAGE_BEFORE_KIND = /^(series\s+[a-h]|pre-?seed|seed)(?:[- ]stage|(?<=series\s+[a-h]|pre-?seed))\s+(.+)$/i;

/** "Series A fintech startups in Berlin" → "fintech startups in Berlin that raised a Series A", unless an event is said already. */
export function stageAsEvent(text: string): string {
  const stage = STAGE_BEFORE_KIND.exec(text);
  if (!stage || tokens(stage[2]!).some((w) => EVENT_START.has(w))) return text;
  const round = /^series/i.test(stage[1]!) ? `a Series ${stage[1]!.slice(-1).toUpperCase()}` : /^pre/i.test(stage[1]!) ? 'a pre-seed round' : 'a seed round';
  return `${stage[2]} that raised ${round}`;
}

/**
 * "recent papers on LLMs", "the latest news about Stripe": "recent" is no word a page prints of itself but a
 * window back from now: a month for news, two years for writing and for a company's founding; of other kinds
 * it does not say in what, and goes. A window said already stands, and the word goes. Relaxing widens it like any relative window.
 */
export function recentAsWindow(text: string, now: Date): string {
  const m = /^(?:the\s+)?(?:most\s+)?(?:recent|latest|newest)\s+(?=\S)/i.exec(text);
  if (!m) return text;
  const rest = text.slice(m[0].length);
  if (readPeriod(rest, now).period) return rest;
  const kind = detectEntityType(rest).type;
  const window = kind === 'news' ? 'from the last month'
    : kind === 'paper' || kind === 'book' ? 'published in the last 2 years'
      : kind === 'company' ? 'founded in the last 2 years' : null;
  // "recent laureates": recent in what (their prize, their work) is not said; the word alone is dropped.
  return window ? `${rest} ${window}` : rest;
}

/**
 * "companies in the Winter 2023 batch that are B2B": a state said after the noun with no verb of its own ("that
 * are B2B", "which are in fintech") qualifies the kind as it would before it ("B2B companies"); it is no event.
 */
export function stateAsQualifier(text: string): string {
  // (A place after "in" was cut before this: "that are in fintech" names a sector.)
  const m = /^(.*?\S)\s+(?:that|which|who)\s+(?:are|is)\s+(?:an?\s+|in\s+(?:the\s+)?)?((?:[\p{L}\d&+.-]+\s*){1,3})$/iu.exec(text);
  if (!m) return text;
  const state = m[2]!.trim();
  if (tokens(state).some((w) => EVENT_START.has(w) || /^(?:not|no|still|now|currently|being|based|located|headquartered|in|on|at|from|by|of|for|with)$/.test(w))) return text;
  return `${state} ${m[1]}`;
}
