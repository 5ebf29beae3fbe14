/**
 * Dev-only queries added for tuning: new phrasings of the intents people search for (synonyms, word order,
 * "based in" / "headquartered in" / "HQ'd in", plural and singular kind words, numbers written out), each with
 * its gold set computed by the same rules over the records' fields. All are in the `dev` split, so the
 * held-out half stays exactly what it was; ids start with `x`.
 */
import {
  AI, all, B2B_SOFTWARE, BAY_AREA, bool, bornIn, cityVerdict, CLIMATE, company, CONSUMER, countryVerdict, DEVTOOLS, FINTECH, HEALTH,
  ECOMMERCE, EDUCATION, hqCityVerdict, institution, LOGISTICS, NYC, paper, regionVerdict, researcher, SF, sizeVerdict, stateVerdict,
  titleHas, topicVerdict, USA, worksIn, type C, type DevQuery, type R, type Topic, type Verdict,
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

/** The year of a batch written either way ("Summer 2014" or "S14"); null when the record has none. */
function batchYearOf(f: C): number | null {
  if (!f.batch) return null;
  const long = /\b(\d{4})\b/.exec(f.batch)?.[1];
  if (long) return Number(long);
  const short = /^[WS](\d{2})$/.exec(f.batch)?.[1];
  return short ? 2000 + Number(short) : null;
}

/** Born within the years, by the record's birth date; none recorded is maybe. */
function bornWithin(f: R, from: number, to: number): Verdict {
  if (!f.birthDate) return 'maybe';
  const y = Number(f.birthDate.slice(0, 4));
  return bool(y >= from && y <= to);
}

/** In one of several US states (the record's region codes), as "West Coast" or "East Coast" names them. */
function statesVerdict(f: C, codes: readonly string[]): Verdict {
  const verdicts = codes.map((code) => stateVerdict(f, code));
  return verdicts.includes('yes') ? 'yes' : verdicts.includes('maybe') ? 'maybe' : 'no';
}

/**
 * Based outside the United States: its first place (its headquarters) lies elsewhere; an office in the US besides
 * makes it arguable (maybe), as "not headquartered in" does below; a record with no place is maybe.
 */
function outsideUs(f: C): Verdict {
  if (f.places.length === 0) return 'maybe';
  if (f.places[0]!.country === 'USA') return 'no';
  return f.places.some((p) => p.country === 'USA') ? 'maybe' : 'yes';
}

/** Not of a topic ("excluding fintech"): an arguable member of the topic is arguable here too. */
function notTopic(f: C, t: Topic): Verdict {
  const v = topicVerdict(f, t);
  return v === 'yes' ? 'no' : v === 'no' ? 'yes' : 'maybe';
}

/**
 * Not headquartered in the state: its first place lies elsewhere (another of its places in the state makes it
 * arguable); a record with no place is maybe, a remote-only one yes.
 */
function notHqState(f: C, code: string): Verdict {
  if (f.places.length === 0) return f.remote ? 'yes' : 'maybe';
  const inState = (p: C['places'][number]) => p.country === 'USA' && p.region === code;
  if (inState(f.places[0]!)) return 'no';
  return f.places.some(inState) ? 'maybe' : 'yes';
}

const WEST_COAST = ['CA', 'OR', 'WA'];
/** The Atlantic seaboard states and DC. */
const EAST_COAST = ['ME', 'NH', 'MA', 'RI', 'CT', 'NY', 'NJ', 'PA', 'DE', 'MD', 'DC', 'VA', 'NC', 'SC', 'GA', 'FL'];
/** Countries as the records write them, for the regions people name ("LATAM", "Africa", "the Nordics", "DACH"). */
const LATAM = ['Mexico', 'Guatemala', 'Honduras', 'El Salvador', 'Nicaragua', 'Costa Rica', 'Panama', 'Cuba', 'Dominican Republic', 'Colombia', 'Venezuela', 'Ecuador', 'Peru', 'Bolivia', 'Brazil', 'Paraguay', 'Chile', 'Argentina', 'Uruguay'];
const AFRICA = ['Nigeria', 'Senegal', 'Kenya', 'Ghana', 'Egypt', 'South Africa', 'Morocco', 'Ethiopia', 'Rwanda', 'Uganda', 'Tanzania'];
const NORDICS = ['Norway', 'Sweden', 'Denmark', 'Finland', 'Iceland'];
const DACH = ['Germany', 'Austria', 'Switzerland'];

/** Not at an institution in any of the countries: one there says no; none recorded is maybe. */
function notWorksIn(f: R, countries: readonly string[]): Verdict {
  const v = worksIn(f, countries);
  return v === 'yes' ? 'no' : v === 'no' ? 'yes' : 'maybe';
}

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

  // Added for the recall work (issue 14, second pass): size bounds a headcount bucket may or may not settle,
  // founding-year windows, status and organisation form, hiring, batch seasons and years written as people
  // write them.
  company('x31', 'dev', 'startups with under 100 employees', (f) => sizeVerdict(f, (n) => n < 100)),
  company('x32', 'dev', 'tiny startups with fewer than 20 staff', (f) => sizeVerdict(f, (n) => n < 20)),
  company('x33', 'dev', 'companies employing more than 1,000 people', (f) => sizeVerdict(f, (n) => n > 1000)),
  company('x34', 'dev', 'B2B companies with 500+ employees', (f) => all(topicVerdict(f, B2B_SOFTWARE), sizeVerdict(f, (n) => n >= 500))),
  company('x35', 'dev', 'companies founded before 2013', (f) => launchedVerdict(f, 0, 2012)),
  company('x36', 'dev', 'startups founded between 2014 and 2016', (f) => launchedVerdict(f, 2014, 2016)),
  company('x37', 'dev', 'B2B software companies that got acquired', (f) => all(topicVerdict(f, B2B_SOFTWARE), status(f, 'Acquired'))),
  company('x38', 'dev', 'San Francisco-based companies listed on the stock exchange', (f) => all(status(f, 'Public'), hqCityVerdict(f, SF))),
  company('x39', 'dev', 'nonprofit organizations in the United States', (f) => all(bool(f.nonprofit), countryVerdict(f, ['USA']))),
  company('x40', 'dev', 'consumer companies currently hiring', (f) => all(topicVerdict(f, CONSUMER), bool(f.hiring))),
  company('x41', 'dev', 'Y Combinator Summer 2012 companies', (f) => batchVerdict(f, 'Summer', 2012)),
  company('x42', 'dev', "startups from YC's 2014 batches", (f) => bool(batchYearOf(f) === 2014)),

  // Added for company generalisation (issue 14, fourth pass): regions no gazetteer names as a country or state
  // ("West Coast", "Asia", "outside the US"), sector words people use ("devtools", "climate tech", "edtech",
  // "AI"), a negated sector, two places at once, kind words ("ventures", "teams", "orgs", "firms"), status said
  // as people say it ("went under", "still operating"), and place + size + status together.
  company('x58', 'dev', 'healthcare companies on the West Coast', (f) => all(topicVerdict(f, HEALTH), statesVerdict(f, WEST_COAST))),
  company('x59', 'dev', 'startups based outside the US', (f) => outsideUs(f)),
  company('x60', 'dev', 'edtech startups that are still operating', (f) => all(topicVerdict(f, EDUCATION), status(f, 'Active'))),
  company('x61', 'dev', 'B2B software companies excluding fintech', (f) => all(topicVerdict(f, B2B_SOFTWARE), notTopic(f, FINTECH))),
  company('x62', 'dev', 'devtools companies in San Francisco', (f) => all(topicVerdict(f, DEVTOOLS), cityVerdict(f, SF))),
  company('x63', 'dev', 'AI startups in the Bay Area', (f) => all(topicVerdict(f, AI), cityVerdict(f, BAY_AREA))),
  company('x64', 'dev', 'climate tech ventures', (f) => topicVerdict(f, CLIMATE)),
  company('x65', 'dev', 'acquired companies in New York', (f) => all(status(f, 'Acquired'), cityVerdict(f, NYC))),
  company('x66', 'dev', 'East Coast companies', (f) => statesVerdict(f, EAST_COAST)),
  company('x67', 'dev', 'startups in Asia', (f) => countryVerdict(f, ['India', 'Nepal'])),
  company('x68', 'dev', 'nonprofits outside the United States', (f) => all(bool(f.nonprofit), outsideUs(f))),
  company('x69', 'dev', 'startups that went under', (f) => status(f, 'Inactive')),
  company('x70', 'dev', 'teams hiring in the Bay Area', (f) => all(bool(f.hiring), cityVerdict(f, BAY_AREA))),
  company('x71', 'dev', 'mid-sized B2B firms (50 to 500 employees)', (f) => all(topicVerdict(f, B2B_SOFTWARE), sizeVerdict(f, (n) => n >= 50 && n <= 500))),
  company('x72', 'dev', 'consumer businesses in California with more than 200 employees', (f) => all(topicVerdict(f, CONSUMER), stateVerdict(f, 'CA'), sizeVerdict(f, (n) => n > 200))),
  company('x73', 'dev', 'fintech orgs that got acquired', (f) => all(topicVerdict(f, FINTECH), status(f, 'Acquired'))),
  company('x74', 'dev', 'companies in Los Angeles or Chicago', (f) => cityVerdict(f, ['Los Angeles', 'Chicago'])),
  company('x75', 'dev', 'companies not headquartered in California', (f) => notHqState(f, 'CA')),
  company('x76', 'dev', 'non-fintech consumer companies', (f) => all(topicVerdict(f, CONSUMER), notTopic(f, FINTECH))),
  // Typed in lower case, as people type into a search box.
  company('x77', 'dev', 'west coast healthcare startups', (f) => all(topicVerdict(f, HEALTH), statesVerdict(f, WEST_COAST))),
  company('x78', 'dev', 'startups in sf that are hiring', (f) => all(bool(f.hiring), cityVerdict(f, SF))),
  company('x79', 'dev', 'companies in texas, georgia or illinois', (f) => statesVerdict(f, ['TX', 'GA', 'IL'])),

  // ---------------------------------------------------------------- researchers
  researcher('x21', 'dev', 'physicists at American universities', (f) => all(bool(f.category === 'Physics'), worksIn(f, USA))),
  researcher('x22', 'dev', 'Nobel laureates in chemistry who worked in the UK', (f) => all(bool(f.category === 'Chemistry'), worksIn(f, ['United Kingdom']))),
  researcher('x23', 'dev', 'economists born in the US', (f) => all(bool(f.category === 'Economics'), bornIn(f, USA))),
  researcher('x24', 'dev', 'Japanese-born physicists', (f) => all(bool(f.category === 'Physics'), bornIn(f, ['Japan']))),
  researcher('x25', 'dev', 'female Nobel prize winners in science', (f) => bool(f.gender === 'Female')),
  researcher('x26', 'dev', 'medicine laureates at the University of California', (f) => all(bool(f.category === 'Medicine'), institution(f, /University of California/))),

  researcher('x43', 'dev', 'Nobel laureates affiliated with Japanese universities', (f) => worksIn(f, ['Japan'])),
  researcher('x44', 'dev', 'chemistry Nobel winners from 2010 to 2013', (f) => bool(f.category === 'Chemistry' && f.prizeYear >= 2010 && f.prizeYear <= 2013)),
  researcher('x45', 'dev', 'physics laureates awarded after 2012', (f) => bool(f.category === 'Physics' && f.prizeYear > 2012)),
  researcher('x46', 'dev', 'scientists working at French institutions', (f) => worksIn(f, ['France'])),
  researcher('x47', 'dev', 'laureates born before 1940', (f) => bornWithin(f, 0, 1939)),

  // ---------------------------------------------------------------- papers
  paper('x27', 'dev', 'papers on neutrinos', (f) => bool(titleHas(f, /neutrino/))),
  paper('x28', 'dev', 'chemistry papers from the 1980s', (f) => bool(f.field === 'Chemistry' && f.pubYear >= 1980 && f.pubYear <= 1989)),
  paper('x29', 'dev', 'physics articles published before 1965', (f) => bool(f.field === 'Physics' && f.pubYear < 1965)),
  paper('x48', 'dev', 'physics publications of the seventies', (f) => bool(f.field === 'Physics' && f.pubYear >= 1970 && f.pubYear <= 1979)),
  paper('x49', 'dev', 'chemistry papers published after 1990', (f) => bool(f.field === 'Chemistry' && f.pubYear > 1990)),
  paper('x50', 'dev', 'papers published between 1960 and 1975', (f) => bool(f.pubYear >= 1960 && f.pubYear <= 1975)),
  paper('x30', 'dev', 'publications about lasers or quantum dots', (f) => bool(titleHas(f, /laser|quantum dot/))),

  // Added for paper recall (issue 14, third pass): a topic word of the title, a field with a decade or a bound,
  // a decade alone, the prize a paper was cited for; measured most tellingly on journal-page,bibliography.
  paper('x51', 'dev', 'physics papers from the 1960s', (f) => bool(f.field === 'Physics' && f.pubYear >= 1960 && f.pubYear <= 1969)),
  paper('x52', 'dev', 'research articles on superconductivity', (f) => bool(titleHas(f, /superconduct/))),
  paper('x53', 'dev', 'chemistry publications before 1980', (f) => bool(f.field === 'Chemistry' && f.pubYear < 1980)),
  paper('x54', 'dev', 'scientific papers about quantum physics', (f) => bool(f.field === 'Physics' && titleHas(f, /quantum/))),
  paper('x55', 'dev', 'papers published in the 1990s', (f) => bool(f.pubYear >= 1990 && f.pubYear <= 1999)),
  paper('x56', 'dev', 'journal articles on magnetism', (f) => bool(titleHas(f, /magnet/))),
  paper('x57', 'dev', 'chemistry research papers from the 1970s', (f) => bool(f.field === 'Chemistry' && f.pubYear >= 1970 && f.pubYear <= 1979)),

  // Added for generalisation (issue 14, fourth pass): other kind words for a paper (study, publication, work,
  // article; academic, scholarly, peer-reviewed), a title word said in another form than the title prints it
  // ("atoms" for "atomic", "catalysis" for "catalytic"), a singular kind word; researchers by gender and
  // field, a birth decade, where born, one institution or another, the prize year.
  paper('x80', 'dev', 'studies about atoms', (f) => bool(titleHas(f, /atom/))),
  paper('x81', 'dev', 'publications with resonance in the title', (f) => bool(titleHas(f, /resonan/))),
  paper('x82', 'dev', 'academic papers on lasers', (f) => bool(titleHas(f, /laser/))),
  paper('x83', 'dev', 'peer-reviewed chemistry articles published after 1985', (f) => bool(f.field === 'Chemistry' && f.pubYear > 1985)),
  paper('x84', 'dev', 'a physics paper from the 1980s', (f) => bool(f.field === 'Physics' && f.pubYear >= 1980 && f.pubYear <= 1989)),
  paper('x85', 'dev', 'scholarly works on proteins', (f) => bool(titleHas(f, /protein/))),
  paper('x86', 'dev', 'catalysis research papers', (f) => bool(titleHas(f, /cataly/))),
  researcher('x87', 'dev', 'women laureates in medicine', (f) => all(bool(f.gender === 'Female'), bool(f.category === 'Medicine'))),
  researcher('x88', 'dev', 'laureates born in the 1930s', (f) => bornWithin(f, 1930, 1939)),
  researcher('x89', 'dev', 'UK-born scientists', (f) => bornIn(f, ['United Kingdom'])),
  researcher('x90', 'dev', 'scientists at Stanford or Harvard', (f) => institution(f, /Stanford|Harvard/)),
  researcher('x91', 'dev', 'researchers who won the Nobel prize in 2012', (f) => bool(f.prizeYear === 2012)),
  paper('x92', 'dev', 'papers behind the 2005 Nobel Prize in Chemistry', (f) => bool(f.field === 'Chemistry' && f.prizeYear === 2005)),
  paper('x93', 'dev', 'physics papers that led to the 2003 prize', (f) => bool(f.field === 'Physics' && f.prizeYear === 2003)),
  // "From Japan" is where they work, as "startups from Berlin" is where they are based; born there alone is arguable.
  researcher('x94', 'dev', 'Nobel laureates from Japan', (f) => (worksIn(f, ['Japan']) === 'no' && bornIn(f, ['Japan']) === 'yes' ? 'maybe' : worksIn(f, ['Japan']))),
  researcher('x95', 'dev', 'chemistry professors at US universities', (f) => all(bool(f.category === 'Chemistry'), worksIn(f, USA))),
  paper('x96', 'dev', 'research on neutrinos', (f) => bool(titleHas(f, /neutrino/))),

  // Added for precision as much as recall (issue 14, fifth pass): negations and exclusions, sizes and dates written
  // many ways, stage and form (public, exited, shut down, for-profit, B2C), several constraints at once, other kind
  // words ("outfits", "physicists", "articles"), place forms ("NYC", "LATAM", "the Nordics", "DACH", "Africa", US
  // state codes), papers by a family of title words and by decade, researchers by field, prize year and the country
  // of their institution.
  company('x97', 'dev', 'companies with under 50 people', (f) => sizeVerdict(f, (n) => n < 50)),
  company('x98', 'dev', 'startups founded before 2014', (f) => launchedVerdict(f, 0, 2013)),
  company('x99', 'dev', 'post-2018 startups', (f) => launchedVerdict(f, 2019, 9999)),
  company('x100', 'dev', 'fintech companies that are not hiring', (f) => all(topicVerdict(f, FINTECH), bool(!f.hiring))),
  company('x101', 'dev', 'B2B startups that exited', (f) => all(topicVerdict(f, B2B_SOFTWARE), bool(f.status === 'Acquired' || f.status === 'Public'))),
  company('x102', 'dev', 'companies that have shut down', (f) => status(f, 'Inactive')),
  company('x103', 'dev', 'nonprofit orgs in the Bay Area', (f) => all(bool(f.nonprofit), cityVerdict(f, BAY_AREA))),
  company('x104', 'dev', 'for-profit healthcare companies', (f) => all(bool(!f.nonprofit), topicVerdict(f, HEALTH))),
  company('x105', 'dev', 'B2C startups in NYC', (f) => all(topicVerdict(f, CONSUMER), cityVerdict(f, NYC))),
  company('x106', 'dev', 'publicly traded firms in CA', (f) => all(status(f, 'Public'), stateVerdict(f, 'CA'))),
  company('x107', 'dev', 'LATAM startups', (f) => countryVerdict(f, LATAM)),
  company('x108', 'dev', 'African startups', (f) => countryVerdict(f, AFRICA)),
  company('x109', 'dev', 'companies in NY', (f) => stateVerdict(f, 'NY')),
  company('x110', 'dev', 'startups based in MA, IL or GA', (f) => statesVerdict(f, ['MA', 'IL', 'GA'])),
  company('x111', 'dev', 'companies in Boston', (f) => cityVerdict(f, ['Boston'])),
  company('x112', 'dev', 'AI companies in SF', (f) => all(topicVerdict(f, AI), cityVerdict(f, SF))),
  company('x113', 'dev', 'e-commerce outfits', (f) => topicVerdict(f, ECOMMERCE)),
  company('x114', 'dev', 'SaaS firms with 1000+ employees', (f) => all(topicVerdict(f, B2B_SOFTWARE), sizeVerdict(f, (n) => n >= 1000))),
  company('x115', 'dev', 'healthcare companies that have not been acquired', (f) => all(topicVerdict(f, HEALTH), bool(f.status !== 'Acquired'))),
  company('x116', 'dev', 'Bay Area fintechs with fewer than 100 employees', (f) => all(topicVerdict(f, FINTECH), cityVerdict(f, BAY_AREA), sizeVerdict(f, (n) => n < 100))),
  company('x117', 'dev', 'fintech firms founded 2012-2014', (f) => all(topicVerdict(f, FINTECH), launchedVerdict(f, 2012, 2014))),
  company('x118', 'dev', 'YC companies from 2012 that are still active', (f) => all(bool(batchYearOf(f) === 2012), status(f, 'Active'))),
  company('x119', 'dev', 'consumer companies with between 100 and 1000 employees that are hiring', (f) => all(topicVerdict(f, CONSUMER), sizeVerdict(f, (n) => n >= 100 && n <= 1000), bool(f.hiring))),
  company('x120', 'dev', 'education nonprofits outside California', (f) => all(bool(f.nonprofit), topicVerdict(f, EDUCATION), notHqState(f, 'CA'))),
  researcher('x121', 'dev', 'physicists at Japanese universities', (f) => all(bool(f.category === 'Physics'), worksIn(f, ['Japan']))),
  researcher('x122', 'dev', 'economists who won the prize after 2012', (f) => bool(f.category === 'Economics' && f.prizeYear > 2012)),
  researcher('x123', 'dev', 'Nobel chemists at British institutions', (f) => all(bool(f.category === 'Chemistry'), worksIn(f, ['United Kingdom']))),
  researcher('x124', 'dev', 'laureates working in the Nordics', (f) => worksIn(f, NORDICS)),
  researcher('x125', 'dev', 'scientists at institutions in the DACH region', (f) => worksIn(f, DACH)),
  researcher('x126', 'dev', 'medicine laureates not based in the US', (f) => all(bool(f.category === 'Medicine'), notWorksIn(f, USA))),
  researcher('x127', 'dev', 'laureates born after 1950', (f) => bornWithin(f, 1951, 9999)),
  researcher('x128', 'dev', 'Nobel winners at MIT or Princeton', (f) => institution(f, /Massachusetts Institute of Technology|\bMIT\b|Princeton/)),
  researcher('x129', 'dev', 'physics laureates of 2009-2011', (f) => bool(f.category === 'Physics' && f.prizeYear >= 2009 && f.prizeYear <= 2011)),
  paper('x130', 'dev', 'articles on superfluids', (f) => bool(titleHas(f, /superflu/))),
  paper('x131', 'dev', 'papers about DNA', (f) => bool(titleHas(f, /\bdna\b/))),
  paper('x132', 'dev', 'chemistry papers from before 1970', (f) => bool(f.field === 'Chemistry' && f.pubYear < 1970)),
  paper('x133', 'dev', 'physics papers published in the 2000s', (f) => bool(f.field === 'Physics' && f.pubYear >= 2000 && f.pubYear <= 2009)),
  paper('x134', 'dev', 'papers on polymers', (f) => bool(titleHas(f, /polymer(?!ase)/))),
  paper('x135', 'dev', 'papers on gauge theories', (f) => bool(titleHas(f, /gauge/))),
  paper('x136', 'dev', 'neutrino papers', (f) => bool(titleHas(f, /neutrino/))),
  paper('x137', 'dev', 'papers from the 50s and 60s', (f) => bool(f.pubYear >= 1950 && f.pubYear <= 1969)),
  paper('x138', 'dev', 'pre-1960 articles', (f) => bool(f.pubYear < 1960)),
];
