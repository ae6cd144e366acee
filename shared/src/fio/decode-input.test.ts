import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInput } from './decode-input.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const bytesOf = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const textOf = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** What PowerShell 5's `>` does to fio's output (docs/fio-format.md §8.6): UTF-16, optionally with a BOM. */
function utf16(text: string, endian: 'le' | 'be', bom: boolean): Uint8Array {
  const units = (bom ? '\ufeff' : '') + text;
  const out = new Uint8Array(units.length * 2);
  for (let i = 0; i < units.length; i++) {
    const c = units.charCodeAt(i);
    out[2 * i + (endian === 'le' ? 0 : 1)] = c & 0xff;
    out[2 * i + (endian === 'le' ? 1 : 0)] = c >> 8;
  }
  return out;
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

const FIXTURE = 'generated/c_randread_4k_libaio_qd32_timebased5s.json';

describe('decodeInput', () => {
  const text = textOf(FIXTURE);

  it.each([
    ['UTF-8 bytes', bytesOf(FIXTURE), 'utf-8'],
    ['UTF-8 with a BOM', concat(new Uint8Array([0xef, 0xbb, 0xbf]), bytesOf(FIXTURE)), 'utf-8'],
    ['UTF-16LE with a BOM (PowerShell 5 `>`)', utf16(text, 'le', true), 'utf-16le'],
    ['UTF-16BE with a BOM', utf16(text, 'be', true), 'utf-16be'],
    ['UTF-16LE without a BOM (NUL in every odd byte)', utf16(text, 'le', false), 'utf-16le'],
    ['UTF-16BE without a BOM (NUL in every even byte)', utf16(text, 'be', false), 'utf-16be'],
    ['a string', text, 'utf-8'],
    ['a string with a BOM', `\ufeff${text}`, 'utf-8'],
  ] as const)('decodes %s to the same text', (_, input, encoding) => {
    const result = decodeInput(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.text).toBe(text);
    expect(result.value.encoding).toBe(encoding);
    expect(result.value.warnings).toEqual([]);
  });

  it.each([
    ['nothing', new Uint8Array(0)],
    ['an empty string', ''],
    ['whitespace', ' \n\t\r\n '],
    ['only a BOM', new Uint8Array([0xef, 0xbb, 0xbf])],
  ])('refuses %s as empty_input', (_, input) => {
    const result = decodeInput(input);
    expect(result).toEqual({ ok: false, error: { code: 'empty_input', message: expect.any(String) } });
  });

  it('refuses input above the size limit as too_large, naming both sizes', () => {
    const input = bytesOf(FIXTURE);
    const result = decodeInput(input, { maxBytes: 1024 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('too_large');
    expect(result.error.message).toContain(`${input.length} bytes`);
    expect(result.error.message).toContain('1024 bytes');
    expect(decodeInput(input, { maxBytes: input.length }).ok).toBe(true);
  });

  it('refuses binary input (a NUL in UTF-8 text, random bytes, many control characters)', () => {
    const withNul = bytesOf(FIXTURE);
    withNul[100] = 0;
    let seed = 7;
    const random = Uint8Array.from(
      { length: 4096 },
      () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff,
    );
    const controls = text.replace(/ /g, '\u0001');
    for (const input of [withNul, random, controls, `${text.slice(0, 50)}\u0000${text.slice(50)}`]) {
      const result = decodeInput(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('binary_input');
    }
  });

  it('refuses UTF-16 with a lone surrogate or an odd byte count', () => {
    const lone = utf16(text, 'le', true);
    lone[11] = 0xd8; // a high surrogate with no low one after it
    lone[10] = 0x00;
    expect(decodeInput(lone)).toMatchObject({ ok: false, error: { code: 'binary_input' } });
    expect(decodeInput(utf16(text, 'le', true).subarray(0, 101))).toMatchObject({
      ok: false,
      error: { code: 'binary_input' },
    });
  });

  it('tolerates a few bytes that are not UTF-8 (a Latin-1 path fio copied byte for byte), with a warning', () => {
    const bytes = bytesOf(FIXTURE);
    const at = text.indexOf('randread_4k') + 3;
    bytes[at] = 0xe9; // "é" in Latin-1: not valid UTF-8 on its own
    const result = decodeInput(bytes);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.text[at]).toBe('\ufffd');
    expect(result.value.warnings.map((w) => w.code)).toEqual(['invalid_utf8']);
  });
});
