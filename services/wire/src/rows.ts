import { z } from 'zod';

/** The 13 entity kinds of spec §2.2. */
export const EntityType = z.enum([
  'company', 'professional', 'researcher', 'product', 'clinician', 'lawyer', 'book',
  'paper', 'music_video', 'exhibition', 'conference', 'freelancer', 'news',
]);
export type EntityType = z.infer<typeof EntityType>;

/** Spec §2.3: one filter of the funnel, in funnel order. */
export const FilterDescriptor = z.object({
  index: z.number().int().min(1),
  title: z.string(),
  criterion: z.string(),
});
export type FilterDescriptor = z.infer<typeof FilterDescriptor>;

/** A passage a row rests on; `text` occurs verbatim in the extracted text of `url`. */
export const SupportingPassage = z.object({
  text: z.string(),
  url: z.string(),
  score: z.number(),
  /** ISO-8601 date of the page, or null when the page states none. */
  published: z.string().nullable(),
});
export type SupportingPassage = z.infer<typeof SupportingPassage>;

export const QuotedPassage = z.object({ text: z.string(), url: z.string() });
export type QuotedPassage = z.infer<typeof QuotedPassage>;

export const RationaleMode = z.enum(['llm', 'rules']);
export const Verification = z.enum(['stated', 'inferred']);

/** One verdict of the funnel on a row (spec §2.2 `by_filter`). */
export const FilterVerdictEntry = z.object({
  index: z.number().int().min(1),
  title: z.string(),
  rationale: z.string(),
  rationale_mode: RationaleMode,
  verification: Verification,
  relaxed: z.boolean(),
  passages: z.array(QuotedPassage),
});
export type FilterVerdictEntry = z.infer<typeof FilterVerdictEntry>;

/** Spec §2.2 result row. */
export const ResultRow = z.object({
  name: z.string(),
  entity_type: EntityType,
  details: z.string(),
  intent_signal: z.string(),
  discovery_rationale: z.string(),
  rationale: z.string(),
  source_urls: z.array(z.string()),
  supporting_passages: z.array(SupportingPassage),
  by_filter: z.array(FilterVerdictEntry),
  relaxed: z.array(z.string()).optional(),
  /** The entity's own domain, when a page named it (its identity for `exclude.runs`); absent when unknown. */
  domain: z.string().optional(),
  status: z.string(),
  round: z.number().int().min(1),
});
export type ResultRow = z.infer<typeof ResultRow>;
