import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractFioDocument } from './extract-documents.ts';
import {
  findNextObjectStart,
  lineAndColumn,
  repairFioJson,
  scanObject,
  scanValidObject,
} from './scan-json.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const textOf = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const C = textOf('generated/c_randread_4k_libaio_qd32_timebased5s.json');
const codes = (r: ReturnType<typeof extractFioDocument>) => (r.ok ? r.warnings.map((w) => w.code) : []);

describe('extractFioDocument on the stream shapes fio produces (docs/fio-format.md §8)', () => {
  it.each([
    // [fixture, documents found, warnings, what the fixture shows]
    ['generated/c_randread_4k_libaio_qd32_timebased5s.json', 1, [], 'plain JSON'],
    [
      'generated/h3_randread_psync_iodepth16_warning_before_json.json',
      1,
      ['text_before_json'],
      'a note before',
    ],
    ['generated/m_randtrim_on_file_error.json', 1, ['text_before_json'], 'a job error line before'],
    [
      'generated/h2_randread_4k_output_normal_json.txt',
      1,
      ['text_before_json', 'text_after_json'],
      'normal,json',
    ],
    [
      'generated/q_randread_4k_status_interval1s_multiple_json_docs.json',
      4,
      ['multiple_documents'],
      'status-interval',
    ],
    [
      'generated/o_client_server_loopback_randread_nj2.json',
      1,
      [],
      'client/server, starting with a blank line',
    ],
    ['generated/g_randrw_4k_mix70_jsonplus.json', 1, [], 'json+'],
  ])('%s → %i document(s), warnings %j (%s)', (name, documents, warnings) => {
    const result = extractFioDocument(textOf(name));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.documentsFound).toBe(documents);
    expect(codes(result)).toEqual(warnings);
    expect(result.document['fio version']).toBe('fio-3.33');
  });

  it('quotes the fio error line that came before the JSON', () => {
    const result = extractFioDocument(textOf('generated/m_randtrim_on_file_error.json'));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.warnings[0]!.message).toContain('fio: pid=25985, err=25/file:ioengines.c:399');
  });

  it('uses the LAST of the status-interval documents (the final results)', () => {
    const text = textOf('generated/q_randread_4k_status_interval1s_multiple_json_docs.json');
    const timestamps = [...text.matchAll(/"timestamp_ms" : (\d+)/g)].map((m) => Number(m[1]));
    expect(timestamps).toHaveLength(4);
    const result = extractFioDocument(text);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.document.timestamp_ms).toBe(Math.max(...timestamps));
    expect(result.document.timestamp_ms).toBe(timestamps[3]);
  });

  it('falls back to the last complete status-interval document when the final one was cut off', () => {
    const text = textOf('generated/q_randread_4k_status_interval1s_multiple_json_docs.json');
    const lastStart = text.lastIndexOf('\n{\n') + 1;
    const cut = text.slice(0, lastStart + 2000);
    const result = extractFioDocument(cut);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.documentsFound).toBe(3);
    expect(codes(result)).toEqual(['multiple_documents', 'truncated_document_ignored']);
  });

  it('reads text pasted before and after on the same document (Ctrl-C: "fio: terminating on signal 2")', () => {
    const result = extractFioDocument(`\nfio: terminating on signal 2\n${C}\nfio: terminating on signal 2\n`);
    if (!result.ok) throw new Error(result.error.message);
    expect(codes(result)).toEqual(['text_before_json', 'text_after_json']);
    expect(result.warnings[0]!.message).toContain('fio: terminating on signal 2');
  });

  it('finds JSON glued to a line of text (no `{` at a line start)', () => {
    const result = extractFioDocument(`done: ${C}`);
    expect(result.ok).toBe(true);
  });
});

describe('extractFioDocument failures', () => {
  it('a file with only fio error lines (Windows, public fixture) → not_fio_json quoting the first fio error', () => {
    const result = extractFioDocument(textOf('public/cyberhuey_windows_fio_error_only.json'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('not_fio_json');
    expect(result.error.message).toContain('fio: "C is not a directory');
  });

  it('JSON that is not fio output → not_fio_json, naming its keys', () => {
    const result = extractFioDocument('{"a":1}');
    expect(result).toMatchObject({ ok: false, error: { code: 'not_fio_json' } });
    if (!result.ok) expect(result.error.message).toContain('"a"');
  });

  it('a truncated fio file → invalid_json naming where the input ended', () => {
    const cut = C.slice(0, 3000);
    const result = extractFioDocument(cut);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_json');
    const end = lineAndColumn(cut, cut.length);
    expect(result.error.message).toContain(`line ${end.line}, column ${end.column}`);
    expect(result.error.message).toContain('truncated');
  });

  it('a broken value reads the same on every Node version (V8 from Node 22 on adds the slice’s own line and column)', () => {
    const result = extractFioDocument('{"fio version": "fio-3.1", "jobs": [ {"jobname": 01} ]}');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid_json',
        message:
          'the JSON starting on line 1 is not valid at line 1, column 51 (character 50): Unexpected number in JSON at position 50',
      },
    });
  });

  it('a broken value inside the document → invalid_json with the line and column of the error', () => {
    const broken = C.replace('"iops" : 77896.220756', '"iops" : 77896.220756.5');
    const result = extractFioDocument(broken);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_json');
    const at = lineAndColumn(broken, broken.indexOf('77896.220756.5') + '77896.220756'.length);
    expect(result.error.message).toContain(`line ${at.line}, column ${at.column}`);
  });

  it('a closing bracket of the wrong kind → invalid_json', () => {
    const broken = C.replace('"jobs" : [', '"jobs" : {');
    expect(extractFioDocument(broken)).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
  });

  it('nesting deeper than the bound → too_deep, before anything parses it', () => {
    const deep = C.replace('"jobs" : [', `"jobs" : [${'['.repeat(70)}${']'.repeat(70)},`);
    const result = extractFioDocument(deep);
    expect(result).toMatchObject({ ok: false, error: { code: 'too_deep' } });
    // 100 000 levels: refused in linear time, no stack overflow anywhere.
    expect(extractFioDocument(`{"jobs":${'['.repeat(100_000)}`)).toMatchObject({
      ok: false,
      error: { code: 'too_deep' },
    });
    expect(extractFioDocument(deep, { maxDepth: 80 }).ok).toBe(true);
  });
});

describe("fio's near-JSON (docs/fio-format.md §8.5)", () => {
  it.each([['nan'], ['-nan'], ['inf'], ['-inf']])('reads a bare %s as null, with a warning', (word) => {
    const text = C.replace('"mean" : 401976.932442', `"mean" : ${word}`);
    expect(text).not.toBe(C);
    const result = extractFioDocument(text);
    if (!result.ok) throw new Error(result.error.message);
    expect(codes(result)).toEqual(['non_finite_numbers']);
    const jobs = result.document.jobs as { read: { clat_ns: { mean: unknown } } }[];
    expect(jobs[0]!.read.clat_ns.mean).toBeNull();
  });

  it('escapes a raw tab in a job name (fio escapes only " and \\)', () => {
    const text = C.replace('"jobname" : "randread_4k"', '"jobname" : "randread\t4k"');
    const result = extractFioDocument(text);
    if (!result.ok) throw new Error(result.error.message);
    expect(codes(result)).toEqual(['control_characters']);
    expect((result.document.jobs as { jobname: string }[])[0]!.jobname).toBe('randread\t4k');
  });

  it('leaves words that merely contain nan/inf alone', () => {
    expect(repairFioJson('{"a": [information, banana, nan]}').text).toBe(
      '{"a": [information, banana, null]}',
    );
    expect(repairFioJson('{"nan": "inf"}')).toEqual({
      text: '{"nan": "inf"}',
      nonFinite: 0,
      controlCharacters: 0,
    });
  });
});

describe('scanObject', () => {
  it('finds the end of each document in a status-interval file', () => {
    const text = textOf('generated/q_randread_4k_status_interval1s_multiple_json_docs.json');
    const ends: number[] = [];
    for (let start = findNextObjectStart(text, 0); start !== -1;) {
      const scan = scanObject(text, start, 64);
      if (scan.kind !== 'complete') throw new Error(scan.kind);
      expect(scan.maxDepth).toBe(6); // root, jobs, job, read, clat_ns, percentile
      expect(() => JSON.parse(text.slice(start, scan.end))).not.toThrow();
      ends.push(scan.end);
      start = findNextObjectStart(text, scan.end);
    }
    expect(ends).toHaveLength(4);
  });

  it('ignores brackets and escaped quotes inside strings', () => {
    const text = C.replace('"jobname" : "randread_4k"', '"jobname" : "a \\"}]{[\\\\"');
    const scan = scanObject(text, 0, 64);
    expect(scan).toMatchObject({ kind: 'complete', end: text.trimEnd().length });
    expect(JSON.parse(text).jobs[0].jobname).toBe('a "}]{[\\');
  });

  it('measures json+ at six levels (root, jobs, job, direction, clat_ns, bins)', () => {
    expect(scanObject(textOf('generated/g_randrw_4k_mix70_jsonplus.json'), 0, 64)).toMatchObject({
      maxDepth: 6,
    });
  });
});

describe('scanValidObject: scanObject for valid JSON, read line by line', () => {
  it.each([
    'generated/c_randread_4k_libaio_qd32_timebased5s.json',
    'generated/g_randrw_4k_mix70_jsonplus.json',
    'generated/o_client_server_loopback_randread_nj2.json',
    'public/samyaple_fio-3.33_randwrite_nj16_perjob.json',
    'public/pkb_fio-2.1.4_four_stonewall_groups.json',
  ])('%s: the same result as scanObject', (name) => {
    const text = textOf(name);
    const start = text.indexOf('{');
    expect(scanValidObject(text, start, 64)).toEqual(scanObject(text, start, 64));
  });

  it('equals scanObject whenever JSON.parse accepts the slice it found (any JSON, pretty or not)', () => {
    // Strings full of brackets, quotes, backslashes and newlines (escaped, as JSON writes them).
    const tricky = fc.stringMatching(/^[[\]{}"\\\n a]{0,8}$/);
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        tricky,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(tricky, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.constantFrom(0, 1, 2), fc.integer({ min: 1, max: 8 }), (v, indent, maxDepth) => {
        const text = `${JSON.stringify({ v }, null, indent)}\ntext after`;
        const quick = scanValidObject(text, 0, maxDepth);
        if (quick.kind === 'complete') JSON.parse(text.slice(0, quick.end));
        expect(quick).toEqual(scanObject(text, 0, maxDepth));
      }),
      { seed: 20261129, numRuns: 400 },
    );
  });

  it('a string that spans lines (not JSON) can fool it, and extractFioDocument then asks scanObject', () => {
    // Line 2 starts inside the string, so the quick scan reads `" [[[…` as a string and the deep
    // arrays as text inside it; JSON.parse refuses the raw newline, and the full scan finds them.
    const text = `{"jobs":"a\n" ${'['.repeat(70)}${']'.repeat(70)} "}\n`;
    expect(scanValidObject(text, 0, 64).kind).toBe('complete');
    expect(scanObject(text, 0, 64).kind).toBe('too_deep');
    expect(extractFioDocument(text)).toMatchObject({ ok: false, error: { code: 'too_deep' } });
  });
});
