import { describe, expect, it } from 'vitest';
import { escapeMarkdown, escapeText, markdownCode } from './escape-text.ts';

/** Characters no escaped value may contain: they act on a terminal, a log or a reader's eyes. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/** A line the GitHub runner would read as a workflow command. */
const isCommandLine = (line: string) => /^\s*::/u.test(line) || line.includes('##[');

const hostile: [string, string, string][] = [
  // [what, label, escapeText(label)]
  ['a newline that forges a workflow command', 'main\n::error::pwned', 'main\\u000a::error::pwned'],
  ['CR and CRLF', 'a\rb\r\nc', 'a\\u000db\\u000d\\u000ac'],
  ['a tab', 'a\tb', 'a\\u0009b'],
  ['NUL', 'a\u0000b', 'a\\u0000b'],
  ['an ANSI clear-screen sequence', 'x\u001b[2Jy', 'x\\u001b[2Jy'],
  ['an OSC 8 hyperlink', '\u001b]8;;https://evil\u0007x', '\\u001b]8;;https://evil\\u0007x'],
  ['DEL', 'a\u007fb', 'a\\u007fb'],
  ['C1 CSI (U+009B)', 'a\u009b2Jb', 'a\\u009b2Jb'],
  ['U+2028 line separator', 'a\u2028b', 'a\\u2028b'],
  ['U+2029 paragraph separator', 'a\u2029b', 'a\\u2029b'],
  ['a right-to-left override', 'main\u202egnp.exe', 'main\\u202egnp.exe'],
  ['LRE…PDF', '\u202aa\u202c', '\\u202aa\\u202c'],
  ['isolates U+2066–U+2069', '\u2066a\u2067b\u2068c\u2069', '\\u2066a\\u2067b\\u2068c\\u2069'],
  ['a lone high surrogate', 'a\ud800b', 'a\\ud800b'],
  ['a lone low surrogate', 'a\udc00', 'a\\udc00'],
  ['a workflow command at the start', '::error::pwned', '\\u003a:error::pwned'],
  ['a workflow command after spaces', '  ::warning file=x::y', '  \\u003a:warning file=x::y'],
  ['the legacy ##[ command form', 'main ##[error]pwned', 'main ##\\u005berror]pwned'],
];

const harmless: [string, string][] = [
  ['a plain branch', 'feature/xfs-tuning'],
  ['a commit', '1a2b3c4d5e6f'],
  ['a Windows path', 'C:\\runs\\a.json'],
  ['non-Latin text and emoji (a surrogate pair)', 'ветка-😀-分支'],
  ['colons inside', 'a::b and 10:30'],
  ['a single leading colon', ':x'],
];

describe('escapeText', () => {
  it.each(hostile)('%s', (_, label, escaped) => {
    const out = escapeText(label);
    expect(out).toBe(escaped);
    expect(out).not.toMatch(UNSAFE);
    expect(out.split('\n')).toHaveLength(1);
    expect(isCommandLine(out)).toBe(false);
  });

  it.each(harmless)('leaves %s as it is', (_, label) => {
    expect(escapeText(label)).toBe(label);
  });

  it('escapes every code point of the unsafe ranges, and nothing printable next to them', () => {
    const ranges = [
      [0x00, 0x1f],
      [0x7f, 0x9f],
      [0x2028, 0x2029],
      [0x202a, 0x202e],
      [0x2066, 0x2069],
    ];
    for (const [from, to] of ranges)
      for (let c = from!; c <= to!; c++) {
        const ch = String.fromCharCode(c);
        expect(escapeText(`a${ch}b`)).toBe(`a\\u${c.toString(16).padStart(4, '0')}b`);
      }
    for (const c of [0x20, 0x7e, 0xa0, 0x2027, 0x202f, 0x2065, 0x206a])
      expect(escapeText(String.fromCharCode(c))).toBe(String.fromCharCode(c));
  });
});

describe('escapeMarkdown', () => {
  it.each([
    ['a table cell break', 'a|b', 'a\\|b'],
    ['a code span', 'a`b`', 'a\\`b\\`'],
    ['HTML', '<img src=x onerror=alert(1)>', '\\<img src=x onerror=alert(1)\\>'],
    ['a link', '[x](https://evil)', '\\[x\\](https:\u200b//evil)'],
    ['emphasis and strike', '*a* _b_ ~c~', '\\*a\\* \\_b\\_ \\~c\\~'],
    ['an entity', '&lt;', '&amp;lt;'],
    ['a mention', '@org/team', '@\u200borg/team'],
    ['a heading or issue reference', '# 1', '\\# 1'],
    ['a backslash', 'a\\b', 'a\\\\b'],
    ['a forged row', 'x\n| pwned | 1 |', 'x\\u000a\\| pwned \\| 1 \\|'],
    ['a forged workflow command', 'main\n::error::pwned\u001b[2J', 'main\\u000a::error::pwned\\u001b\\[2J'],
    ['a workflow command at the start', '::error::x', '\\u003a:error::x'],
    ['the legacy form', '##[error]x', '\\#\\#\\[error\\]x'],
    ['a bidi override', 'a\u202eb', 'a\\u202eb'],
    // GitHub autolinks http://, https://, ftp:// and www. anywhere in text (GFM "Autolinks
    // (extension)"): a zero-width space keeps the address readable and dead.
    ['a web address after a forged link', 'cfg|x](http://evil)', 'cfg\\|x\\](http:\u200b//evil)'],
    ['an upper-case scheme', 'HTTPS://evil.example', 'HTTPS:\u200b//evil.example'],
    ['another scheme', 'ftp://evil', 'ftp:\u200b//evil'],
    ['a www. address', 'see www.evil.example', 'see www\u200b.evil.example'],
    ['a WWW. address at the start', 'WWW.evil.example', 'WWW\u200b.evil.example'],
    ['an e-mail address', 'ops@evil.example', 'ops@\u200bevil.example'],
  ])('%s', (_, label, escaped) => {
    const out = escapeMarkdown(label);
    expect(out).toBe(escaped);
    expect(out).not.toMatch(UNSAFE);
    expect(out).not.toMatch(/(^|[^\\])[|`<[*_~]/);
    expect(out).not.toMatch(/:\/\/|www\./i);
    expect(isCommandLine(out)).toBe(false);
  });

  it('leaves plain labels alone', () => {
    expect(escapeMarkdown('feature/xfs-tuning 1a2b3c4')).toBe('feature/xfs-tuning 1a2b3c4');
  });
});

describe('markdownCode', () => {
  it.each([
    // A code span shows text as written: no mention, no autolink, no markup, nothing inserted.
    [
      'a source with an @',
      'via cloudkeep-io/ebs-pricing@d76ed276',
      '`via cloudkeep-io/ebs-pricing@d76ed276`',
    ],
    ['a web address', 'http://evil www.evil', '`http://evil www.evil`'],
    ['markup', '*a* | <b> [c](d)', '`*a* | <b> [c](d)`'],
    ['a backtick inside: a longer fence', 'a`b``c', '```a`b``c```'],
    ['a backtick at the edge: padded', '`x', '`` `x ``'],
    ['a forged line', 'x\n::error::y\u001b[2J', '`x\\u000a::error::y\\u001b[2J`'],
    ['nothing', '', ''],
  ])('%s', (_, text, code) => {
    expect(markdownCode(text)).toBe(code);
  });
});
