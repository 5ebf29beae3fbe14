/**
 * The shipped Grafana dashboard and Prometheus alert rules name only metrics (and labels) the service
 * really exports: two real processes (an all-in-one service and a filter role it calls over gRPC, the
 * filter on a loopback LLM stub) run a search with LEADFINDER_METRICS_PORT set, and their /metrics
 * output, as Prometheus would scrape it, is the reference.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parser } from '@prometheus-io/lezer-promql';
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

export interface Reference {
  metric: string;
  /** Label names the expression filters this metric by, or groups it by in an enclosing aggregation. */
  labels: string[];
}

/**
 * The metric names (and the labels used with them) in one PromQL expression, read from its syntax tree
 * (Prometheus's own grammar, @prometheus-io/lezer-promql). Throws on a syntax error.
 */
export function metricReferences(expr: string): Reference[] {
  // Grafana's interval variables stand where a duration goes; other variables sit inside label strings.
  const text = expr.replace(/\$__\w+/g, '5m');
  const tree = parser.parse(text);
  const errors: string[] = [];
  const refs: Reference[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.type.isError) errors.push(`at ${ref.from}: ${JSON.stringify(text.slice(Math.max(0, ref.from - 20), ref.to + 20))}`);
      if (ref.name !== 'VectorSelector') return;
      const node = ref.node;
      const identifier = node.getChild('Identifier');
      if (!identifier) return;
      const labels: string[] = [];
      for (const matcher of node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
        const name = matcher.getChild('LabelName');
        if (name) labels.push(text.slice(name.from, name.to));
      }
      for (let up = node.parent; up; up = up.parent) {
        if (up.name !== 'AggregateExpr') continue;
        const grouping = up.getChild('AggregateModifier')?.getChild('GroupingLabels');
        for (const label of grouping?.getChildren('LabelName') ?? []) labels.push(text.slice(label.from, label.to));
      }
      refs.push({ metric: text.slice(identifier.from, identifier.to), labels: [...new Set(labels)].filter((l) => l !== 'le') });
    },
  });
  if (errors.length > 0) throw new Error(`PromQL syntax error in ${JSON.stringify(expr)} ${errors.join('; ')}`);
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
    expect(metricReferences('histogram_quantile(0.95, sum by (le, stage) (rate(leadfinder_stage_duration_bucket[5m]))) > 30'))
      .toEqual([{ metric: 'leadfinder_stage_duration_bucket', labels: ['stage'] }]);
    expect(metricReferences('max(a_total) and b_gauge').map((r) => r.metric)).toEqual(['a_total', 'b_gauge']);
  });

  it('refuses an expression Prometheus would not parse', () => {
    expect(() => metricReferences('sum(rate(x_total[5m])')).toThrow(/syntax error/);
    expect(() => metricReferences('rate(x_total{job="a"[5m])')).toThrow(/syntax error/);
  });
});

describe('shape of the shipped files', () => {
  it('the dashboard is well formed: unique panel ids, panels inside the 24-column grid and not overlapping, data sources from its variables', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      uid: string; panels: { id: number; type: string; gridPos: { x: number; y: number; w: number; h: number }; datasource?: { uid: string } }[];
      templating: { list: { name: string; type: string }[] };
    };
    expect(dashboard.uid).toBe('leadfinder-overview');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const sources = new Set(dashboard.templating.list.filter((v) => v.type === 'datasource').map((v) => `\${${v.name}}`));
    const cells = new Set<string>();
    for (const panel of dashboard.panels) {
      const { x, y, w, h } = panel.gridPos;
      expect(x + w, `panel ${panel.id}`).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++) for (let j = y; j < y + h; j++) {
        expect(cells.has(`${i},${j}`), `panel ${panel.id} overlaps another at ${i},${j}`).toBe(false);
        cells.add(`${i},${j}`);
      }
      if (panel.type !== 'row') expect(sources.has(panel.datasource?.uid ?? ''), `panel ${panel.id} data source`).toBe(true);
    }
  });

  it('every alert rule has a name, an expression, a severity, a summary and a description', () => {
    const file = parse(readFileSync(RULES, 'utf8')) as { groups: { rules: Record<string, unknown>[] }[] };
    const rules = file.groups.flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThanOrEqual(4);
    for (const rule of rules) {
      expect(rule, String(rule.alert)).toMatchObject({
        alert: expect.stringMatching(/^Leadfinder[A-Za-z]+$/), expr: expect.any(String),
        labels: { severity: expect.stringMatching(/^(page|warn)$/) },
        annotations: { summary: expect.any(String), description: expect.any(String) },
      });
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
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
