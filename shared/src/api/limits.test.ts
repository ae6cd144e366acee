import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, fitsUploadLimit } from './limits.ts';

const MiB = 1024 * 1024;

describe('the upload limit the server enforces and the web app checks', () => {
  it('is 50 MiB', () => {
    expect(MAX_UPLOAD_BYTES).toBe(50 * MiB);
  });

  it.each([
    // size → fits the default limit (the server refuses only a body larger than the limit)
    [1_048_576, true],
    [50 * MiB, true],
    [50 * MiB + 1, false],
    [80 * MiB, false],
  ])('%d bytes → %s', (size, fits) => {
    expect(fitsUploadLimit(size)).toBe(fits);
  });

  it('follows a limit an operator raised', () => {
    expect(fitsUploadLimit(80 * MiB, 100 * MiB)).toBe(true);
  });
});
