import { parseFio } from '@blockwise/shared/fio';
import { describe, expect, it } from 'vitest';
import { exampleSession } from './example-session.ts';
import {
  STORAGE_KEY,
  deserializeSession,
  readStoredSession,
  serializeSession,
  writeStoredSession,
} from './session-storage.ts';
import { initialSession } from './session-state.ts';
import { memoryStorage } from './memory-storage.ts';

const parse = async (b: Blob) => parseFio(new Uint8Array(await b.arrayBuffer()));

describe('the session kept in the browser', () => {
  it('round-trips the example: settings, typed-in profile, fio runs as parsed reports with labels — no bytes', async () => {
    const example = await exampleSession(parse);
    const text = serializeSession(example, true)!;
    expect(text).not.toContain('"fio version"'); // the raw fio JSON is not stored
    const restored = deserializeSession(text)!;
    expect(restored.unsaved).toBe(true);
    const s = restored.state;
    expect(s.settings).toEqual(example.settings);
    expect(s.inputs.map((i) => [i.kind, i.id])).toEqual(example.inputs.map((i) => [i.kind, i.id]));
    const nvme = s.inputs[1]!;
    expect(nvme).toMatchObject({
      kind: 'fio',
      status: 'ready',
      blob: null,
      fileName: 'example-nvme-instance-store.json',
      labels: { kind: 'nvme', instanceType: 'r6id.4xlarge' },
    });
    expect(nvme.kind === 'fio' && nvme.report).toEqual(
      example.inputs[1]!.kind === 'fio' && example.inputs[1]!.report,
    );
    expect(s.notice).toBeNull();
  });

  it('keeps a run marked “this run replays our load” marked (demand, not capacity)', async () => {
    const example = await exampleSession(parse);
    const marked = {
      ...example,
      inputs: example.inputs.map((i) =>
        i.kind === 'fio' && i.id === example.inputs[2]!.id ? { ...i, replaysLoad: true } : i,
      ),
    };
    const s = deserializeSession(serializeSession(marked, true)!)!.state;
    expect(s.inputs.map((i) => (i.kind === 'fio' ? (i.replaysLoad ?? false) : null))).toEqual([
      null,
      false,
      true,
    ]);
  });

  it('keeps nothing for an empty new session', () => {
    expect(serializeSession(initialSession, false)).toBeNull();
  });

  it.each([
    ['not JSON', '{"plan":', /could not be read \(not JSON\); a new session was started/],
    [
      'another shape',
      '{"plan":{"version":2}}',
      /could not be read \(plan\.version: .*\); a new session was started/,
    ],
  ])('%s: a new session with a visible notice', (_what, text, message) => {
    const r = deserializeSession(text)!;
    expect(r.state.inputs).toEqual([]);
    expect(r.state.notice).toMatchObject({ tone: 'error', text: expect.stringMatching(message) });
  });

  it('leaves out a run that no longer parses, keeps the rest, and says which', async () => {
    const example = await exampleSession(parse);
    const doc = JSON.parse(serializeSession(example, false)!);
    doc.runs[1].report.jobs = 'tampered';
    const r = deserializeSession(JSON.stringify(doc))!;
    expect(r.state.inputs.map((i) => i.id)).toEqual(['example-nosql', 'exampleNvmeRun000000000']);
    expect(r.state.notice?.text).toMatch(/without example-gp3-volume\.json: it could not be read back/);
  });

  it('a full storage is an outcome, never a throw; reading refused storage counts as empty', () => {
    expect(writeStoredSession(memoryStorage({ full: true }), '{}')).toBe('quota');
    const ok = memoryStorage();
    expect(writeStoredSession(ok, '{}')).toBe('written');
    expect(ok.items.get(STORAGE_KEY)).toBe('{}');
    expect(writeStoredSession(ok, null)).toBe('cleared');
    expect(ok.items.size).toBe(0);
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    } as unknown as Storage;
    expect(readStoredSession(refusing)).toBeNull();
  });
});
