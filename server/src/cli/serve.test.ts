import { describe, expect, it } from 'vitest';
import { authNote } from './serve.ts';

describe('the start-up note on auth', () => {
  it('required with no token yet: a warning that says how to create one', () => {
    expect(authNote('required', false)).toEqual({
      level: 'warn',
      text: expect.stringMatching(/no CI token exists yet.*401.*blockwise token create --name ci/),
    });
  });

  it('open although tokens exist: a warning that anyone may upload', () => {
    expect(authNote('open', true)).toEqual({
      level: 'warn',
      text: expect.stringMatching(/open \(--auth open\) although CI tokens exist.*anyone/),
    });
  });

  it.each([
    ['auto', false, /open until the first `blockwise token create`/],
    ['auto', true, /required \(this archive holds CI tokens\)/],
    ['required', true, /required/],
    ['open', false, /open/],
  ] as const)('%s (held a token: %s) is information', (mode, held, text) => {
    const note = authNote(mode, held);
    expect(note.level).toBe('info');
    expect(note.text).toMatch(text);
  });
});
