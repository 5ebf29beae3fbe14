/**
 * Company pages of the fake web, written from the yc-oss/api records: every fact comes from a record field;
 * phrasings vary per company (chosen by a hash of its slug) so no single sentence template covers them.
 */
import { esc, pick, thousands } from '../html.js';
import type { CompanyFields, DevEntity, Place } from '../records.js';
import type { EntityGroup, EntityView, KindSite } from '../site-model.js';

const COUNTRY_NAMES: Record<string, string> = { USA: 'United States', UK: 'United Kingdom' };

export function placeText(p: Place): string {
  return [p.city, p.region, p.country].filter(Boolean).join(', ');
}

function fieldsOf(e: DevEntity): CompanyFields {
  if (e.fields.kind !== 'company') throw new Error(`${e.key} is not a company`);
  return e.fields;
}

function locationText(f: CompanyFields): string {
  const places = f.places.map(placeText);
  if (f.remote) places.push('Remote');
  return places.join('; ') || 'Not disclosed';
}

function industryText(f: CompanyFields): string {
  return f.subindustry ? `${f.industry} (${f.subindustry})` : f.industry;
}

const STATUS_TEST: Record<string, string> = { Active: 'Operating', Acquired: 'Acquired', Public: 'Public company', Inactive: 'Shut down' };

function statusSentence(e: DevEntity, f: CompanyFields): string | null {
  const n = e.name;
  switch (f.status) {
    case 'Acquired':
      return pick([`${n} was acquired.`, `In a later chapter of its story, ${n} was acquired by a larger company.`, `${n} has since been acquired.`], `${e.slug}:status`);
    case 'Public':
      return pick([`${n} is a publicly traded company.`, `${n} went public and its shares trade on a public stock exchange.`, `Today ${n} is listed on a public stock exchange.`], `${e.slug}:status`);
    case 'Inactive':
      return pick([`${n} has shut down and is no longer operating.`, `${n} is no longer active.`], `${e.slug}:status`);
    default:
      return pick([`${n} is an independent, privately held company.`, `${n} remains independent.`, ''], `${e.slug}:status`) || null;
  }
}

function placeSentence(e: DevEntity, f: CompanyFields): string | null {
  const main = f.places[0];
  if (!main && !f.remote) return null;
  const where = main ? placeText(main) : null;
  const others = f.places.slice(1).map(placeText);
  const remote = f.regions.includes('Fully Remote') ? ' The team works fully remotely.' : f.regions.includes('Partly Remote') ? ' Some roles are remote.' : '';
  const more = others.length ? ` It also has an office in ${others.join(' and ')}.` : '';
  if (!where) return `${e.name} is a fully remote team.${f.regions.includes('Fully Remote') ? '' : remote}`;
  return pick([
    `${e.name} is headquartered in ${where}.${more}${remote}`,
    `Our team is based in ${where}.${more}${remote}`,
    `${e.name} is based in ${where}.${more}${remote}`,
  ], `${e.slug}:place`);
}

function sizeSentence(e: DevEntity, f: CompanyFields): string | null {
  if (f.teamSize === null) return null;
  const n = thousands(f.teamSize);
  return pick([
    `${e.name} employs about ${n} people.`,
    `We are a team of ${n}.`,
    `The company has ${n} employees.`,
  ], `${e.slug}:size`);
}

function industrySentence(e: DevEntity, f: CompanyFields): string {
  const area = f.subindustry ?? f.industry;
  const tags = f.tags.filter((t) => t !== 'Nonprofit').slice(0, 3);
  const tagText = tags.length ? ` Its work spans ${tags.join(', ')}.` : '';
  if (f.industry === 'Unspecified') return tagText.trim() || `${e.name} works across several areas.`;
  return pick([
    `${e.name} works in ${f.industry.toLowerCase() === 'b2b' ? 'B2B' : f.industry}, focusing on ${area}.${tagText}`,
    `${e.name} is a ${f.industry === 'B2B' ? 'B2B' : f.industry.toLowerCase()} company in the ${area} space.${tagText}`,
  ], `${e.slug}:industry`);
}

function hiringSentence(e: DevEntity, f: CompanyFields): string | null {
  if (!f.hiring) return null;
  return pick([`${e.name} is hiring: see the open roles on our careers page.`, `We're hiring! Join ${e.name}.`, `${e.name} is currently hiring.`], `${e.slug}:hiring`);
}

function formSentence(e: DevEntity, f: CompanyFields): string | null {
  if (f.nonprofit) return pick([`${e.name} is a nonprofit organization.`, `${e.name} is a registered 501(c)(3) nonprofit.`, `As a nonprofit, ${e.name} relies on donations.`], `${e.slug}:form`);
  return null;
}

function batchSentence(e: DevEntity, f: CompanyFields): string | null {
  if (!f.batch) return pick([`${e.name} is supported by Y Combinator.`, null], `${e.slug}:batch`);
  return pick([`${e.name} took part in Y Combinator's ${f.batch} batch.`, `${e.name} is a Y Combinator company (${f.batch}).`], `${e.slug}:batch`);
}

function view(e: DevEntity): EntityView {
  const f = fieldsOf(e);
  const tagline = f.oneLiner || `${e.name}, a Y Combinator company`;
  const website = e.domain ? `https://${e.domain}` : 'None';
  const devFacts: [string, string][] = [
    ['Location', locationText(f)],
    ['Industry', industryText(f)],
    ['Tags', f.tags.join(', ') || 'None'],
    ['Team size', f.teamSize === null ? 'Unknown' : thousands(f.teamSize)],
    ['Status', f.status],
    ['Batch', f.batch ?? 'Not disclosed'],
    ['Hiring', f.hiring ? 'Yes' : 'No'],
    ['Remote', f.regions.includes('Fully Remote') ? 'Fully remote' : f.regions.includes('Partly Remote') ? 'Partly remote' : 'No'],
    ['Type', f.nonprofit ? 'Nonprofit' : 'Company'],
    ['Stage', f.stage],
    ['Website', website],
  ];
  const testFacts: [string, string][] = [
    ['Headquarters', locationText(f)],
    ['Sector', industryText(f)],
    ['Keywords', f.tags.join(' · ') || '—'],
    ['Employees', f.teamSize === null ? '—' : thousands(f.teamSize)],
    ['Company status', STATUS_TEST[f.status] ?? f.status],
    ['Y Combinator batch', f.batch ?? '—'],
    ['Open positions', f.hiring ? 'Yes, hiring now' : 'None listed'],
    ['Work model', f.regions.includes('Fully Remote') ? 'Remote-first' : f.regions.includes('Partly Remote') ? 'Hybrid, some remote roles' : 'On-site'],
    ['Legal form', f.nonprofit ? 'Nonprofit organization' : 'For-profit company'],
    ['Homepage', e.domain ?? '—'],
  ];
  const descriptionParas = f.longDescription.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const factSentences = [placeSentence(e, f), sizeSentence(e, f), industrySentence(e, f), formSentence(e, f), statusSentence(e, f), hiringSentence(e, f), batchSentence(e, f)]
    .filter((s): s is string => Boolean(s));
  const prose = [
    `${e.name}: ${tagline}`,
    ...descriptionParas,
    factSentences.slice(0, 3).join(' '),
    factSentences.slice(3).join(' '),
  ].filter(Boolean);

  const address = f.places.map((p) => ({
    '@type': 'PostalAddress',
    ...(p.city ? { addressLocality: p.city } : {}),
    ...(p.region ? { addressRegion: p.region } : {}),
    ...(p.country ? { addressCountry: p.country } : {}),
  }));
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': f.nonprofit ? 'NGO' : 'Organization',
    name: e.name,
    ...(e.domain ? { url: `https://${e.domain}` } : {}),
    description: tagline,
    ...(address.length ? { address: address.length === 1 ? address[0] : address } : {}),
    ...(f.teamSize !== null ? { numberOfEmployees: { '@type': 'QuantitativeValue', value: f.teamSize } } : {}),
    ...(f.industry !== 'Unspecified' ? { knowsAbout: [f.industry, ...(f.subindustry ? [f.subindustry] : [])] } : {}),
    ...(f.tags.length ? { keywords: f.tags.join(', ') } : {}),
    ...(f.nonprofit ? { nonprofitStatus: 'Nonprofit501c3' } : {}),
    ...(f.batch ? { memberOf: { '@type': 'Organization', name: `Y Combinator ${f.batch}` } } : {}),
    ...(f.formerNames.length ? { alternateName: f.formerNames } : {}),
  };

  const where = f.places[0] ? placeText(f.places[0]) : f.remote ? 'remote' : null;
  const line = `${tagline}${where ? ` (${where})` : ''}`;
  const area = f.industry === 'Unspecified' ? (f.tags[0] ?? 'technology') : (f.subindustry ?? f.industry);
  const newsSentence = (name: string) => {
    const city = f.places[0]?.city;
    const size = f.teamSize !== null ? `, which has ${thousands(f.teamSize)} employees` : '';
    const pitch = esc(tagline.replace(/\.$/, ''));
    return pick([
      `${name}${city ? `, the ${esc(city)}-based ${esc(area)} company` : ''}${size}, describes its work as “${pitch}”.`,
      `${city ? `In ${esc(city)}, ` : ''}${name}${f.teamSize !== null ? ` (${thousands(f.teamSize)} employees)` : ''}${f.nonprofit ? ', a nonprofit,' : ''} works on ${esc(area)}. ${pitch}.`,
      `Also on our list: ${name}${f.status === 'Acquired' ? ', since acquired' : f.status === 'Public' ? ', now a public company' : ''}${size}. ${pitch}.`,
    ], `${e.slug}:news`);
  };
  const cells = {
    Location: locationText(f),
    Industry: industryText(f),
    'Team size': f.teamSize === null ? '—' : thousands(f.teamSize),
    Status: f.status,
    Batch: f.batch ?? '—',
    Hiring: f.hiring ? 'Yes' : 'No',
  };
  return { entity: e, tagline, devFacts, testFacts, prose, jsonLd, line, newsSentence, cells };
}

function groups(entities: readonly DevEntity[]): EntityGroup[] {
  const out: EntityGroup[] = [];
  const add = (id: string, listTitle: string, newsTitle: string, newsLead: string, members: DevEntity[]) => {
    if (members.length >= 2) out.push({ id, listTitle, newsTitle, newsLead, members: members.map((m) => m.key) });
  };
  const companies = entities.filter((e) => e.fields.kind === 'company');
  const f = (e: DevEntity) => e.fields as CompanyFields;
  const count = (values: string[]) => {
    const m = new Map<string, number>();
    for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
    return [...m].filter(([, n]) => n >= 2).map(([v]) => v).sort();
  };
  for (const industry of count(companies.map((e) => f(e).industry)).filter((i) => i !== 'Unspecified')) {
    add(`industry-${industry}`, `${industry} companies backed by Y Combinator`, `${industry} companies to watch`,
      `Our round-up of ${industry.toLowerCase() === 'b2b' ? 'B2B' : industry.toLowerCase()} companies from the Y Combinator portfolio.`,
      companies.filter((e) => f(e).industry === industry));
  }
  for (const tag of count(companies.flatMap((e) => f(e).tags))) {
    const members = companies.filter((e) => f(e).tags.includes(tag));
    if (members.length >= 3) add(`tag-${tag}`, `${tag}: Y Combinator companies`, `${tag} startups making news`, `A look at companies working on ${tag}.`, members);
  }
  for (const city of count(companies.flatMap((e) => [...new Set(f(e).places.map((p) => p.city).filter((c): c is string => Boolean(c)))]))) {
    add(`city-${city}`, `Startups in ${city}`, `${city} startup roundup`, `Companies building in ${city}.`,
      companies.filter((e) => f(e).places.some((p) => p.city === city)));
  }
  for (const country of count(companies.flatMap((e) => [...new Set(f(e).places.map((p) => p.country).filter((c): c is string => Boolean(c)))])).filter((c) => c !== 'USA')) {
    add(`country-${country}`, `Y Combinator companies in ${COUNTRY_NAMES[country] ?? country}`, `Startups from ${COUNTRY_NAMES[country] ?? country}`, `Companies with offices in ${COUNTRY_NAMES[country] ?? country}.`,
      companies.filter((e) => f(e).places.some((p) => p.country === country)));
  }
  add('status-acquired', 'Acquired Y Combinator companies', 'Exits: Y Combinator companies that were acquired', 'These startups were bought by larger companies.', companies.filter((e) => f(e).status === 'Acquired'));
  add('status-public', 'Publicly traded Y Combinator companies', 'From startup to stock market', 'Y Combinator companies that went public.', companies.filter((e) => f(e).status === 'Public'));
  add('status-inactive', 'Y Combinator companies that shut down', 'Startups that closed their doors', 'Not every story ends well.', companies.filter((e) => f(e).status === 'Inactive'));
  add('hiring', 'Y Combinator companies hiring now', 'Who is hiring this month', 'These companies have open roles.', companies.filter((e) => f(e).hiring));
  add('nonprofits', 'Nonprofits funded by Y Combinator', 'Nonprofits doing good with startup methods', 'Y Combinator has funded nonprofits since 2013.', companies.filter((e) => f(e).nonprofit));
  for (const year of count(companies.map((e) => String(f(e).batchYear ?? '')).filter(Boolean))) {
    add(`batch-${year}`, `Y Combinator class of ${year}`, `Where are they now: the ${year} Y Combinator batches`, `Companies from the ${year} batches.`,
      companies.filter((e) => String(f(e).batchYear) === year));
  }
  add('large', 'Y Combinator companies with more than 1,000 employees', 'The biggest employers among startups', 'Large teams, startup roots.', companies.filter((e) => (f(e).teamSize ?? 0) > 1000));
  return out;
}

export const companySite: KindSite = {
  kind: 'company',
  plural: 'companies',
  nameColumn: 'Company',
  proseTitle: (name) => ({ title: `About us – ${name}`, heading: `About ${name}` }),
  columns: ['Location', 'Industry', 'Team size', 'Status', 'Batch', 'Hiring'],
  views: (entities) => entities.filter((e) => e.kind === 'company').map(view),
  groups,
  sites: {
    profileDev: { host: 'startupindex.example', name: 'Startup Index' },
    profileTest: { host: 'venturedb.example', name: 'VentureDB' },
    directory: { host: 'startupindex.example', name: 'Startup Index' },
    table: { host: 'companytables.example', name: 'Company Tables' },
    news: { host: 'startupwire.example', name: 'Startup Wire' },
    ownFallback: { host: 'orgsites.example', name: 'Org Sites' },
  },
};
