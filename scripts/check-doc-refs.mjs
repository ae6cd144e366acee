// `node scripts/check-doc-refs.mjs`: every pointer from the code and the docs to a document must
// land inside this repository. Fails (exit 1), naming file:line, when
//   - a `*.md` file that is named does not exist (relative to the citing file, the repo root, or
//     docs/ for a bare name); links to other sites and another project's files (on a line that
//     links to its repository, or named as "the driver's docs/x.md") are skipped;
//   - a `§N` / `§N.M` / `§N–§M` section, a `#anchor`, or a quoted section title ("Warning codes")
//     is not a heading of the cited document (a § with no document before it on its line belongs,
//     in a .md file, to that file itself, elsewhere to the document cited last in the same comment);
//   - a goal id (P7, R8) cited with docs/performance.md is not one of its goals;
//   - in docs/*.md, a `path.ts:identifier` cell names a file that does not exist or does not
//     define the identifier, or a backticked `*.test.ts(x)` / source path names no file
//     (paths resolve against the repo root, shared/src/, or the doc's own folder).
// The lint stage of `npm test` runs it (scripts/test.mjs); `--root DIR` checks another tree.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

// `--root DIR` checks another tree (e.g. an exported older commit); default: this repository.
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? process.argv[rootArg + 1] : join(dirname(fileURLToPath(import.meta.url)), '..');

const TEXT_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|ya?ml|json|fio|sh|css|html)$/;
const SKIPPED_PATH = /(^|\/)(node_modules|dist|coverage)\//;
const MAX_BYTES = 1024 * 1024;
const SOURCE_BASES = ['', 'shared/src', 'server/src', 'web/src'];
/**
 * Names that look like documents but are not this repository's: pages of the AWS EC2 User Guide's
 * source (awsdocs/amazon-ec2-user-guide, `doc_source/`, cited as [2023] in docs/domain.md), and
 * `comment.md`, the file the CI snippets in docs/ci/ write the regression report to.
 */
const NOT_OURS = new Set([
  'general-purpose.md',
  'provisioned-iops.md',
  'hdd-vols.md',
  'ebs-volume-types.md',
  'ebs-io-characteristics.md',
  'ebs-optimized.md',
  'comment.md',
]);

/** Tracked and new (not ignored) files, repo-relative; every file when `root` is no git work tree. */
function listFiles() {
  if (!existsSync(join(root, '.git')))
    return walk('').filter((f) => TEXT_FILE.test(f) && !SKIPPED_PATH.test(f) && f !== 'pnpm-lock.yaml');
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0'))].filter(
    (f) =>
      f && TEXT_FILE.test(f) && !SKIPPED_PATH.test(f) && f !== 'pnpm-lock.yaml' && existsSync(join(root, f)),
  );
}

function walk(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : walk(rel);
    return [rel];
  });
}

const files = listFiles();
const basenames = new Set(files.map((f) => basename(f)));
const textCache = new Map();
function readText(rel) {
  if (!textCache.has(rel)) {
    const abs = join(root, rel);
    textCache.set(rel, existsSync(abs) && statSync(abs).size <= MAX_BYTES ? readFileSync(abs, 'utf8') : null);
  }
  return textCache.get(rel);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces → hyphens. */
function slugOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const outlineCache = new Map();
/** Section numbers, anchors, titles (headings and bold paragraph leads) and goal ids of a doc. */
function outlineOf(rel) {
  if (outlineCache.has(rel)) return outlineCache.get(rel);
  const text = readText(rel) ?? '';
  const numbers = new Set();
  const anchors = new Set();
  const titles = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      const heading = h[1].trim();
      anchors.add(slugOf(heading));
      const n = /^(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(heading);
      if (n) numbers.add(n[1]);
      titles.push((n ? n[2] : heading).toLowerCase());
    }
    for (const b of line.matchAll(/\*\*([^*]+?)\.?\*\*/g)) titles.push(b[1].toLowerCase());
  }
  const goals = new Set();
  for (const m of text.matchAll(/^\|\s*([PR]\d+[a-z]?)\s*\|/gm)) goals.add(m[1]);
  for (const m of text.matchAll(/\(([PR]\d+[a-z])\)|\b([PR]\d+[a-z])\/|\/([PR]\d+[a-z])\b/g)) {
    goals.add(m[1] ?? m[2] ?? m[3]);
  }
  const outline = { numbers, anchors, titles, goals };
  outlineCache.set(rel, outline);
  return outline;
}

/** Where a named .md file is, repo-relative, or null. */
function resolveDoc(fromFile, name) {
  const clean = name.replace(/^\.\//, '');
  const candidates = clean.startsWith('/')
    ? [clean.slice(1)]
    : [join(dirname(fromFile), clean), clean, ...(clean.includes('/') ? [] : [join('docs', clean)])];
  for (const c of candidates) {
    const rel = normalize(c);
    if (!rel.startsWith('..') && existsSync(join(root, rel))) return rel;
  }
  return null;
}

/** Where a source path named in a doc is, repo-relative, or null. */
function resolveSource(fromFile, name) {
  const bases = [dirname(fromFile), ...SOURCE_BASES];
  for (const base of bases) {
    const rel = normalize(join(base, name.replace(/^\//, '')));
    if (!rel.startsWith('..') && existsSync(join(root, rel))) return rel;
  }
  if (!name.includes('/') && basenames.has(name)) return name;
  return null;
}

const problems = new Set();
const report = (file, line, message) => problems.add(`${file}:${line}: ${message}`);

const URL_TOKEN = /\b(?:https?:\/\/|www\.)[^\s)>\]`'"]+/g;
// A document name: path characters ending in .md, optionally with #anchor.
const DOC_REF = /(?<![\w/.-])((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.md)(#[\w-]+)?(?![\w-])/g;
// What can follow a document name and name a part of it.
const SECTION = /§\s*(\d+(?:\.\d+)*)(?:\s*[–-]\s*§?\s*(\d+(?:\.\d+)*))?/g;
const OTHER_CITATION = /(?<![\w/.-])[\w./-]+\.(?:ts|tsx|mjs|js|c|h|html|py|go)\b|sqlite\.org/g;
// A standard's own numbering: ASVS 5.0 §11.5.1, RFC 6266 §4.
const STANDARD_BEFORE = /\b(?:ASVS|RFC|OWASP|ISO|IEEE|POSIX)\b[\w .-]{0,10}$/;
const COMMENT_LINE = /^\s*(\/\/|\*|\/\*|#|<!--|-|\|)/;

function checkFile(file) {
  const text = readText(file);
  if (text === null) return;
  const isMarkdown = file.endsWith('.md');
  const lines = text.split('\n');
  let lastDoc = null; // the document cited last in the current comment block
  let inFence = false;
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    if (isMarkdown && /^\s*(```|~~~)/.test(raw)) inFence = !inFence;
    const urlSpans = [...raw.matchAll(URL_TOKEN)].map((m) => [m.index, m.index + m[0].length]);
    const inUrl = (at) => urlSpans.some(([a, b]) => at >= a && at < b);
    const citesOtherRepo = /github\.com\//.test(raw);
    if (!isMarkdown && !COMMENT_LINE.test(raw) && !/\/\/|\/\*/.test(raw) && !/["'`]/.test(raw))
      lastDoc = null;

    // Citation anchors on this line, in order: documents (resolved or not) and other sources.
    const anchors = [];
    for (const m of raw.matchAll(DOC_REF)) {
      if (inUrl(m.index)) continue;
      const name = m[1];
      if (NOT_OURS.has(name.replace(/^.*[/@]/, '')) || raw[m.index - 1] === '*') continue;
      const doc = resolveDoc(file, name);
      if (!doc) {
        // A file of the repository the line links to, or of the project named just before it
        // ("the driver's docs/parameters.md", "its docs/parameters.md").
        if (citesOtherRepo || /(?:['’]s|\bits)\s+$/.test(raw.slice(0, m.index))) continue;
        report(file, lineNo, `no file ${name} in the repository`);
        anchors.push({ at: m.index, end: m.index + m[0].length, doc: null });
        continue;
      }
      anchors.push({ at: m.index, end: m.index + m[0].length, doc });
      if (m[2]) {
        const anchor = m[2].slice(1).toLowerCase();
        if (doc.endsWith('.md') && !outlineOf(doc).anchors.has(anchor)) {
          report(file, lineNo, `${name}${m[2]}: no such heading in ${doc}`);
        }
      }
      // A quoted title right after the name: docs/domain.md "Warning codes", ), "P13 in detail"
      const after = raw.slice(m.index + m[0].length);
      const quoted = /^[)\]`]*,?\s*(?:§\s*)?["“]([^"”]+)["”]/.exec(after);
      if (quoted) {
        const title = quoted[1].toLowerCase();
        if (!outlineOf(doc).titles.some((t) => t === title || t.startsWith(title))) {
          report(file, lineNo, `${name} "${quoted[1]}": no such section title in ${doc}`);
        }
      }
      // Goal ids cited with the performance page.
      if (doc === 'docs/performance.md') {
        const next = raw.slice(m.index + m[0].length).search(DOC_REF);
        const span = next === -1 ? after : after.slice(0, next);
        for (const g of span.matchAll(/\b([PR]\d+[a-z]?)\b/g)) {
          if (!outlineOf(doc).goals.has(g[1]))
            report(file, lineNo, `${name} ${g[1]}: no such goal in ${doc}`);
        }
      }
    }
    for (const m of raw.matchAll(OTHER_CITATION)) {
      if (!anchors.some((a) => m.index >= a.at && m.index < a.end))
        anchors.push({ at: m.index, other: true });
    }
    anchors.sort((a, b) => a.at - b.at);

    if (!(isMarkdown && inFence)) {
      for (const m of raw.matchAll(SECTION)) {
        if (inUrl(m.index) || STANDARD_BEFORE.test(raw.slice(0, m.index))) continue;
        const before = anchors.filter((a) => a.at < m.index);
        const nearest = before[before.length - 1];
        let doc;
        if (nearest) {
          if (nearest.other || nearest.doc === null) continue;
          doc = nearest.doc;
        } else if (isMarkdown) doc = file;
        else if (lastDoc) doc = lastDoc;
        else {
          report(file, lineNo, `§${m[1]} cites no document (name it on the line or earlier in the comment)`);
          continue;
        }
        if (!doc.endsWith('.md')) continue;
        const { numbers } = outlineOf(doc);
        for (const n of [m[1], m[2]].filter(Boolean)) {
          if (!numbers.has(n)) report(file, lineNo, `§${n}: ${doc} has no section ${n}`);
        }
      }
    }
    const lastAnchor = anchors[anchors.length - 1];
    if (lastAnchor) lastDoc = lastAnchor.other ? null : lastAnchor.doc;
    if (isMarkdown && raw.trim() === '') lastDoc = null;

    if (file.startsWith('docs/') && isMarkdown) checkCodePaths(file, lineNo, raw);
  });
}

/** Whether source text declares `name` (function, const, let, class). */
function definesName(text, name) {
  const escaped = name.replace(/\$/g, '\\$');
  return new RegExp(`\\b(?:function\\*?|const|let|class)\\s+${escaped}\\b`).test(text);
}

/** `path.ts:identifier` cells and backticked source/test paths in the project's docs. */
function checkCodePaths(file, lineNo, raw) {
  for (const m of raw.matchAll(/`([^`\s]+)`/g)) {
    const token = m[1];
    const pair = /^([\w./@-]+\.(?:ts|tsx|mjs|js)):([A-Za-z_$][\w$]*)$/.exec(token);
    if (pair) {
      const at = resolveSource(file, pair[1]);
      if (!at) report(file, lineNo, `${token}: no file ${pair[1]}`);
      else if (!definesName(readText(at) ?? '', pair[2])) {
        report(file, lineNo, `${token}: ${at} does not define ${pair[2]}`);
      }
      continue;
    }
    if (
      /^[\w./@-]+\.(?:test|spec)\.tsx?$/.test(token) ||
      /^[\w.@-]+\/[\w./@-]+\.(?:ts|tsx|mjs)$/.test(token)
    ) {
      if (token.includes('*')) continue;
      if (!resolveSource(file, token)) report(file, lineNo, `\`${token}\`: no such file`);
    }
  }
}

for (const f of files) checkFile(f);

if (problems.size > 0) {
  for (const p of problems) console.error(`✗ ${p}`);
  console.error(`\n${problems.size} broken document reference(s).`);
  process.exit(1);
}
console.log(`✓ document references: ${files.length} files checked, every reference resolves inside the repo`);
