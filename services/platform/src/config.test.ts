import { describe, expect, it } from 'vitest';
import { ConfigError, devSignInRefusal, loadConfig } from './config.js';

const SECRET = 'a-session-secret-of-at-least-32-bytes';

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('configuration: the development sign-in', () => {
  it('is off unless enabled, and new accounts get no welcome balance unless the operator sets one', () => {
    const config = loadConfig({});
    expect(config.LEADFINDER_DEV_SIGNIN).toBe(false);
    expect(config.LEADFINDER_WELCOME_BALANCE_USD).toBe(0);
    expect(loadConfig({ LEADFINDER_DEV_SIGNIN: '1' }).LEADFINDER_DEV_SIGNIN).toBe(true);
    expect(loadConfig({ LEADFINDER_WELCOME_BALANCE_USD: '2.50' }).LEADFINDER_WELCOME_BALANCE_USD).toBe(2_500_000);
  });

  it('is refused off loopback, behind an https public URL and together with OIDC, naming why', () => {
    const host = refusal({ LEADFINDER_DEV_SIGNIN: '1', HOST: '0.0.0.0' });
    expect(host.variable).toBe('LEADFINDER_DEV_SIGNIN');
    expect(host.message).toMatch(/HOST is not loopback \(HOST=0\.0\.0\.0\)/);
    expect(refusal({ LEADFINDER_DEV_SIGNIN: '1', HOST: '10.1.2.3' }).message).toMatch(/not loopback/);
    expect(refusal({ LEADFINDER_DEV_SIGNIN: 'true', LEADFINDER_PUBLIC_URL: 'https://leads.example.com' }).message)
      .toMatch(/LEADFINDER_PUBLIC_URL is https/);
    expect(refusal({ LEADFINDER_DEV_SIGNIN: '1', LEADFINDER_OIDC_ISSUER: 'https://id.example.com', LEADFINDER_OIDC_CLIENT_ID: 'x' }).message)
      .toMatch(/LEADFINDER_OIDC_ISSUER/);
    // Loopback in every spelling is fine.
    for (const HOST of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) {
      expect(loadConfig({ LEADFINDER_DEV_SIGNIN: '1', HOST }).LEADFINDER_DEV_SIGNIN).toBe(true);
    }
  });

  it('is refused for an edge started alone (a distributed deployment), allowed all-in-one', () => {
    const config = loadConfig({ LEADFINDER_DEV_SIGNIN: '1' });
    expect(devSignInRefusal(config, 'edge')).toMatch(/^LEADFINDER_DEV_SIGNIN: .*edge runs as a separate service/);
    expect(devSignInRefusal(config, 'all')).toBeNull();
    expect(devSignInRefusal(loadConfig({}), 'edge')).toBeNull();
  });
});

describe('configuration: secrets', () => {
  it('refuses a session secret or admin token shorter than 32 bytes, without echoing it', () => {
    const short = refusal({ LEADFINDER_SESSION_SECRET: 'a' });
    expect(short.variable).toBe('LEADFINDER_SESSION_SECRET');
    expect(short.message).toMatch(/at least 32 bytes/);
    expect(short.message).not.toContain('"a"');
    const admin = refusal({ LEADFINDER_ADMIN_TOKEN: 'x'.repeat(31) });
    expect(admin.variable).toBe('LEADFINDER_ADMIN_TOKEN');
    expect(admin.message).not.toContain('x'.repeat(31));
    const config = loadConfig({ LEADFINDER_SESSION_SECRET: SECRET, LEADFINDER_ADMIN_TOKEN: 'y'.repeat(32) });
    expect(config.LEADFINDER_SESSION_SECRET).toBe(SECRET);
    // Unset stays unset (the admin API is then off).
    expect(loadConfig({ LEADFINDER_ADMIN_TOKEN: '' }).LEADFINDER_ADMIN_TOKEN).toBeUndefined();
  });

  it('never prints the password of a bad URL', () => {
    const bad = refusal({ LEADFINDER_MONGODB_URL: 'mongodb://leadfinder:hunter2-very-secret@db host:27017/x' });
    expect(bad.variable).toBe('LEADFINDER_MONGODB_URL');
    expect(bad.message).not.toContain('hunter2');
    expect(bad.message).toContain('mongodb://***@');
    const nats = refusal({ LEADFINDER_NATS_URL: 'nats://token-abc123@ bad' });
    expect(nats.message).not.toContain('token-abc123');
    // Even an error built elsewhere from a raw value.
    expect(new ConfigError('X', 'cannot reach redis://u:p4ss@h:1').message).not.toContain('p4ss');
  });
});

describe('configuration: LEADFINDER_FETCH_RESOLVE', () => {
  it('accepts host:port:IP entries and refuses bad ports and host names as addresses', () => {
    expect(loadConfig({ LEADFINDER_FETCH_RESOLVE: 'a.test:443:127.0.0.1,b.test:80:[::1]' }).LEADFINDER_FETCH_RESOLVE).toEqual([
      { host: 'a.test', port: 443, address: '127.0.0.1' },
      { host: 'b.test', port: 80, address: '::1' },
    ]);
    for (const entry of ['a.test:99999:127.0.0.1', 'a.test:0:127.0.0.1', 'a.test:443:internal.example', 'a.test:443:999.1.1.1']) {
      const bad = refusal({ LEADFINDER_FETCH_RESOLVE: entry });
      expect(bad.variable).toBe('LEADFINDER_FETCH_RESOLVE');
      expect(bad.message).toMatch(/port 1-65535 and an IP address/);
    }
  });
});

describe('configuration: LEADFINDER_WEBHOOK_REDELIVERY_MS', () => {
  it('is 30 s unless set, and refuses less than a second, more than an hour or a non-number', () => {
    expect(loadConfig({}).LEADFINDER_WEBHOOK_REDELIVERY_MS).toBe(30_000);
    expect(loadConfig({ LEADFINDER_WEBHOOK_REDELIVERY_MS: '5000' }).LEADFINDER_WEBHOOK_REDELIVERY_MS).toBe(5000);
    for (const value of ['999', '3600001', '2.5', 'soon']) {
      expect(refusal({ LEADFINDER_WEBHOOK_REDELIVERY_MS: value }).variable).toBe('LEADFINDER_WEBHOOK_REDELIVERY_MS');
    }
  });
});
