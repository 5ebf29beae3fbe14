import type { EntityType } from '@leadfinder/wire';
import { createRng, daysAgo, isoDay, seedFor, type Rng } from './random.js';

/**
 * The fictional world the sample corpus describes. Pages are rendered from these records, and the
 * quality set derives its expected rows from them, so ground truth never depends on a reasoner.
 */
export interface SampleEntity {
  type: EntityType;
  /** The row name a careful reader would write down (titles without quotes, people without "Dr."). */
  name: string;
  city: string;
  country: string;
  /** Sector, research field, practice, specialty, genre, art form, skill, category or news topic. */
  topic: string;
  /** Funding stage, role, or other kind-specific label; empty when none. */
  label: string;
  /** YYYY-MM-DD of the event that dates it (round, publication, release, launch, opening), or null. */
  date: string | null;
  /** Related names (employer, maker, authors, venue …). */
  related: string[];
}

const CITIES: Record<string, string> = {
  Berlin: 'Germany', Munich: 'Germany', Hamburg: 'Germany', London: 'United Kingdom', Paris: 'France',
  Amsterdam: 'Netherlands', Lisbon: 'Portugal',
};
const CITY_NAMES = Object.keys(CITIES);

const PREFIX = ['Lum', 'Fin', 'Quant', 'Vel', 'Nov', 'Ark', 'Sol', 'Brig', 'Tid', 'Cor', 'Hel', 'Zen', 'Mir', 'Oct', 'Pax', 'Ryn', 'Syn', 'Ter', 'Ul', 'Vox', 'Wend', 'Xyl', 'Yar', 'Zeph', 'Kal', 'Or', 'Pel', 'Stri', 'Thal', 'Ven'];
const SUFFIX = ['ora', 'bolt', 'iq', 'ix', 'ana', 'ly', 'wise', 'flow', 'nest', 'grid', 'loop', 'mint', 'path', 'shift', 'stack', 'wave', 'ara', 'eon'];
const FIRST = ['Anna', 'Jonas', 'Mara', 'Lukas', 'Sofia', 'Elias', 'Lea', 'Noah', 'Clara', 'Felix', 'Ines', 'Tomas', 'Amélie', 'Oskar', 'Nora', 'Hugo', 'Frida', 'Milan', 'Greta', 'Rafael', 'Yara', 'Emil', 'Alma', 'Theo', 'Lina', 'Paul', 'Ida', 'Jakob', 'Selma', 'Marek'];
const LAST = ['Berg', 'Weber', 'Klein', 'Hoffmann', 'Lindqvist', 'Moreau', 'Costa', 'Brandt', 'Okafor', 'Varga', 'Ferreira', 'Novak', 'Schulte', 'Dubois', 'Haas', 'Marsh', 'Kowalski', 'Jansen', 'Rossi', 'Falk', 'Winter', 'Sommer', 'Adler', 'Keller', 'Roth', 'Vogel', 'Lange', 'Fischer', 'Petit', 'Silva'];
const WORDS = ['Quiet', 'Salt', 'Neon', 'Paper', 'Iron', 'Glass', 'Hollow', 'Amber', 'Distant', 'Silver', 'Winter', 'Velvet', 'Open', 'Broken', 'Golden', 'Last', 'Northern', 'Small', 'Hidden', 'Burning'];
const NOUNS = ['Light', 'Archive', 'Tide', 'Harbour', 'Garden', 'Signal', 'Orbit', 'River', 'Machine', 'Mirror', 'Atlas', 'Season', 'Echo', 'Lantern', 'Meridian', 'Field', 'Horizon', 'Station', 'Forest', 'Letters'];

/** Hands out unique names from a generator, so no two records share a name. */
class Names {
  private used = new Set<string>();
  constructor(private rng: Rng) {}
  take(make: (rng: Rng) => string): string {
    for (let i = 0; i < 500; i++) {
      const n = make(this.rng);
      if (!this.used.has(n)) {
        this.used.add(n);
        return n;
      }
    }
    throw new Error('name space exhausted');
  }
  company = () => this.take((r) => `${r.pick(PREFIX)}${r.pick(SUFFIX)}`);
  person = () => this.take((r) => `${r.pick(FIRST)} ${r.pick(LAST)}`);
  title = () => this.take((r) => `${r.pick(WORDS)} ${r.pick(NOUNS)}`);
}

interface Recipe {
  count: number;
  city?: string;
  topic?: string;
  label?: string;
  /** Days before now, inclusive range. */
  ago?: [number, number];
}

const PAPER_SUBTITLES: Record<string, string[]> = {
  'graph neural networks': ['Message Passing on Sparse Graphs', 'Scalable Graph Neural Networks for Traffic Forecasting', 'Oversmoothing in Deep Graph Networks'],
  'reinforcement learning': ['Sample-Efficient Policy Learning', 'Offline Reinforcement Learning for Warehouse Robots', 'Reward Shaping Revisited'],
  'protein folding': ['Fast Structure Prediction for Membrane Proteins', 'Learning Protein Contact Maps'],
  'federated learning': ['Private Aggregation at Scale', 'Federated Learning on Edge Devices'],
};

/** Years whose quarters always hold a dated round (the README's examples name "Q3 2025"). */
const ANCHOR_YEARS = [2025, 2026];

const SECTORS = ['AI', 'fintech', 'healthtech', 'climate tech', 'cybersecurity', 'e-commerce'];
const STAGES = ['seed', 'Series A', 'Series B'];

/** Builds every record of the sample world for a run start `now`. */
export function sampleEntities(now: Date): SampleEntity[] {
  const rng = createRng(seedFor(now));
  const names = new Names(rng);
  const out: SampleEntity[] = [];
  const when = (ago: [number, number] | undefined, fallback: [number, number]) => isoDay(daysAgo(now, rng.int(...(ago ?? fallback))));
  const company = (r: Recipe): Omit<SampleEntity, 'type'> => {
    const c = city(r.city);
    return {
      name: names.company(), city: c, country: CITIES[c]!, topic: r.topic ?? rng.pick(SECTORS),
      label: r.label ?? rng.pick(STAGES), date: when(r.ago, [10, 800]), related: [],
    };
  };
  const city = (c?: string) => c ?? rng.pick(CITY_NAMES);
  const add = (type: EntityType, recipes: Recipe[], make: (r: Recipe) => Omit<SampleEntity, 'type'>) => {
    for (const r of recipes) for (let i = 0; i < r.count; i++) out.push({ type, ...make(r) });
  };

  // Companies: the demo query's matches, near misses on every filter, and a random spread.
  add('company', [
    { count: 9, city: 'Berlin', topic: 'AI', label: 'seed', ago: [15, 340] },
    { count: 3, city: 'Berlin', topic: 'AI', label: 'seed', ago: [400, 800] },
    { count: 3, city: 'Berlin', topic: 'AI', label: 'Series A', ago: [20, 300] },
    { count: 3, city: 'Munich', topic: 'AI', label: 'seed', ago: [20, 300] },
    { count: 2, city: 'London', topic: 'AI', label: 'seed', ago: [20, 300] },
    { count: 3, city: 'Berlin', topic: 'fintech', label: 'seed', ago: [20, 300] },
    { count: 5, city: 'Berlin', topic: 'fintech', label: 'Series A', ago: [10, 170] },
    { count: 3, city: 'Berlin', topic: 'fintech', label: 'Series A', ago: [200, 500] },
    { count: 4, city: 'Munich', topic: 'healthtech', ago: [10, 600] },
    { count: 4, city: 'London', topic: 'climate tech', label: 'Series B', ago: [10, 700] },
    { count: 4, city: 'Paris', topic: 'cybersecurity', ago: [10, 500] },
    { count: 4, city: 'Amsterdam', topic: 'e-commerce', ago: [10, 500] },
    { count: 4, city: 'London', topic: 'fintech', ago: [10, 500] },
    { count: 12, ago: [10, 800] },
  ], company);
  const companies = out.filter((e) => e.type === 'company');

  const usedEmployers = new Set<string>();
  const ROLES = ['CTO', 'CEO', 'Head of Marketing', 'VP Sales', 'Head of Product'];
  add('professional', [
    ...['CTO', 'CTO', 'CTO', 'CEO', 'Head of Marketing'].map((label) => ({ count: 1, topic: 'fintech', city: 'London', label })),
    { count: 3, city: 'Amsterdam', label: 'Head of Marketing' },
    { count: 2, city: 'Berlin', topic: 'fintech', label: 'CTO' },
    { count: 2, city: 'Lisbon', label: 'UX designer' },
    { count: 6 },
  ], (r) => {
    const employer = companies.find((co) => (!r.topic || co.topic === r.topic) && !usedEmployers.has(co.name))
      ?? rng.pick(companies);
    usedEmployers.add(employer.name);
    return {
      name: names.person(), city: r.city ?? employer.city, country: CITIES[r.city ?? employer.city]!, topic: employer.topic,
      label: r.label ?? rng.pick(ROLES), date: null, related: [employer.name],
    };
  });

  const FIELDS = ['machine learning', 'genomics', 'climate science', 'robotics', 'quantum computing'];
  add('researcher', [{ count: 4, city: 'Munich', topic: 'machine learning' }, { count: 2, city: 'Munich', topic: 'genomics' }, { count: 2, city: 'Berlin', topic: 'machine learning' }, { count: 10 }], (r) => {
    const c = city(r.city);
    return { name: names.person(), city: c, country: CITIES[c]!, topic: r.topic ?? rng.pick(FIELDS), label: '', date: null, related: [] };
  });
  const researchers = out.filter((e) => e.type === 'researcher');

  const PAPER_TOPICS = ['graph neural networks', 'reinforcement learning', 'protein folding', 'federated learning'];
  add('paper', [
    { count: 4, topic: 'graph neural networks', ago: [440, 800] },
    { count: 3, topic: 'graph neural networks', ago: [20, 430] },
    { count: 4, topic: 'reinforcement learning', ago: [15, 350] },
    { count: 2, topic: 'reinforcement learning', ago: [380, 900] },
    { count: 7 },
  ], (r) => {
    const topic = r.topic ?? rng.pick(PAPER_TOPICS);
    return {
    name: `${names.title()}: ${rng.pick(PAPER_SUBTITLES[topic]!)}`, city: '', country: '', topic, label: '',
    date: when(r.ago, [20, 900]), related: [rng.pick(researchers).name, rng.pick(researchers).name].filter((v, i, a) => a.indexOf(v) === i),
  };
  });

  const PRACTICES = ['employment', 'intellectual property', 'family', 'corporate', 'immigration'];
  add('lawyer', [{ count: 4, city: 'Hamburg', topic: 'employment' }, { count: 2, city: 'Hamburg', topic: 'family' }, { count: 2, city: 'Berlin', topic: 'employment' }, { count: 8 }], (r) => {
    const c = city(r.city);
    return { name: names.person(), city: c, country: CITIES[c]!, topic: r.topic ?? rng.pick(PRACTICES), label: '', date: null, related: [`${rng.pick(LAST)} & ${rng.pick(LAST)}`] };
  });

  const SPECIALTIES = ['cardiologist', 'dermatologist', 'pediatrician', 'neurologist'];
  add('clinician', [{ count: 4, city: 'Munich', topic: 'cardiologist' }, { count: 2, city: 'Munich', topic: 'dermatologist' }, { count: 3, city: 'Berlin', topic: 'dermatologist' }, { count: 2, city: 'Hamburg', topic: 'cardiologist' }, { count: 6 }], (r) => {
    const c = city(r.city);
    return { name: names.person(), city: c, country: CITIES[c]!, topic: r.topic ?? rng.pick(SPECIALTIES), label: '', date: null, related: [`${rng.pick(WORDS)} Clinic`] };
  });

  const nowDays = Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 1)) / 86_400_000);
  const GENRES = ['science fiction novel', 'crime novel', 'biography', 'cookbook'];
  add('book', [
    { count: 4, topic: 'science fiction novel', ago: [1, Math.max(1, nowDays)] },
    { count: 3, topic: 'science fiction novel', ago: [nowDays + 10, nowDays + 500] },
    { count: 4, topic: 'crime novel', ago: [5, 900] },
    { count: 5 },
  ], (r) => ({ name: names.title(), city: '', country: '', topic: r.topic ?? rng.pick(GENRES), label: '', date: when(r.ago, [5, 900]), related: [names.person()] }));

  const MUSIC = ['synth-pop', 'hip-hop', 'jazz', 'indie rock'];
  add('music_video', [{ count: 4, topic: 'synth-pop', ago: [5, 170] }, { count: 3, topic: 'synth-pop', ago: [200, 700] }, { count: 7 }], (r) => ({
    name: names.title(), city: '', country: '', topic: r.topic ?? rng.pick(MUSIC), label: '', date: when(r.ago, [5, 700]),
    related: [`The ${rng.pick(WORDS)} ${rng.pick(NOUNS)}s`, names.person()],
  }));

  const FORMS = ['photography', 'sculpture', 'digital art', 'textile'];
  add('exhibition', [{ count: 4, city: 'Paris', topic: 'photography' }, { count: 2, city: 'Paris', topic: 'sculpture' }, { count: 2, city: 'London', topic: 'photography' }, { count: 6 }], (r) => {
    const c = city(r.city);
    return { name: names.title(), city: c, country: CITIES[c]!, topic: r.topic ?? rng.pick(FORMS), label: '', date: when([-60, 120], [0, 0]), related: [`Galerie ${rng.pick(NOUNS)}`] };
  });

  const CONF = ['AI', 'fintech', 'climate', 'cybersecurity'];
  add('conference', [{ count: 3, city: 'London', topic: 'AI', ago: [-250, -10] }, { count: 2, city: 'London', topic: 'AI', ago: [400, 700] }, { count: 2, city: 'Berlin', topic: 'AI', ago: [-200, -10] }, { count: 7, ago: [-300, 400] }], (r) => {
    const c = city(r.city);
    const topic = r.topic ?? rng.pick(CONF);
    const date = when(r.ago, [-300, 400]);
    const brand = names.take((g) => g.pick(WORDS));
    return { name: `${brand} ${topic === 'AI' ? 'AI' : topic.charAt(0).toUpperCase() + topic.slice(1)} Summit ${date.slice(0, 4)}`, city: c, country: CITIES[c]!, topic, label: '', date, related: [] };
  });

  const SKILLS = ['UX designer', 'React developer', 'copywriter', 'illustrator'];
  add('freelancer', [{ count: 4, city: 'Lisbon', topic: 'UX designer' }, { count: 2, city: 'Lisbon', topic: 'copywriter' }, { count: 2, city: 'Berlin', topic: 'UX designer' }, { count: 6 }], (r) => {
    const c = city(r.city);
    return { name: names.person(), city: c, country: CITIES[c]!, topic: r.topic ?? rng.pick(SKILLS), label: '', date: null, related: [rng.pick(companies).name] };
  });

  const NEWS = ['electric buses', 'bike lanes', 'heat pumps', 'data centre'];
  add('news', [{ count: 3, city: 'Hamburg', topic: 'electric buses', ago: [3, 80] }, { count: 2, city: 'Hamburg', topic: 'electric buses', ago: [120, 500] }, { count: 2, city: 'Munich', topic: 'electric buses', ago: [3, 80] }, { count: 7, ago: [3, 500] }], (r) => {
    const c = city(r.city);
    return { name: '', city: c, country: CITIES[c]!, topic: r.topic ?? rng.pick(NEWS), label: String(rng.int(12, 90)), date: when(r.ago, [3, 500]), related: [] };
  });

  const CATEGORIES = ['smart thermostat', 'e-bike', 'noise-cancelling headphones', 'robot vacuum'];
  add('product', [{ count: 4, topic: 'smart thermostat', ago: [nowDays + 5, nowDays + 360] }, { count: 2, topic: 'smart thermostat', ago: [nowDays + 380, nowDays + 700] }, { count: 8 }], (r) => ({
    name: `${names.company()} ${rng.pick(['One', 'Pro', 'Air', 'Mini', 'Go'])}`, city: '', country: '', topic: r.topic ?? rng.pick(CATEGORIES), label: String(rng.int(9, 59) * 10 - 1),
    date: when(r.ago, [5, 700]), related: [rng.pick(companies).name],
  }));

  // Calendar anchors, added last so that every record above stays as it was. Rounds dated on the run's
  // own day, so "this year", "this month" and "this week" have matches on any run date (1 January
  // included); and one round in each quarter of the fixed years that the README's examples name
  // ("in Q3 2025"), for run dates after them.
  add('company', [{ count: 2, city: 'Berlin', topic: 'fintech', label: 'Series A', ago: [0, 0] }], company);
  for (const year of ANCHOR_YEARS) {
    for (const month of [2, 5, 8, 11]) {
      const days = Math.round((now.getTime() - Date.UTC(year, month - 1, 15)) / 86_400_000);
      if (days >= 0) add('company', [{ count: 1, city: 'Berlin', topic: 'AI', label: 'seed', ago: [days, days] }], company);
    }
  }

  // News headlines are written from the record; give each its name now.
  for (const e of out) if (e.type === 'news') e.name = headline(e);
  return out;
}


/** The headline of a local news record. */
export function headline(e: SampleEntity): string {
  switch (e.topic) {
    case 'electric buses': return `${e.city} puts ${e.label} new electric buses into service`;
    case 'bike lanes': return `${e.city} opens ${e.label} kilometres of protected bike lanes`;
    case 'heat pumps': return `${e.city} subsidises ${e.label} heat pumps for older apartment blocks`;
    default: return `New ${e.label}-megawatt data centre approved on the edge of ${e.city}`;
  }
}
