import nlp from 'compromise';
import { continents, countries } from 'countries-list';
import worldCountries from 'world-countries';
import { distanceKm, loadGazetteerIndex, placeKey, type CityRow, type GazetteerIndex } from './gazetteer-index.js';

/**
 * Places and their containment (San Francisco ⊂ California ⊂ United States ⊂ North America; Berlin ⊂
 * Germany ⊂ Europe), read from two maintained gazetteer packages: `country-state-city` (countries, their
 * states and cities) and `countries-list` (continents, country aliases, capitals). Their lookup tables
 * (gazetteer-index.ts: about 150 000 city names) are loaded once, ahead of the first query, and kept for the process.
 */

export type PlaceLevel = 'city' | 'state' | 'country' | 'region';

export interface Place {
  name: string;
  level: PlaceLevel;
  /** ISO 3166-1 alpha-2 of the country it is in (or is); absent for a region. */
  country?: string;
  /** The state's code within its country (for a state or a city). */
  state?: string;
  /** countries-list continent code (EU, NA, AS, …). */
  continent?: string;
}

/** What page text also calls a place (demonyms and short forms the gazetteer does not list). */
const ALSO_KNOWN_AS: Record<string, string[]> = {
  DE: ['German'], GB: ['UK', 'U.K.', 'British', 'Britain', 'England'], FR: ['French'], NL: ['Dutch'], US: ['U.S.', 'U.S.A.', 'American'],
  IN: ['Indian'], CA: ['Canadian'], ES: ['Spanish'], IT: ['Italian'], EU: ['European'],
  CH: ['Swiss'], SE: ['Swedish'], NO: ['Norwegian'], DK: ['Danish'], FI: ['Finnish'], IE: ['Irish'], BE: ['Belgian'],
  AT: ['Austrian'], PL: ['Polish'], PT: ['Portuguese'], RU: ['Russian'], IL: ['Israeli'], JP: ['Japanese'],
  CN: ['Chinese'], KR: ['Korean', 'South Korean'], SG: ['Singaporean'], AU: ['Australian'], NZ: ['New Zealand'],
  BR: ['Brazilian'], MX: ['Mexican'], AR: ['Argentine', 'Argentinian'], NG: ['Nigerian'], KE: ['Kenyan'],
  ZA: ['South African'], EG: ['Egyptian'], TR: ['Turkish'], AE: ['Emirati'], ID: ['Indonesian'], CO: ['Colombian'],
  CL: ['Chilean'], HU: ['Hungarian'], CZ: ['Czech'], GR: ['Greek'], UA: ['Ukrainian'],
};

/** Continents by their adjectives (keyed by countries-list continent code, which can clash with a country's). */
const REGION_ALSO_KNOWN_AS: Record<string, string[]> = {
  AS: ['Asian'], AF: ['African'], SA: ['South American'], NA: ['North American'], EU: ['European'],
};

/**
 * Parts of continents people search by ("South Asia", "Latin America", "West Africa", "the Middle East"): the
 * UN geoscheme subregions as the `world-countries` package gives each country's, under the names people use.
 * Latin America is South and Central America, the Caribbean and Mexico; the Middle East is Western Asia with
 * Egypt and Iran.
 */
const SUBREGIONS: { names: string[]; adjectives: string[]; subregions: string[]; plus?: string[] }[] = [
  { names: ['South Asia', 'Southern Asia'], adjectives: ['South Asian'], subregions: ['Southern Asia'] },
  { names: ['Southeast Asia', 'South-East Asia', 'South East Asia', 'South-Eastern Asia'], adjectives: ['Southeast Asian'], subregions: ['South-Eastern Asia'] },
  { names: ['East Asia', 'Eastern Asia'], adjectives: ['East Asian'], subregions: ['Eastern Asia'] },
  { names: ['Central Asia'], adjectives: ['Central Asian'], subregions: ['Central Asia'] },
  { names: ['Middle East', 'Western Asia'], adjectives: ['Middle Eastern'], subregions: ['Western Asia'], plus: ['EG', 'IR'] },
  { names: ['Latin America', 'LatAm', 'LATAM'], adjectives: ['Latin American'], subregions: ['South America', 'Central America', 'Caribbean'], plus: ['MX'] },
  { names: ['Central America'], adjectives: ['Central American'], subregions: ['Central America'] },
  { names: ['Caribbean', 'the Caribbean'], adjectives: ['Caribbean'], subregions: ['Caribbean'] },
  { names: ['Western Europe'], adjectives: ['Western European'], subregions: ['Western Europe'] },
  { names: ['Northern Europe'], adjectives: ['Northern European'], subregions: ['Northern Europe'] },
  { names: ['Southern Europe'], adjectives: ['Southern European'], subregions: ['Southern Europe', 'Southeast Europe'] },
  { names: ['Eastern Europe'], adjectives: ['Eastern European'], subregions: ['Eastern Europe'] },
  { names: ['Central Europe'], adjectives: ['Central European'], subregions: ['Central Europe'] },
  { names: ['West Africa', 'Western Africa'], adjectives: ['West African'], subregions: ['Western Africa'] },
  { names: ['East Africa', 'Eastern Africa'], adjectives: ['East African'], subregions: ['Eastern Africa'] },
  { names: ['North Africa', 'Northern Africa'], adjectives: ['North African'], subregions: ['Northern Africa'] },
  { names: ['Southern Africa'], adjectives: [], subregions: ['Southern Africa'] },
  { names: ['Sub-Saharan Africa'], adjectives: ['Sub-Saharan'], subregions: ['Western Africa', 'Eastern Africa', 'Middle Africa', 'Southern Africa'] },
  // Groups of countries people name that are no UN subregion: the Nordic Council's five, Scandinavia's three, the
  // German-speaking DACH, the Benelux union.
  { names: ['Nordics', 'Nordic countries', 'Nordic region'], adjectives: ['Nordic'], subregions: [], plus: ['DK', 'FI', 'IS', 'NO', 'SE'] },
  { names: ['Scandinavia'], adjectives: ['Scandinavian'], subregions: [], plus: ['DK', 'NO', 'SE'] },
  { names: ['DACH', 'DACH region', 'DACH countries'], adjectives: [], subregions: [], plus: ['DE', 'AT', 'CH'] },
  { names: ['Benelux', 'Benelux countries'], adjectives: [], subregions: [], plus: ['BE', 'NL', 'LU'] },
];

/**
 * Parts of a country people search by that are no state of it ("the West Coast", "the Midwest", "New England"):
 * the states each is made of, by the codes `country-state-city` gives them. The Midwest and New England are the
 * US Census Bureau's region and division; the coasts are the states on the Pacific and on the Atlantic seaboard
 * (with DC); the Pacific Northwest is Washington, Oregon and Idaho.
 */
const STATE_GROUPS: { names: string[]; adjectives: string[]; country: string; states: string[] }[] = [
  { names: ['West Coast', 'Pacific Coast', 'US West Coast'], adjectives: [], country: 'US', states: ['CA', 'OR', 'WA'] },
  { names: ['East Coast', 'Eastern Seaboard', 'Atlantic Coast', 'US East Coast'], adjectives: [], country: 'US',
    states: ['ME', 'NH', 'MA', 'RI', 'CT', 'NY', 'NJ', 'PA', 'DE', 'MD', 'DC', 'VA', 'NC', 'SC', 'GA', 'FL'] },
  { names: ['New England'], adjectives: [], country: 'US', states: ['ME', 'NH', 'VT', 'MA', 'RI', 'CT'] },
  { names: ['Midwest', 'Midwestern United States', 'American Midwest'], adjectives: ['Midwestern'], country: 'US',
    states: ['IL', 'IN', 'MI', 'OH', 'WI', 'IA', 'KS', 'MN', 'MO', 'NE', 'ND', 'SD'] },
  { names: ['Pacific Northwest', 'PNW'], adjectives: [], country: 'US', states: ['WA', 'OR', 'ID'] },
];

function stateGroup(name: string): (typeof STATE_GROUPS)[number] | null {
  const key = norm(name).replace(/^the /, '');
  return STATE_GROUPS.find((g) => [...g.names, ...g.adjectives].some((n) => norm(n) === key)) ?? null;
}

/** A group of states as a place: a region within its country. */
function stateGroupPlace(name: string): Place | null {
  const group = stateGroup(name);
  if (!group) return null;
  const continent = continentOf(group.country);
  return { name: group.names[0]!, level: 'region', country: group.country, ...(continent ? { continent } : {}) };
}

/** The group of states a region place is, when it is one (a region with a country). */
function stateGroupOf(place: Place): (typeof STATE_GROUPS)[number] | null {
  return place.level === 'region' && place.country !== undefined ? stateGroup(place.name) : null;
}

/** ISO2 codes of a subregion's countries, by any of its names or adjectives; null when the name is none. */
const subregionMemo = new Map<string, { name: string; members: Set<string> } | null>();

function subregionMembers(name: string): { name: string; members: Set<string> } | null {
  const known = subregionMemo.get(name);
  if (known !== undefined) return known;
  const found = readSubregion(name);
  subregionMemo.set(name, found);
  return found;
}

function readSubregion(name: string): { name: string; members: Set<string> } | null {
  const key = norm(name).replace(/^the /, '');
  const entry = SUBREGIONS.find((r) => [...r.names, ...r.adjectives].some((n) => norm(n) === key));
  if (!entry) return null;
  const members = new Set(worldCountries.filter((c) => entry.subregions.includes(c.subregion)).map((c) => c.cca2));
  for (const code of entry.plus ?? []) members.add(code);
  return { name: entry.names[0]!, members };
}

function subregionPlace(name: string): Place | null {
  const sub = subregionMembers(name);
  if (!sub) return null;
  // Its continent, when all its countries share one (Latin America spans two).
  const continentsOf = new Set([...sub.members].map((c) => continentOf(c)));
  const only = continentsOf.size === 1 ? [...continentsOf][0] : undefined;
  return { name: sub.name, level: 'region', ...(only ? { continent: only } : {}) };
}

/**
 * Short forms people type for a few cities ("NYC-based", "SF startups"), which the gazetteer lists only by
 * their full names.
 */
const CITY_SHORT_FORMS: Record<string, { name: string; country: string; state: string }> = {
  nyc: { name: 'New York City', country: 'US', state: 'NY' },
  sf: { name: 'San Francisco', country: 'US', state: 'CA' },
  la: { name: 'Los Angeles', country: 'US', state: 'CA' },
  dc: { name: 'Washington', country: 'US', state: 'DC' },
};

/**
 * A US state by its postal code, typed in capitals as people type it ("companies in NY", "startups based in MA, IL
 * or GA", "CA startups"): the codes `country-state-city` gives the states. Capitals only, so "in" or "or" is never
 * Indiana or Oregon; "DC" stays the city (a short form above).
 */
function usStateByCode(word: string): Place | null {
  if (!/^[A-Z]{2}$/.test(word) || CITY_SHORT_FORMS[word.toLowerCase()]) return null;
  return gazetteer().stateByCode.has(`US/${word}`) ? statePlace('US', word) : null;
}

/**
 * Metropolitan areas: named ones no gazetteer lists as a unit ("the Bay Area", "Silicon Valley"), each as the
 * cities within a distance of its core, and "Greater X", "the X area", "X metro area" around any city the
 * gazetteer knows. Membership is by the gazetteer's coordinates, so Palo Alto and Oakland lie in the Bay
 * Area and Sacramento does not, without a list of member towns.
 */
interface Area {
  core: { name: string; country: string; state: string };
  radiusKm: number;
  names: string[];
  /** The core's name is a city in several countries ("Boston"): a city near any of them is in the area. */
  anyCore?: boolean;
}
const NAMED_AREAS: Area[] = [
  { core: { name: 'San Francisco', country: 'US', state: 'CA' }, radiusKm: 75, names: ['Bay Area', 'San Francisco Bay Area', 'SF Bay Area', 'SF Bay'] },
  { core: { name: 'Sunnyvale', country: 'US', state: 'CA' }, radiusKm: 30, names: ['Silicon Valley'] },
];
const METRO_RADIUS_KM = 50;
const METRO_FORM = /^(?:greater\s+(.+)|(.+?)\s+(?:metro(?:politan)?\s+area|metro|area|region))$/i;

function areaByName(name: string): Area | null {
  const key = norm(name);
  const named = NAMED_AREAS.find((a) => a.names.some((n) => norm(n) === key));
  if (named) return named;
  const m = METRO_FORM.exec(name.trim());
  const base = m ? (m[1] ?? m[2])! : null;
  if (!base || /^(?:bay|the)$/i.test(base)) return null;
  const short = CITY_SHORT_FORMS[norm(base)];
  if (short) return { core: short, radiusKm: METRO_RADIUS_KM, names: [name.trim()] };
  const rows = gazetteer().cities.get(norm(base));
  const city = rows && rows.length > 0 ? likeliestCity(rows) : null;
  return city ? { core: { name: city.name, country: city.country, state: city.state }, radiusKm: METRO_RADIUS_KM, names: [name.trim()], anyCore: true } : null;
}

/** The place an area name denotes: a city-level place named for the area, in its core's state and country. */
function areaPlace(name: string): Place | null {
  const area = areaByName(name);
  if (!area) return null;
  const continent = continentOf(area.core.country);
  const display = NAMED_AREAS.includes(area) ? area.names[0]! : name.trim().replace(/^greater\b/, 'Greater');
  return { name: display, level: 'city', country: area.core.country, state: area.core.state, ...(continent ? { continent } : {}) };
}

/** The coordinates the gazetteer gives a city place (its row in that country and state), if any. */
function coordinatesOf(place: { name: string; country?: string; state?: string }): { lat: number; lng: number } | null {
  const rows = gazetteer().cities.get(norm(place.name)) ?? gazetteer().cities.get(norm(place.name.replace(/ City$/i, ''))) ?? [];
  const row = rows.find((r) => r.lat !== undefined && r.country === place.country && (!place.state || r.state === place.state))
    ?? rows.find((r) => r.lat !== undefined && r.country === place.country);
  return row && row.lat !== undefined && row.lng !== undefined ? { lat: row.lat, lng: row.lng } : null;
}

/**
 * The metropolitan area around a city: the named area it is the core of ("Bay Area" for San Francisco), else
 * "Greater X" (the towns within METRO_RADIUS_KM). Null where the gazetteer has no coordinates to draw it by.
 */
function metroAreaOf(city: Place): Place | null {
  if (!coordinatesOf(city)) return null;
  const named = NAMED_AREAS.find((a) => norm(a.core.name) === norm(city.name) && a.core.country === city.country);
  if (named) return areaPlace(named.names[0]!);
  const area: Place = { ...city, name: `Greater ${city.name}` };
  return isArea(area) ? area : null;
}

/** True when the place is a metropolitan area ("Bay Area", "Greater London"), not a city of its own. */
export function isArea(place: Place): boolean {
  return place.level === 'city' && place.country !== undefined && areaByName(place.name) !== null;
}

/** The article a place name is said with: "the United States", "the Netherlands", "the Bay Area"; "Greater London" has none. */
export function theFor(place: Place): string {
  if (isArea(place)) return /^greater\b/i.test(place.name) ? '' : 'the ';
  // A part of a country ("the West Coast", "the Midwest") takes the article; "New England" does not.
  if (place.level === 'region' && place.country) return /^New\b/.test(place.name) ? '' : 'the ';
  if (place.level === 'region') return /^(?:Middle East|Caribbean|Nordics)/.test(place.name) ? 'the ' : '';
  return place.level === 'country' && /^(United|Netherlands|Philippines)/.test(place.name) ? 'the ' : '';
}

/** The city at an area's core ("San Francisco" for the Bay Area): pages name it, searches may too. */
export function areaCore(place: Place): string | null {
  return isArea(place) ? areaByName(place.name)!.core.name : null;
}

/** A city lies in an area when the gazetteer places it within the area's distance of its core. */
function inArea(area: Area, inner: Place): boolean {
  if (inner.level !== 'city') return false;
  if (area.names.some((n) => norm(n) === norm(inner.name))) return inner.country === area.core.country;
  const at = coordinatesOf(inner);
  if (!at) return false;
  const cores = area.anyCore
    ? (gazetteer().cities.get(norm(area.core.name)) ?? []).filter((r) => r.country === inner.country).map((r) => ({ name: r.name, country: r.country, state: r.state }))
    : inner.country === area.core.country ? [area.core] : [];
  return cores.some((c) => {
    const core = coordinatesOf(c);
    return core !== null && distanceKm(core, at) <= area.radiusKm;
  });
}

/** A demonym or short form ("American", "U.S.", "Swiss", "European") as the place it names. */
function aliasPlace(name: string): Place | null {
  const key = norm(name);
  const sub = subregionPlace(name) ?? stateGroupPlace(name);
  if (sub) return sub;
  for (const [code, names] of Object.entries(REGION_ALSO_KNOWN_AS)) if (names.some((n) => norm(n) === key)) return regionPlace(code);
  for (const [code, names] of Object.entries(ALSO_KNOWN_AS)) if (code in countries && names.some((n) => norm(n) === key)) return countryPlace(code);
  return null;
}

const norm = placeKey;

let index: GazetteerIndex | null = null;

function gazetteer(): GazetteerIndex {
  index ??= loadGazetteerIndex();
  return index;
}

/** Builds the gazetteer's index ahead of the first query (about 0.3 s of start-up instead of the first run's time). */
export function warmGazetteer(): void {
  const timer = setTimeout(() => gazetteer(), 0);
  timer.unref?.();
}

function countryName(iso2: string): string {
  return (countries as Record<string, { name: string }>)[iso2]?.name ?? iso2;
}

function continentOf(iso2: string): string | undefined {
  return (countries as Record<string, { continent: string }>)[iso2]?.continent;
}

function countryPlace(iso2: string): Place {
  const continent = continentOf(iso2);
  return { name: countryName(iso2), level: 'country', country: iso2, ...(continent ? { continent } : {}) };
}

function statePlace(country: string, code: string): Place {
  const s = gazetteer().stateByCode.get(`${country}/${code}`);
  const continent = continentOf(country);
  return { name: s?.name ?? code, level: 'state', country, state: code, ...(continent ? { continent } : {}) };
}

function cityPlace(row: CityRow): Place {
  const continent = continentOf(row.country);
  return { name: row.name, level: 'city', country: row.country, state: row.state, ...(continent ? { continent } : {}) };
}

function regionPlace(code: string): Place {
  return { name: (continents as Record<string, string>)[code] ?? code, level: 'region', continent: code };
}

/**
 * The likeliest reading of a lone city name: a capital, then a city-state (Hamburg), then the city in the
 * state with the most listed cities (a proxy for the populous place: San Francisco, CA over Argentina's).
 */
function likeliestCity(rows: readonly CityRow[], within?: { country?: string; state?: string }): CityRow | null {
  let pool = rows.filter((r) => (!within?.country || r.country === within.country) && (!within?.state || r.state === within.state));
  if (pool.length === 0) return null;
  // The place people mean by a name is the one most people live in: Boston, Massachusetts, not the town in
  // Lincolnshire; Toronto in Ontario, San Jose in California. By GeoNames population where it knows both.
  const populous = [...pool].sort((a, b) => (b.population ?? 0) - (a.population ?? 0));
  if ((populous[0]!.population ?? 0) > 0 && (populous[0]!.population ?? 0) > (populous[1]?.population ?? 0)) return populous[0]!;
  const idx = gazetteer();
  const capitalOf = idx.capitals.get(norm(pool[0]!.name));
  const capital = pool.find((r) => r.country === capitalOf);
  if (capital) return capital;
  const cityState = pool.find((r) => norm(idx.stateByCode.get(`${r.country}/${r.state}`)?.name ?? '') === norm(r.name));
  if (cityState) return cityState;
  pool = [...pool].sort((a, b) => (idx.citiesPerState.get(`${b.country}/${b.state}`) ?? 0) - (idx.citiesPerState.get(`${a.country}/${a.state}`) ?? 0));
  return pool[0]!;
}

const REGION_NAMES = new Map(Object.entries(continents).map(([code, name]) => [norm(name), code] as const));

/** The place a name denotes on its own (a query's "in X"), or null when the gazetteer knows no such place. */
export function knownPlace(name: string): Place | null {
  const key = norm(name);
  if (!key) return null;
  const idx = gazetteer();
  const short = CITY_SHORT_FORMS[key];
  if (short && name.trim() === name.trim().toUpperCase()) return cityPlace(short);
  // "the Bay Area", "Greater London", "the Boston area": a metropolitan area around a city the gazetteer knows
  // (even where it also lists the area's name as one point, as it does "Greater London").
  const area = areaPlace(name);
  if (area) return area;
  const region = REGION_NAMES.get(key);
  if (region) return regionPlace(region);
  const sub = subregionPlace(name) ?? stateGroupPlace(name);
  if (sub) return sub;
  const iso2 = key.length > 2 || /^(us|uk)$/.test(key) ? idx.countries.get(key) ?? (key === 'uk' ? 'GB' : undefined) : undefined;
  if (iso2) return countryPlace(iso2);
  const cities = idx.cities.get(key);
  const states = idx.states.get(key);
  // A state of that name wins over a small town ("California" is not the town in Pennsylvania), but not
  // over a capital or a city-state; "New York" in a query means the city, as people use it.
  if (key === 'new york') return cityPlace({ name: 'New York City', country: 'US', state: 'NY' });
  const city = cities && cities.length > 0 ? likeliestCity(cities) : null;
  const eminent = city && (idx.capitals.get(key) === city.country || norm(idx.stateByCode.get(`${city.country}/${city.state}`)?.name ?? '') === key);
  if (states && states.length > 0 && !eminent) {
    const best = [...states].sort((a, b) => (idx.citiesPerState.get(`${b.country}/${b.code}`) ?? 0) - (idx.citiesPerState.get(`${a.country}/${a.code}`) ?? 0))[0]!;
    return statePlace(best.country, best.code);
  }
  if (city) return cityPlace(city);
  return null;
}

/**
 * A place read beside another, in its terms: in a list after a US state, "Georgia" is the state, not the country
 * ("in Texas, Georgia or Illinois").
 */
export function placeBeside(name: string, first: Place): Place | null {
  // After a US state, a capitalised code is another ("in MA, IL or GA").
  if (first.level === 'state' && first.country === 'US') {
    const coded = usStateByCode(name.trim());
    if (coded) return coded;
  }
  if (first.level === 'state' && first.country) {
    const state = gazetteer().states.get(norm(name))?.find((st) => st.country === first.country);
    if (state) return statePlace(state.country, state.code);
  }
  return knownPlace(name);
}

/** Names under which a place appears in pages: itself, its aliases, and for a city its usual short forms. */
export function placeNames(place: Place): string[] {
  const out = [place.name];
  if (place.level === 'country' && place.country) {
    const listed = (countries as Record<string, { alias?: string[] }>)[place.country]?.alias ?? [];
    out.push(...listed, ...(ALSO_KNOWN_AS[place.country] ?? []));
  }
  const sub = place.level === 'region' ? SUBREGIONS.find((r) => r.names[0] === place.name) ?? stateGroupOf(place) ?? undefined : undefined;
  if (sub) out.push(...sub.names, ...sub.adjectives);
  else if (place.level === 'region' && place.continent) out.push(...(ALSO_KNOWN_AS[place.continent] ?? []), ...(REGION_ALSO_KNOWN_AS[place.continent] ?? []));
  if (place.level === 'city' && place.name === 'New York City') out.push('New York', 'NYC');
  if (place.level === 'city' && place.name === 'San Francisco') out.push('SF');
  if (isArea(place)) {
    const area = areaByName(place.name)!;
    out.push(...area.names);
  }
  if (place.level === 'city' && place.name === 'Bengaluru') out.push('Bangalore');
  return [...new Set(out)];
}

/** A few names inside a place (its states, for search excerpts); membership itself is `placeContains`. */
export function placesWithin(place: Place): string[] {
  if (isArea(place)) {
    const area = areaByName(place.name)!;
    const core = coordinatesOf(area.core);
    if (!core) return [];
    const near = gazetteer().citiesOfState(area.core.country, area.core.state)
      .map((c) => ({ name: c.name, d: distanceKm(core, { lat: c.lat ?? Number.NaN, lng: c.lng ?? Number.NaN }) }))
      .filter((c) => Number.isFinite(c.d) && c.d <= area.radiusKm)
      .sort((a, b) => a.d - b.d);
    return [...new Set(near.map((c) => c.name))].slice(0, 150);
  }
  if (place.level === 'country' && place.country) return gazetteer().statesOfCountry(place.country).map((s) => s.name).slice(0, 60);
  const group = stateGroupOf(place);
  if (group) return group.states.map((code) => statePlace(group.country, code).name);
  const sub = place.level === 'region' ? subregionMembers(place.name) : null;
  if (sub) return [...sub.members].map(countryName);
  if (place.level === 'region' && place.continent) {
    return Object.entries(countries).filter(([, c]) => (c as { continent: string }).continent === place.continent).map(([, c]) => (c as { name: string }).name);
  }
  return [];
}

const mainCountriesMemo = new Map<string, string[]>();

/**
 * The countries of a continent or subregion that the gazetteer records most places in (a stand-in for the
 * biggest, with no population data at hand), at most `n`: what pages name where a query names the region
 * ("companies in Europe": pages print "Paris, France", never "Europe"). Empty for any other place.
 */
export function mainCountriesWithin(place: Place, n: number): string[] {
  if (place.level !== 'region') return [];
  // A group of states ("the West Coast"): pages print its states, the ones with most listed places first.
  const group = stateGroupOf(place);
  if (group) {
    return [...group.states].sort((a, b) => (gazetteer().citiesPerState.get(`${group.country}/${b}`) ?? 0) - (gazetteer().citiesPerState.get(`${group.country}/${a}`) ?? 0))
      .slice(0, n).map((code) => statePlace(group.country, code).name);
  }
  const sub = subregionMembers(place.name);
  const codes = sub ? [...sub.members] : place.continent ? Object.entries(countries).filter(([, c]) => (c as { continent: string }).continent === place.continent).map(([code]) => code) : [];
  const key = codes.join(',');
  let ranked = mainCountriesMemo.get(key);
  if (!ranked) {
    ranked = codes.map((code) => ({ code, places: gazetteer().cityCountOf(code) }))
      .sort((a, b) => b.places - a.places || a.code.localeCompare(b.code)).map((c) => countryName(c.code));
    mainCountriesMemo.set(key, ranked);
  }
  return ranked.slice(0, n);
}

/**
 * One step wider: city → its metropolitan area, area → its state (or country), state → country, country →
 * continent, continent → nothing. The area is the slight step: Santa Monica for Los Angeles, not San Francisco.
 */
export function widerPlace(place: Place): Place | null {
  if (place.level === 'city' && place.country) {
    const metro = isArea(place) ? null : metroAreaOf(place);
    if (metro) return metro;
    // Cities of small countries sit in nominal states; widen straight to the country there.
    const states = gazetteer().statesOfCountry(place.country).length;
    return place.state && states > 0 && place.country === 'US' ? statePlace(place.country, place.state) : countryPlace(place.country);
  }
  if (place.level === 'state' && place.country) return countryPlace(place.country);
  if (stateGroupOf(place)) return countryPlace(place.country!);
  if (place.level === 'country' && place.continent) return regionPlace(place.continent);
  if (place.level === 'region' && place.continent && subregionMembers(place.name)) return regionPlace(place.continent);
  if (place.level === 'country' && place.country) {
    const continent = continentOf(place.country);
    return continent ? regionPlace(continent) : null;
  }
  return null;
}

/** True when `inner` lies in (or is) `outer`. */
export function placeContains(outer: Place, inner: Place): boolean {
  switch (outer.level) {
    case 'region': {
      if (inner.level === 'region' && inner.name === outer.name) return true;
      const group = stateGroupOf(outer);
      if (group) return (inner.level === 'state' || inner.level === 'city') && inner.country === group.country && inner.state !== undefined && group.states.includes(inner.state);
      const sub = subregionMembers(outer.name);
      if (sub) return inner.level !== 'region' && inner.country !== undefined && sub.members.has(inner.country);
      // A continent holds its subregions too ("South Asia" lies in Asia).
      return inner.continent !== undefined && inner.continent === outer.continent;
    }
    case 'country':
      return inner.level !== 'region' && inner.country === outer.country;
    case 'state':
      return (inner.level === 'state' || inner.level === 'city') && inner.country === outer.country && inner.state === outer.state;
    case 'city': {
      const area = isArea(outer) ? areaByName(outer.name) : null;
      if (area) return inArea(area, inner);
      if (inner.level !== 'city' || !sameCity(outer.name, inner.name)) return false;
      if (inner.country === outer.country) return !outer.state || !inner.state || inner.state === outer.state;
      // A city name several countries have, none of them as its capital ("Boston", "Cambridge"), was read
      // as the likeliest of them without knowing which one was meant: any of them matches.
      // One the query placed itself ("Boston, MA": not the likeliest reading) is that one only.
      return guessedCity(outer.name) && likeliestReading(outer) && (gazetteer().cities.get(norm(inner.name)) ?? []).some((r) => r.country === inner.country);
    }
  }
}

/**
 * Continents wholly outside a place, as regions to search when a query excludes it ("outside the United
 * States": Europe, Asia, Africa, …; its own continent is left out since most of what it finds is the place).
 */
export function regionsOutside(place: Place): Place[] {
  return Object.keys(continents).filter((code) => code !== place.continent && code !== 'AN').map(regionPlace);
}

/** Every city the gazetteer knows by this name (a lone "Dallas" may be any of them). */
export function cityReadings(name: string): Place[] {
  return (gazetteer().cities.get(norm(name)) ?? []).map(cityPlace);
}

/** How many times more people the likeliest namesake must have than the next for a name alone to mean it. */
const DOMINANT_POPULATION = 5;

/** Whether one of the namesakes has DOMINANT_POPULATION times the next one's people; null where GeoNames knows none of them. */
function oneStandsOut(rows: readonly CityRow[]): boolean | null {
  const [first = 0, second = 0] = rows.map((r) => r.population ?? 0).sort((a, b) => b - a);
  return first === 0 ? null : first >= DOMINANT_POPULATION * second;
}

/**
 * The cities a bare name may be when it is a guess: namesakes (in `country`, when given) none of which has five times
 * the next one's people ("Columbia": South Carolina, Missouri, Maryland…); null when one reading stands out (where
 * GeoNames knows none of them, a capital or a city-state still stands out by likeliestCity's rules).
 */
export function likeReadings(name: string, country?: string): Place[] | null {
  const rows = (gazetteer().cities.get(norm(name)) ?? []).filter((r) => !country || r.country === country);
  if (rows.length < 2 || oneStandsOut(rows) !== false) return null;
  const first = Math.max(...rows.map((r) => r.population ?? 0));
  return [...rows].sort((a, b) => (b.population ?? 0) - (a.population ?? 0))
    .filter((r) => (r.population ?? 0) * DOMINANT_POPULATION > first).map(cityPlace);
}

/**
 * A city name that alone does not say which city (reading it alone is a guess): several countries have one and none
 * is much the largest (Cambridge, England and Cambridge, Massachusetts; not Boston, Massachusetts beside the town in
 * Lincolnshire), or, where GeoNames knows none of them, none is a capital.
 */
function guessedCity(name: string): boolean {
  const key = norm(name);
  const rows = gazetteer().cities.get(key) ?? [];
  if (new Set(rows.map((r) => r.country)).size <= 1) return false;
  return !(oneStandsOut(rows) ?? gazetteer().capitals.has(key));
}

/** The city is the reading a name alone gets (the likeliest of its namesakes), not one a query placed by its state. */
function likeliestReading(city: Place): boolean {
  const row = likeliestCity(gazetteer().cities.get(norm(city.name)) ?? []);
  return row === null || (row.country === city.country && (!city.state || row.state === city.state));
}

function sameCity(a: string, b: string): boolean {
  const na = norm(a).replace(/ city$/, '');
  const nb = norm(b).replace(/ city$/, '');
  return na === nb;
}

/**
 * Reads a location as pages print it ("San Francisco, CA, USA", "London, England, United Kingdom",
 * "Berlin", "Bengaluru, KA, India"): each `;`-separated part resolves to its most specific place, the
 * country and state named after a city deciding which city it is.
 */
export function resolveLocation(text: string): Place[] {
  const out: Place[] = [];
  const idx = gazetteer();
  // Places listed one after another: "Berlin; Munich", "SF Bay Area · Palo Alto, CA", "NYC / London", "Austin and Dallas".
  for (const part of text.split(/\s*[;|·•]\s*|\s+and\s+|\s*\/\s*/)) {
    const pieces = part.split(/\s*,\s*/).map((p) => p.trim()).filter(Boolean);
    if (pieces.length === 0 || /^remote$/i.test(pieces[0]!)) continue;
    let country: string | undefined;
    let state: { code: string } | undefined;
    const rest: string[] = [];
    // "Oakland, CA", "San Jose, California": a state with no country after it, when the city before it lies in
    // that state (a US state code is no ISO country code there: "CA" is California, not Canada).
    const last = pieces[pieces.length - 1]!;
    const before = pieces.length >= 2 ? idx.cities.get(norm(pieces[pieces.length - 2]!)) ?? [] : [];
    // "Atlanta, Georgia" is the US state when no Atlanta lies in the country of that name; "Washington, DC" is
    // the District even where the gazetteer files its city under another name ("Washington, D.C.").
    const named = idx.states.get(norm(last)) ?? [];
    const asCountry = idx.countries.get(norm(last));
    const cityInCountry = asCountry !== undefined && before.some((r) => r.country === asCountry);
    const stateRow = pieces.length >= 2 && !cityInCountry
      ? likeliestCity(before.filter((r) => (/^[A-Z]{2,3}$/.test(last) && r.state === last) || named.some((st) => st.country === r.country && st.code === r.state)))
      : null;
    const usCode = !stateRow && pieces.length >= 2 && /^[A-Z]{2}$/.test(last) && !(last in countries) && idx.stateByCode.has(`US/${last}`);
    // A state spelled out that no country shares a name with ("District of Columbia") names itself.
    const byName = !stateRow && !usCode && pieces.length >= 2 && asCountry === undefined && named.length === 1 ? named[0]! : undefined;
    const stateGiven = usCode || byName !== undefined;
    const stateOnly = stateRow ? { country: stateRow.country, state: stateRow.state }
      : usCode ? { country: 'US', state: last }
        : byName ? { country: byName.country, state: byName.code } : null;
    if (stateOnly) {
      country = stateOnly.country;
      state = { code: stateOnly.state };
      pieces.pop();
    }
    for (let i = pieces.length - 1; i >= 0; i--) {
      const key = norm(pieces[i]!);
      // The last piece may be an ISO 3166 code in capitals, as schema.org's addressCountry usually is ("SE").
      const iso = i === pieces.length - 1 && /^[A-Z]{2}$/.test(pieces[i]!) && pieces[i]! in countries ? pieces[i]! : undefined;
      const c = !country && (key.length > 2 || i === pieces.length - 1) ? idx.countries.get(key) ?? (key === 'uk' ? 'GB' : iso) : undefined;
      if (c && i === pieces.length - 1 && !stateOnly) {
        country = c;
        continue;
      }
      if (!state && country) {
        const byCode = idx.stateByCode.get(`${country}/${pieces[i]!.toUpperCase()}`);
        const byName = idx.states.get(key)?.find((s) => s.country === country);
        if (byCode || byName) {
          state = { code: byCode?.code ?? byName!.code };
          continue;
        }
      }
      rest.unshift(pieces[i]!);
    }
    // The city is the first piece the gazetteer knows from the end ("Uppsala University, Uppsala"; "1 Main St, Austin").
    const cityAt = (name: string) => idx.cities.get(norm(name)) ?? idx.cities.get(norm(name.replace(/ City$/i, '')));
    const cityName = [...rest].reverse().find((r) => cityAt(r)) ?? rest[0];
    if (cityName) {
      // A name alone that a state has too is read as a query's "in X" is: California the state, not the town in
      // Maryland (a capital or a city-state keeps its city; knownPlace says which).
      if (!country && !state && rest.length === 1 && idx.states.has(norm(cityName))) {
        const alone = knownPlace(cityName);
        if (alone) {
          out.push(alone);
          continue;
        }
      }
      const rows = cityAt(cityName) ?? [];
      const city = likeliestCity(rows, { ...(country ? { country } : {}), ...(state ? { state: state.code } : {}) })
        ?? (country && !stateGiven ? likeliestCity(rows, { country }) : null);
      if (city) {
        out.push(cityPlace({ ...city, name: cityName }));
        continue;
      }
      if (!country) {
        const alone = knownPlace(cityName);
        if (alone) {
          out.push(alone);
          continue;
        }
      }
      if (country) {
        out.push(state ? { ...statePlace(country, state.code), name: cityName, level: 'city' } : { ...countryPlace(country), name: cityName, level: 'city' });
        continue;
      }
    }
    if (state && country) out.push(statePlace(country, state.code));
    else if (country) out.push(countryPlace(country));
  }
  return out;
}

/** A lower-case word that compromise's lexicon tags as a place, read where a query names one ("in chicago"). */
export function isPlaceWord(word: string): boolean {
  return nlp(`in ${word}`).match('#Place').text().toLowerCase() === word.toLowerCase();
}

/** Words after which a query names a place. */
const PLACE_CUE = /\b(?:in|based in|from|located in|headquartered in|hq'?(?:e?d)?\s+in|near|around|out of|on(?=\s+the\s))\s+((?:the\s+)?\p{L}[\p{L}.-]*(?:\s+\p{L}[\p{L}.-]*){0,3})/giu;
const NOT_PLACE = /^(Q[1-4]|January|February|March|April|May|June|July|August|September|October|November|December|the|a|an|this|last|next|my|our)$/i;

/** Nouns after which "in X" names a field: prizes, awards, degrees, chairs. */
const AFTER_FIELD_NOUN = /\b(?:prizes?|awards?|medals?|degrees?|ph\.?d\.?s?|doctorates?|bachelor'?s?|master'?s?|professors?(?:hips?)?|chairs?|fellowships?|laureates?)\s*$/i;
/** Names of fields of study ("Physics", "Economics", "Biology", "Chemistry"): a capitalised topic, not a town. */
const FIELD_NAME = /^(?:\p{Lu}\p{Ll}+(?:ics|ology|istry|ography|onomy|ophy)|Medicine|Physiology|Literature|Peace|Engineering|Law|Science|Sciences|Mathematics|Computer Science|Economic Sciences)$/u;

/** The phrases the words start with, four words down to one: a place's name is its longest match. */
function leadingPhrases(words: readonly string[]): string[] {
  const longest = Math.min(4, words.length);
  return Array.from({ length: longest }, (_, i) => words.slice(0, longest - i).join(' '));
}

/** The words start with a country's name (up to four words; "the" before it allowed). */
function countryAhead(text: string): boolean {
  return leadingPhrases(text.replace(/^the\s+/i, '').split(/\s+/)).some((name) => !FIELD_NAME.test(name) && knownPlace(name)?.level === 'country');
}

/** A state said right after a city (", MA", ", Massachusetts"), with the length of the words that say it. */
function stateAfter(text: string): { state: { country: string; state: string }; length: number } | null {
  const m = /^,\s*(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*)?)(?![\p{L}])/u.exec(text);
  if (!m) return null;
  for (const name of leadingPhrases(m[1]!.split(/\s+/))) {
    const coded = usStateByCode(name);
    const named = coded ? null : gazetteer().states.get(norm(name))?.[0];
    const state = coded ? { country: 'US', state: name } : named ? { country: named.country, state: named.code } : null;
    if (state) return { state, length: m[0].indexOf(m[1]!) + name.length };
  }
  return null;
}

/** Finds a place named after "in/based in/from/…" (the gazetteer's longest match, then a capitalised name). */
export function findPlace(query: string): { place: Place; start: number; end: number; outside?: boolean } | null {
  // "outside (of) the United States", "not (based) in the US", "not headquartered in California": a place to exclude.
  const outside = /\b(?:(?:(?:based|located|headquartered)\s+)?outside(?:\s+of)?|not\s+(?:(?:based|located|headquartered)\s+)?in)\s+(?:the\s+)?(\p{L}[\p{L}.-]*(?:\s+\p{L}[\p{L}.-]*){0,3})/iu.exec(query);
  if (outside) {
    for (const phrase of leadingPhrases(outside[1]!.split(/\s+/))) {
      const known = knownPlace(phrase);
      if (known) return { place: known, start: outside.index, end: outside.index + outside[0].indexOf(outside[1]!) + phrase.length, outside: true };
    }
  }
  // "non-US startups", "non-European companies": a place ruled out, said before the noun.
  const non = /(^|[^\p{L}])non-(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*)?)(?![\p{L}-])/u.exec(query);
  if (non) {
    const place = aliasPlace(non[2]!) ?? knownPlace(non[2]!);
    if (place) return { place, start: non.index + non[1]!.length, end: non.index + non[0].length, outside: true };
  }
  const cues = new RegExp(PLACE_CUE.source, PLACE_CUE.flags);
  for (let m = cues.exec(query); m; m = cues.exec(query)) {
    // Whatever this cue does not yield, the words it took are read again for a later cue ("laureates in
    // Physics working in Germany").
    cues.lastIndex = m.index + m[0].length - m[1]!.length;
    // "the Nobel Prize in Physics", "a degree in Economics": a field after a prize or a degree, not a place; a
    // country after it is one ("Nobel laureates in Japan", "laureates from the United Kingdom").
    if (AFTER_FIELD_NOUN.test(query.slice(0, m.index)) && !countryAhead(m[1]!)) continue;
    const words = m[1]!.replace(/^the\s+/i, '').split(/\s+/);
    // "on the West Coast": "on" names a place only as a coast or a like region ("papers on the Higgs boson" do not).
    const onlyRegion = /^on\s/i.test(m[0]);
    for (let n = Math.min(4, words.length); n >= 1; n--) {
      const candidate = words.slice(0, n).join(' ');
      if (n === 1 && NOT_PLACE.test(candidate)) break;
      // One capitalised word of a longer name is not the place ("the Bay Area" is not Bay, Somalia).
      if (n === 1 && words.length > 1 && /^\p{Lu}/u.test(candidate) && /^\p{Lu}/u.test(words[1]!)) continue;
      // A lower-case single word ("in education") is a topic, not a place, unless it is a country or a city's
      // short form as people type it ("in sf", "in nyc").
      // So is a place name compromise's lexicon knows ("in texas", "in chicago"; not "in energy", a town's name too).
      const short = n === 1 && !/^\p{Lu}/u.test(candidate) ? CITY_SHORT_FORMS[norm(candidate)] : undefined;
      const coded = n === 1 ? usStateByCode(candidate) : null;
      if (coded && !onlyRegion) {
        const start = m.index;
        return { place: coded, start, end: m.index + m[0].indexOf(m[1]!) + m[1]!.indexOf(candidate) + candidate.length };
      }
      if (n === 1 && !/^\p{Lu}/u.test(candidate) && !short && !gazetteer().countries.has(norm(candidate)) && !isPlaceWord(candidate)) continue;
      const known = short ? cityPlace(short) : knownPlace(candidate);
      if (known && onlyRegion && !stateGroupOf(known)) continue;
      if (known) {
        const start = m.index;
        const end = m.index + m[0].indexOf(m[1]!) + m[1]!.indexOf(words[n - 1]!) + words[n - 1]!.length;
        // "Boston, MA", "Cambridge, Massachusetts": the state after the city says which city of that name.
        const within = known.level === 'city' ? stateAfter(query.slice(end)) : null;
        const row = within ? likeliestCity(gazetteer().cities.get(norm(candidate)) ?? [], within.state) : null;
        if (within && row) return { place: cityPlace(row), start, end: end + within.length };
        return { place: known, start, end };
      }
    }
    if (onlyRegion) continue;
    const named = m[1]!.replace(/^the\s+/i, '');
    const capitalised = /^(\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)*)/u.exec(named);
    if (capitalised && !NOT_PLACE.test(capitalised[1]!) && !FIELD_NAME.test(capitalised[1]!) && !/^(Y Combinator|YC|Winter|Summer|Spring|Fall)\b/.test(capitalised[1]!)) {
      const start = m.index;
      const end = m.index + m[0].indexOf(m[1]!) + (m[1]!.length - named.length) + capitalised[1]!.length;
      return { place: { name: capitalised[1]!, level: 'city' }, start, end };
    }
  }
  return attributivePlace(query);
}

/**
 * Names of regions and areas of two words or more, lower-cased, longest first ("san francisco bay area" before
 * "bay area"), each with the pattern that finds it as whole words followed by another word (compiled once).
 */
const SEVERAL_WORD_REGIONS: readonly { name: string; at: RegExp }[] = [...new Set([
  ...NAMED_AREAS.flatMap((a) => a.names), ...STATE_GROUPS.flatMap((g) => g.names), ...SUBREGIONS.flatMap((r) => r.names),
  ...Object.values(continents),
].map((n) => n.toLowerCase()).filter((n) => n.includes(' ')))].sort((a, b) => b.length - a.length)
  .map((name) => ({ name, at: new RegExp(`(?<![\\p{L}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\s+\\p{L})`, 'u') }));

/** A kind noun right after a place (up to two sector words between): "Berlin startups", "Austin fintech companies". */
const KIND_NOUN_AFTER = /^\s+(?:[\p{L}&-]+\s+){0,2}?(?:startups?|start-ups?|compan(?:y|ies)|firms?|businesses|organi[sz]ations|nonprofits|agencies|scale-?ups|labs)\b/iu;

/**
 * A place said before the noun, as people also say it: "U.S.-based startups", "Berlin-based", "American
 * physicists", "US institutions", "European companies". Only a country, a continent or a demonym counts
 * on its own; a city only with "-based", so a capitalised word at the start is not taken for a town.
 */
function attributivePlace(query: string): { place: Place; start: number; end: number } | null {
  // A region or area of several words before the noun, in any case ("bay area ai startups", "west coast climate
  // startups"): its whole name says it is a place, as one capitalised word alone would not.
  const lowered = query.toLowerCase();
  for (const { name, at: pattern } of SEVERAL_WORD_REGIONS) {
    const at = pattern.exec(lowered);
    // Only right before a kind noun, as "Berlin startups" is read ("papers on the north america plate" name none).
    if (!at || !KIND_NOUN_AFTER.test(query.slice(at.index + name.length))) continue;
    const place = knownPlace(query.slice(at.index, at.index + name.length));
    if (place) return { place, start: at.index, end: at.index + name.length };
  }
  const based = /(^|[^\p{L}])(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*){0,2})-(?:based|headquartered)\b/u.exec(query);
  if (based) {
    const place = aliasPlace(based[2]!) ?? knownPlace(based[2]!);
    if (place) return { place, start: based.index + based[1]!.length, end: based.index + based[0].length };
  }
  for (const m of query.matchAll(/(?<![\p{L}.])(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*)?)(?=\s+\p{Ll})/gu)) {
    const words = m[1]!.split(/\s+/);
    for (let n = words.length; n >= 1; n--) {
      const text = words.slice(0, n).join(' ');
      const key = norm(text);
      // Two-letter words ("AI", "IT") are not countries here, except the usual US and UK.
      const country = key.length > 2 && gazetteer().countries.has(key);
      // A state said before the noun names a place as a country does ("California companies", "Texas startups").
      const state = key.length > 2 && gazetteer().states.has(key);
      // A city does only right before a kind noun ("Berlin startups", "Boston biotech companies"), so a
      // capitalised word elsewhere is not taken for a town.
      const after = query.slice(m.index + text.length);
      const city = key.length > 2 && gazetteer().cities.has(key) && KIND_NOUN_AFTER.test(after);
      // A named area ("Bay Area companies") or a city's short form before a kind noun ("NYC startups").
      const area = NAMED_AREAS.some((a) => a.names.some((n) => norm(n) === key))
        || (CITY_SHORT_FORMS[key] !== undefined && text === text.toUpperCase() && KIND_NOUN_AFTER.test(after));
      // A state's postal code right before a kind noun ("CA startups", "NY companies").
      const coded = n === 1 && KIND_NOUN_AFTER.test(after) ? usStateByCode(text) : null;
      const place = coded ?? aliasPlace(text) ?? (REGION_NAMES.has(key) || country || state || city || area ? knownPlace(text) : null);
      if (place) return { place, start: m.index, end: m.index + text.length };
    }
  }
  return null;
}

/**
 * A birth place said before the noun, as people write it: "Japanese-born physicists", "US-born economists",
 * "German-born chemists" (a demonym, a country or a place the gazetteer knows, then "-born").
 */
export function bornPlaceBefore(query: string): { place: Place; start: number; end: number } | null {
  const m = /(^|[^\p{L}])(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*){0,2})-born\b/u.exec(query);
  if (!m) return null;
  const place = aliasPlace(m[2]!) ?? knownPlace(m[2]!);
  return place ? { place, start: m.index + m[1]!.length, end: m.index + m[0].length } : null;
}

/** Every place a sentence names (1–4 word spans the gazetteer knows, capitalised), most specific reading each. */
export function placesNamedIn(sentence: string): { text: string; place: Place; ambiguous: boolean }[] {
  const out: { text: string; place: Place; ambiguous: boolean }[] = [];
  const words = [...sentence.matchAll(/\p{Lu}[\p{L}.'’-]*/gu)];
  const idx = gazetteer();
  for (let i = 0; i < words.length; i++) {
    for (let n = 4; n >= 1; n--) {
      const span = words.slice(i, i + n);
      if (span.length < n) continue;
      const first = span[0]!;
      const last = span[n - 1]!;
      const text = sentence.slice(first.index, last.index + last[0].length);
      // Only contiguous words ("San Francisco", not "San … Francisco").
      if (!/^[\p{L}.'’ -]+$/u.test(text) || text.split(/\s+/).length !== n) continue;
      // "Dallas-based", and the possessive "Houston's Shiftly", name the place itself.
      const bare = text.replace(/-based$/i, '').replace(/['’]s$/, '');
      const key = norm(bare);
      if (key.length < 3) continue;
      if (idx.cities.has(key) || idx.states.has(key) || idx.countries.has(key) || REGION_NAMES.has(key)) {
        // A following ", ST" or ", Country" decides which city.
        const tail = sentence.slice(last.index + last[0].length, last.index + last[0].length + 60);
        // "Boston University", "Max Planck Institute": part of an organisation's name, not a place.
        // "University of Strasbourg", "Bank of America": the head of a name "X of Y" (University is a town in Florida);
        // Y, read next, is the place if any.
        if (/^\s+(?:University|Institute|College|School|Hospital|Laborator|Medical|Research|Cent(?:er|re)|Foundation|Academy)/.test(tail) || /^\s+of\s+(?:the\s+)?\p{Lu}/u.test(tail)) {
          i += n - 1;
          break;
        }
        const ctx = /^,\s*([\p{L} .]+?)(?:,\s*([\p{L} .]+?))?(?=[.;)]|,|$|\s+(?:and|with|for|in)\b)/u.exec(tail);
        const resolved = resolveLocation(ctx ? `${bare}, ${ctx[1]}${ctx[2] ? `, ${ctx[2]}` : ''}` : bare);
        if (resolved[0]) {
          // A lone city name found in several countries (and neither a capital nor a city-state) is a guess.
          // So is one whose namesakes in its country are of like size ("Columbia": South Carolina, Missouri, Maryland).
          const plain = !ctx && resolved[0].level === 'city' && (guessedCity(bare) || likeReadings(bare, resolved[0].country) !== null) && !idx.states.has(key);
          out.push({ text, place: resolved[0], ambiguous: plain });
        }
        i += n - 1;
        break;
      }
    }
  }
  return out;
}
