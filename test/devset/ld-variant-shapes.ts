/**
 * A dev-only probe shape, `ld-variants`: the entity's own page with its facts only in schema.org JSON-LD, written
 * the many ways real sites write schema.org (chosen per entity by a hash, every value from a record field):
 * - types: Organization / Corporation / LocalBusiness / EducationalOrganization (NGO for nonprofits), Person,
 *   ScholarlyArticle / Article;
 * - a place as a PostalAddress, as a plain "City, Region, Country" string, or as `location`: a Place whose
 *   `address` is a PostalAddress; `foundingDate` as "YYYY" or "YYYY-MM-DD";
 * - `numberOfEmployees` as a number, a QuantitativeValue `{value}` or `{minValue, maxValue}`, or a "11-50" string;
 * - the industry as `knowsAbout` (array or string), `keywords` (comma string or array) or a `description` sentence;
 * - the accelerator as `memberOf` an Organization "Y Combinator" or as a `sameAs` link to its directory page;
 * - people: `worksFor` or `affiliation`, `award` as a string or an array, `birthPlace` as a Place or a string;
 * - papers: `author` as Person objects or one string, `datePublished`, `isPartOf` a Periodical, `about` or `keywords`;
 * - the noise around it: a top-level array of several objects or an `@graph`, a BreadcrumbList and a WebSite beside
 *   the entity, `@context` over http or https.
 * The page shows no prose and no facts list: a heading and links only. It is not in the dev split's default web
 * (the figures of record are unchanged by it): serve it with `--split dev --shapes ld-variants`.
 */
import { countryName as country, placeLine as placeText } from './extra-shapes.js';
import { batchCode, documentHtml, esc, hashOf, pick, prizeName } from './html.js';
import { authorName, sizeBucket } from './more-shapes.js';
import type { CompanyFields, DevEntity, PaperFields, Place, ResearcherFields } from './records.js';

export interface LdVariantPage {
  url: string;
  shape: 'ld-variants';
  title: string;
  description: string;
  published: string | null;
  html: string;
  entities: string[];
}

const OWN_FALLBACK: Record<DevEntity['kind'], string> = { company: 'companies.example', researcher: 'people.example', paper: 'papers.example' };

export function ldVariantUrl(e: DevEntity): string {
  return e.domain ? `https://${e.domain}/about-us` : `https://${OWN_FALLBACK[e.kind]}/${e.slug}/about-us`;
}

const postal = (p: Place) => ({ '@type': 'PostalAddress', ...(p.city ? { addressLocality: p.city } : {}), ...(p.region ? { addressRegion: p.region } : {}), ...(p.country ? { addressCountry: country(p.country) } : {}) });

function companyLd(e: DevEntity, c: CompanyFields, url: string): Record<string, unknown> {
  const seed = (what: string) => `${e.key}:ld:${what}`;
  const type = c.nonprofit ? pick(['NGO', ['Organization', 'NGO']], seed('type')) : pick(['Organization', 'Corporation', 'LocalBusiness', 'EducationalOrganization'], seed('type'));
  const place = c.places.length === 0 ? {} : pick([
    { address: c.places.length === 1 ? postal(c.places[0]!) : c.places.map(postal) },
    { address: c.places.map(placeText).join('; ') },
    { location: c.places.map((p) => ({ '@type': 'Place', name: p.city ?? placeText(p), address: postal(p) })) },
  ], seed('place'));
  const founded = e.date ? { foundingDate: pick([e.date.slice(0, 4), e.date], seed('founded')) } : {};
  const range = c.teamSize !== null ? sizeBucket(c.teamSize) : null;
  const size = c.teamSize === null || range === null ? {} : { numberOfEmployees: pick<unknown>([
    c.teamSize,
    { '@type': 'QuantitativeValue', value: c.teamSize },
    { '@type': 'QuantitativeValue', minValue: range.min, ...(range.max !== null ? { maxValue: range.max } : {}) },
    range.max !== null ? `${range.min}-${range.max}` : `${range.min}+`,
  ], seed('size')) };
  const topics = [...new Set([...(c.industry !== 'Unspecified' ? [c.industry] : []), ...(c.subindustry ? [c.subindustry.split(' -> ').at(-1)!] : []), ...c.tags])];
  const industryForm = hashOf(seed('industry')) % 5;
  const industry = topics.length === 0 ? {} : industryForm === 0 ? { knowsAbout: topics }
    : industryForm === 1 ? { knowsAbout: topics.join(', ') }
      : industryForm === 2 ? { keywords: topics.join(', ') }
        : industryForm === 3 ? { keywords: topics }
          : {};
  // The description sentence form: the one-liner, and the industry said in words (no list of keywords).
  const description = industryForm === 4 && topics.length ? `${c.oneLiner}${c.oneLiner ? ' ' : ''}${e.name} is a ${topics[0]} company.` : c.oneLiner;
  const accelerator = !c.batch ? {} : pick([
    { memberOf: { '@type': 'Organization', name: 'Y Combinator' } },
    { memberOf: [{ '@type': 'Organization', name: 'Y Combinator', description: `Batch ${batchCode(c.batch)}` }] },
    { sameAs: [`https://www.ycombinator.com/companies/${e.slug}`] },
  ], seed('accelerator'));
  return {
    '@type': type,
    '@id': `${url}#organization`,
    name: e.name,
    url: c.website ?? url,
    ...(description ? { description } : {}),
    ...place,
    ...founded,
    ...size,
    ...industry,
    ...accelerator,
    ...(c.nonprofit && hashOf(seed('npo')) % 2 === 0 ? { nonprofitStatus: 'Nonprofit501c3' } : {}),
  };
}

function researcherLd(e: DevEntity, r: ResearcherFields, url: string): Record<string, unknown> {
  const seed = (what: string) => `${e.key}:ld:${what}`;
  const orgs = r.affiliations.map((a) => ({ '@type': pick(['Organization', 'CollegeOrUniversity', 'EducationalOrganization'], seed(`org:${a.name}`)), name: a.name,
    ...(a.city || a.country ? pick([{ address: { '@type': 'PostalAddress', ...(a.city ? { addressLocality: a.city } : {}), ...(a.country ? { addressCountry: country(a.country) } : {}) } },
      { address: [a.city, country(a.country)].filter(Boolean).join(', ') }], seed(`orgplace:${a.name}`)) : {}) }));
  const award = `${prizeName(r.category)} ${pick([`${r.prizeYear}`, `(${r.prizeYear})`], seed('awardyear'))}`;
  const birthPlaceText = [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ');
  return {
    '@type': 'Person',
    '@id': `${url}#person`,
    name: e.name,
    url,
    ...(r.birthDate ? { birthDate: r.birthDate } : {}),
    ...(birthPlaceText ? { birthPlace: pick<unknown>([birthPlaceText, { '@type': 'Place', name: birthPlaceText },
      { '@type': 'Place', address: { '@type': 'PostalAddress', ...(r.birthCity ? { addressLocality: r.birthCity } : {}), ...(r.birthCountry ? { addressCountry: country(r.birthCountry) } : {}) } }], seed('birth')) } : {}),
    ...(orgs.length ? (hashOf(seed('works')) % 2 === 0 ? { worksFor: orgs.length === 1 ? orgs[0] : orgs } : { affiliation: orgs }) : {}),
    award: pick<unknown>([award, [award]], seed('award')),
    ...pick([{ knowsAbout: r.category === 'Medicine' ? 'Physiology or Medicine' : r.category },
      { jobTitle: r.category === 'Medicine' ? 'Physician-scientist' : r.category === 'Economics' ? 'Economist' : r.category === 'Physics' ? 'Physicist' : 'Chemist' }], seed('field')),
    gender: r.gender,
  };
}

function paperLd(e: DevEntity, p: PaperFields, url: string): Record<string, unknown> {
  const seed = (what: string) => `${e.key}:ld:${what}`;
  const names = p.authors.map(authorName);
  return {
    '@type': pick(['ScholarlyArticle', 'Article'], seed('type')),
    '@id': `${url}#article`,
    ...pick([{ headline: e.name }, { name: e.name }, { headline: e.name, name: e.name }], seed('title')),
    author: hashOf(seed('author')) % 2 === 0 ? names.map((n) => ({ '@type': 'Person', name: n })) : names.join(', '),
    datePublished: pick([`${p.pubYear}`, `${p.pubYear}-01-01`], seed('date')),
    ...pick([{ about: { '@type': 'Thing', name: p.field } }, { about: p.field }, { keywords: `${p.field}, Nobel Prize` }, { keywords: [p.field] }], seed('about')),
    ...(hashOf(seed('journal')) % 2 === 0 ? { isPartOf: { '@type': 'Periodical', name: `${p.field} Letters` } } : {}),
    citation: `${prizeName(p.field)} ${p.prizeYear}`,
  };
}

const TRADE: Record<string, string> = { Physics: 'physicist', Chemistry: 'chemist', Medicine: 'medical researcher', Economics: 'economist' };

export function ldVariantPage(e: DevEntity, day: string): LdVariantPage {
  const url = ldVariantUrl(e);
  const f = e.fields;
  const entity = f.kind === 'company' ? companyLd(e, f as CompanyFields, url) : f.kind === 'researcher' ? researcherLd(e, f as ResearcherFields, url) : paperLd(e, f as PaperFields, url);
  const home = url.replace(/about-us$/, '');
  const siteName = e.domain ?? OWN_FALLBACK[e.kind];
  const context = pick(['https://schema.org', 'http://schema.org', 'https://schema.org/'], `${e.key}:ld:context`);
  const website = { '@type': 'WebSite', '@id': `${home}#website`, url: home, name: siteName };
  const crumbs = { '@type': 'BreadcrumbList', itemListElement: [
    { '@type': 'ListItem', position: 1, name: 'Home', item: home },
    { '@type': 'ListItem', position: 2, name: 'About us', item: url },
  ] };
  const arrangement = hashOf(`${e.key}:ld:arrangement`) % 3;
  const jsonLd: object[] = arrangement === 0 ? [{ '@context': context, '@graph': [website, crumbs, entity] }]
    : arrangement === 1 ? [[website, crumbs, entity].map((o) => ({ '@context': context, ...o }))]
      : [{ '@context': context, ...website }, { '@context': context, ...crumbs }, { '@context': context, ...entity }];
  const title = pick([`About us | ${e.name}`, `${e.name}`, `About — ${siteName}`], `${e.key}:ld:title`);
  // The meta description (what a search result shows when no visible text matches): a company's own tagline, a
  // scientist's trade, a paper's kind; never the facts, which are only in the JSON-LD.
  const description = f.kind === 'company' ? (f as CompanyFields).oneLiner || `About ${e.name}.`
    : f.kind === 'researcher' ? `${e.name}, ${TRADE[(f as ResearcherFields).category] ?? 'scientist'}.` : `${e.name}. Research article.`;
  const body = `<main><h1>${esc(e.name)}</h1>\n<nav class="crumbs"><a href="${esc(home)}">Home</a> › About us</nav>\n<p><a href="${esc(home)}contact">Contact</a></p></main>`;
  const published = e.date ?? day;
  return { url, shape: 'ld-variants', title, description, published, entities: [e.key], html: documentHtml({ url, title, description, published, siteName, body, jsonLd }) };
}
