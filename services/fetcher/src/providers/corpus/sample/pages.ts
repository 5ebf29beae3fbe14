import type { SampleEntity } from './entities.js';
import type { SamplePage } from './format.js';
import { createRng, daysAgo, isoDay, longDate, slug, type Rng } from './random.js';

/**
 * Renders each record of the sample world as the pages a web search would find about it: funding news
 * and about pages for companies, profile pages for people, listing and review pages for works and events.
 * Sentences follow the patterns real pages use ("X, a Berlin-based AI startup, has raised …").
 */

const DOES: Record<string, string[]> = {
  AI: ['builds AI agents that automate back-office work for insurers', 'develops AI models that read engineering drawings', 'sells an AI assistant for customer support teams'],
  fintech: ['offers business accounts and card issuing for freelancers', 'runs a payments platform for online marketplaces', 'builds lending software for small banks'],
  healthtech: ['makes software that helps clinics schedule surgeries', 'runs a remote monitoring service for heart patients'],
  'climate tech': ['builds software to measure the carbon footprint of supply chains', 'develops long-duration battery storage'],
  cybersecurity: ['sells a platform that detects phishing attacks', 'builds tools that audit cloud permissions'],
  'e-commerce': ['runs an online marketplace for refurbished furniture', 'builds checkout software for small shops'],
};
const INVESTOR_A = ['Northwind', 'Harbour', 'Blue Lake', 'Granite', 'Foundry', 'Meadow', 'Kestrel', 'Copper'];
const INVESTOR_B = ['Ventures', 'Capital', 'Partners'];

function amount(rng: Rng, stage: string): number {
  if (stage === 'seed') return rng.int(1, 4) + rng.pick([0, 0.5]);
  if (stage === 'Series A') return rng.int(8, 25);
  return rng.int(30, 80);
}

function roundWords(stage: string): string {
  return stage === 'seed' ? 'seed round' : `${stage} round`;
}

function a(word: string): string {
  return /^[aeiou]/i.test(word) || /^AI\b/.test(word) ? 'an' : 'a';
}

function first(name: string): string {
  return name.split(' ')[0]!;
}

function companyPages(e: SampleEntity, rng: Rng, now: Date): SamplePage[] {
  const pages: SamplePage[] = [];
  const investor = `${rng.pick(INVESTOR_A)} ${rng.pick(INVESTOR_B)}`;
  const founder = `${rng.pick(['Anna', 'Jonas', 'Mara', 'Felix', 'Ines', 'Oskar'])} ${rng.pick(['Brandt', 'Keller', 'Sommer', 'Adler', 'Lange'])}`;
  const million = amount(rng, e.label);
  const date = e.date!;
  const stated = rng.next() < 0.5;
  const lead = stated
    ? `${e.name}, ${a(e.city)} ${e.city}-based ${e.topic} startup, announced on ${longDate(date)} that it has raised a €${million} million ${roundWords(e.label)} led by ${investor}.`
    : `${e.name}, ${a(e.city)} ${e.city}-based ${e.topic} startup, has raised a €${million} million ${roundWords(e.label)} led by ${investor}.`;
  const site = `${slug(e.city)}-startup-news.example`;
  pages.push({
    file: `news/${slug(e.city)}/${date}-${slug(e.name)}.html`,
    url: `https://${site}/${date.slice(0, 4)}/${date.slice(5, 7)}/${slug(e.name)}-raises-${slug(e.label)}`,
    title: `${e.name} raises €${million} million ${e.label === 'seed' ? 'seed funding' : e.label}`,
    published: date,
    format: 'html',
    paragraphs: [
      lead,
      `Founded in ${Number(date.slice(0, 4)) - rng.int(1, 4)} by ${founder}, the company ${rng.pick(DOES[e.topic] ?? DOES['AI']!)}.`,
      `The new capital will go into hiring engineers and winning customers across Europe, ${founder} said.`,
      `${investor} has now backed ${rng.int(4, 30)} companies in the ${e.topic} space.`,
    ],
  });
  if (rng.next() < 0.6) {
    pages.push({
      file: `companies/${slug(e.name)}.md`,
      url: `https://${slug(e.name)}.example/about`,
      title: `About ${e.name}`,
      published: null,
      format: 'md',
      paragraphs: [
        `${e.name} is ${a(e.topic)} ${e.topic} company headquartered in ${e.city}, ${e.country}.`,
        `The team of ${rng.int(6, 80)} people ${rng.pick(DOES[e.topic] ?? DOES['AI']!)}.`,
        `Learn more about ${e.name} at ${slug(e.name)}.example.`,
      ],
    });
  }
  void now;
  return pages;
}

function professionalPage(e: SampleEntity, rng: Rng): SamplePage {
  const employer = e.related[0]!;
  return {
    file: `people/${slug(e.name)}.html`,
    url: `https://${slug(employer)}.example/team/${slug(e.name)}`,
    title: `${e.name}, ${e.label} at ${employer}`,
    published: null,
    format: 'html',
    paragraphs: [
      `${e.name} is the ${e.label} at ${employer}, ${a(e.topic)} ${e.topic} company.`,
      `${first(e.name)} is based in ${e.city} and joined ${employer} in ${rng.int(2016, 2024)}.`,
      `Before that, ${first(e.name)} spent ${rng.int(3, 12)} years in ${rng.pick(['consulting', 'banking', 'software engineering', 'product management'])}.`,
    ],
  };
}

function researcherPage(e: SampleEntity, rng: Rng): SamplePage {
  const institute = `${e.city} Institute of Science and Technology`;
  return {
    file: `researchers/${slug(e.name)}.md`,
    url: `https://${slug(e.city)}-ist.example/people/${slug(e.name)}`,
    title: `Dr. ${e.name}`,
    published: null,
    format: 'md',
    paragraphs: [
      `Dr. ${e.name} is ${a(e.topic)} ${e.topic} researcher at the ${institute} in ${e.city}.`,
      `${first(e.name)}'s work focuses on ${rng.pick(['robust evaluation', 'efficient algorithms', 'open datasets', 'interpretable models'])}.`,
      `${first(e.name)} has published ${rng.int(12, 90)} papers and supervises ${rng.int(2, 9)} doctoral students.`,
    ],
  };
}

function paperPage(e: SampleEntity, rng: Rng): SamplePage {
  const id = `${e.date!.slice(0, 4)}.${String(rng.int(10000, 99999))}`;
  const authors = e.related.map((r) => `Dr. ${r}`).join(' and ');
  return {
    file: `papers/${id}.html`,
    url: `https://openpapers.example/abs/${id}`,
    title: e.name,
    published: e.date,
    format: 'html',
    paragraphs: [
      `“${e.name}” is a paper on ${e.topic} by ${authors}, published on ${longDate(e.date!)} in the ${rng.pick(['Journal of Machine Systems', 'Proceedings of the Learning Conference', 'Transactions on Computing'])}.`,
      `The authors report results on ${rng.int(3, 9)} public benchmarks and release their code.`,
    ],
  };
}

const PRACTICE_WORDS: Record<string, string> = {
  employment: 'employment', 'intellectual property': 'intellectual property', family: 'family', corporate: 'corporate', immigration: 'immigration',
};

function lawyerPage(e: SampleEntity, rng: Rng): SamplePage {
  const firm = e.related[0]!;
  return {
    file: `lawyers/${slug(e.name)}.html`,
    url: `https://${slug(firm)}-law.example/team/${slug(e.name)}`,
    title: `${e.name}, ${firm}`,
    published: null,
    format: 'html',
    paragraphs: [
      `${e.name} is ${a(e.topic)} ${PRACTICE_WORDS[e.topic]} lawyer at ${firm} in ${e.city}.`,
      `${first(e.name)} advises ${rng.pick(['start-ups', 'family businesses', 'listed companies', 'private clients'])} and was admitted to the bar in ${rng.int(1998, 2019)}.`,
    ],
  };
}

function clinicianPage(e: SampleEntity, rng: Rng): SamplePage {
  const clinic = e.related[0]!;
  return {
    file: `clinicians/${slug(e.name)}.html`,
    url: `https://${slug(clinic)}-${slug(e.city)}.example/doctors/${slug(e.name)}`,
    title: `Dr. ${e.name}, ${e.topic}`,
    published: null,
    format: 'html',
    paragraphs: [
      `Dr. ${e.name} is ${a(e.topic)} ${e.topic} at the ${clinic} in ${e.city}.`,
      `${first(e.name)} sees patients in German and English and has practised for ${rng.int(5, 30)} years.`,
    ],
  };
}

function bookPage(e: SampleEntity, rng: Rng): SamplePage {
  const author = e.related[0]!;
  return {
    file: `books/${slug(e.name)}.md`,
    url: `https://bookshelf-review.example/reviews/${slug(e.name)}`,
    title: `${e.name} by ${author}`,
    published: e.date,
    format: 'md',
    paragraphs: [
      `“${e.name}” is ${a(e.topic)} ${e.topic} by ${author}, published by ${rng.pick(['Harbor & Finch', 'Lantern House', 'Northgate Press'])} on ${longDate(e.date!)}.`,
      `Our reviewer calls it ${rng.pick(['a gripping read', 'patient and rewarding', 'uneven but ambitious', 'the best of the season'])}.`,
    ],
  };
}

function musicVideoPage(e: SampleEntity, rng: Rng): SamplePage {
  const [artist, director] = e.related as [string, string];
  return {
    file: `videos/${slug(e.name)}.html`,
    url: `https://music-clips.example/videos/${slug(artist)}-${slug(e.name)}`,
    title: `${artist}: ${e.name}`,
    published: e.date,
    format: 'html',
    paragraphs: [
      `“${e.name}” is the new ${e.topic} music video by ${artist}, directed by ${director} and released on ${longDate(e.date!)}.`,
      `The clip was shot over ${rng.int(2, 6)} nights in an empty ${rng.pick(['car park', 'swimming pool', 'train depot', 'greenhouse'])}.`,
    ],
  };
}

function exhibitionPage(e: SampleEntity, rng: Rng, now: Date): SamplePage {
  const venue = e.related[0]!;
  const close = isoDay(new Date(Date.parse(`${e.date}T00:00:00Z`) + 75 * 86_400_000));
  return {
    file: `exhibitions/${slug(e.name)}.html`,
    url: `https://art-calendar.example/${slug(e.city)}/${slug(e.name)}`,
    title: `${e.name} at ${venue}`,
    published: isoDay(daysAgo(now, rng.int(1, 30))),
    format: 'html',
    paragraphs: [
      `“${e.name}” is ${a(e.topic)} ${e.topic} exhibition at ${venue} in ${e.city}, running from ${longDate(e.date!)} to ${longDate(close)}.`,
      `It brings together ${rng.int(20, 140)} works by ${rng.int(3, 25)} artists.`,
    ],
  };
}

function conferencePage(e: SampleEntity, rng: Rng, now: Date): SamplePage {
  const announced = Math.min(now.getTime(), Date.parse(`${e.date}T00:00:00Z`) - 90 * 86_400_000);
  return {
    file: `conferences/${slug(e.name)}.html`,
    url: `https://${slug(e.name)}.example/`,
    title: e.name,
    published: isoDay(new Date(announced)),
    format: 'html',
    paragraphs: [
      `${e.name} is a two-day ${e.topic} conference in ${e.city}, taking place on ${longDate(e.date!)}.`,
      `Organisers expect ${rng.int(4, 30) * 100} attendees and ${rng.int(30, 150)} speakers.`,
    ],
  };
}

function freelancerPage(e: SampleEntity, rng: Rng): SamplePage {
  return {
    file: `freelancers/${slug(e.name)}.md`,
    url: `https://freelance-hub.example/profiles/${slug(e.name)}`,
    title: `${e.name}, freelance ${e.topic}`,
    published: null,
    format: 'md',
    paragraphs: [
      `${e.name} is a freelance ${e.topic} based in ${e.city}.`,
      `${first(e.name)} has worked with ${rng.int(5, 60)} clients, including ${e.related[0]}.`,
      `Day rates start at €${rng.int(4, 9) * 100}.`,
    ],
  };
}

const NEWS_BODY: Record<string, (e: SampleEntity, day: string) => string[]> = {
  'electric buses': (e, day) => [
    `${e.city}'s public transport operator put ${e.label} new electric buses into service on ${day}.`,
    `The operator plans to retire its last diesel buses by 2030.`,
  ],
  'bike lanes': (e, day) => [`The city of ${e.city} opened ${e.label} kilometres of protected bike lanes on ${day}.`, `Cycling groups welcomed the move.`],
  'heat pumps': (e, day) => [`${e.city} announced on ${day} that it will subsidise ${e.label} heat pumps in older apartment blocks.`, `Applications open next month.`],
  'data centre': (e, day) => [`Planners in ${e.city} approved a ${e.label}-megawatt data centre on ${day}.`, `Residents raised concerns about water use.`],
};

function newsPage(e: SampleEntity): SamplePage {
  return {
    file: `local-news/${e.date}-${slug(e.name)}.html`,
    url: `https://${slug(e.city)}-local-news.example/${e.date!.slice(0, 4)}/${e.date!.slice(5, 7)}/${slug(e.name)}`,
    title: e.name,
    published: e.date,
    format: 'html',
    paragraphs: NEWS_BODY[e.topic]!(e, longDate(e.date!)),
  };
}

function productPage(e: SampleEntity, rng: Rng): SamplePage {
  const what = e.topic === 'noise-cancelling headphones' ? 'pair of noise-cancelling headphones' : e.topic;
  return {
    file: `products/${slug(e.name)}.html`,
    url: `https://gadget-review.example/reviews/${slug(e.name)}`,
    title: `${e.name} review`,
    published: e.date,
    format: 'html',
    paragraphs: [
      `${e.name} is ${a(what)} ${what} from ${e.related[0]}, launched on ${longDate(e.date!)} at a price of €${e.label}.`,
      `In our tests it was ${rng.pick(['quiet and easy to set up', 'well built but pricey', 'the best value in its class'])}.`,
    ],
  };
}

/** Every page of the sample corpus, in a stable order. */
export function samplePages(entities: readonly SampleEntity[], now: Date, seed: number): SamplePage[] {
  const rng = createRng(seed ^ 0x5eed);
  const pages: SamplePage[] = [];
  for (const e of entities) {
    switch (e.type) {
      case 'company': pages.push(...companyPages(e, rng, now)); break;
      case 'professional': pages.push(professionalPage(e, rng)); break;
      case 'researcher': pages.push(researcherPage(e, rng)); break;
      case 'paper': pages.push(paperPage(e, rng)); break;
      case 'lawyer': pages.push(lawyerPage(e, rng)); break;
      case 'clinician': pages.push(clinicianPage(e, rng)); break;
      case 'book': pages.push(bookPage(e, rng)); break;
      case 'music_video': pages.push(musicVideoPage(e, rng)); break;
      case 'exhibition': pages.push(exhibitionPage(e, rng, now)); break;
      case 'conference': pages.push(conferencePage(e, rng, now)); break;
      case 'freelancer': pages.push(freelancerPage(e, rng)); break;
      case 'news': pages.push(newsPage(e)); break;
      case 'product': pages.push(productPage(e, rng)); break;
    }
  }
  // Two records can render to the same address (same headline on the same day); keep addresses unique.
  const seen = new Set<string>();
  for (const page of pages) {
    let n = 1;
    const { file, url } = page;
    while (seen.has(page.file) || seen.has(page.url)) {
      n += 1;
      page.file = file.replace(/(\.\w+)$/, `-${n}$1`);
      page.url = `${url.replace(/\/$/, '')}-${n}`;
    }
    seen.add(page.file);
    seen.add(page.url);
  }
  return pages;
}
