#!/usr/bin/env node
// Initial JS + CSS per page, gzip, against the 200 KB budget (docs/performance.md P10), and the
// largest lazy chunks. Reads web/dist (building it first with --build, or when it is missing) and
// Vite's manifest: a page's initial set is the entry's static imports, the app's start-up module
// (src/app/boot.tsx, imported by the entry after the first paint) and the page module's
// static imports (each page is a lazy route chunk needed for its first render). Charts, the AWS
// catalog and the parser worker are lazy and listed separately.
//
//   node web/scripts/bundle-size.mjs [--build] [--json]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(webDir, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const args = new Set(process.argv.slice(2));

/** 200 KB = 200,000 bytes (decimal, the stricter reading). */
const BUDGET_BYTES = 200_000;

const PAGES = [
  { name: 'planning session  /', module: 'src/app/routes/PlanPage.tsx' },
  { name: 'share view        /c/:id', module: 'src/app/routes/SharePage.tsx' },
  { name: 'archive           /runs', module: 'src/app/routes/RunsPage.tsx' },
  { name: 'run               /runs/:id', module: 'src/app/routes/RunPage.tsx' },
  { name: 'CI history        /history', module: 'src/app/routes/HistoryPage.tsx' },
  { name: 'CI series         /history/:s', module: 'src/app/routes/HistorySeriesPage.tsx' },
];

if (args.has('--build') || !existsSync(manifestPath)) {
  console.log('building web/dist …');
  execFileSync(
    process.execPath,
    [join(webDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: webDir,
      stdio: 'inherit',
    },
  );
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry in the Vite manifest');

const sizes = new Map();
function sizeOf(file) {
  if (!sizes.has(file)) {
    const bytes = readFileSync(join(dist, file));
    sizes.set(file, { raw: bytes.length, gzip: gzipSync(bytes).length });
  }
  return sizes.get(file);
}

/** Files (JS and CSS) loaded with a chunk: itself and its static imports, recursively. */
function closure(key, files = new Set(), seen = new Set()) {
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imp of chunk.imports ?? []) closure(imp, files, seen);
  return files;
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
// The entry paints the static frame, then imports the app (src/app/boot.tsx) at once: its closure
// is part of every page's initial load, though the manifest lists it as a dynamic import.
const BOOT = 'src/app/boot.tsx';
if (!manifest[BOOT]) throw new Error(`${BOOT} is not in the manifest: the app's start-up module moved?`);
const entryFiles = closure(BOOT, closure(entryKey));
const results = [];
let failed = false;

console.log(`\nInitial JS + CSS per page (gzip; budget ${kb(BUDGET_BYTES)})\n`);
for (const page of PAGES) {
  if (!manifest[page.module]) {
    console.log(`  ${page.name}: module ${page.module} not found in the manifest`);
    failed = true;
    continue;
  }
  const files = closure(page.module, new Set(entryFiles));
  let js = 0;
  let css = 0;
  let raw = 0;
  for (const f of files) {
    const s = sizeOf(f);
    raw += s.raw;
    if (f.endsWith('.css')) css += s.gzip;
    else js += s.gzip;
  }
  const total = js + css;
  const pass = total <= BUDGET_BYTES;
  failed ||= !pass;
  results.push({
    page: page.name.trim(),
    jsGzip: js,
    cssGzip: css,
    totalGzip: total,
    raw,
    files: files.size,
    pass,
  });
  console.log(
    `  ${pass ? 'PASS' : 'FAIL'}  ${page.name.padEnd(28)} ${kb(total).padStart(9)}  (JS ${kb(js)}, CSS ${kb(css)}; ${files.size} files, ${kb(raw)} raw)`,
  );
}

const initial = new Set(results.length ? [...entryFiles] : []);
for (const page of PAGES) if (manifest[page.module]) for (const f of closure(page.module)) initial.add(f);
const lazy = Object.values(manifest)
  .flatMap((c) => [c.file, ...(c.css ?? [])])
  .filter((f, i, all) => all.indexOf(f) === i && !initial.has(f) && existsSync(join(dist, f)));
const workers = existsSync(join(dist, 'assets'))
  ? execFileSync('ls', [join(dist, 'assets')], { encoding: 'utf8' })
      .split('\n')
      // The worker scripts themselves, not the .gz/.br copies the build writes beside them.
      .filter((f) => f.includes('worker') && /\.m?js$/.test(f))
      .map((f) => `assets/${f}`)
  : [];
const lazyRows = [...new Set([...lazy, ...workers])]
  .map((f) => ({ file: f, ...sizeOf(f) }))
  .sort((a, b) => b.gzip - a.gzip)
  .slice(0, 10);
console.log('\nLargest lazy chunks (loaded on demand: charts, AWS catalog, parser worker)\n');
for (const r of lazyRows)
  console.log(`  ${kb(r.gzip).padStart(9)} gzip  ${kb(r.raw).padStart(9)} raw  ${r.file}`);

const biggestRaw = Math.max(...[...sizes.values()].map((s) => s.raw), ...lazyRows.map((r) => r.raw));
console.log(
  `\nLargest chunk: ${kb(biggestRaw)} minified (P10 asks for none above 500 kB): ${biggestRaw <= 500_000 ? 'PASS' : 'FAIL'}`,
);
failed ||= biggestRaw > 500_000;
console.log(`\nBudget: ${failed ? 'FAIL' : 'PASS'}`);
if (args.has('--json'))
  console.log(JSON.stringify({ budgetBytes: BUDGET_BYTES, pages: results, lazy: lazyRows }, null, 2));
process.exit(failed ? 1 : 0);
