/**
 * User-supplied text (labels: branch, series, name, commit, tags; file names; fio job names) made
 * inert before it is printed. A CI log is a terminal and a command channel at once: an escape
 * sequence can clear or rewrite the screen, a newline can start a line of its own that the runner
 * reads as a workflow command (`::error::…`), and a bidi override can make a label read as
 * something else. One function per kind of output; each takes one value, never a whole report
 * (the formatter's own line breaks must survive).
 */

/**
 * C0 controls (newline and tab included: inside a label they are never layout), DEL, C1 controls,
 * the line/paragraph separators U+2028/U+2029, the bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069), and lone surrogates (with the `u` flag a valid pair is one code
 * point outside this range, so only unpaired halves match).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu;

/**
 * GitHub's runner reads a line as a command when, after leading white space, it starts with `::`
 * (`::error::x`), and reads the older `##[command]` form anywhere in a line. A value printed at the
 * start of a line (a file name) must not begin with `::`; no value may hold `##[`.
 */
const LEADING_COMMAND = /^(\s*):(?=:)/u;
const LEGACY_COMMAND = /##\[/g;

const visible = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * For plain text (terminal, CI log): every unsafe character becomes a visible `\uXXXX` escape,
 * and workflow-command markers are broken (`::error::` at the start → `\u003a:error::`,
 * `##[` → `##\u005b`). Everything else — backslashes in Windows paths, non-Latin names, emoji — is
 * kept as it is.
 */
export function escapeText(text: string): string {
  return text
    .replace(UNSAFE_CHARACTER, visible)
    .replace(LEADING_COMMAND, (_, space: string) => `${space}\\u003a`)
    .replace(LEGACY_COMMAND, '##\\u005b');
}

/** Zero-width space: invisible, and enough to keep GitHub from reading a mention or an address. */
const ZWSP = '\u200b';

/**
 * For markdown (a pull-request comment): the text escapes above, and the characters that would
 * build markup are backslash-escaped (`|` cannot split a table cell, `` ` `` open a code span,
 * `<` open HTML, `[` a link, `*`/`_`/`~` emphasis), `&` cannot start an entity, and an `@` cannot
 * mention a user or team (a zero-width space follows it). Web addresses are left dead: GitHub
 * turns `http://`, `https://`, `ftp://` and `www.` into links wherever they stand (GFM spec,
 * "Autolinks (extension)"), so a zero-width space breaks every `://` and `www.` (and the one after
 * `@` breaks e-mail autolinks). Newlines are shown as `\u000a`, so a label can never start a row,
 * a heading or a line of its own. For text that must stay exact (a source, a hash), use markdownCode.
 */
export function escapeMarkdown(text: string): string {
  const markup = text
    .replace(/&/g, '&amp;')
    .replace(/[\\`*_[\]<>|~#]/g, (c) => `\\${c}`)
    .replace(/@/g, `@${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/(www)\./gi, `$1${ZWSP}.`);
  return escapeText(markup);
}

/**
 * For markdown text that must read exactly as written (a price source such as
 * `ebs-pricing@d76ed276`, a path): an inline code span, where GitHub renders no markup, mention or
 * link. The text escapes above still apply (a newline is shown as `\u000a`); the fence is one
 * backtick longer than any run inside, padded with a space when the text starts or ends with a
 * backtick or a space (CommonMark "Code spans" strips one each side). Not for table cells: GitHub
 * splits a row at a `|` even inside a code span.
 */
export function markdownCode(text: string): string {
  const inert = escapeText(text);
  if (inert === '') return '';
  const longest = Math.max(0, ...(inert.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(inert) ? ' ' : '';
  return `${fence}${pad}${inert}${pad}${fence}`;
}

/** XML 1.0 allows tab, newline, return and U+0020 up: other controls (and lone surrogates) cannot be written, even escaped. */
// eslint-disable-next-line no-control-regex -- removing characters XML cannot carry is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/gu;

/** Text for an XML attribute or element: markup characters as entities, characters XML cannot hold as U+FFFD. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '\ufffd')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
    .replaceAll('\r', '&#13;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\t', '&#9;');
}

/** Element text keeps its line breaks (a JUnit failure's body lists one finding a line). */
export function escapeXmlText(text: string): string {
  return escapeXml(text).replaceAll('&#10;', '\n');
}
