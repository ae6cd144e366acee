import { MAX_UPLOAD_BYTES } from '@blockwise/shared/api';
import { describe, expect, it } from 'vitest';
import { fileSizeProblem } from './SessionProvider.tsx';

const MiB = 1024 * 1024;

describe('a fio file is refused before reading exactly when the server would refuse its upload', () => {
  it.each([
    // size → the refusal's code (null: read, and it can be saved and shared later)
    [0, 'empty_input'],
    [120_000, null],
    [MAX_UPLOAD_BYTES, null],
    [MAX_UPLOAD_BYTES + 1, 'too_large'],
    [80 * MiB, 'too_large'],
  ])('%d bytes → %s', (size, code) => {
    expect(fileSizeProblem(size)?.code ?? null).toBe(code);
  });

  it('names the size and the limit', () => {
    expect(fileSizeProblem(80 * MiB)?.message).toBe('the file is 80 MiB; the limit is 50 MiB');
  });
});
