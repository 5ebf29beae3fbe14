import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { expectGrounded } from './page-model-testing.js';

/**
 * schema.org JobPosting, as careers pages and job boards mark up their openings for search engines: each posting
 * says its hiringOrganization has that role open. Written from schema.org's JobPosting; every name, fact and passage
 * must be text of the page.
 */

const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
const html = (title: string, blocks: string[], body: string) =>
  `<!doctype html><html><head><title>${title}</title>${blocks.join('')}</head><body><main>${body}</main></body></html>`;

const job = (title: string, org: unknown) => ({
  '@type': 'JobPosting', title, datePosted: '2024-02-01', hiringOrganization: org,
  jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Austin', addressCountry: 'US' } },
});
const posting = (title: string, org: unknown) => ({ '@context': 'https://schema.org', ...job(title, org) });

describe('page model: job postings', () => {
  it('a careers page whose only structured data is its postings is about the organisation posting them, with each role a fact', () => {
    const org = { '@type': 'Organization', name: 'Ledgerly', sameAs: 'https://ledgerly.example' };
    const page = extractHtml(html('Careers at Ledgerly', [ld(posting('Senior Backend Engineer', org)), ld(posting('Product Designer', org))],
      '<h1>Join us</h1><p>We build bookkeeping for small shops.</p><ul><li>Senior Backend Engineer</li><li>Product Designer</li></ul>'));
    const subject = page.model!.subject!;
    expect(subject.name).toBe('Ledgerly');
    expect(subject.facts.filter((f) => f.label === 'Job posting').map((f) => f.value)).toEqual(['Senior Backend Engineer', 'Product Designer']);
    expectGrounded(page);
  });

  it('a posting that points at the organisation of the graph by @id adds its role to that organisation', () => {
    const graph = { '@context': 'https://schema.org', '@graph': [
      { '@type': 'Organization', '@id': 'https://crumbly.example/#org', name: 'Crumbly', foundingDate: '2019', address: 'Denver, CO' },
      job('Line Cook', { '@id': 'https://crumbly.example/#org' }),
    ] };
    const page = extractHtml(html('Crumbly', [ld(graph)], '<h1>Crumbly</h1><p>Bakery software.</p>'));
    const subject = page.model!.subject!;
    expect(subject.name).toBe('Crumbly');
    expect(subject.facts.map((f) => [f.label, f.value])).toEqual(expect.arrayContaining([['Founded', '2019'], ['Job posting', 'Line Cook']]));
    expectGrounded(page);
  });

  it('a job board\'s postings of several organisations name each of them, each with its role', () => {
    const page = extractHtml(html('Remote jobs this week', [ld([posting('Data Engineer', { '@type': 'Organization', name: 'Ledgerly' }), posting('Nurse', 'Mercy Clinic')])],
      '<h1>Remote jobs this week</h1><p>Data Engineer at Ledgerly. Nurse at Mercy Clinic.</p>'));
    const items = page.model!.items.map((i) => [i.name, i.facts.map((f) => `${f.label}: ${f.value}`)]);
    expect(items).toEqual(expect.arrayContaining([['Ledgerly', ['Job posting: Data Engineer']], ['Mercy Clinic', ['Job posting: Nurse']]]));
    expectGrounded(page);
  });
});
