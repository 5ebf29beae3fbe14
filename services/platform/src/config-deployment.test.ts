import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const TOKEN = 'admin-token-of-at-least-thirty-two-bytes';
const dir = mkdtempSync(join(tmpdir(), 'lf-config-'));
const file = (name: string) => {
  const path = join(dir, name);
  writeFileSync(path, 'x');
  return path;
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('configuration for a deployment: a separate admin port, NATS credentials and TLS', () => {
  it('reads LEADFINDER_ADMIN_PORT as a port apart from PORT, and leaves it unset when empty', () => {
    expect(loadConfig({ LEADFINDER_ADMIN_TOKEN: TOKEN, LEADFINDER_ADMIN_PORT: '8081' }).LEADFINDER_ADMIN_PORT).toBe(8081);
    expect(loadConfig({ LEADFINDER_ADMIN_TOKEN: TOKEN, LEADFINDER_ADMIN_PORT: '' }).LEADFINDER_ADMIN_PORT).toBeUndefined();
    expect(loadConfig({}).LEADFINDER_ADMIN_PORT).toBeUndefined();
  });

  it('refuses an admin port without an admin token, the public port again, or no port at all', () => {
    expect(() => loadConfig({ LEADFINDER_ADMIN_PORT: '8081' })).toThrow('LEADFINDER_ADMIN_PORT: set LEADFINDER_ADMIN_TOKEN too');
    expect(() => loadConfig({ LEADFINDER_ADMIN_TOKEN: TOKEN, LEADFINDER_ADMIN_PORT: '8080' })).toThrow('LEADFINDER_ADMIN_PORT: must differ from PORT (8080)');
    expect(() => loadConfig({ LEADFINDER_ADMIN_TOKEN: TOKEN, LEADFINDER_ADMIN_PORT: 'eighty' })).toThrow(/^invalid configuration: LEADFINDER_ADMIN_PORT/);
    expect(() => loadConfig({ LEADFINDER_ADMIN_TOKEN: TOKEN, LEADFINDER_ADMIN_PORT: '70000' })).toThrow(/^invalid configuration: LEADFINDER_ADMIN_PORT/);
  });

  it('takes NATS credentials and TLS files, refusing a missing file and a certificate without its key', () => {
    const ca = file('ca.crt');
    const config = loadConfig({
      LEADFINDER_NATS_URL: 'tls://nats.example:4222', LEADFINDER_NATS_TLS_CA_FILE: ca, LEADFINDER_NATS_CREDS_FILE: file('nats.creds'),
      LEADFINDER_NATS_TLS_CERT_FILE: file('tls.crt'), LEADFINDER_NATS_TLS_KEY_FILE: file('tls.key'),
    });
    expect(config.LEADFINDER_NATS_TLS_CA_FILE).toBe(ca);
    expect(() => loadConfig({ LEADFINDER_NATS_TLS_CA_FILE: join(dir, 'absent.crt') })).toThrow('LEADFINDER_NATS_TLS_CA_FILE: no such file');
    expect(() => loadConfig({ LEADFINDER_NATS_TLS_CA_FILE: dir })).toThrow('LEADFINDER_NATS_TLS_CA_FILE: not a file');
    expect(() => loadConfig({ LEADFINDER_NATS_TLS_CERT_FILE: file('only.crt') })).toThrow('LEADFINDER_NATS_TLS_KEY_FILE: a client certificate and its key go together');
  });
});
