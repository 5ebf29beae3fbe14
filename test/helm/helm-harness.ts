import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { SKIPPED_SUITES_FILE, serversRequired } from '@leadfinder/testkit';

/**
 * Runs the real helm binary against charts/leadfinder and parses what it renders. helm is found in
 * LEADFINDER_TEST_HELM_BIN, then on PATH, then in $(go env GOPATH)/bin. Without it the suite is skipped
 * and recorded, except under LEADFINDER_TEST_REQUIRE_SERVERS=1 where a missing helm is a failure.
 */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHART_DIR = join(REPO_ROOT, 'charts', 'leadfinder');

const run = promisify(execFile);

function executable(path: string): boolean {
  try {
    execFileSync(path, ['version', '--short'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

function goBinHelm(): string | null {
  try {
    const gopath = execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8', timeout: 10_000 }).trim();
    return gopath ? join(gopath.split(delimiter)[0]!, 'bin', 'helm') : null;
  } catch {
    return null;
  }
}

/** The helm binary to use, or null when there is none. Throws when one is required. */
export function findHelm(): string | null {
  const fromEnv = process.env.LEADFINDER_TEST_HELM_BIN;
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'helm'));
  const candidates = [fromEnv, ...onPath, goBinHelm()].filter((c): c is string => !!c && existsSync(c));
  const found = candidates.find(executable) ?? null;
  if (!found && serversRequired()) {
    throw new Error('helm was not found (LEADFINDER_TEST_HELM_BIN, PATH, $(go env GOPATH)/bin) but LEADFINDER_TEST_REQUIRE_SERVERS=1');
  }
  return found;
}

/** Record a suite skipped for want of helm, beside the suites skipped for want of a server. */
export function recordSkippedHelmSuite(suite: string, kind = 'helm', env = 'LEADFINDER_TEST_HELM_BIN'): void {
  mkdirSync(dirname(SKIPPED_SUITES_FILE), { recursive: true });
  appendFileSync(SKIPPED_SUITES_FILE, JSON.stringify({ suite, kind, env }) + '\n');
}

/**
 * kubernetes-validate (PyPI; ships the Kubernetes JSON schemas, so nothing is fetched): found in
 * LEADFINDER_TEST_KUBERNETES_VALIDATE_BIN, then on PATH, then in the venv .ci/install-tools.sh makes.
 * null when absent; throws when absent under LEADFINDER_TEST_REQUIRE_SERVERS=1.
 */
export function findKubernetesValidate(): string | null {
  const venv = join(homedir(), '.cache', 'leadfinder', 'kubernetes-validate', 'bin', 'kubernetes-validate');
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'kubernetes-validate'));
  const candidates = [process.env.LEADFINDER_TEST_KUBERNETES_VALIDATE_BIN, ...onPath, venv].filter((c): c is string => !!c && existsSync(c));
  const found = candidates.find((c) => {
    try {
      execFileSync(c, ['--version'], { stdio: 'ignore', timeout: 30_000 });
      return true;
    } catch {
      return false;
    }
  }) ?? null;
  if (!found && serversRequired()) {
    throw new Error('kubernetes-validate was not found (LEADFINDER_TEST_KUBERNETES_VALIDATE_BIN, PATH, ~/.cache/leadfinder/kubernetes-validate; .ci/install-tools.sh kubernetes_validate) but LEADFINDER_TEST_REQUIRE_SERVERS=1');
  }
  return found;
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a tool (helm, kubernetes-validate) from the repository root, never throwing: the exit code is returned. */
export async function helm(bin: string, args: string[]): Promise<HelmResult> {
  try {
    const { stdout, stderr } = await run(bin, args, { cwd: REPO_ROOT, timeout: 120_000, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}

/** A rendered Kubernetes object, loosely typed: tests read the fields they assert on. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}

/**
 * The Kubernetes version renders assume. Explicit because a `go install`ed helm assumes v1.20 (its
 * version comes from release ldflags), below the chart's kubeVersion; Argo CD passes its cluster's.
 */
export const KUBE_VERSION = '1.30.0';

/** `helm template` the chart with extra arguments: helm's text. Throws with helm's message when rendering fails. */
export async function renderChartText(bin: string, args: string[] = []): Promise<string> {
  const result = await helm(bin, ['template', 'lf', CHART_DIR, '--namespace', 'research', '--kube-version', KUBE_VERSION, ...args]);
  if (result.code !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return result.stdout;
}

/** `helm template` the chart with extra arguments; throws with helm's message when rendering fails. */
export async function renderChart(bin: string, args: string[] = []): Promise<K8sObject[]> {
  return parseAllDocuments(await renderChartText(bin, args))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

export function named(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name}; have ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

export const ROLES = ['edge', 'coordinator', 'fetcher', 'filter'] as const;
export type RoleName = (typeof ROLES)[number];
