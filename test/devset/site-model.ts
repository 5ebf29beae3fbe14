/**
 * What each entity kind contributes to the fake web: its facts (two labellings, one per split), its prose,
 * its schema.org object, its line in a listing, its table row, its sentence in a news article, the groups
 * listing pages are made of, and where its pages live. pages.ts turns these into the page shapes.
 */
import type { DevEntity, DevKind } from './records.js';

export interface EntityView {
  entity: DevEntity;
  /** Short description (one line). */
  tagline: string;
  /** Facts for the "Label: value" list profile (dev split). */
  devFacts: [string, string][];
  /** Facts for the dl/dt/dd profile (test split), labelled differently on purpose. */
  testFacts: [string, string][];
  /** Paragraphs of the prose-only page (facts stated in sentences, no list, no table). */
  prose: string[];
  /** The schema.org object of the JSON-LD-only page. */
  jsonLd: Record<string, unknown>;
  /** Text after the name in a directory line. */
  line: string;
  /** One sentence of a news article naming the entity; `name` is the (linked) name HTML. */
  newsSentence(name: string): string;
  /** Table cells by column header (the first column is the name). */
  cells: Record<string, string>;
}

export interface EntityGroup {
  id: string;
  /** Title of a directory or table page listing the group. */
  listTitle: string;
  /** Headline of a news article about (some of) the group. */
  newsTitle: string;
  /** Lead paragraph of that article. */
  newsLead: string;
  members: string[];
  /** YYYY-MM-DD the group's pages appear on, when the group itself dates them (a prize year); else after the latest member. */
  published?: string;
}

export interface KindSite {
  kind: DevKind;
  /** Kind word for page copy ("companies", "laureates", "papers"). */
  plural: string;
  /** Table columns after the name column. */
  columns: string[];
  nameColumn: string;
  /** Title and heading of the prose page ("About us – Stripe", "Andre Geim – biography"). */
  proseTitle(name: string): { title: string; heading: string };
  views(entities: readonly DevEntity[]): EntityView[];
  groups(entities: readonly DevEntity[]): EntityGroup[];
  /** Sites (host and display name) per page role. */
  sites: {
    profileDev: SiteRef;
    profileTest: SiteRef;
    directory: SiteRef;
    table: SiteRef;
    news: SiteRef;
    /** Fallback host of the about / JSON-LD page of an entity without its own domain. */
    ownFallback: SiteRef;
  };
}

export interface SiteRef {
  host: string;
  name: string;
}
