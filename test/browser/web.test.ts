import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { recordSkippedSuite, toolPath, withoutClockEnv } from '@leadfinder/testkit';
import { parseCsv } from '../../services/cli/test/parse-csv.js';
import { startFakeWeb } from '../support/fake-web.js';
import type { FakeWeb } from '../support/fake-web.js';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { embeddedServer } from '../support/shared-server.js';
import type { EmbeddedServer } from '../support/shared-server.js';

/**
 * The web page in a real Chromium against a real embedded server, as a person uses it: signed out (no
 * nav), sign in, keys, a search on the sample corpus to its end (plan, funnel, end sentence, results
 * table with per-filter marks and their reasons), exports parsed back, a reload that reopens the run,
 * and on a slow server: a reload mid-run that resumes with Last-Event-ID, a second search that asks
 * first, a 402 that says what is missing, Stop, and a credential that fails mid-run. Each state is
 * checked by axe-core and photographed at 1440×900 and 375×812 (test-artifacts/screenshots).
 */
const executablePath = toolPath('chromium');
if (!executablePath) recordSkippedSuite('test/browser/web.test.ts (web page in Chromium)', 'chromium');
const shots = join(process.cwd(), 'test-artifacts', 'screenshots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const QUERY = 'AI startups in Berlin that raised a seed round in the last year';
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * axe-core is evaluated over the DevTools protocol (not as a page script), so the page keeps its
 * strict Content-Security-Policy. Returns the serious and critical violations, described.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.join(' ')}`);
}

/**
 * WCAG contrast ratio of two CSS colours (rgb()/rgba() as getComputedStyle gives them). axe-core checks
 * text; the borders of controls, the focus ring and badge outlines (non-text, 3:1) are checked here.
 */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = css.match(/[\d.]+/g)!.slice(0, 3).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** A screenshot at both widths; the narrow one must not scroll sideways. */
async function shootBoth(page: Page, name: string): Promise<void> {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: join(shots, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true });
  await page.setViewportSize(before);
}

async function devSignIn(page: Page, email: string): Promise<void> {
  await expect.poll(() => page.locator('#dev-signin').isVisible()).toBe(true);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in (development)' }).click();
  await expect.poll(() => page.locator('#who-name').isVisible()).toBe(true);
}

/** A promise awaited later: its failure is reported by the test that awaits it, not as an unhandled rejection. */
function awaitedLater<T>(work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return work;
}

describe.skipIf(!executablePath)('web page in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  // The servers of two later tests (see beforeAll).
  let bareServer: Promise<EmbeddedServer>;
  let slowServer: Promise<{ web: FakeWeb; slow: ServerProcess }>;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    // The development sign-in is off unless enabled (as `npm start` does on loopback); searches need money.
    server = await startServerProcess({ env: { LEADFINDER_DEV_SIGNIN: '1', LEADFINDER_WELCOME_BALANCE_USD: '25' } });
    browser = await chromium.launch({ executablePath: executablePath!, headless: true, args: BROWSER_ARGS, env: withoutClockEnv() });
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.on('dialog', (dialog) => { dialogs.push(dialog.message()); void dialog.accept(); });
    // The servers of later tests, each awaited by its own test. No sign-in configured: the run's shared server.
    bareServer = awaitedLater(embeddedServer());
    // Started now, while the first tests run on the first server: a second server behind the fake public web
    // (SearXNG on loopback) whose searches can answer slowly; 12 USD buys two 5 USD holds and not a third.
    slowServer = awaitedLater(startFakeWeb().then(async (web) => {
      try {
        return { web, slow: await startServerProcess({ env: { ...web.resolveEnv, LEADFINDER_DEV_SIGNIN: '1', LEADFINDER_WELCOME_BALANCE_USD: '12' } }) };
      } catch (error) {
        await web.close();
        throw error;
      }
    }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.allSettled([
      server?.stop(),
      bareServer?.then((bare) => bare.stop()),
      slowServer?.then(async ({ web, slow }) => {
        await slow.stop();
        await web.close();
      }),
    ]);
  });

  it('signed out: no nav and no sign-out, a clearly labelled development sign-in, no serious accessibility violation', async () => {
    await page.goto(`${server.url}/?panel=keys`);
    await expect.poll(() => page.locator('#dev-signin').isVisible()).toBe(true);
    expect(await page.locator('.dev-label').innerText()).toContain('Development sign-in');
    expect(await page.getByRole('navigation').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'API keys' }).isVisible()).toBe(false);
    expect(await page.title()).toBe('Sign in — leadfinder');
    expect(await seriousViolations(page)).toEqual([]);
    // The check does fail on a serious violation (a button without a name).
    await page.evaluate(() => document.querySelector('main')!.append(Object.assign(document.createElement('button'), { id: 'unnamed' })));
    expect((await seriousViolations(page)).join()).toContain('button-name');
    await page.evaluate(() => document.getElementById('unnamed')!.remove());
    // Non-text contrast: the input border and the keyboard focus ring against the white page.
    const email = page.getByLabel('Email');
    await email.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab'); // focus by keyboard, so :focus-visible applies
    const look = await email.evaluate((node) => { const st = getComputedStyle(node); return { border: st.borderTopColor, outline: st.outlineColor, outlineStyle: st.outlineStyle }; });
    expect(contrast(look.border, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);
    expect(look.outlineStyle).toBe('solid');
    expect(contrast(look.outline, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);
    await shootBoth(page, '01-signed-out');
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Sign in (development)' }).click();
    await expect.poll(() => page.locator('#dev-email-error').innerText()).toBe('Enter an email address, like ada@example.com.');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Sign in (development)' }).click();
    await expect.poll(() => page.locator('#panel-keys').isVisible()).toBe(true);
    expect(page.url()).toContain('panel=keys');
    expect(await page.locator('#who-name').innerText()).toBe('ada@example.com');
    expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
    expect(await page.locator('#balance').innerText()).toBe('Available: $25.00');
  });

  it('shows a name error in words and creates a key that is shown once, with a copy button', async () => {
    await page.getByLabel('Key name').fill('   ');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#key-name-error').innerText()).toBe('Give the key a name.');

    await page.getByLabel('Key name').fill('ci pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#new-key').isVisible()).toBe(true);
    const value = await page.getByLabel('New API key value').inputValue();
    expect(value).toMatch(/^lf_live_[A-Za-z0-9]{32,}$/);
    expect(await page.locator('#new-key').innerText()).toContain('shown only once');
    await expect.poll(() => page.locator('#key-list tr').count()).toBe(1);
    expect(await page.locator('#key-list').innerText()).toContain(value.slice(0, 12));
    expect(await seriousViolations(page)).toEqual([]);
    await shootBoth(page, '02-key-created');

    await page.reload();
    await expect.poll(() => page.locator('#key-list tr').count()).toBe(1);
    expect(await page.locator('#new-key').isVisible()).toBe(false);
    expect(await page.content()).not.toContain(value);
    await page.getByRole('button', { name: 'Revoke key ci pipeline' }).click();
    await expect.poll(() => page.locator('#key-list tr').count()).toBe(0);
    expect(await page.locator('#keys-empty').isVisible()).toBe(true);
  });

  it('counts characters on the query and words field errors for a person', async () => {
    await page.getByRole('button', { name: 'Search' }).click();
    const q = page.getByLabel('What are you looking for?');
    await q.fill('x'.repeat(2003));
    expect(await page.locator('#q-count').innerText()).toBe('2,003 of 2,000 characters: 3 too many');
    await page.getByLabel('Rows wanted').fill('900');
    await page.getByRole('button', { name: 'Start search' }).click();
    expect(await page.locator('#q-error').innerText()).toBe('Shorten the query to 2,000 characters or fewer (it has 2,003).');
    expect(await page.locator('#target-error').innerText()).toBe('Rows wanted is a whole number from 1 to 500.');
    await shootBoth(page, '03-form-errors');
    await q.fill('ab');
    await page.getByLabel('Rows wanted').fill('3');
    await page.getByRole('button', { name: 'Start search' }).click();
    expect(await page.locator('#q-error').innerText()).toBe('Describe what you are looking for in at least 3 characters.');
    expect(await page.locator('#target-error').isVisible()).toBe(false);
    expect(await page.locator('#run-list tr').count()).toBe(0); // nothing was sent
  });

  it('runs a search to its end: plan, funnel counts, an end sentence, a results table with reasons', async () => {
    await page.getByLabel('What are you looking for?').fill(QUERY);
    await page.getByLabel('Rows wanted').fill('3');
    await page.getByRole('button', { name: 'Start search' }).click();
    await expect.poll(() => page.locator('#run-status').innerText(), { timeout: 60_000 }).toBe('Done');
    expect(page.url()).toMatch(/\?run=[0-9a-f]{32}$/);
    expect(await page.locator('#run-query').innerText()).toBe(QUERY);

    // The plan, as a person reads it.
    expect(await page.locator('#plan-type').innerText()).toBe('companies');
    const filterTitles = await page.locator('#plan-filters li strong').allInnerTexts();
    expect(filterTitles.length).toBeGreaterThan(0);

    // The funnel: candidates found per round, then passed and dropped at each filter, adding up.
    const roundRow = page.locator('#funnel tbody tr.round').first();
    const roundText = await roundRow.locator('th').innerText();
    expect(roundText).toMatch(/^Round 1: [\d,]+ candidates? found$/);
    const candidates = Number(/: ([\d,]+) /.exec(roundText)![1]!.replace(/,/g, ''));
    expect(candidates).toBeGreaterThan(0);
    const firstStep = page.locator('#funnel tbody').first().locator('tr:not(.round)').first();
    const [checked, passed, dropped] = (await firstStep.locator('td').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    expect(checked).toBe(candidates);
    expect(passed! + dropped!).toBe(checked);

    // The end sentence: the count, and which filter dropped the most of how many.
    const rowCount = await page.locator('#results-body tr.result').count();
    expect(rowCount).toBeGreaterThan(0);
    const sentence = await page.locator('#run-summary').innerText();
    expect(sentence).toMatch(new RegExp(`^${rowCount} of 3 found[.:]`));
    const drop = /“(.+)” dropped (\d+) of (\d+) candidates\.$/.exec(sentence);
    if (drop) {
      expect(filterTitles).toContain(drop[1]);
      expect(Number(drop[2])).toBeLessThanOrEqual(Number(drop[3]));
    }
    expect(await page.locator('#run-cost').innerText()).toMatch(/charged \$\d+\.\d{2,4}/);
    expect(await page.locator('#run-count').innerText()).toBe(`${rowCount} of 3`);
    expect(await page.title()).toBe(`Done (${rowCount} of 3): ${QUERY.slice(0, 59)}… — leadfinder`);
    expect(await page.locator('#live').innerText()).toBe(sentence);

    // One line per row: name, details, one mark per filter, source domains.
    const headers = await page.locator('#results-head th').allInnerTexts();
    expect(headers).toEqual(['Name', 'Details', ...filterTitles, 'Sources']);
    const first = page.locator('#results-body tr.result').first();
    const marks = await first.locator('button.mark').allInnerTexts();
    expect(marks.length).toBe(filterTitles.length);
    for (const mark of marks) expect(['✓', '~']).toContain(mark);
    const firstName = await first.locator('.row-name').innerText();
    expect(firstName.length).toBeGreaterThan(0);
    const source = first.locator('td.sources a').first();
    expect(await source.innerText()).toMatch(/^[a-z0-9.-]+(:\d+)?$/);
    expect(await source.getAttribute('aria-label')).toContain(`${firstName} on `);

    // Hovering a mark shows its reason; clicking opens the reason and the quoted passage, with a link
    // named after its page.
    expect(await first.locator('button.mark').first().getAttribute('title')).toMatch(/^(stated on the page|inferred)[^:]*: .+/);
    await first.locator('button.mark').first().click();
    const why = page.locator('#results-body tr.why');
    await expect.poll(() => why.count()).toBe(1);
    expect(await why.innerText()).toContain(`${firstName} · “${filterTitles[0]}”:`);
    const passageLinks = await why.locator('a').allInnerTexts();
    for (const text of passageLinks) expect(text).not.toBe('[source]');
    expect(await first.locator('button.mark').first().getAttribute('aria-expanded')).toBe('true');

    // Badges and marks: text 4.5:1 on their fill, outline 3:1 against the page.
    for (const selector of ['#run-status', '#results-body button.mark-stated', '#results-body button.mark-inferred', '#run-list .badge']) {
      const found = page.locator(selector).first();
      if (!(await found.count())) continue;
      const c = await found.evaluate((node) => { const st = getComputedStyle(node); return { fg: st.color, bg: st.backgroundColor, border: st.borderTopColor }; });
      expect(contrast(c.fg, c.bg), `${selector} text`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(c.border, 'rgb(255, 255, 255)'), `${selector} outline`).toBeGreaterThanOrEqual(3);
    }

    // The header balance went down by what was charged.
    await expect.poll(() => page.locator('#balance').innerText()).not.toBe('Available: $25.00');
    expect(await seriousViolations(page)).toEqual([]);
    await shootBoth(page, '04-search-done');
  });

  it('filters and sorts the rows', async () => {
    const names = await page.locator('#results-body tr.result .row-name').allInnerTexts();
    await page.getByLabel('Sort by').selectOption('name');
    expect(await page.locator('#results-body tr.result .row-name').allInnerTexts()).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    await page.getByLabel('Show rows containing').fill(names[0]!);
    await expect.poll(() => page.locator('#results-body tr.result .row-name').allInnerTexts()).toContain(names[0]);
    expect(await page.locator('#results-body tr.result').count()).toBeLessThanOrEqual(names.length);
    await page.getByLabel('Show rows containing').fill('no row has this text zzzz');
    await expect.poll(() => page.locator('#results-body tr.result').count()).toBe(0);
    expect(await page.locator('#rows-shown').innerText()).toBe(`0 of ${names.length} ${names.length === 1 ? 'row' : 'rows'} shown`);
    await page.getByLabel('Show rows containing').fill('');
    await page.getByLabel('Sort by').selectOption('order');
    expect(await page.locator('#results-body tr.result .row-name').allInnerTexts()).toEqual(names);
  });

  it('exports a CSV with a BOM, a verdict and a reason column per filter, formula-safe, and a JSON of the whole run', async () => {
    const filterTitles = await page.locator('#plan-filters li strong').allInnerTexts();
    const names = await page.locator('#results-body tr.result .row-name').allInnerTexts();
    await page.getByText('Export', { exact: true }).click();
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV (spreadsheet)' }).click()]);
    const bytes = readFileSync((await csvDownload.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(bytes.toString('utf8').slice(1));
    expect(records[0]).toEqual(['name', 'type', 'details', 'intent signal',
      ...filterTitles.flatMap((t) => [`${t}: verdict`, `${t}: why`]), 'sources', 'loosened filters']);
    const body = records.slice(1).filter((r) => r.length > 1);
    expect(body.map((r) => r[0])).toEqual(names);
    for (const record of body) {
      for (let i = 0; i < filterTitles.length; i++) {
        expect(record[4 + 2 * i]).toMatch(/^(stated on the page|inferred)( \(loosened filter\))?$/);
        expect(record[5 + 2 * i]!.length).toBeGreaterThan(0);
      }
      for (const cell of record) expect(cell).not.toMatch(/^[=+\-@]/);
      expect(record.at(-2)!.split('\n').every((u) => /^https?:\/\//.test(u))).toBe(true);
    }

    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    const exported = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8'));
    expect(exported.query).toBe(QUERY);
    expect(exported.status).toBe('done');
    expect(exported.plan.entity_type).toBe('company');
    expect(exported.filters.map((f: { title: string }) => f.title)).toEqual(filterTitles);
    expect(typeof exported.met).toBe('boolean');
    expect(exported.stopped).toBe(false);
    expect(exported.cost.charged).toMatch(/^\$\d+\.\d{2,4}$/);
    expect(exported.rows.map((r: { name: string }) => r.name)).toEqual(names);

    const curl = await page.getByLabel('curl command that runs this search again').inputValue();
    expect(curl).toContain(`curl -s -X POST '${server.url}/v1/searches'`);
    expect(curl).toContain('Bearer $LEADFINDER_API_KEY');
    const body2 = JSON.parse(/-d '(.*)'$/.exec(curl)![1]!);
    expect(body2).toMatchObject({ q: QUERY, target: 3, speed: 'advanced', relax: true });
    await page.getByRole('button', { name: 'Copy the curl command' }).click();
    await expect.poll(() => page.locator('#export-status').innerText()).toMatch(/^Copied\./);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);
    await shootBoth(page, '05-export-menu');
  });

  it('a reload and a shared link reopen the run with its funnel, sentence and table', async () => {
    const sentence = await page.locator('#run-summary').innerText();
    const rows = await page.locator('#results-body tr.result').count();
    const url = page.url();
    await page.reload();
    await expect.poll(() => page.locator('#run-summary').innerText()).toBe(sentence);
    expect(await page.locator('#run-query').innerText()).toBe(QUERY);
    expect(await page.locator('#results-body tr.result').count()).toBe(rows);

    // A fresh tab (no saved state) rebuilds the funnel from the event log.
    const other = await context.newPage();
    await other.goto(url);
    await expect.poll(() => other.locator('#run-summary').innerText(), { timeout: 15_000 }).toBe(sentence);
    expect(await other.locator('#funnel tbody tr.round').count()).toBeGreaterThan(0);
    expect(await other.locator('#results-body tr.result').count()).toBe(rows);
    // A link to a run that is not this account's (or does not exist) says so and shows nothing else.
    await other.goto(`${server.url}/?run=${'0'.repeat(32)}`);
    await expect.poll(() => other.locator('#run-message-text').innerText()).toBe('This run was not found. It may belong to another account, or the link is mistyped.');
    expect(await other.locator('#results-body tr').count()).toBe(0);
    expect(await other.getByRole('button', { name: 'Stop' }).isVisible()).toBe(false);
    expect(await other.locator('#run-summary').isVisible()).toBe(false);
    await other.close();
  });

  it('lists the recent run with its status and charged amount, and a long query does not squeeze the table', async () => {
    await expect.poll(() => page.locator('#run-list tr').count()).toBeGreaterThan(0);
    const row = page.locator('#run-list tr').first();
    expect(await row.innerText()).toMatch(/Done[\s\S]*\$\d+\.\d{2,4}/);
    expect(await row.getByRole('link').innerText()).toBe(QUERY);
  });

  it('on a phone, a missed target says so and why, with the new run brought into view', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await page.getByLabel('What are you looking for?').fill(QUERY);
      await page.getByLabel('Rows wanted').fill('40');
      await page.getByRole('button', { name: 'Start search' }).click();
      await expect.poll(() => page.locator('#run-status').innerText()).toBe('Running');
      const top = await page.locator('#run-title').evaluate((node) => node.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(812);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('run-title');
      await expect.poll(() => page.locator('#run-status').innerText(), { timeout: 60_000 }).toBe('Done');
      const rows = await page.locator('#results-body tr.result').count();
      expect(rows).toBeLessThan(40);
      const sentence = await page.locator('#run-summary').innerText();
      expect(sentence).toMatch(new RegExp(`^${rows} of 40 found: the target was missed\\. “.+” dropped \\d+ of \\d+ candidates\\.$`));
      await shootBoth(page, '10-target-missed');
      // One line per row, not a tall card: at 1440 px a row takes about three lines of text.
      await page.setViewportSize({ width: 1440, height: 900 });
      const perRow = await page.locator('#results-body').evaluate((body) => body.getBoundingClientRect().height / body.querySelectorAll('tr.result').length);
      console.info(`results table: ${rows} rows, ${Math.round(perRow)} px per row at 1440 px`);
      expect(perRow).toBeLessThan(120);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  }, 90_000);

  it('when the stream is refused, re-reads the run record until it ends', async () => {
    // The event stream of the next run answers 404 (as if the run vanished from the stream's view).
    await page.route('**/v1/searches/*/events', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Unknown search."}' }));
    try {
      // Every text the run message shows, however briefly (a short run may end at the first re-read).
      await page.evaluate(() => {
        const seen: string[] = [];
        (globalThis as unknown as { seenMessages: string[] }).seenMessages = seen;
        const node = document.getElementById('run-message-text')!;
        new MutationObserver(() => seen.push(node.textContent ?? '')).observe(node, { childList: true, characterData: true, subtree: true });
      });
      await page.getByLabel('What are you looking for?').fill('companies in Berlin');
      await page.getByLabel('Rows wanted').fill('2');
      await page.getByRole('button', { name: 'Start search' }).click();
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { seenMessages: string[] }).seenMessages))
        .toContain('Live updates stopped; checking the run every few seconds instead.');
      await expect.poll(() => page.locator('#run-status').innerText(), { timeout: 60_000 }).toMatch(/^(Done)$/);
      expect(await page.locator('#run-message').isVisible()).toBe(false);
      const rows = await page.locator('#results-body tr.result').count();
      expect(await page.locator('#run-summary').innerText()).toMatch(new RegExp(`^${rows} of 2 found`));
      expect(await page.locator('#run-cost').innerText()).toMatch(/charged \$\d+\.\d{2,4}/);
    } finally {
      await page.unroute('**/v1/searches/*/events');
    }
  }, 90_000);

  it('without any sign-in configured, says so and offers neither a form nor a nav', async () => {
    const bare = await bareServer;
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const p = await ctx.newPage();
      await p.goto(`${bare.url}/?run=${'1'.repeat(32)}`);
      await expect.poll(() => p.locator('#no-signin').isVisible()).toBe(true);
      expect(await p.locator('#no-signin').innerText()).toContain('No sign-in is configured on this server.');
      expect(await p.locator('#dev-signin').isVisible()).toBe(false);
      expect(await p.locator('#oidc-signin').isVisible()).toBe(false);
      expect(await p.getByRole('navigation').count()).toBe(0);
      expect(await p.locator('#run').isVisible()).toBe(false);
      expect(await seriousViolations(p)).toEqual([]);
      await shootBoth(p, '00-no-sign-in');
    } finally {
      await ctx.close();
    }
    // Room for a server start-up (up to 60 s beside other test files on two shared cores).
  }, 120_000);

  it('sends a strict Content-Security-Policy with the page', async () => {
    const response = await fetch(server.url + '/');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('on a slow server: resumes after a reload, asks before a second search, says what a 402 is missing, stops, and recovers a failed sign-in', async () => {
    // The second server (see beforeAll) answers searches slowly, so the runs are certainly still running.
    const { web, slow } = await slowServer;
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const asked: string[] = [];
    let answer = false;
    try {
      web.setSearchDelay(4_000);
      const p = await ctx.newPage();
      p.on('dialog', (dialog) => { asked.push(dialog.message()); void (answer ? dialog.accept() : dialog.dismiss()); });
      const eventRequests: Record<string, string>[] = [];
      p.on('request', (r) => { if (r.url().includes('/events')) eventRequests.push(r.headers()); });
      await p.goto(`${slow.url}/`);
      await devSignIn(p, 'grace@example.com');
      await p.getByLabel('What are you looking for?').fill('companies in Europe that raised money');
      await p.getByLabel('Rows wanted').fill('50');
      await p.getByRole('button', { name: 'Start search' }).click();
      await expect.poll(() => p.locator('#run-status').innerText()).toBe('Running');
      await expect.poll(() => p.locator('#plan').isVisible(), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => p.title()).toMatch(/^Running \(0 of 50\): companies in Europe that raised money — leadfinder$/);
      expect(await p.locator('#run-step').innerText()).not.toBe('');
      expect(await seriousViolations(p)).toEqual([]);
      await shootBoth(p, '06-running');

      // A reload reopens the run and resumes its stream after the last event handled.
      const runUrl = p.url();
      expect(runUrl).toMatch(/\?run=[0-9a-f]{32}$/);
      eventRequests.length = 0;
      await p.reload();
      await expect.poll(() => eventRequests.length).toBeGreaterThan(0);
      expect(Number(eventRequests[0]!['last-event-id'])).toBeGreaterThan(0);
      expect(await p.locator('#run-query').innerText()).toBe('companies in Europe that raised money');
      expect(await p.locator('#plan').isVisible()).toBe(true);

      // A stream that cannot connect says so and is resumed, from the same point, once it can.
      await p.route('**/v1/searches/*/events', (route) => route.abort('connectionreset'));
      eventRequests.length = 0;
      await p.reload();
      await expect.poll(() => p.locator('#run-message-text').innerText()).toBe('Connection dropped; resuming…');
      await p.unroute('**/v1/searches/*/events');
      await expect.poll(() => p.locator('#run-message').isVisible(), { timeout: 10_000 }).toBe(false);
      expect(eventRequests.length).toBeGreaterThan(1);
      expect(Number(eventRequests.at(-1)!['last-event-id'])).toBeGreaterThan(0);

      // A second search asks first; declining starts nothing.
      expect(await p.locator('#run-status').innerText()).toBe('Running');
      expect(await p.locator('#q-error').innerText()).toBe('');
      await p.getByLabel('What are you looking for?').fill('fintech companies in Paris');
      await p.getByRole('button', { name: 'Start search' }).click();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('“companies in Europe that raised money” is still running and spending.');
      expect(await p.locator('#run-list tr').count()).toBe(1);

      // Accepting starts a second search; both show in the list with live status and spend.
      answer = true;
      await p.getByRole('button', { name: 'Start search' }).click();
      await expect.poll(() => p.locator('#run-query').innerText()).toBe('fintech companies in Paris');
      const second = p.url();
      expect(second).toMatch(/\?run=[0-9a-f]{32}$/);
      expect(second).not.toBe(runUrl);
      await expect.poll(() => p.locator('#run-list tr').count()).toBe(2);
      for (const i of [0, 1]) expect(await p.locator('#run-list tr').nth(i).innerText()).toMatch(/Running[\s\S]*so far/);
      await expect.poll(() => p.locator('#balance').innerText()).toBe('Available: $2.00');

      // A third is refused: the 402 says how much is missing, and the refused run is listed at once.
      await p.getByLabel('What are you looking for?').fill('robotics companies in Munich');
      await p.getByRole('button', { name: 'Start search' }).click();
      await expect.poll(() => p.locator('#notice-text').innerText()).toContain('so $3.00 is missing');
      expect(await p.locator('#notice-text').innerText()).toMatch(/^Not enough balance: a search holds \$5\.00 while it runs and \$2\.00 is available \(searches still running hold \$10\.00\)/);
      await expect.poll(() => p.locator('#run-list tr').count()).toBe(3);
      expect(await p.locator('#run-list tr').first().innerText()).toMatch(/robotics companies in Munich[\s\S]*Refused/);
      expect(p.url()).toBe(second);
      await shootBoth(p, '07-insufficient-balance');
      // Opened from the list, the refused run says it never started.
      await p.getByRole('link', { name: 'robotics companies in Munich' }).click();
      await expect.poll(() => p.locator('#run-summary').innerText()).toBe('Not started: the available balance could not cover the 5.00 USD a search holds while it runs.');
      expect(await p.locator('#run-status').innerText()).toBe('Refused');
      await p.getByRole('link', { name: 'fintech companies in Paris' }).click();
      await expect.poll(() => p.url()).toBe(second);
      await expect.poll(() => p.locator('#run-status').innerText()).toBe('Running');

      // Stop: the record decides, and the sentence says where it stopped.
      const pressed = Date.now();
      await p.getByRole('button', { name: 'Stop' }).click();
      await expect.poll(() => p.locator('#run-status').innerText(), { timeout: 10_000 }).toBe('Stopped');
      expect(Date.now() - pressed).toBeLessThan(8_000);
      const kept = await p.locator('#results-body tr.result').count();
      expect(await p.locator('#run-summary').innerText()).toBe(`Stopped at ${kept} of 10.${kept ? ' The rows that passed every filter are kept.' : ''}`);
      expect(await p.locator('#notice').isVisible()).toBe(false); // the refusal's figures are stale now
      expect(await p.title()).toMatch(/^Stopped \(\d+ of 10\): fintech companies in Paris — leadfinder$/);
      await expect.poll(() => p.locator('#run-list tr').nth(1).innerText()).toMatch(/fintech companies in Paris[\s\S]*Stopped/);
      expect(await seriousViolations(p)).toEqual([]);
      await shootBoth(p, '08-stopped');

      // The first run, opened from the list. Its credential fails mid-run: Stop cannot be confirmed, so
      // the page offers to sign in again and comes back to the same run.
      await p.getByRole('link', { name: 'companies in Europe that raised money' }).click();
      await expect.poll(() => p.locator('#run-query').innerText()).toBe('companies in Europe that raised money');
      expect(p.url()).toBe(runUrl);
      expect(await p.locator('#run-status').innerText()).toBe('Running');
      expect((await p.request.post(`${slow.url}/auth/signout-everywhere`)).status()).toBe(200);
      // The page learns that the sign-in ended from the refused stop or, when its event stream's credential check
      // (at a keepalive) comes first, from that: then Stop is already disabled. Either way the same offer follows.
      const stop = p.getByRole('button', { name: 'Stop' });
      await stop.click({ timeout: 5_000 }).catch(async (error: unknown) => {
        if (await stop.isEnabled()) throw error;
      });
      await expect.poll(() => p.getByRole('button', { name: 'Sign in again' }).first().isVisible()).toBe(true);
      expect(await p.locator('#run-message-text').innerText()).toContain('Your sign-in has ended');
      // The stop was not confirmed, so the page does not pretend it is stopping.
      expect(await p.locator('#run-status').innerText()).toBe('Running');
      expect(await p.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
      expect(await seriousViolations(p)).toEqual([]);
      await shootBoth(p, '09-signed-out-mid-run');
      await p.locator('#signin-again').click();
      await devSignIn(p, 'grace@example.com');
      expect(p.url()).toBe(runUrl);
      await expect.poll(() => p.locator('#run-query').innerText()).toBe('companies in Europe that raised money');
      expect(await p.locator('#run-message').isVisible()).toBe(false);
      // Still running (then Stop works again), or it ended meanwhile and says how.
      await expect.poll(() => p.locator('#run-status').innerText()).toMatch(/^(Running|Stopped|Done)$/);
      if ((await p.locator('#run-status').innerText()) === 'Running') {
        await p.getByRole('button', { name: 'Stop' }).click();
        await expect.poll(() => p.locator('#run-status').innerText(), { timeout: 10_000 }).toBe('Stopped');
      }
      expect(await p.locator('#run-summary').innerText()).toMatch(/^(Stopped at \d+ of 50\.|\d+ of 50 found)/);
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
