import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

const dir = mkdtempSync(join(tmpdir(), 'lf-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('configuration: LEADFINDER_CORPUS_DIR', () => {
  it('refuses a folder that does not exist, or a file, naming the variable', () => {
    const missing = refusal({ LEADFINDER_CORPUS_DIR: '/nonexistent' });
    expect(missing.variable).toBe('LEADFINDER_CORPUS_DIR');
    expect(missing.message).toBe('invalid configuration: LEADFINDER_CORPUS_DIR: no such folder (got "/nonexistent")');
    const file = join(dir, 'page.html');
    writeFileSync(file, '<p>x</p>');
    expect(refusal({ LEADFINDER_CORPUS_DIR: file }).message).toMatch(/LEADFINDER_CORPUS_DIR: not a folder/);
  });

  it('accepts an existing folder, and ignores the variable when another search provider is chosen', () => {
    expect(loadConfig({ LEADFINDER_CORPUS_DIR: dir }).LEADFINDER_CORPUS_DIR).toBe(dir);
    expect(() => loadConfig({ LEADFINDER_SEARCH: 'searxng', LEADFINDER_SEARXNG_URL: 'http://127.0.0.1:8888', LEADFINDER_CORPUS_DIR: '/nonexistent' })).not.toThrow();
  });
});

describe('configuration: LLM token prices', () => {
  const prices = (env: Record<string, string>) => {
    const c = loadConfig(env);
    return [c.LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK, c.LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK];
  };
  const llm = { LEADFINDER_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' };

  it("take the configured model's list price when unset (micro-USD per million tokens)", () => {
    expect(prices({})).toEqual([150_000, 600_000]);
    expect(prices({ ...llm, LEADFINDER_LLM_MODEL: 'gpt-4o' })).toEqual([2_500_000, 10_000_000]);
    expect(prices({ ...llm, LEADFINDER_LLM_MODEL: 'gpt-4o-mini-2024-07-18' })).toEqual([150_000, 600_000]);
  });

  it('are required for a model with no known list price, and then used as given', () => {
    const unknown = refusal({ ...llm, LEADFINDER_LLM_MODEL: 'llama3.1:8b' });
    expect(unknown.variable).toBe('LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK');
    expect(unknown.message).toMatch(/required for LEADFINDER_LLM_MODEL=llama3\.1:8b/);
    expect(prices({ ...llm, LEADFINDER_LLM_MODEL: 'llama3.1:8b', LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: '0', LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: '0' })).toEqual([0, 0]);
    expect(prices({ ...llm, LEADFINDER_LLM_MODEL: 'gpt-4o', LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: '1.25' })).toEqual([1_250_000, 10_000_000]);
  });
});
