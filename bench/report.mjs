#!/usr/bin/env node
// Prints the table of docs/performance.md §6 ("Latest results") from bench/results.json (written by
// `pnpm bench`), so its figures can be regenerated after a run on a quiet machine:
//   node bench/report.mjs [path/to/results.json]      print it
//   node bench/report.mjs --write                     replace it in docs/performance.md (between the bench:table markers)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, ROOT } from './lib/common.mjs';

const args = process.argv.slice(2);
const toDoc = args.includes('--write');
const path = args.find((a) => !a.startsWith('--')) ?? join(BENCH, 'results.json');
const out = [];
const print = (text) => out.push(text);
const results = JSON.parse(readFileSync(path, 'utf8'));
const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');

/** "P1 ingest/echo req/s ratio 0.58 (goal ≥ 0.5) PASS — note" → measured part and note. */
function split(goal) {
  const [head, ...rest] = goal.line.split(' — ');
  const body = head.replace(/\s*\b(PASS|FAIL|INFO|SKIP)\b\s*$/, '');
  // Composite lines (several conditions, e.g. Lighthouse, soak) keep their own wording.
  const composite = !head.startsWith(`${goal.id} ${goal.title}`);
  const measured = composite
    ? body.slice(body.indexOf(': ') + 2)
    : body
        .slice(goal.id.length + 1 + goal.title.length)
        .replace(/\s*\(goal [^)]*\)/, '')
        .trim();
  return { measured, note: rest.join(' — '), composite };
}

const m = results.machine;
print(
  `Measured ${results.generatedAt.slice(0, 10)} with \`pnpm bench\`${results.quick ? ' --quick (indicative only)' : ''} in ${Math.round(results.seconds)} s: Node ${m.node}, ${m.cpus} CPUs (${m.cpuModel ?? 'unknown'}), load average ${m.loadBefore?.join(' ') ?? '?'} at the start.\n`,
);
const rows = [['Goal', 'What', 'Measured', 'Target', 'Result', 'Notes']];
for (const g of results.goals) {
  const { measured, note, composite } = split(g);
  const target = composite
    ? 'see measured'
    : g.op
      ? `${g.op.replace('>=', '≥').replace('<=', '≤')} ${g.target}${g.unit ?? ''}`
      : '';
  const shown = g.status === 'SKIP' ? '—' : measured || (g.value ?? '');
  const why = g.status === 'SKIP' ? g.details?.reason : note;
  rows.push([g.id, g.title, shown, target, g.status, why].map(cell));
}
// Padded the way Prettier formats Markdown tables, so the document stays format-clean.
const widths = rows[0].map((_, c) => Math.max(3, ...rows.map((r) => [...r[c]].length)));
const line = (r) => `| ${r.map((v, c) => v + ' '.repeat(widths[c] - [...v].length)).join(' | ')} |`;
print(line(rows[0]));
print(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
for (const r of rows.slice(1)) print(line(r));
const count = (s) => results.goals.filter((g) => g.status === s).length;
print(
  `\n${count('PASS')} pass, ${count('FAIL')} fail, ${count('SKIP')} skipped, ${count('INFO')} informational, ${count('ERROR')} harness errors.`,
);

const text = out.join('\n');
if (toDoc) {
  const doc = join(ROOT, 'docs', 'performance.md');
  const [start, end] = ['<!-- bench:table:start -->', '<!-- bench:table:end -->'];
  const current = readFileSync(doc, 'utf8');
  const a = current.indexOf(start);
  const b = current.indexOf(end);
  if (a === -1 || b === -1) throw new Error(`docs/performance.md has no ${start} … ${end} markers`);
  writeFileSync(doc, `${current.slice(0, a + start.length)}\n\n${text.trim()}\n\n${current.slice(b)}`);
  console.log('docs/performance.md: table replaced');
} else {
  console.log(text);
}
