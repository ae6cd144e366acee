import { describe, expect, it } from 'vitest';
import { encodeSession } from '../../lib/session-url.ts';
import { fixtureReport } from '../../test/fixtures.ts';
import {
  fromPlanSession,
  initialSession,
  newId,
  sessionReducer,
  toPlanSession,
  type FioInput,
  type SessionState,
} from './session-state.ts';

const file = (id: string, over: Partial<FioInput> = {}): FioInput => ({
  kind: 'fio',
  id,
  origin: 'file',
  fileName: `${id}.json`,
  sizeBytes: 10,
  blob: new Blob(['{}']),
  serverRunId: null,
  status: 'parsing',
  report: null,
  error: null,
  labels: {},
  ...over,
});

const observed = {
  label: 'prod',
  read: { iops: 100, throughput: 1, throughputUnit: 'MiB/s' as const },
  write: { iops: 200, throughput: 2, throughputUnit: 'MB/s' as const },
};

describe('sessionReducer', () => {
  it('a bad file fails alone: the others keep their state', () => {
    let s = sessionReducer(initialSession, { type: 'files-added', inputs: [file('a'), file('b')] });
    s = sessionReducer(s, {
      type: 'file-failed',
      id: 'a',
      error: { code: 'not_fio_json', message: 'no fio JSON' },
    });
    s = sessionReducer(s, { type: 'file-parsed', id: 'b', report: fixtureReport('randread4k') });
    expect(s.inputs.map((i) => (i.kind === 'fio' ? [i.id, i.status, i.error?.code ?? null] : null))).toEqual([
      ['a', 'error', 'not_fio_json'],
      ['b', 'ready', null],
    ]);
  });

  it('new labels mean a new upload; archive runs keep their id', () => {
    let s = sessionReducer(initialSession, {
      type: 'files-added',
      inputs: [
        file('a', { serverRunId: 'S1', status: 'ready' }),
        file('b', { origin: 'archive', serverRunId: 'S2' }),
      ],
    });
    s = sessionReducer(s, { type: 'labels-changed', id: 'a', labels: { kind: 'nvme' } });
    s = sessionReducer(s, { type: 'labels-changed', id: 'b', labels: { kind: 'ebs' } });
    expect(s.inputs.map((i) => (i.kind === 'fio' ? i.serverRunId : null))).toEqual([null, 'S2']);
  });

  it('removing the planned input falls back to the first one', () => {
    let s = sessionReducer(initialSession, { type: 'files-added', inputs: [file('a'), file('b')] });
    s = sessionReducer(s, { type: 'settings-changed', settings: { profileRef: 'run:b' } });
    s = sessionReducer(s, { type: 'input-removed', id: 'b' });
    expect(s.settings.profileRef).toBeNull();
  });

  it('candidates: at most 10', () => {
    let s: SessionState = initialSession;
    for (let i = 0; i < 12; i += 1)
      s = sessionReducer(s, { type: 'candidate-added', volume: { type: 'gp3', sizeGiB: 100 + i, count: 1 } });
    expect(s.settings.candidates).toHaveLength(10);
    s = sessionReducer(s, {
      type: 'candidate-changed',
      index: 0,
      volume: { type: 'io2', sizeGiB: 500, iops: 4000, count: 1 },
    });
    s = sessionReducer(s, { type: 'candidate-removed', index: 1 });
    expect(s.settings.candidates[0]!.type).toBe('io2');
    expect(s.settings.candidates[1]!.sizeGiB).toBe(102);
  });

  it('opens a session link, or says why it cannot', () => {
    const session = toPlanSession({
      ...initialSession,
      inputs: [{ kind: 'observed', id: 'o1', metrics: observed }],
      settings: { ...initialSession.settings, nodes: 4, instanceType: 'r6i.4xlarge' },
    });
    const opened = sessionReducer(initialSession, { type: 'link-opened', text: encodeSession(session) });
    expect(toPlanSession(opened)).toEqual(session);
    expect(opened.origin).toEqual({ kind: 'link' });
    expect(opened.notice?.tone).toBe('info');

    const bad = sessionReducer(opened, { type: 'link-opened', text: 'not-a-session' });
    expect(bad.notice).toEqual({ tone: 'error', text: expect.stringMatching(/not JSON|base64url/) });
    expect(toPlanSession(bad)).toEqual(session); // the session is kept
  });

  it('PlanSession round trip', () => {
    const session = toPlanSession({
      ...initialSession,
      inputs: [{ kind: 'observed', id: 'o1', metrics: observed }],
    });
    expect(toPlanSession(fromPlanSession(session, { kind: 'link' }))).toEqual(session);
  });

  it('ids have the server’s shape (22 base64url characters)', () => {
    expect(newId()).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
