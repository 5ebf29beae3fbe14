/**
 * The shipped Grafana dashboard and Prometheus alert rules name only metrics (and labels) the service
 * really exports: two real processes (an all-in-one service and a filter role it calls over gRPC, the
 * filter on a loopback LLM stub) run a search with LEADFINDER_METRICS_PORT set, and their /metrics
 * output, as Prometheus would scrape it, is the reference.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startLlmStub, type LlmStub } from '../support/llm-stub.js';
import { createAccount, freePort, startServerProcess, type ServerProcess } from '../support/server-process.js';

const ADMIN = 'observability-admin-token-0123456789abcdef';
const DASHBOARD = join(process.cwd(), 'deploy', 'observability', 'grafana-dashboard.json');
const RULES = join(process.cwd(), 'deploy', 'observability', 'prometheus-rules.yaml');

/** Labels Prometheus adds at scrape time (target labels), not the exporter. */
const TARGET_LABELS = new Set(['job', 'instance', 'namespace', 'pod', 'service', 'container', 'endpoint']);

interface Exported {
  /** Series names as scraped (`http_server_request_duration_bucket`, `leadfinder_runs_total`, …). */
  series: Set<string>;
  /** Label names seen per series name. */
  labels: Map<string, Set<string>>;
}

/** Parses the Prometheus text format: every sample line's name and label names. */
function parseExposition(text: string, into: Exported): void {
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s/.exec(line);
    if (!m) continue;
    const name = m[1]!;
    into.series.add(name);
    const names = into.labels.get(name) ?? new Set<string>();
    for (const l of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) names.add(l[1]!);
    into.labels.set(name, names);
  }
}

const PROMQL_WORDS = new Set([
  'sum', 'min', 'max', 'avg', 'count', 'rate', 'irate', 'increase', 'histogram_quantile', 'by', 'without', 'and', 'or',
  'unless', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'abs', 'clamp_min', 'clamp_max', 'topk', 'bottomk',
  'label_values', 'e', 'inf', 'nan',
]);

export interface Reference {
  metric: string;
  /** Label names the expression filters or groups this metric by. */
  labels: string[];
}

/** The metric names (and the labels used with them) in one PromQL expression. */
export function metricReferences(expr: string): Reference[] {
  const refs: Reference[] = [];
  // Grafana variables are not PromQL: `$__rate_interval` is a range, `$namespace` a regex value.
  const text = expr.replace(/\$__\w+|\$\{\w+\}|\$\w+/g, '5m');
  // Grouping labels apply to the aggregation's whole argument; collect them per aggregation roughly, by
  // the metrics inside the same expression.
  const grouping = [...text.matchAll(/\b(?:by|without|on|ignoring)\s*\(([^)]*)\)/g)]
    .flatMap((m) => m[1]!.split(',').map((s) => s.trim()).filter(Boolean));
  const stripped = text
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\b(?:by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  const token = /([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?\s*(\()?/g;
  for (const m of stripped.matchAll(token)) {
    const [, name, matchers, call] = m;
    if (call || PROMQL_WORDS.has(name!) || /^\d/.test(name!)) continue;
    const before = stripped.slice(0, m.index);
    if (/[0-9.]$/.test(before)) continue; // the `e` of 1e6, units of a number
    const labels = [...(matchers ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1]!);
    refs.push({ metric: name!, labels: [...labels, ...grouping.filter((g) => g !== 'le')] });
  }
  return refs;
}

function dashboardExpressions(): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { title: string; datasource?: { type: string }; targets?: { expr: string }[] }[];
    templating: { list: { name: string; type: string; query?: { query?: string } }[] };
  };
  const out: { where: string; expr: string }[] = [];
  for (const panel of dashboard.panels) {
    if (panel.datasource?.type !== 'prometheus') continue;
    for (const t of panel.targets ?? []) out.push({ where: `panel "${panel.title}"`, expr: t.expr });
  }
  for (const v of dashboard.templating.list) {
    const q = v.query?.query;
    if (v.type === 'query' && q) out.push({ where: `variable ${v.name}`, expr: q.replace(/^label_values\((.*),\s*\w+\)$/, '$1') });
  }
  return out;
}

function ruleExpressions(): { where: string; expr: string; alert: string }[] {
  const file = parse(readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: { alert: string; expr: string; for?: string }[] }[] };
  return file.groups.flatMap((g) => g.rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr, alert: r.alert })));
}

describe('PromQL reference extraction (the checker itself)', () => {
  it('finds metric names and their labels, not functions, keywords, label values, variables or numbers', () => {
    expect(metricReferences('sum by (job) (rate(http_server_request_duration_count{namespace=~"$namespace", http_route!="/v1/x"}[$__rate_interval])) * 3600 / 1e6')).toEqual([
      { metric: 'http_server_request_duration_count', labels: ['namespace', 'http_route', 'job'] },
    ]);
    expect(metricReferences('histogram_quantile(0.95, sum by (le, stage) (rate(leadfinder_stage_duration_bucket[5m]))) > 30').map((r) => r.metric))
      .toEqual(['leadfinder_stage_duration_bucket']);
    expect(metricReferences('max(a_total) and b_gauge').map((r) => r.metric)).toEqual(['a_total', 'b_gauge']);
  });
});

describe('dashboard and alert rules against a real scrape', () => {
  let llm: LlmStub;
  let filter: ServerProcess;
  let service: ServerProcess;
  const exported: Exported = { series: new Set(), labels: new Map() };
  let serviceMetricsPort = 0;
  let filterMetricsPort = 0;

  beforeAll(async () => {
    llm = await startLlmStub({ apiKey: 'observability-llm-key' });
    const [grpcPort, filterHealthPort] = [await freePort(), await freePort()];
    filterMetricsPort = await freePort();
    serviceMetricsPort = await freePort();
    // The filter alone: gRPC, a health listener (on PORT too, which startServerProcess polls) and metrics.
    filter = await startServerProcess({
      args: ['--role', 'filter'],
      env: {
        PORT: String(filterHealthPort),
        LEADFINDER_HEALTH_PORT: String(filterHealthPort),
        LEADFINDER_GRPC_PORT: String(grpcPort),
        LEADFINDER_METRICS_PORT: String(filterMetricsPort),
        LEADFINDER_LLM_BASE_URL: llm.baseUrl,
        LEADFINDER_LLM_API_KEY: 'observability-llm-key',
      },
    });
    // Everything else in one process, calling that filter over gRPC.
    service = await startServerProcess({
      env: {
        LEADFINDER_ADMIN_TOKEN: ADMIN,
        LEADFINDER_FILTER_ADDR: `127.0.0.1:${grpcPort}`,
        LEADFINDER_METRICS_PORT: String(serviceMetricsPort),
      },
    });
    const { apiKey } = await createAccount(service.url, ADMIN, 25);
    const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const started = await fetch(`${service.url}/v1/searches`, { method: 'POST', headers: auth, body: JSON.stringify({ q: 'startups based in Berlin', target: 3 }) });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    // Follow the stream to its end, as a client does (an event-stream request is timed too), then confirm.
    const stream = await fetch(`${service.url}/v1/searches/${id}/events`, { headers: auth });
    await stream.text();
    const run = (await (await fetch(`${service.url}/v1/searches/${id}`, { headers: auth })).json()) as { status: string };
    expect(run.status).toBe('done');
    for (const port of [serviceMetricsPort, filterMetricsPort]) {
      const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/);
      parseExposition(await scrape.text(), exported);
    }
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await filter?.stop();
    await llm?.close();
  });

  it('exports the standard server metrics, runtime metrics and the run metrics on the metrics port only', async () => {
    for (const name of [
      'http_server_request_duration_bucket', 'rpc_server_duration_bucket', 'nodejs_eventloop_delay_p99', 'v8js_memory_heap_used',
      'leadfinder_runs_total', 'leadfinder_runs_in_flight', 'leadfinder_work_queue_wait_bucket', 'leadfinder_work_redeliveries_total',
      'leadfinder_spend_microusd_total', 'leadfinder_stage_duration_bucket', 'leadfinder_llm_tokens_total',
    ]) expect(exported.series, name).toContain(name);
    // Histograms reach past the run deadline (9,000 s): an event stream lasts as long as its run.
    const scrape = await (await fetch(`http://127.0.0.1:${serviceMetricsPort}/metrics`)).text();
    expect(scrape).toMatch(/http_server_request_duration_bucket\{[^}]*le="18000"/);
    expect(scrape).toMatch(/leadfinder_stage_duration_bucket\{[^}]*le="18000000"/);
    expect(scrape).toMatch(/leadfinder_runs_total\{status="done"\} 1/);
    // The public port does not serve them.
    expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
  });

  it('every metric and label the dashboard queries is exported', () => {
    const expressions = dashboardExpressions();
    expect(expressions.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const { where, expr } of expressions) {
      const refs = metricReferences(expr);
      if (refs.length === 0) problems.push(`${where}: no metric in ${expr}`);
      for (const ref of refs) {
        if (!exported.series.has(ref.metric)) problems.push(`${where}: ${ref.metric} is not exported`);
        for (const label of ref.labels) {
          if (!TARGET_LABELS.has(label) && !exported.labels.get(ref.metric)?.has(label)) problems.push(`${where}: ${ref.metric} has no label ${label}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every metric and label the alert rules use is exported, and the four alerts the issue asks for are there', () => {
    const rules = ruleExpressions();
    const problems: string[] = [];
    for (const { where, expr } of rules) {
      for (const ref of metricReferences(expr)) {
        if (!exported.series.has(ref.metric)) problems.push(`${where}: ${ref.metric} is not exported`);
        for (const label of ref.labels) {
          if (!TARGET_LABELS.has(label) && !exported.labels.get(ref.metric)?.has(label)) problems.push(`${where}: ${ref.metric} has no label ${label}`);
        }
      }
    }
    expect(problems).toEqual([]);
    const alerts = rules.map((r) => r.alert);
    for (const wanted of ['LeadfinderHttpErrorRatioHigh', 'LeadfinderRunStuck', 'LeadfinderQueueWaitHigh', 'LeadfinderSpendRateHigh']) expect(alerts).toContain(wanted);
  });

  it('the dashboard shows rate, errors and latency per role, runs in flight, end states and spend', () => {
    const all = dashboardExpressions().map((e) => e.expr).join('\n');
    expect(all).toMatch(/sum by \(job\) \(rate\(http_server_request_duration_count/);
    expect(all).toMatch(/http_response_status_code=~"5\.\."/);
    expect(all).toMatch(/histogram_quantile\(0\.99, sum by \(le, http_route\) \(rate\(http_server_request_duration_bucket/);
    expect(all).toMatch(/rpc_server_duration_count/);
    expect(all).toMatch(/leadfinder_runs_in_flight/);
    expect(all).toMatch(/sum by \(status\) \(increase\(leadfinder_runs_total/);
    expect(all).toMatch(/leadfinder_spend_microusd_total/);
  });
});
