import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Real servers for integration tests. URLs come from the environment (`.ci/run` starts the servers and
 * exports them); else, with a Docker engine reachable, testcontainers starts them; else the suite is
 * skipped and recorded, and `npm test` ends by naming it and the one command that runs it. With
 * LEADFINDER_TEST_REQUIRE_SERVERS=1 a missing server is a failure instead.
 */
export type ServerKind = 'mongodb' | 'nats';
/** Programs some suites drive (found on PATH or at the usual place, or named by the environment). */
export type ToolKind = 'helm' | 'chromium' | 'openapi-spec-validator' | 'schemathesis' | 'faketime';

const ENV: Record<ServerKind | ToolKind, string> = {
  mongodb: 'LEADFINDER_TEST_MONGODB_URL',
  nats: 'LEADFINDER_TEST_NATS_URL',
  helm: 'LEADFINDER_TEST_HELM_BIN',
  chromium: 'LEADFINDER_TEST_CHROMIUM_BIN',
  'openapi-spec-validator': 'LEADFINDER_TEST_OPENAPI_SPEC_VALIDATOR_BIN',
  schemathesis: 'LEADFINDER_TEST_SCHEMATHESIS_BIN',
  faketime: 'LEADFINDER_TEST_FAKETIME_BIN',
};

/** The venvs .ci/install-tools.sh installs the PyPI tools into. */
const venvBin = (tool: string, bin: string) => join(process.env.HOME ?? '/root', '.cache', 'leadfinder', tool, 'bin', bin);

const TOOL_CANDIDATES: Record<ToolKind, string[]> = {
  helm: ['helm', join(process.env.HOME ?? '/root', 'go', 'bin', 'helm')],
  chromium: ['chromium', '/usr/bin/chromium', 'chromium-browser'],
  'openapi-spec-validator': ['openapi-spec-validator', venvBin('openapi-spec-validator', 'openapi-spec-validator')],
  // Not `st`, its short alias: another program of that name may be on PATH.
  schemathesis: ['schemathesis', venvBin('schemathesis', 'schemathesis')],
  faketime: ['faketime', '/usr/bin/faketime'],
};

/**
 * The path of a tool a suite needs, or null when it is not installed (the caller then skips and records).
 * Throws under LEADFINDER_TEST_REQUIRE_SERVERS=1.
 */
export function toolPath(kind: ToolKind): string | null {
  const fromEnv = process.env[ENV[kind]];
  const candidates = fromEnv ? [fromEnv] : TOOL_CANDIDATES[kind];
  for (const candidate of candidates) {
    if (candidate.includes('/')) {
      if (existsSync(candidate)) return candidate;
      continue;
    }
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (dir && existsSync(join(dir, candidate))) return join(dir, candidate);
    }
  }
  if (serversRequired()) throw new Error(`${kind} is not installed (set ${ENV[kind]}), but LEADFINDER_TEST_REQUIRE_SERVERS=1`);
  return null;
}

export const SKIPPED_SUITES_FILE = join(process.cwd(), 'test-artifacts', 'skipped-suites.jsonl');

export function serversRequired(): boolean {
  return process.env.LEADFINDER_TEST_REQUIRE_SERVERS === '1';
}

async function dockerReachable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

const started = new Map<ServerKind, Promise<string>>();
const stoppers: (() => Promise<void>)[] = [];

async function startContainer(kind: ServerKind): Promise<string> {
  const { GenericContainer, Wait } = await import('testcontainers');
  if (kind === 'mongodb') {
    const c = await new GenericContainer('mongo:7').withExposedPorts(27017).withWaitStrategy(Wait.forListeningPorts()).start();
    stoppers.push(async () => void (await c.stop()));
    return `mongodb://${c.getHost()}:${c.getMappedPort(27017)}/`;
  }
  const c = await new GenericContainer('nats:2.11').withCommand(['-js']).withExposedPorts(4222).withWaitStrategy(Wait.forListeningPorts()).start();
  stoppers.push(async () => void (await c.stop()));
  return `nats://${c.getHost()}:${c.getMappedPort(4222)}`;
}

/**
 * The URL of a real server of this kind, or null when none can be had (the caller then skips).
 * Throws under LEADFINDER_TEST_REQUIRE_SERVERS=1.
 */
export async function serverUrl(kind: ServerKind): Promise<string | null> {
  const fromEnv = process.env[ENV[kind]];
  if (fromEnv) return fromEnv;
  if (!started.has(kind)) {
    started.set(kind, (async () => ((await dockerReachable()) ? startContainer(kind) : ''))());
  }
  const url = await started.get(kind)!;
  if (url) return url;
  if (serversRequired()) {
    throw new Error(`${ENV[kind]} is not set and no Docker engine is reachable, but LEADFINDER_TEST_REQUIRE_SERVERS=1`);
  }
  return null;
}

/** Record that a suite could not run for want of a server, for the closing summary of `npm test`. */
export function recordSkippedSuite(suite: string, kind: ServerKind | ToolKind): void {
  mkdirSync(join(process.cwd(), 'test-artifacts'), { recursive: true });
  appendFileSync(SKIPPED_SUITES_FILE, JSON.stringify({ suite, kind, env: ENV[kind] }) + '\n');
}

/** Stop containers this process started (called from vitest globalTeardown or afterAll). */
export async function stopStartedServers(): Promise<void> {
  await Promise.allSettled(stoppers.splice(0).map((s) => s()));
}

/** A unique name per test for databases, streams and buckets, so suites never see each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
