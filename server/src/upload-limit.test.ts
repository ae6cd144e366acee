import { MAX_UPLOAD_BYTES } from '@blockwise/shared/api';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './app.ts';

describe('the upload limit', () => {
  it('is the API contract’s by default, the one the web app checks before reading a file', () => {
    expect(DEFAULT_CONFIG.maxUploadBytes).toBe(MAX_UPLOAD_BYTES);
  });
});
