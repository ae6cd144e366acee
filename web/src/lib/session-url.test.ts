import type { PlanSession } from '@blockwise/shared/records';
import { describe, expect, it } from 'vitest';
import {
  MAX_SESSION_CHARS,
  decodeSession,
  encodeSession,
  fromBase64Url,
  readSessionParam,
  sessionLink,
  toBase64Url,
  withSessionParam,
} from './session-url.ts';

const session: PlanSession = {
  version: 1,
  observed: [
    {
      id: 'o1',
      label: 'pg-primary peak — “Grafana” ✓',
      read: { iops: 3043, throughput: 188, throughputUnit: 'MiB/s', latencyMs: { '50': 57, '99.9': 159 } },
      write: { iops: 6018, throughput: 4750, throughputUnit: 'Mbps' },
      // The access pattern the user stated travels with the entry (absent = random assumed).
      access: 'sequential',
    },
  ],
  profileRef: 'observed:o1',
  instanceType: 'r5d.4xlarge',
  candidates: [
    { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000, count: 1 },
    { type: 'io2', sizeGiB: 1000, iops: 16_000, count: 1 },
  ],
  headroom: 0.25,
  region: 'eu-central-1',
  rateOverrides: 'gp3.iops=0.005',
  nodes: 4,
  gp3Generation: 'current',
  syncCommits: false,
  residency: 'high',
  datasetGiB: null,
};

describe('session links', () => {
  it('round-trips a session through base64url JSON', () => {
    const text = encodeSession(session);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSession(text)).toEqual({ ok: true, value: session });
  });

  it('carries the dataset growth, and a link made before growth existed still reads', () => {
    const growing = {
      ...session,
      datasetGiB: 1500,
      datasetGrowth: { percentPerYear: 20, horizonMonths: 12 },
    };
    expect(decodeSession(encodeSession(growing))).toEqual({ ok: true, value: growing });
    const old = decodeSession(encodeSession(session));
    expect(old.ok && old.value.datasetGrowth).toBeUndefined();
    expect(
      decodeSession(encodeSession({ ...growing, datasetGrowth: { percentPerYear: 2000, horizonMonths: 12 } }))
        .ok,
    ).toBe(false);
  });

  it('round-trips through a full link (fragment)', () => {
    const link = new URL(sessionLink(session, 'https://blockwise.example'));
    expect(link.pathname).toBe('/');
    const text = readSessionParam(link);
    expect(text).not.toBeNull();
    expect(decodeSession(text!)).toEqual({ ok: true, value: session });
  });

  it('reads the query form too', () => {
    expect(readSessionParam({ hash: '', search: '?session=abc' })).toBe('abc');
    expect(readSessionParam({ hash: '', search: '' })).toBeNull();
  });

  it('base64url handles every byte value', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
  });

  it.each([
    ['', /empty/],
    ['%%%', /base64url/],
    [toBase64Url(new TextEncoder().encode('{"version":1')), /not JSON/],
    [toBase64Url(new TextEncoder().encode('{"version":2}')), /version/],
    [encodeSession({ ...session, headroom: -1 } as PlanSession), /headroom/],
    [
      encodeSession({
        ...session,
        observed: [{ ...session.observed[0]!, read: { iops: 1, throughput: 1, throughputUnit: 'furlongs' } }],
      } as unknown as PlanSession),
      /observed\.0\.read\.throughputUnit/,
    ],
    ['A'.repeat(MAX_SESSION_CHARS + 1), /longer/],
  ])('rejects %#: a clear message, never an exception', (text, message) => {
    const r = decodeSession(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('session_link_invalid');
      expect(r.error.message).toMatch(message);
    }
  });
});

describe('withSessionParam: the address kept pointing at the current session', () => {
  const at = (href: string) => new URL(href, 'https://blockwise.example');
  it.each([
    // Set: the fragment holds the session, replacing an older one.
    ['/', 'abc', '/#session=abc'],
    ['/#session=old', 'abc', '/#session=abc'],
    // The query form (an older link) moves to the fragment; other query parameters stay.
    ['/?session=old&x=1', 'abc', '/?x=1#session=abc'],
    // Cleared: a stale `#session=` goes, any other fragment stays.
    ['/#session=old', null, '/'],
    ['/?session=old', null, '/'],
    ['/#profile', null, '/#profile'],
    ['/', null, '/'],
  ] as const)('%s with %s → %s', (href, text, expected) =>
    expect(withSessionParam(at(href), text)).toBe(expected),
  );
});
