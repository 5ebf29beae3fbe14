/**
 * The page shapes of the development set's fake web, and which split each belongs to.
 *
 * dev (for tuning):  profile-list (facts as li "Label: value"), about (prose only), directory (a line per
 *                    entity, linking to its profile), table (one row per entity), infobox (an encyclopedia
 *                    article with a two-column infobox), microdata (a schema.org microdata profile) (those
 *                    two in extra-shapes.ts), profile-card (a database profile, dl groups under its
 *                    labels), homepage-ld (an own home page with a JSON-LD @graph), roundup (a press roundup
 *                    naming three entities in prose, linked to their pages): the last three in more-shapes.ts;
 *                    tracker-profile, spotlight, ranked-list (the robustness slice: other labels, markups, prose
 *                    and page noise, from the same records) in variant-shapes.ts
 * test (held out):   profile-dl (facts as dl/dt/dd, other labels), jsonld (facts only in schema.org
 *                    JSON-LD), news (an article naming several entities, linking to their own pages)
 *
 * Each split's web holds only its own shapes, so tuning on dev never sees a test page. Every entity has its
 * complete facts in each split (dev: profile-list and table; test: profile-dl and JSON-LD).
 */
import { infoboxPage, microdataPage } from './extra-shapes.js';
import { homepageLdPage, profileCardPage, roundupPages } from './more-shapes.js';
import { addDays, documentHtml, esc, hashOf, slugify } from './html.js';
import { bibliographyPages, journalPage, journalUrl, profileLdPage, profileLdUrl, rankedListPages, spotlightPage, spotlightUrl, trackerProfilePage, trackerUrl } from './variant-shapes.js';
import { ldVariantPage, ldVariantUrl } from './ld-variant-shapes.js';
import { articleVariantPages, factsVariantPage, factsVariantUrl } from './probe-shapes.js';
import type { DevEntity } from './records.js';
import type { EntityGroup, EntityView, KindSite } from './site-model.js';

export type Split = 'dev' | 'test';
export type Shape = 'profile-list' | 'about' | 'directory' | 'table' | 'infobox' | 'microdata' | 'profile-card' | 'homepage-ld' | 'roundup'
  | 'tracker-profile' | 'spotlight' | 'ranked-list' | 'profile-ld' | 'journal-page' | 'bibliography'
  | 'ld-variants' | 'facts-variants' | 'article-variants'
  | 'profile-dl' | 'jsonld' | 'news';

export const SHAPES_BY_SPLIT: Record<Split, readonly Shape[]> = {
  dev: ['profile-list', 'about', 'directory', 'table', 'infobox', 'microdata', 'profile-card', 'homepage-ld', 'roundup',
    // The robustness slice (variant-shapes.ts): other labels, markups, prose and page noise, from the same records.
    'tracker-profile', 'spotlight', 'ranked-list', 'profile-ld',
    // Scholarly pages (papers only): citation_* meta tags on a journal's article page; a reading list of references.
    'journal-page', 'bibliography'],
  test: ['profile-dl', 'jsonld', 'news'],
};

/** Dev-only probe shapes: served only when named in `--shapes`, never in a split's default web (the figures of
 * record do not move with them). `ld-variants` (ld-variant-shapes.ts): JSON-LD as real sites vary schema.org;
 * `facts-variants`, `article-variants` (probe-shapes.ts): registry and database profiles, news and blog articles. */
export const DEV_PROBE_SHAPES: readonly Shape[] = ['ld-variants', 'facts-variants', 'article-variants'];

export interface WebPage {
  url: string;
  shape: Shape;
  title: string;
  description: string;
  /** YYYY-MM-DD (from the records, or the injected day for pages without a dated record). */
  published: string | null;
  html: string;
  /** Keys of the entities the page names. */
  entities: string[];
}

const DIRECTORY_PAGE = 8;
const TABLE_PAGE = 12;
const NEWS_PAGE = 4;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function singular(site: KindSite): string {
  return site.kind;
}

export interface WebBuildOptions {
  split: Split;
  /** Day for pages none of whose records carry a date. */
  day: string;
  /** Only these of the split's shapes (a probe: how the engine does when an entity has only some shapes). */
  shapes?: readonly Shape[];
}

class WebBuilder {
  readonly pages: WebPage[] = [];
  private readonly views: Map<string, EntityView>;

  constructor(private readonly site: KindSite, views: EntityView[], private readonly options: WebBuildOptions) {
    this.views = new Map(views.map((v) => [v.entity.key, v]));
  }

  private dated(e: DevEntity): string {
    return e.date ?? this.options.day;
  }

  /** The group's own date, else the latest member date plus a few weeks: a listing appears after what it lists. */
  private groupDate(members: EntityView[], seed: string, group: EntityGroup): string {
    if (group.published) return addDays(group.published, hashOf(seed) % 20);
    const dates = members.map((m) => m.entity.date).filter((d): d is string => Boolean(d)).sort();
    const last = dates.at(-1);
    return last ? addDays(last, 10 + (hashOf(seed) % 50)) : this.options.day;
  }

  profileListUrl(e: DevEntity): string {
    return `https://${this.site.sites.profileDev.host}/${this.site.plural}/${e.slug}`;
  }

  profileDlUrl(e: DevEntity): string {
    return `https://${this.site.sites.profileTest.host}/${singular(this.site)}/${e.slug}`;
  }

  aboutUrl(e: DevEntity): string {
    return e.domain ? `https://${e.domain}/about` : `https://${this.site.sites.ownFallback.host}/${e.slug}/about`;
  }

  jsonLdUrl(e: DevEntity): string {
    return e.domain ? `https://${e.domain}/` : `https://${this.site.sites.ownFallback.host}/${e.slug}/`;
  }

  private add(page: WebPage): void {
    this.pages.push(page);
  }

  profileList(v: EntityView): void {
    const e = v.entity;
    const url = this.profileListUrl(e);
    const site = this.site.sites.profileDev;
    const facts = v.devFacts.map(([label, value]) => `<li>${esc(label)}: ${esc(value)}</li>`).join('\n');
    const body = `<main><h1>${esc(e.name)}</h1>\n<p>${esc(v.tagline)}</p>\n<h2>Overview</h2>\n<ul class="facts">\n${facts}\n</ul></main>`;
    this.add({
      url, shape: 'profile-list', title: `${e.name} | ${site.name}`, description: v.tagline, published: this.dated(e), entities: [e.key],
      html: documentHtml({ url, title: `${e.name} | ${site.name}`, description: v.tagline, published: this.dated(e), siteName: site.name, body }),
    });
  }

  about(v: EntityView): void {
    const e = v.entity;
    const url = this.aboutUrl(e);
    const siteName = e.domain ? e.name : this.site.sites.ownFallback.name;
    const { title, heading } = this.site.proseTitle(e.name);
    const body = `<main><article><h1>${esc(heading)}</h1>\n${v.prose.map((p) => `<p>${esc(p)}</p>`).join('\n')}</article></main>`;
    this.add({
      url, shape: 'about', title, description: v.tagline, published: this.dated(e), entities: [e.key],
      html: documentHtml({ url, title, description: v.tagline, published: this.dated(e), siteName, body }),
    });
  }

  profileDl(v: EntityView): void {
    const e = v.entity;
    const url = this.profileDlUrl(e);
    const site = this.site.sites.profileTest;
    const facts = v.testFacts.map(([label, value]) => `<dt>${esc(label)}</dt><dd>${esc(value)}</dd>`).join('\n');
    const body = `<main><h1>${esc(e.name)}</h1>\n<p class="lede">${esc(v.tagline)}</p>\n<section><h2>Key facts</h2>\n<dl>\n${facts}\n</dl></section></main>`;
    this.add({
      url, shape: 'profile-dl', title: `${e.name} – profile – ${site.name}`, description: v.tagline, published: this.dated(e), entities: [e.key],
      html: documentHtml({ url, title: `${e.name} – profile – ${site.name}`, description: v.tagline, published: this.dated(e), siteName: site.name, body }),
    });
  }

  jsonLd(v: EntityView): void {
    const e = v.entity;
    const url = this.jsonLdUrl(e);
    const siteName = e.domain ? e.name : this.site.sites.ownFallback.name;
    // Only the name and the tagline are visible; every other fact is in the JSON-LD.
    const body = `<main><h1>${esc(e.name)}</h1>\n<p>${esc(v.tagline)}</p></main>`;
    this.add({
      url, shape: 'jsonld', title: `${e.name} — ${v.tagline}`, description: v.tagline, published: this.dated(e), entities: [e.key],
      html: documentHtml({ url, title: `${e.name} — ${v.tagline}`, description: v.tagline, published: this.dated(e), siteName, body, jsonLd: [{ ...v.jsonLd, url: v.jsonLd.url ?? url }] }),
    });
  }

  directory(g: EntityGroup, members: EntityView[]): void {
    const site = this.site.sites.directory;
    const parts = chunks(members, DIRECTORY_PAGE);
    parts.forEach((part, i) => {
      const url = `https://${site.host}/lists/${slugify(g.id)}${i === 0 ? '' : `/page-${i + 1}`}`;
      const title = `${g.listTitle}${parts.length > 1 ? ` (page ${i + 1} of ${parts.length})` : ''}`;
      const items = part.map((v) => `<li><a href="${esc(this.profileListUrl(v.entity))}">${esc(v.entity.name)}</a> — ${esc(v.line)}</li>`).join('\n');
      const nav = parts.length > 1 && i + 1 < parts.length ? `<p><a href="https://${site.host}/lists/${slugify(g.id)}/page-${i + 2}">Next page</a></p>` : '';
      const description = `${members.length} ${this.site.plural}: ${part.slice(0, 3).map((v) => v.entity.name).join(', ')} and more.`;
      const published = this.groupDate(part, url, g);
      const body = `<main><h1>${esc(title)}</h1>\n<p>${members.length} ${esc(this.site.plural)} in this list.</p>\n<ul class="directory">\n${items}\n</ul>\n${nav}</main>`;
      this.add({ url, shape: 'directory', title, description, published, entities: part.map((v) => v.entity.key),
        html: documentHtml({ url, title: `${title} | ${site.name}`, description, published, siteName: site.name, body }) });
    });
  }

  table(g: EntityGroup, members: EntityView[]): void {
    const site = this.site.sites.table;
    const parts = chunks(members, TABLE_PAGE);
    parts.forEach((part, i) => {
      const url = `https://${site.host}/${slugify(g.id)}${i === 0 ? '' : `/${i + 1}`}`;
      const title = `${g.listTitle}${parts.length > 1 ? ` — part ${i + 1}` : ''}`;
      const head = `<tr><th>${esc(this.site.nameColumn)}</th>${this.site.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
      const rows = part.map((v) => {
        const link = v.entity.domain ? this.aboutUrl(v.entity) : this.profileListUrl(v.entity);
        return `<tr><td><a href="${esc(link)}">${esc(v.entity.name)}</a></td>${this.site.columns.map((c) => `<td>${esc(v.cells[c] ?? '')}</td>`).join('')}</tr>`;
      }).join('\n');
      const description = `A table of ${members.length} ${this.site.plural}.`;
      const published = this.groupDate(part, url, g);
      const body = `<main><h1>${esc(title)}</h1>\n<table>\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table></main>`;
      this.add({ url, shape: 'table', title, description, published, entities: part.map((v) => v.entity.key),
        html: documentHtml({ url, title: `${title} | ${site.name}`, description, published, siteName: site.name, body }) });
    });
  }

  news(g: EntityGroup, members: EntityView[]): void {
    const site = this.site.sites.news;
    const parts = chunks(members, NEWS_PAGE);
    parts.forEach((part, i) => {
      const published = this.groupDate(part, `${g.id}:${i}`, g);
      const url = `https://${site.host}/${published.slice(0, 4)}/${published.slice(5, 7)}/${slugify(g.newsTitle)}${i === 0 ? '' : `-${i + 1}`}`;
      const title = `${g.newsTitle}${i === 0 ? '' : ` (part ${i + 1})`}`;
      const sentences = part.map((v) => {
        const link = v.entity.domain ? this.jsonLdUrl(v.entity) : this.profileDlUrl(v.entity);
        return `<p>${v.newsSentence(`<a href="${esc(link)}">${esc(v.entity.name)}</a>`)}</p>`;
      }).join('\n');
      const description = `${g.newsLead} Featuring ${part.map((v) => v.entity.name).join(', ')}.`;
      const body = `<main><article><h1>${esc(title)}</h1>\n<p class="byline">By the ${esc(site.name)} staff · ${published}</p>\n<p>${esc(g.newsLead)}</p>\n${sentences}\n<p>Know a team we should cover? Write to us.</p></article></main>`;
      this.add({ url, shape: 'news', title, description, published, entities: part.map((v) => v.entity.key),
        html: documentHtml({ url, title: `${title} – ${site.name}`, description, published, siteName: site.name, body, head: '<meta property="og:type" content="article">' }) });
    });
  }

  build(entities: readonly DevEntity[]): void {
    const shapes = this.options.shapes ?? SHAPES_BY_SPLIT[this.options.split];
    const allowed = this.options.split === 'dev' ? [...SHAPES_BY_SPLIT.dev, ...DEV_PROBE_SHAPES] : SHAPES_BY_SPLIT[this.options.split];
    const foreign = shapes.filter((s) => !allowed.includes(s));
    if (foreign.length > 0) throw new Error(`shapes ${foreign.join(', ')} are not in the ${this.options.split} split`);
    const views = [...this.views.values()];
    for (const v of views) {
      if (shapes.includes('profile-list')) this.profileList(v);
      if (shapes.includes('about')) this.about(v);
      if (shapes.includes('infobox')) this.add(infoboxPage(v.entity, this.options.day));
      if (shapes.includes('microdata')) this.add(microdataPage(v.entity, this.options.day));
      if (shapes.includes('profile-card')) this.add(profileCardPage(v.entity, this.options.day));
      if (shapes.includes('homepage-ld')) this.add(homepageLdPage(v.entity, this.options.day));
      if (shapes.includes('ld-variants')) this.add(ldVariantPage(v.entity, this.options.day));
      if (shapes.includes('facts-variants')) this.add(factsVariantPage(v.entity, this.options.day));
      if (shapes.includes('tracker-profile')) this.add(trackerProfilePage(v.entity, entities, this.options.day));
      if (shapes.includes('spotlight')) this.add(spotlightPage(v.entity, entities, this.options.day));
      if (shapes.includes('profile-ld')) this.add(profileLdPage(v.entity, entities, this.options.day));
      const journal = shapes.includes('journal-page') ? journalPage(v.entity, this.options.day) : null;
      if (journal) this.add(journal);
      if (shapes.includes('profile-dl')) this.profileDl(v);
      if (shapes.includes('jsonld')) this.jsonLd(v);
    }
    for (const g of this.site.groups(entities)) {
      const members = g.members.map((k) => this.views.get(k)).filter((v): v is EntityView => Boolean(v));
      if (shapes.includes('directory')) this.directory(g, members);
      if (shapes.includes('table')) this.table(g, members);
      if (shapes.includes('news')) this.news(g, members);
      if (shapes.includes('roundup')) for (const page of roundupPages(g, members.map((m) => m.entity), this.options.day, shapes)) this.add(page);
      if (shapes.includes('ranked-list')) {
        const linkOf = (e: DevEntity) => (shapes.includes('tracker-profile') ? trackerUrl(e) : shapes.includes('spotlight') ? spotlightUrl(e)
          : shapes.includes('profile-ld') ? profileLdUrl(e) : this.profileListUrl(e));
        for (const page of rankedListPages(g, members.map((m) => m.entity), entities, this.options.day, linkOf)) this.add(page);
      }
      if (shapes.includes('article-variants')) {
        // An article links a name to the entity's page when this web serves one (else the name stays a link to nowhere served).
        const linkOf = (e: DevEntity) => (shapes.includes('facts-variants') ? factsVariantUrl(e) : shapes.includes('ld-variants') ? ldVariantUrl(e)
          : e.domain ? `https://${e.domain}/` : null);
        for (const page of articleVariantPages(g, members.map((m) => m.entity), entities, this.options.day, linkOf)) this.add(page);
      }
      if (shapes.includes('bibliography')) {
        const linkOf = (e: DevEntity) => (shapes.includes('journal-page') ? journalUrl(e) : this.profileListUrl(e));
        for (const page of bibliographyPages(g, members.map((m) => m.entity), this.options.day, linkOf)) this.add(page);
      }
    }
  }
}

/** Every page of one split's web, for the given kinds and entities. Throws when two pages share a URL. */
export function buildWeb(sites: readonly KindSite[], entities: readonly DevEntity[], options: WebBuildOptions): WebPage[] {
  const pages: WebPage[] = [];
  for (const site of sites) {
    const mine = entities.filter((e) => e.kind === site.kind);
    const builder = new WebBuilder(site, site.views(mine), options);
    builder.build(mine);
    pages.push(...builder.pages);
  }
  const seen = new Set<string>();
  for (const p of pages) {
    if (seen.has(p.url)) throw new Error(`two pages at ${p.url}`);
    seen.add(p.url);
  }
  return pages;
}
