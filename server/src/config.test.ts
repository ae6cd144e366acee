import request from 'supertest';
import { MAX_UPLOAD_BYTES } from '@blockwise/shared/api';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  configFromEnv,
  parseAuthMode,
  parseAllowedHosts,
  parsePublicUrl,
  parseTrustProxy,
  readServerEnv,
} from './config.ts';
import { runCli } from './testing/run-cli.ts';
import { makeTestApp } from './testing/test-app.ts';

/** `blockwise serve` with a bogus --db: if the settings were not refused first, it fails on the store (exit 1). */
const serve = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  runCli(['serve', '--port', '0', '--db', 'bogus:nowhere', ...args], { env });

describe('BLOCKWISE_TRUST_PROXY', () => {
  it.each([
    ['1', 1],
    [' 2 ', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7,loopback', ['10.0.0.0/8', '192.168.1.7', 'loopback']],
    ['fd00::/8,::1', ['fd00::/8', '::1']],
    ['', false],
    [undefined, false],
  ])('accepts %j as %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  it.each([
    'true',
    'TRUE',
    '*',
    '0',
    '11',
    'yes',
    '10.0.0.0/33',
    '10.0.0.300',
    'proxy.internal',
    '1.5',
    '-1',
  ])('refuses %j', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow(ConfigError);
  });

  it('`serve` refuses true at start-up (exit 2) and says what to set instead', async () => {
    const r = await serve({ BLOCKWISE_TRUST_PROXY: 'true' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/BLOCKWISE_TRUST_PROXY="true" would trust every X-Forwarded-For hop/);
    expect(r.stderr).toMatch(/BLOCKWISE_TRUST_PROXY=1 behind one load balancer/);
    expect(r.stdout).toBe('');
  });

  it('with a hop count of 1, the last hop decides the client key: rotating earlier entries does not escape the limit', async () => {
    const t = await makeTestApp({
      trustProxy: parseTrustProxy('1'),
      rateLimits: { reads: { name: 'reads', limit: 3, windowMs: 60_000 } },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await request(t.app)
          .get('/api/runs')
          .set('X-Forwarded-For', `198.51.100.${i + 1}, 203.0.113.7`);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      // Another client behind the same proxy has a budget of its own.
      const other = await request(t.app).get('/api/runs').set('X-Forwarded-For', '203.0.113.8');
      expect(other.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('BLOCKWISE_AUTH / --auth', () => {
  it.each([
    [undefined, 'auto'],
    ['', 'auto'],
    ['auto', 'auto'],
    ['required', 'required'],
    ['open', 'open'],
  ])('%j is %j', (raw, mode) => {
    expect(parseAuthMode(raw)).toBe(mode);
  });

  it.each(['closed', 'REQUIRED', 'true'])('refuses %j', (raw) => {
    expect(() => parseAuthMode(raw, '--auth')).toThrow(/--auth: expected required or open/);
  });

  it('`serve` refuses an unknown mode from the flag or the environment (exit 2)', async () => {
    const flag = await serve({}, '--auth', 'closed');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--auth: expected required or open/);
    const env = await serve({ BLOCKWISE_AUTH: 'nope' });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/BLOCKWISE_AUTH: expected required or open/);
  });
});

describe('BLOCKWISE_PUBLIC_URL', () => {
  it.each([
    ['https://blockwise.example.com', 'https://blockwise.example.com'],
    ['https://blockwise.example.com/', 'https://blockwise.example.com'],
    ['HTTPS://Blockwise.Example.com:443/', 'https://blockwise.example.com'],
    ['http://10.0.0.5:8080/bw//', 'http://10.0.0.5:8080/bw'],
    ['', null],
    [undefined, null],
  ])('%j is %j', (raw, expected) => {
    expect(parsePublicUrl(raw)).toBe(expected);
  });

  it.each([
    'blockwise.example.com',
    'ftp://x.example',
    'https://u:p@x.example',
    'https://x.example/?a=1',
    'https://x.example/#f',
  ])('refuses %j', (raw) => {
    expect(() => parsePublicUrl(raw)).toThrow(ConfigError);
  });

  it('`serve` refuses a URL it cannot use (exit 2)', async () => {
    const r = await serve({ BLOCKWISE_PUBLIC_URL: 'blockwise.example.com' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/BLOCKWISE_PUBLIC_URL: expected an http\(s\) URL/);
  });
});

describe('BLOCKWISE_ALLOWED_HOSTS', () => {
  it.each([
    ['blockwise.internal', ['blockwise.internal']],
    [
      ' Blockwise.Internal:8080 , 10.0.0.5,[fd00::1]:8080',
      ['blockwise.internal:8080', '10.0.0.5', '[fd00::1]:8080'],
    ],
    ['x.example:80, x.example:443', ['x.example:80', 'x.example:443']],
    ['', []],
    [undefined, []],
  ])('%j is %j', (raw, expected) => {
    expect(parseAllowedHosts(raw)).toEqual(expected);
  });

  it.each([
    '*',
    '*.example.com',
    'https://x.example',
    'x.example/path',
    'u@x.example',
    'a,,b',
    'x.example:99999',
  ])('refuses %j', (raw) => {
    expect(() => parseAllowedHosts(raw)).toThrow(/^BLOCKWISE_ALLOWED_HOSTS: ".*" is not a host name/);
  });
});

describe('the environment, validated at start-up (ServerEnvSchema)', () => {
  it.each([
    [
      { BLOCKWISE_AUTH: 'maybe' },
      /^BLOCKWISE_AUTH: expected required or open \(unset: automatic\), got "maybe"$/,
    ],
    [
      { BLOCKWISE_TRUST_PROXY: 'abc' },
      /^BLOCKWISE_TRUST_PROXY: "abc" is neither a hop count nor an IP address/,
    ],
    [
      { BLOCKWISE_MAX_UPLOAD_MB: '50MB' },
      /^BLOCKWISE_MAX_UPLOAD_MB: expected a positive number, got "50MB"$/,
    ],
    [
      // 5 MiB: a 20 MiB file the web app accepted would then fail on "Save & share".
      { BLOCKWISE_MAX_UPLOAD_MB: '5' },
      /^BLOCKWISE_MAX_UPLOAD_MB: expected at least 50 \(MiB, the web app's limit\), got "5"$/,
    ],
    [
      { BLOCKWISE_MAX_UPLOAD_MB: '49.9' },
      /^BLOCKWISE_MAX_UPLOAD_MB: expected at least 50 \(MiB, the web app's limit\), got "49.9"$/,
    ],
    [
      { BLOCKWISE_REQUEST_TIMEOUT_MS: '0' },
      /^BLOCKWISE_REQUEST_TIMEOUT_MS: expected a positive number, got "0"$/,
    ],
    [{ BLOCKWISE_METRICS: 'on' }, /^BLOCKWISE_METRICS: expected one of off, open, token, got "on"$/],
    [
      { BLOCKWISE_LOG_LEVEL: 'loud' },
      /^BLOCKWISE_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"$/,
    ],
  ])('%j is refused naming the variable and what it expects', (env, message) => {
    expect(() => readServerEnv(env)).toThrow(ConfigError);
    expect(() => readServerEnv(env)).toThrow(message);
  });

  it('reads every setting once, with the defaults for unset and empty values', () => {
    expect(
      configFromEnv({
        BLOCKWISE_MAX_UPLOAD_MB: '64.5',
        BLOCKWISE_REQUEST_TIMEOUT_MS: '30000',
        BLOCKWISE_PUBLIC_URL: 'https://blockwise.example.com/',
        BLOCKWISE_ALLOWED_HOSTS: 'blockwise.internal,10.0.0.5:8080',
        BLOCKWISE_AUTH: 'required',
        BLOCKWISE_TRUST_PROXY: '1',
        BLOCKWISE_LOG_LEVEL: 'WARN',
        BLOCKWISE_METRICS: 'Open',
        BLOCKWISE_WEB_DIST: '/nonexistent/web/dist',
      }),
    ).toMatchObject({
      maxUploadBytes: 67_633_152, // 64.5 MiB
      requestTimeoutMs: 30_000,
      publicUrl: 'https://blockwise.example.com',
      allowedHosts: ['blockwise.internal', '10.0.0.5:8080'],
      auth: 'required',
      trustProxy: 1,
      logLevel: 'warn',
      metrics: 'open',
      webDist: null,
    });
    expect(configFromEnv({ BLOCKWISE_MAX_UPLOAD_MB: '50' }).maxUploadBytes).toBe(MAX_UPLOAD_BYTES);
    expect(
      configFromEnv({ BLOCKWISE_LOG_LEVEL: '', BLOCKWISE_AUTH: '', BLOCKWISE_METRICS: '' }),
    ).toMatchObject({
      requestTimeoutMs: 60_000,
      publicUrl: null,
      allowedHosts: [],
      auth: 'auto',
      trustProxy: false,
      logLevel: 'info',
      metrics: 'token',
    });
    expect(configFromEnv({ BLOCKWISE_METRICS: ' off ' }).metrics).toBe('off');
  });

  it('`serve` refuses an unknown log level at start-up (exit 2) instead of failing in the logger', async () => {
    const r = await serve({ BLOCKWISE_LOG_LEVEL: 'loud' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/BLOCKWISE_LOG_LEVEL: expected one of fatal, error, warn/);
  });
});
