import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { recordSkippedSuite, toolPath } from '@leadfinder/testkit';
import { startFakeWeb } from '../support/fake-web.js';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

/**
 * The web page in a real Chromium against a real embedded server: sign in, create a key (shown once,
 * gone after reload), revoke it, run a search on the sample corpus to `done`, stop another, export CSV.
 * Screenshots go to test-artifacts/screenshots.
 */
const executablePath = toolPath('chromium');
if (!executablePath) recordSkippedSuite('test/browser/web.test.ts (web page in Chromium)', 'chromium');
const shots = join(process.cwd(), 'test-artifacts', 'screenshots');

describe.skipIf(!executablePath)('web page in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    // The development sign-in is off unless enabled (as `npm start` does on loopback); searches need money.
    server = await startServerProcess({ env: { LEADFINDER_DEV_SIGNIN: '1', LEADFINDER_WELCOME_BALANCE_USD: '25' } });
    browser = await chromium.launch({
      executablePath: executablePath!,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens the key panel directly and offers a clearly labelled development sign-in', async () => {
    await page.goto(`${server.url}/?panel=keys`);
    await expect.poll(() => page.locator('#dev-signin').isVisible()).toBe(true);
    expect(await page.locator('.dev-label').innerText()).toContain('Development sign-in');
    await page.screenshot({ path: join(shots, '01-sign-in.png') });
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Sign in (development)' }).click();
    await expect.poll(() => page.locator('#panel-keys').isVisible()).toBe(true);
    expect(page.url()).toContain('panel=keys');
    expect(await page.locator('#who-name').innerText()).toBe('ada@example.com');
  });

  it('shows a name error inline and creates a key that is shown once, with a copy button', async () => {
    await page.getByLabel('Key name').fill('   ');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#key-name-error').innerText()).toBe('name is required');

    await page.getByLabel('Key name').fill('ci pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#new-key').isVisible()).toBe(true);
    const value = await page.getByLabel('New API key value').inputValue();
    expect(value).toMatch(/^lf_live_[A-Za-z0-9]{32,}$/);
    expect(await page.locator('#new-key').innerText()).toContain('shown only once');
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await expect.poll(() => page.locator('#key-list tr').count()).toBe(1);
    expect(await page.locator('#key-list').innerText()).toContain(value.slice(0, 12));
    await page.screenshot({ path: join(shots, '02-key-created.png') });

    await page.reload();
    await expect.poll(() => page.locator('#key-list tr').count()).toBe(1);
    expect(await page.locator('#new-key').isVisible()).toBe(false);
    expect(await page.content()).not.toContain(value);
  });

  it('revokes a key after confirmation', async () => {
    await page.getByRole('button', { name: 'Revoke key ci pipeline' }).click();
    await expect.poll(() => page.locator('#key-list tr').count()).toBe(0);
    expect(await page.locator('#keys-empty').isVisible()).toBe(true);
  });

  it('runs a search on the sample corpus to done, showing rows with rationales and sources', async () => {
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('What are you looking for?').fill('AI startups in Berlin that raised a seed round in the last year');
    await page.getByLabel('Rows wanted').fill('3');
    await page.getByRole('button', { name: 'Start search' }).click();
    await expect.poll(() => page.locator('#run-status').innerText(), { timeout: 60_000 }).toBe('done');
    const rows = page.locator('#rows article');
    expect(await rows.count()).toBeGreaterThan(0);
    const first = rows.first();
    expect(await first.getByRole('list', { name: 'Filters passed' }).locator('li').count()).toBeGreaterThan(0);
    expect(await first.getByRole('list', { name: 'Sources' }).locator('a').count()).toBeGreaterThan(0);
    expect(await page.locator('#plan-filters li').count()).toBeGreaterThan(0);
    expect(await page.locator('#run-cost').innerText()).toMatch(/charged \$\d+\.\d{2,4}/);
    await page.screenshot({ path: join(shots, '03-search-done.png'), fullPage: true });
  });

  it('exports the table to CSV', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split(/\r\n/);
    expect(lines[0]).toBe('name,entity_type,details,intent_signal,rationale,source_urls,relaxed,round');
    expect(lines.length).toBe((await page.locator('#rows article').count()) + 1);
  });

  it('lists the recent run with its status and charged amount', async () => {
    await expect.poll(() => page.locator('#run-list tr').count()).toBeGreaterThan(0);
    const row = page.locator('#run-list tr').first();
    expect(await row.innerText()).toMatch(/done[\s\S]*\$\d+\.\d{2,4}/);
  });

  it('stops a running search from the Stop button and shows the stopped run', async () => {
    // A second server behind the fake public web (SearXNG on loopback) whose searches answer slowly,
    // so the run is certainly still running when Stop is pressed.
    const web = await startFakeWeb();
    const slow = await startServerProcess({ env: { ...web.resolveEnv, LEADFINDER_DEV_SIGNIN: '1', LEADFINDER_WELCOME_BALANCE_USD: '25' } });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      web.setSearchDelay(5_000);
      const p = await context.newPage();
      await p.goto(`${slow.url}/?panel=keys`);
      await p.getByLabel('Email').fill('grace@example.com');
      await p.getByRole('button', { name: 'Sign in (development)' }).click();
      await expect.poll(() => p.locator('#panel-keys').isVisible()).toBe(true);
      await p.getByRole('button', { name: 'Search' }).click();
      await p.getByLabel('What are you looking for?').fill('companies in Europe that raised money');
      await p.getByLabel('Rows wanted').fill('50');
      await p.getByRole('button', { name: 'Start search' }).click();
      await expect.poll(() => p.locator('#run-where').innerText(), { timeout: 5_000 }).toMatch(/searching/);
      const pressed = Date.now();
      await p.getByRole('button', { name: 'Stop' }).click();
      await expect.poll(() => p.locator('#run-status').innerText(), { timeout: 10_000 }).toBe('stopped');
      expect(Date.now() - pressed).toBeLessThan(5_000);
      expect(await p.locator('#run-message').innerText()).toContain('Stopped');
      await expect.poll(() => p.locator('#run-list tr').first().innerText()).toMatch(/stopped/);
      await p.screenshot({ path: join(shots, '04-stopped.png'), fullPage: true });
    } finally {
      await context.close();
      await slow.stop();
      await web.close();
    }
  }, 60_000);

  it('is readable on a 375 px wide screen', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, '05-narrow.png'), fullPage: true });
  });

  it('sends a strict Content-Security-Policy with the page', async () => {
    const response = await fetch(server.url + '/');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
