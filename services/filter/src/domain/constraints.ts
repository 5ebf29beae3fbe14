import nlp from 'compromise';

/**
 * Typed constraints a query states besides its kind, place, topic and dates: organisation form,
 * size, hiring, and cohort/programme. Each is read from the query, cut out of it (so the words left over
 * are the topic and the event), and later checked by its own matcher against the page model.
 */

export type OrgForm = 'nonprofit' | 'public' | 'acquired' | 'inactive' | 'active';

export interface SizeBound {
  /** Inclusive bounds on headcount; null = open. */
  min: number | null;
  max: number | null;
  /** The words of the query. */
  phrase: string;
}

export interface Cohort {
  /** The programme's name as people write it ("Y Combinator"). */
  programme: string;
  /** Season and four-digit year of a batch ("Winter", 2012), or null for the programme alone. */
  season: Season | null;
  year: number | null;
}

export type Season = 'Winter' | 'Summer' | 'Spring' | 'Fall';

export interface TypedConstraints {
  forms: OrgForm[];
  /** Forms ruled out ("for-profit", "that have not been acquired", "not publicly traded"). */
  notForms: OrgForm[];
  /** Forms any one of which will do ("exited": acquired or public; "acquired or public companies"), one filter each list. */
  anyForms: OrgForm[][];
  size: SizeBound | null;
  hiring: boolean;
  /** "not hiring", "that aren't recruiting": the hiring said negated. */
  notHiring: boolean;
  cohort: Cohort | null;
  /** Remote work: 'fully' (remote-first, fully remote), 'any' (remote at all), or null. */
  remote: 'fully' | 'any' | null;
  /** The query with the typed phrases cut out. */
  rest: string;
}

const FORM_PATTERNS: [OrgForm, RegExp][] = [
  ['nonprofit', /\b(?:that are |which are |are )?(?:non[- ]?profits?|not[- ]for[- ]profits?|charit(?:y|ies|able)|ngos?)\b(?:\s+organi[sz]ations?)?/i],
  ['public', /\b(?:that (?:are|went|have gone) |which (?:are|went) |are |went )?(?:(?<=\b(?:are|is) )(?:now |currently )?public(?=\s*(?:$|,|\band\b|\bor\b))|publicly[- ](?:traded|listed)|public(?=\s+(?:[A-Za-z-]+\s+){0,2}?(?:companies|company|firms|startups|corporations))|listed(?=\s+(?:[A-Za-z-]+\s+){0,2}?(?:companies|company|firms|startups|corporations))|gone public|went public|(?:listed|trading) on (?:the )?(?:stock (?:exchange|market)|nasdaq|nyse)|ipo'?(?:e?d)|that (?:had|have had) an ipo)\b/i],
  ['acquired', /\b(?:that (?:were|was|have been|got) |which (?:were|have been) |were |been |got )?(?:acquired|bought(?: out)?)(?:\s+by\s+(?:another|a larger|other)\s+compan(?:y|ies))?\b(?!\s+(?:in|after|before|since|during|between)\s+(?:the\s+)?(?:\d{4}|last|past|early|late|mid)\b|\s+by\s+(?!(?:another|a larger|other)\b)\S)/i],
  ['inactive', /\b(?:that (?:have |has |are |is )?|which (?:have |are )?)?(?:shut down|shuttered|closed down|closed (?:their|its) doors|went under|(?:went |gone )?out of business|ceased operations|(?:are |is )?no longer (?:operating|active|in business|around)|(?:are |is )?(?:now )?(?:inactive|defunct|dead))\b/i],
  ['active', /\b(?:that are |which are |are )?(?:still (?:active|operating|running)|active|currently operating)\b(?!\s+(?:in|on))/i],
];

const REMOTE = /\b(?:that (?:are|work) |which (?:are|work) |working )?(fully |100% |completely |entirely |all-)?remote(-first| first|ly)?\b(?!\s+sensing)/i;

const HIRING = /\b(?:that are |which are |are |who are |currently |actively |now )*(?:hiring(?: now| right now| currently)?(?:\s+(?:engineers|developers|people|staff|remote(?:ly)?))?|recruiting|with open (?:roles|positions|jobs)|looking for (?:engineers|staff|employees|people))\b/i;

const NUMBER = String.raw`(\d[\d,.]*\s*k?|[a-z]+(?:[\s-][a-z]+){0,3}?)`;
const STAFF = String.raw`(?:full[- ]time\s+)?(?:employees|people|staff|team members|workers|headcount|persons|engineers)`;
const SIZE_PATTERNS: [RegExp, (a: number, b?: number) => [number | null, number | null]][] = [
  // "50-200 employees", "50 to 200 people".
  [new RegExp(String.raw`\b(?:with |having |that have |of )?(\d[\d,.]*\s*k?)\s*(?:-|–|to)\s*(\d[\d,.]*\s*k?) ${STAFF}`, 'i'), (a, b) => [a, b ?? null]],
  [new RegExp(String.raw`\b(?:with |having |that have |of )?between ${NUMBER} and ${NUMBER} ${STAFF}`, 'i'), (a, b) => [a, b ?? null]],
  [new RegExp(String.raw`\b(?:with |having |that have |of )?(?:more than|over|above|greater than) ${NUMBER} ${STAFF}`, 'i'), (a) => [Math.floor(a) + 1, null]],
  [new RegExp(String.raw`\b(?:with |having |that have |of )?(?:at least|no fewer than|not less than|min(?:imum)?) ${NUMBER} ${STAFF}`, 'i'), (a) => [a, null]],
  [new RegExp(String.raw`\b(?:with |having |that have |of )?${NUMBER}\s*(?:\+|or more|and (?:more|up|above)) ${STAFF}`, 'i'), (a) => [a, null]],
  [new RegExp(String.raw`\b(?:with |having |that have |of )?(?:fewer than|less than|under|below) ${NUMBER} ${STAFF}`, 'i'), (a) => [null, Math.ceil(a) - 1]],
  [new RegExp(String.raw`\b(?:with |having |that have |of )?(?:at most|no more than|up to|max(?:imum)?) ${NUMBER} ${STAFF}`, 'i'), (a) => [null, a]],
  [new RegExp(String.raw`\b(?:with |having |that have |of )?${NUMBER} or (?:fewer|less) ${STAFF}`, 'i'), (a) => [null, a]],
];

/**
 * The headcount said with the team word first: "a team of 10 or fewer", "teams of 10-50", "a headcount above
 * 1000", "team size under 20", "a staff of over 200". The comparator and the "or fewer"/"+" after the number
 * give the bound, as they do after it.
 */
const TEAM_FIRST = new RegExp(
  String.raw`\b(?:with\s+|having\s+)?(?:an?\s+)?(?:teams?|headcount|staff|workforce)(?:\s+size)?\s+(?:of\s+)?` +
  String.raw`(?:(more than|over|above|greater than|at least|fewer than|less than|under|below|at most|no more than|up to)\s+)?` +
  String.raw`(\d[\d,.]*(?:\s*k\b)?)(?:\s*(?:-|–|to)\s*(\d[\d,.]*(?:\s*k\b)?))?(\s*\+|\s+or\s+(?:more|fewer|less)|\s+and\s+(?:up|above|more))?` +
  String.raw`(?:\s+(?:people|employees|members|staff|persons))?`,
  'i',
);

function teamFirstBounds(m: RegExpExecArray): [number | null, number | null] | null {
  const a = readNumber(m[2]!);
  if (a === null) return null;
  if (m[3] !== undefined) {
    const b = readNumber(m[3]);
    return b === null ? null : [a, b];
  }
  const cmp = (m[1] ?? '').toLowerCase();
  const tail = (m[4] ?? '').trim().toLowerCase();
  if (/^(?:more than|over|above|greater than)$/.test(cmp)) return [Math.floor(a) + 1, null];
  if (cmp === 'at least' || tail === '+' || /more|up|above/.test(tail)) return [a, null];
  if (/^(?:fewer than|less than|under|below)$/.test(cmp)) return [null, Math.ceil(a) - 1];
  if (/^(?:at most|no more than|up to)$/.test(cmp) || /fewer|less/.test(tail)) return [null, a];
  // "a team of 12" alone is a size, not a bound: not read.
  return null;
}

/** "hundreds of employees", "thousands of staff": the order of magnitude people mean. */
const MAGNITUDE = /\b(?:with\s+)?(tens of thousands|thousands|hundreds) of (?:employees|people|staff|workers)\b/i;

/**
 * A size said in a word before the kind ("small fintech startups", "mid-sized companies", "SMEs"). No one
 * definition holds, so the bounds line up with the headcount brackets directories print (1-10, 11-50, 51-200,
 * 201-500, 501-1,000): tiny up to 10, small up to 50, mid-sized 51 to 500, large over 500; an SME is the EU's,
 * under 250. Not where the word belongs to a sector ("small molecule", "large language model", "large-scale").
 */
const SIZE_WORDS: [RegExp, number | null, number | null][] = [
  [/\b(?:tiny|micro)(?=\s+(?:[a-z-]+\s+){0,2}?(?:companies|company|firms|startups|businesses|enterprises)\b)/i, null, 10],
  [/\bsmall(?![\s-]+(?:molecules?|cap|satellites?|arms|batch|language)\b)(?=\s+(?:[a-z-]+\s+){0,2}?(?:companies|company|firms|startups|businesses|business|enterprises)\b)/i, null, 50],
  [/\b(?:mid[- ]?sized?|medium[- ]sized?)(?=\s+(?:[a-z0-9-]+\s+){0,2}?(?:companies|company|firms|startups|businesses|enterprises)\b)/i, 51, 500],
  [/\blarge(?![\s-]+(?:language|scale|cap|hadron)\b)(?=\s+(?:[a-z-]+\s+){0,2}?(?:companies|company|firms|corporations|businesses|enterprises|employers)\b)/i, 501, null],
  [/\bSMEs?\b/, null, 249],
];

/** A number as written: digits ("1,000", "2.5k") or words ("five hundred"), read with compromise. */
export function readNumber(raw: string): number | null {
  const s = raw.trim().toLowerCase();
  const digits = /^(\d[\d,]*(?:\.\d+)?)\s*(k)?$/.exec(s);
  if (digits) return Number(digits[1]!.replace(/,/g, '')) * (digits[2] ? 1000 : 1);
  const doc = nlp(s);
  const values = doc.numbers().get() as unknown[];
  const n = values[0];
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

const SEASONS: Record<string, Season> = { w: 'Winter', winter: 'Winter', s: 'Summer', summer: 'Summer', x: 'Spring', spring: 'Spring', f: 'Fall', fall: 'Fall', autumn: 'Fall' };

/** "W12", "Winter 2012", "S'21", "summer of 2020", "X25" → season and four-digit year. */
export function readBatch(text: string): { season: Season; year: number; start: number; end: number } | null {
  const m = /\b(winter|summer|spring|fall|autumn|[wsxf])\s*(?:of\s+)?'?(\d{4}|\d{2})\b/i.exec(text);
  if (!m) return null;
  const season = SEASONS[m[1]!.toLowerCase()];
  if (!season) return null;
  // A bare letter needs the two-digit form (W12), never "s 2012" in prose.
  if (m[1]!.length === 1 && !/^[WSXF]\d{2}$/i.test(m[0].replace(/['\s]/g, ''))) return null;
  const y = Number(m[2]);
  return { season, year: y < 100 ? 2000 + y : y, start: m.index, end: m.index + m[0].length };
}

const PROGRAMME = /\b(?:y\s?combinator|yc)(?:'s)?(?:[- ](?:backed|funded|alumni))?\b/i;

function cut(text: string, start: number, end: number): string {
  return `${text.slice(0, start)} ${text.slice(end)}`.replace(/\s+/g, ' ').trim();
}

/**
 * A negation right before a form or hiring phrase ("that have not been acquired", "which aren't hiring", "never went
 * public", "companies not publicly traded"), with the relative words that tie it on, so both are cut together.
 */
const NEGATION_BEFORE = /(?:\b(?:that|which|who)\s+)?(?:(?:\b(?:have|has|had|are|is|were|was|did|do|does)\s+(?:not|never)|\b\w+n't|\bnot|\bnever)\s+(?:yet\s+|ever\s+)?(?:been\s+|gone\s+|got(?:ten)?\s+|become\s+|currently\s+|actively\s+)?)$/i;

/** "for-profit companies", "for profit healthcare startups": a nonprofit ruled out (never "not-for-profit"). */
const FOR_PROFIT = /(?<!\bnot[- ])\bfor[- ]profits?\b/i;

/** "private companies", "YC companies that are still private": not publicly traded, and still running ("private equity firms" are a sector). */
const PRIVATE = /\b(?:(?:that|which)\s+)?(?:(?:are|is)\s+)?(?:still\s+|now\s+)?(?:private(?:ly[- ](?:held|owned))?(?=\s*(?:$|,|\band\b|\bor\b))|private(?=\s+(?:companies|company|firms|startups|businesses)\b)|privately[- ](?:held|owned))/i;

/** "B2B startups that exited", "companies that have had an exit": acquired or listed, either will do. */
const EXITED = /\b(?:(?:that|which)\s+)?(?:(?:have|has|had)\s+)?(?:exited|had an exit|successfully exited)\b/i;

/** Cuts `m` (a match in `rest`) with the negation before it, when there is one; null when there is none. */
function negatedCut(rest: string, m: RegExpExecArray): string | null {
  const neg = NEGATION_BEFORE.exec(rest.slice(0, m.index));
  if (!neg) return null;
  return cut(rest, neg.index, m.index + m[0].length);
}

/** Reads the typed constraints of a query and returns what is left for the kind, topic, place and event. */
export function readConstraints(query: string): TypedConstraints {
  let rest = query;
  const forms: OrgForm[] = [];
  const notForms: OrgForm[] = [];
  const anyForms: OrgForm[][] = [];
  const exited = EXITED.exec(rest);
  if (exited) {
    anyForms.push(['acquired', 'public']);
    rest = cut(rest, exited.index, exited.index + exited[0].length);
  }
  const privately = PRIVATE.exec(rest);
  if (privately) {
    // A private company is a going concern that is not listed: one that shut down is no private company any more.
    notForms.push('public', 'inactive');
    rest = cut(rest, privately.index, privately.index + privately[0].length);
  }
  const forProfit = FOR_PROFIT.exec(rest);
  if (forProfit) {
    notForms.push('nonprofit');
    rest = cut(rest, forProfit.index, forProfit.index + forProfit[0].length);
  }
  // Each form said is marked where it stood until all are read, so two joined by "or" are seen as alternatives.
  const marks: { form: OrgForm; keep: string }[] = [];
  for (const [form, re] of FORM_PATTERNS) {
    const m = re.exec(rest);
    if (!m) continue;
    const negated = negatedCut(rest, m);
    if (negated !== null) {
      // "that have not been acquired": ruled out. ("no longer active" is read as shut down, by its own pattern.)
      if (!notForms.includes(form)) notForms.push(form);
      rest = negated;
      continue;
    }
    // "nonprofits" names the kind as well: leave a noun behind so the head still reads as a kind.
    const keep = form === 'nonprofit' && /^(?:non[- ]?profits|charities|charitable|ngos|not[- ]for[- ]profits)/i.test(m[0].trim()) ? ' organizations ' : ' ';
    rest = `${rest.slice(0, m.index)} \uE000${marks.length}\uE000 ${rest.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim();
    marks.push({ form, keep });
  }
  // "acquired or public companies", "that were acquired or went public": either will do.
  rest = rest.replace(/\uE000(\d+)\uE000\s*(?:,\s*)?or\s+\uE000(\d+)\uE000/g, (_, a: string, b: string) => {
    const [x, y] = [marks[Number(a)]!, marks[Number(b)]!];
    anyForms.push([x.form, y.form]);
    x.form = y.form = '' as OrgForm;
    return `\uE000${a}\uE000`;
  });
  for (const mark of marks) if (mark.form) forms.push(mark.form);
  rest = rest.replace(/\uE000(\d+)\uE000/g, (_, i: string) => marks[Number(i)]!.keep).replace(/\s+/g, ' ').trim();
  let size: SizeBound | null = null;
  for (const [re, bounds] of SIZE_PATTERNS) {
    const m = re.exec(rest);
    if (!m) continue;
    const a = readNumber(m[1]!);
    const b = m[2] !== undefined ? readNumber(m[2]) : undefined;
    if (a === null || b === null) continue;
    const [min, max] = bounds(a, b ?? undefined);
    // "with teams of 10-50 people", "a team of 5 to 10 people": the team word before the number goes with it.
    const lead = /(?:\b(?:with|having)\s+)?(?:\ban?\s+)?\bteams?\s*$/i.exec(rest.slice(0, m.index));
    const start = lead ? lead.index : m.index;
    size = { min, max, phrase: rest.slice(start, m.index + m[0].length).trim() };
    rest = cut(rest, start, m.index + m[0].length);
    break;
  }
  const team = size ? null : TEAM_FIRST.exec(rest);
  const teamBounds = team ? teamFirstBounds(team) : null;
  if (team && teamBounds) {
    size = { min: teamBounds[0], max: teamBounds[1], phrase: team[0].trim() };
    rest = cut(rest, team.index, team.index + team[0].length);
  }
  const magnitude = size ? null : MAGNITUDE.exec(rest);
  if (magnitude) {
    const word = magnitude[1]!.toLowerCase();
    size = word === 'hundreds' ? { min: 100, max: 999, phrase: magnitude[0].trim() } : { min: word === 'thousands' ? 1000 : 10000, max: null, phrase: magnitude[0].trim() };
    rest = cut(rest, magnitude.index, magnitude.index + magnitude[0].length);
  }
  // "small fintech startups", "mid-sized companies": a size class said in a word, when no number is said.
  for (const [re, min, max] of size ? [] : SIZE_WORDS) {
    const m = re.exec(rest);
    if (!m) continue;
    size = { min, max, phrase: m[0].trim() };
    // "SMEs in France": the word is the kind too.
    rest = /^smes?$/i.test(m[0].trim()) ? `${rest.slice(0, m.index)}companies${rest.slice(m.index + m[0].length)}` : cut(rest, m.index, m.index + m[0].length);
    break;
  }
  // "fewer than 10 people on the team": the team word after the number says no more.
  if (size) rest = rest.replace(/\s*\b(?:on|in)\s+(?:the|their|its)\s+team\b/i, '').replace(/\s+/g, ' ').trim();
  let remote: 'fully' | 'any' | null = null;
  const r = REMOTE.exec(rest);
  if (r) {
    remote = r[1] || r[2] ? 'fully' : 'any';
    // "remote companies": keep the noun, drop the work-mode words.
    rest = cut(rest, r.index, r.index + r[0].length);
  }
  let hiring = false;
  let notHiring = false;
  const h = HIRING.exec(rest);
  if (h) {
    const negated = negatedCut(rest, h);
    if (negated !== null) {
      notHiring = true;
      rest = negated;
    } else {
      hiring = true;
      rest = cut(rest, h.index, h.index + h[0].length);
    }
  }
  let cohort: Cohort | null = null;
  const programme = PROGRAMME.exec(rest);
  const batch = readBatch(rest);
  // A year without a season, said of the programme or its batches: "YC's 2016 batches", "went through Y
  // Combinator in 2016", "the 2016 YC cohort".
  const yearOnly = programme && !batch
    ? new RegExp(String.raw`\b(?:(?:in|from|of)\s+)?(?:the\s+)?((?:19|20)\d{2})(?:'?s)?\s+(?:(?:y\s?combinator|yc)\s+)?(?:batch(?:es)?|cohorts?|class(?:es)?)\b|(?:(?:that |which |who )?(?:went through|were in|was in|joined|funded by|backed by|from|in|of)\s+)?(?:the\s+)?${escape(programme[0])}(?:'s)?\s+(?:(?:in|from)\s+)?(?:the\s+)?((?:19|20)\d{2})\b(?:\s+(?:batch(?:es)?|cohorts?|class(?:es)?))?`, 'i').exec(rest)
    : null;
  // "YC startups from 2014", "Y Combinator companies of 2016": a year said of the programme's companies, with
  // no event of their own before it ("founded in 2014" is a founding), is their batch year.
  const fromYear = programme && !batch && !yearOnly
    ? /(?<!\b(?:founded|launched|started|established|incorporated|raised|acquired|published|since|before|after)\s+)\b(?:from|of)\s+(?:the\s+)?((?:19|20)\d{2})\b(?!\s*(?:-|–|to\b|and\b|or\b|onwards|on\b))/i.exec(rest)
    : null;
  if (programme && fromYear) {
    cohort = { programme: 'Y Combinator', season: null, year: Number(fromYear[1]) };
    rest = cut(rest, fromYear.index, fromYear.index + fromYear[0].length);
    rest = cutProgramme(rest);
  } else if (programme && yearOnly) {
    cohort = { programme: 'Y Combinator', season: null, year: Number(yearOnly[1] ?? yearOnly[2]) };
    const keepProgramme = yearOnly[2] !== undefined;
    rest = cut(rest, yearOnly.index, yearOnly.index + yearOnly[0].length);
    if (!keepProgramme) {
      rest = cutProgramme(rest);
    }
  } else
  if (programme || (batch && /\bbatch|cohort|class\b/i.test(rest))) {
    cohort = { programme: 'Y Combinator', season: batch?.season ?? null, year: batch?.year ?? null };
    // Cut the batch phrase with its connecting words ("in the Winter 2012 batch", "from YC W12").
    if (batch) {
      const around = new RegExp(String.raw`\b(?:(?:in|from|of|part of)\s+)?(?:the\s+)?(?:(?:y\s?combinator|yc)(?:'s)?\s+)?${escape(rest.slice(batch.start, batch.end))}(?:\s+(?:batch|cohort|class))?`, 'i');
      const m = around.exec(rest);
      if (m) rest = cut(rest, m.index, m.index + m[0].length);
    }
    rest = cutProgramme(rest);
    rest = rest.replace(/\b(?:in|from|of)\s+the\s+(?:batch|cohort)\b/i, '').replace(/\s+/g, ' ').trim();
  }
  rest = rest.replace(/\b(?:that|which|who)\s+(?:are|were|is)?\s*(?=$|and\b)/i, '').replace(/\s+(?:and|that|which)$/i, '').replace(/\s+/g, ' ').trim();
  return { forms, notForms, anyForms, size, hiring, notHiring, cohort, remote, rest };
}

/**
 * Cuts the programme's name with the words that tie it on ("that went through YC", "in the Y Combinator
 * program"); said as an adjective ("founders of YC companies") only the name goes, and "of" stays the
 * outer phrase's.
 */
function cutProgramme(rest: string): string {
  const p = PROGRAMME.exec(rest);
  if (!p) return rest;
  const adjective = /^\s+(?!(?:batch|cohort|class|program(?:me)?|and|or|that|which|who|in|from|with|since|before|after)\b)\p{L}/iu.test(rest.slice(p.index + p[0].length));
  if (adjective) return cut(rest, p.index, p.index + p[0].length);
  const around = new RegExp(String.raw`\b(?:(?:in|from|of|part of|funded by|backed by|that went through|which went through|went through)\s+)?(?:the\s+)?${escape(p[0])}(?:\s+(?:batch|cohort|class|program(?:me)?))?`, 'i');
  const m = around.exec(rest) ?? p;
  return cut(rest, m.index, m.index + m[0].length);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How a form is said in a filter title. */
export const FORM_TITLES: Record<OrgForm, string> = {
  nonprofit: 'Is a nonprofit', public: 'Is publicly traded', acquired: 'Was acquired', inactive: 'Has shut down', active: 'Is still active',
};

/** How a form ruled out is said in a filter title. */
export const NOT_FORM_TITLES: Record<OrgForm, string> = {
  nonprofit: 'Is not a nonprofit', public: 'Is not publicly traded', acquired: 'Was not acquired', inactive: 'Has not shut down', active: 'Is no longer active',
};

/** Forms any of which will do, as a title: "Was acquired or is publicly traded". */
export function anyFormTitle(forms: readonly OrgForm[]): string {
  return forms.map((f, i) => (i === 0 ? FORM_TITLES[f] : FORM_TITLES[f].charAt(0).toLowerCase() + FORM_TITLES[f].slice(1))).join(' or ');
}

export function sizeTitle(size: SizeBound): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (size.min !== null && size.max !== null) return `Has ${n(size.min)} to ${n(size.max)} employees`;
  if (size.min !== null) return `Has at least ${n(size.min)} employees`;
  return `Has at most ${n(size.max!)} employees`;
}

export function cohortTitle(c: Cohort): string {
  if (c.season && c.year) return `Was in ${c.programme}'s ${c.season} ${c.year} batch`;
  return c.year ? `Was in a ${c.year} ${c.programme} batch` : `Went through ${c.programme}`;
}
