/**
 * Dev-only queries added for tuning: new phrasings of the intents people search for (synonyms, word order,
 * "based in" / "headquartered in" / "HQ'd in", plural and singular kind words, numbers written out), each with
 * its gold set computed by the same rules over the records' fields. All are in the `dev` split, so the
 * held-out half stays exactly what it was; ids start with `x`.
 */
import {
  all, B2B_SOFTWARE, BAY_AREA, bool, bornIn, cityVerdict, company, CONSUMER, countryVerdict, FINTECH, HEALTH,
  EDUCATION, hqCityVerdict, institution, LOGISTICS, NYC, paper, regionVerdict, researcher, SF, sizeVerdict, stateVerdict,
  titleHas, topicVerdict, USA, worksIn, type C, type DevQuery, type Topic, type Verdict,
} from './query-rules.js';

/** Payments, a part of fintech: other fintech is arguable (maybe), as a reader may or may not count it. */
const PAYMENTS: Topic = { subindustries: ['Payments'], tags: ['Payments'], near: ['Fintech', 'Banking as a Service', 'Consumer Finance'], words: /\bpayments?\b/i };

/** A batch as the record writes it, either way ("Winter 2021" or "W21"). */
function batchVerdict(f: C, season: 'Winter' | 'Summer', year: number): Verdict {
  if (!f.batch) return 'no';
  const code = `${season.charAt(0)}${String(year).slice(2)}`;
  return bool(f.batch === `${season} ${year}` || f.batch === code);
}

/** Launched (founded) within the years, by the record's launch date. */
function launchedVerdict(f: C, from: number, to: number): Verdict {
  if (!f.launchedAt) return 'maybe';
  const y = Number(f.launchedAt.slice(0, 4));
  return bool(y >= from && y <= to);
}

const status = (f: C, s: string): Verdict => bool(f.status === s);

export const PARAPHRASE_QUERIES: DevQuery[] = [
  // ---------------------------------------------------------------- companies
  company('x01', 'dev', "fintech firms HQ'd in San Francisco", (f) => all(topicVerdict(f, FINTECH), hqCityVerdict(f, SF))),
  company('x02', 'dev', 'digital health startups based out of the Bay Area', (f) => all(topicVerdict(f, HEALTH), cityVerdict(f, BAY_AREA))),
  company('x03', 'dev', 'companies headquartered in New York with over 100 employees', (f) => all(hqCityVerdict(f, NYC), sizeVerdict(f, (n) => n > 100))),
  company('x04', 'dev', 'California startups with fewer than fifty people', (f) => all(stateVerdict(f, 'CA'), sizeVerdict(f, (n) => n < 50))),
  company('x05', 'dev', 'businesses located in India', (f) => countryVerdict(f, ['India'])),
  company('x06', 'dev', 'payments companies', (f) => topicVerdict(f, PAYMENTS)),
  company('x07', 'dev', 'non-profit orgs working on education', (f) => all(bool(f.nonprofit), topicVerdict(f, EDUCATION))),
  company('x08', 'dev', 'public companies in the Bay Area', (f) => all(status(f, 'Public'), cityVerdict(f, BAY_AREA))),
  company('x09', 'dev', 'startups from YC W21', (f) => batchVerdict(f, 'Winter', 2021)),
  company('x10', 'dev', 'YC-backed financial technology companies', (f) => all(bool(f.batch !== null), topicVerdict(f, FINTECH))),
  company('x11', 'dev', 'B2B software companies founded after 2015', (f) => all(topicVerdict(f, B2B_SOFTWARE), launchedVerdict(f, 2016, 9999))),
  company('x12', 'dev', 'orgs started in 2021', (f) => launchedVerdict(f, 2021, 2021)),
  company('x13', 'dev', 'B2B software startups with teams of 10-50 people', (f) => all(topicVerdict(f, B2B_SOFTWARE), sizeVerdict(f, (n) => n >= 10 && n <= 50))),
  company('x14', 'dev', 'healthtech companies that are hiring', (f) => all(topicVerdict(f, HEALTH), bool(f.hiring))),
  company('x15', 'dev', 'companies based in Europe', (f) => regionVerdict(f, 'Europe')),
  company('x16', 'dev', 'financial technology businesses that went public', (f) => all(topicVerdict(f, FINTECH), status(f, 'Public'))),
  company('x17', 'dev', 'consumer startups that were acquired', (f) => all(topicVerdict(f, CONSUMER), status(f, 'Acquired'))),
  company('x18', 'dev', 'NYC-based startups', (f) => cityVerdict(f, NYC)),
  company('x19', 'dev', 'Winter 2016 batch companies', (f) => batchVerdict(f, 'Winter', 2016)),
  company('x20', 'dev', 'supply chain startups with at least 200 employees', (f) => all(topicVerdict(f, LOGISTICS), sizeVerdict(f, (n) => n >= 200))),

  // ---------------------------------------------------------------- researchers
  researcher('x21', 'dev', 'physicists at American universities', (f) => all(bool(f.category === 'Physics'), worksIn(f, USA))),
  researcher('x22', 'dev', 'Nobel laureates in chemistry who worked in the UK', (f) => all(bool(f.category === 'Chemistry'), worksIn(f, ['United Kingdom']))),
  researcher('x23', 'dev', 'economists born in the US', (f) => all(bool(f.category === 'Economics'), bornIn(f, USA))),
  researcher('x24', 'dev', 'Japanese-born physicists', (f) => all(bool(f.category === 'Physics'), bornIn(f, ['Japan']))),
  researcher('x25', 'dev', 'female Nobel prize winners in science', (f) => bool(f.gender === 'Female')),
  researcher('x26', 'dev', 'medicine laureates at the University of California', (f) => all(bool(f.category === 'Medicine'), institution(f, /University of California/))),

  // ---------------------------------------------------------------- papers
  paper('x27', 'dev', 'papers on neutrinos', (f) => bool(titleHas(f, /neutrino/))),
  paper('x28', 'dev', 'chemistry papers from the 1980s', (f) => bool(f.field === 'Chemistry' && f.pubYear >= 1980 && f.pubYear <= 1989)),
  paper('x29', 'dev', 'physics articles published before 1965', (f) => bool(f.field === 'Physics' && f.pubYear < 1965)),
  paper('x30', 'dev', 'publications about lasers or quantum dots', (f) => bool(titleHas(f, /laser|quantum dot/))),
];
