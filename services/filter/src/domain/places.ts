/**
 * A small gazetteer: enough to recognise a place in a lowercase query and to loosen a city to its
 * country (and a country to its region) when a location filter keeps almost nobody.
 */
const CITY_COUNTRY: Record<string, string> = {
  berlin: 'Germany', munich: 'Germany', hamburg: 'Germany', frankfurt: 'Germany', cologne: 'Germany',
  stuttgart: 'Germany', leipzig: 'Germany', dusseldorf: 'Germany', london: 'United Kingdom',
  manchester: 'United Kingdom', edinburgh: 'United Kingdom', cambridge: 'United Kingdom', oxford: 'United Kingdom',
  paris: 'France', lyon: 'France', amsterdam: 'Netherlands', rotterdam: 'Netherlands', madrid: 'Spain',
  barcelona: 'Spain', lisbon: 'Portugal', porto: 'Portugal', vienna: 'Austria', zurich: 'Switzerland',
  geneva: 'Switzerland', stockholm: 'Sweden', copenhagen: 'Denmark', oslo: 'Norway', helsinki: 'Finland',
  warsaw: 'Poland', prague: 'Czech Republic', milan: 'Italy', rome: 'Italy', dublin: 'Ireland',
  brussels: 'Belgium', tallinn: 'Estonia', 'new york': 'United States', 'san francisco': 'United States',
  boston: 'United States', austin: 'United States', toronto: 'Canada', singapore: 'Singapore', tokyo: 'Japan',
};

const COUNTRY_REGION: Record<string, string> = {
  germany: 'Europe', 'united kingdom': 'Europe', france: 'Europe', netherlands: 'Europe', spain: 'Europe',
  portugal: 'Europe', austria: 'Europe', switzerland: 'Europe', sweden: 'Europe', denmark: 'Europe',
  norway: 'Europe', finland: 'Europe', poland: 'Europe', 'czech republic': 'Europe', italy: 'Europe',
  ireland: 'Europe', belgium: 'Europe', estonia: 'Europe', 'united states': 'North America',
  canada: 'North America', singapore: 'Asia', japan: 'Asia',
};

/** Other names a place goes by in page text (demonyms and local spellings). */
const ALSO_KNOWN_AS: Record<string, string[]> = {
  germany: ['German'], 'united kingdom': ['UK', 'British', 'England'], france: ['French'],
  netherlands: ['Dutch'], munich: ['München'], cologne: ['Köln'], lisbon: ['Lisboa'], vienna: ['Wien'],
  'united states': ['US', 'USA'], europe: ['European'],
};

export type PlaceLevel = 'city' | 'country' | 'region';

export interface Place {
  name: string;
  level: PlaceLevel;
}

function title(name: string): string {
  return name.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/** The place a lowercased name denotes, when the gazetteer knows it. */
export function knownPlace(name: string): Place | null {
  const key = name.toLowerCase().trim();
  if (CITY_COUNTRY[key]) return { name: title(key), level: 'city' };
  if (COUNTRY_REGION[key]) return { name: title(key).replace('United Kingdom', 'United Kingdom'), level: 'country' };
  if (key === 'europe' || key === 'north america' || key === 'asia') return { name: title(key), level: 'region' };
  return null;
}

/** Names under which a place appears in pages: itself plus its aliases. */
export function placeNames(place: Place): string[] {
  return [place.name, ...(ALSO_KNOWN_AS[place.name.toLowerCase()] ?? [])];
}

/** All places inside a place (a country's cities), so a loosened filter still accepts "Munich-based". */
export function placesWithin(place: Place): string[] {
  const key = place.name.toLowerCase();
  if (place.level === 'country') return Object.entries(CITY_COUNTRY).filter(([, c]) => c.toLowerCase() === key).map(([city]) => title(city));
  if (place.level === 'region') {
    const countries = Object.entries(COUNTRY_REGION).filter(([, r]) => r.toLowerCase() === key).map(([c]) => c);
    return [...countries.map(title), ...countries.flatMap((c) => placesWithin({ name: c, level: 'country' }))];
  }
  return [];
}

/** One step wider: city → its country, country → its region, region → nothing. */
export function widerPlace(place: Place): Place | null {
  const key = place.name.toLowerCase();
  if (place.level === 'city') {
    const country = CITY_COUNTRY[key];
    return country ? { name: country, level: 'country' } : null;
  }
  if (place.level === 'country') {
    const region = COUNTRY_REGION[key];
    return region ? { name: region, level: 'region' } : null;
  }
  return null;
}

/** Finds a place named after "in/based in/from/near" (gazetteer first, then a capitalised name). */
export function findPlace(query: string): { place: Place; start: number; end: number } | null {
  const re = /\b(?:in|based in|from|located in|headquartered in|near|around)\s+((?:the\s+)?\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*){0,2})/giu;
  for (const m of query.matchAll(re)) {
    const words = m[1]!.replace(/^the\s+/i, '').split(/\s+/);
    // Longest known prefix first ("new york city" → "New York").
    for (let n = Math.min(3, words.length); n >= 1; n--) {
      const candidate = words.slice(0, n).join(' ');
      const known = knownPlace(candidate);
      if (known) {
        const start = m.index;
        const end = m.index + m[0].indexOf(m[1]!) + m[1]!.indexOf(words[n - 1]!) + words[n - 1]!.length;
        return { place: known, start, end };
      }
    }
    const capitalised = /^(\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)*)/u.exec(m[1]!);
    if (capitalised && !/^(Q[1-4]|January|February|March|April|May|June|July|August|September|October|November|December)$/.test(capitalised[1]!)) {
      const start = m.index;
      const end = m.index + m[0].indexOf(m[1]!) + capitalised[1]!.length;
      return { place: { name: capitalised[1]!, level: 'city' }, start, end };
    }
  }
  return null;
}
