import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import type { FigureRow } from './figure.js';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
  date: string;
  /** 1-minute load average when the bench started: other work on the machine skews every figure. */
  loadAverage1m: number;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${platform()} ${release()} ${arch()}`,
    date: new Date().toISOString(),
    loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}

/** A Markdown table (pipes escaped), the form the main README copies. */
export function markdownTable(rows: readonly FigureRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| figure | setup | result | goal | verdict |', '| - | - | - | - | - |'];
  for (const r of rows) lines.push(`| ${cell(r.figure)} | ${cell(r.setup)} | ${cell(r.result)} | ${cell(r.goal)} | ${r.verdict} |`);
  return lines.join('\n');
}

export function machineLine(m: MachineInfo): string {
  return `${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}, ${m.platform}, ${m.date}, load average ${m.loadAverage1m} at start`;
}
