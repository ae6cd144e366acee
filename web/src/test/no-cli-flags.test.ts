import * as analysisModule from '@blockwise/shared/analysis';
import * as catalogModule from '@blockwise/shared/catalog';
import { parseFio } from '@blockwise/shared/fio';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
// An iostat capture of several devices (fixtures/metrics/README.md): the reader says which it read.
import iostatDevices from '../../../fixtures/metrics/iostat_12.6.1_xdm_t.txt?raw';
// 14 days of 5-minute CloudWatch Sums with a nightly batch (fixtures/demand/README.md).
import nightlyMetrics from '../../../fixtures/demand/gmd_nightly_batch_14d.json?raw';
import nightlyVolumes from '../../../fixtures/demand/volumes_nightly.json?raw';
import { analyzeSession } from '../app/session/analysis.ts';
import { exampleSession } from '../app/session/example-session.ts';
import {
  DEFAULT_OPTIONS as DEFAULT_FLEET,
  planReadFleet,
  readDroppedFleet,
} from '../features/fleet/fleet-local.ts';
import { readMetrics } from '../features/metrics-import/metrics-reader.ts';
import { joinCatalog } from '../lib/catalog.ts';

/**
 * Web text never names the blockwise CLI's flags: a web user changes a setting with a control and
 * has never seen `--dataset` or `--device` (issue 27). Checked two ways: every string and JSX text
 * in web/src, and the sentences shared/ writes that the web shows (read at the web's own edges,
 * which ask for the web's wording). A flag inside a whole command line the user is asked to run
 * (`blockwise upload … --series`, `fio --output-format=json`) is an instruction, not a control.
 */

// Read as text by Vite: every web source (tests aside) and the CLI's option tables.
const WEB_SOURCES = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const CLI_SOURCES = import.meta.glob(['../../../server/src/cli/*.ts', '!../../../server/src/cli/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

/** The blockwise CLI's flags, from its parsers' option tables (`'name': { type: … }`). */
function cliFlags(): Set<string> {
  const flags = new Set<string>();
  for (const text of Object.values(CLI_SOURCES))
    for (const m of text.matchAll(/['"]?([a-z][a-z0-9-]+)['"]?\s*:\s*\{\s*type:\s*'(?:string|boolean)'/g))
      flags.add(m[1]!);
  return flags;
}

const FLAGS = cliFlags();

/** The CLI flags a text names outside a command line it shows. */
function flagsNamedIn(text: string): string[] {
  // A command the reader runs, as a whole: "blockwise …", "fio …", "aws …" up to the line's end.
  // A command continued with a trailing backslash goes on to the next line.
  const outsideCommands = text.replace(
    /\b(?:blockwise|fio|aws|iostat|sar|sadf)\s(?:[^\n]*\\\n)*[^\n]*/gi,
    '',
  );
  return [...outsideCommands.matchAll(/(?:^|[^\w-])--([a-z][a-z0-9-]+)/g)]
    .map((m) => m[1]!)
    .filter((f) => FLAGS.has(f));
}

/** Strings, templates and JSX text of a file: what can reach the page (comments cannot). */
function textsOf(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    // JSX text as its element reads it: the pieces around `{expressions}` joined, so a command
    // split by an expression is still one command.
    else if (ts.isJsxElement(node))
      texts.push(
        node.children
          .map((c) => (ts.isJsxText(c) ? c.text : ' X '))
          .join('')
          // As React renders JSX text: lines joined by one space.
          .replace(/\s*\n\s*/g, ' '),
      );
    else if (ts.isTemplateExpression(node))
      texts.push(node.head.text + node.templateSpans.map((s) => ` ${s.literal.text}`).join(''));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

describe('web text names no CLI flag', () => {
  it('knows the CLI’s flags (the check cannot pass on an empty list)', () => {
    for (const flag of ['dataset', 'device', 'ignore-recurring', 'instance', 'headroom'])
      expect(FLAGS).toContain(flag);
    expect(flagsNamedIn('give the dataset size (--dataset) so they hold the data')).toEqual(['dataset']);
    expect(flagsNamedIn('Pick another with --device NAME.')).toEqual(['device']);
    expect(flagsNamedIn('run `blockwise fleet plan --volumes v.json --format markdown`')).toEqual([]);
  });

  it('in every string and JSX text of web/src', () => {
    expect(Object.keys(WEB_SOURCES).length).toBeGreaterThan(100);
    const found = Object.entries(WEB_SOURCES).flatMap(([path, source]) =>
      textsOf(path, source).flatMap((text) =>
        flagsNamedIn(text).map((flag) => `${path}: --${flag} in “${text.slice(0, 80)}”`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('in the warnings of a multi-device iostat capture read by the web (which device is read)', () => {
    const r = readMetrics(iostatDevices, {});
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const messages = r.imported.series.warnings.map((w) => w.message);
    expect(
      messages.some((m) => /devices/.test(m)),
      'the device warning is there',
    ).toBe(true);
    expect(messages.flatMap(flagsNamedIn)).toEqual([]);
  });

  it('in the plan’s warnings on the planning page (no dataset size given)', async () => {
    const catalog = joinCatalog(catalogModule, analysisModule);
    const state = await exampleSession(async (b) => parseFio(new Uint8Array(await b.arrayBuffer())));
    const noCapacity = { ...state, settings: { ...state.settings, candidates: [], datasetGiB: null } };
    const a = analyzeSession(noCapacity, catalog);
    expect(a.result?.ok).toBe(true);
    if (!a.result?.ok) return;
    const warnings = a.result.value.plans.flatMap((p) => p.plan.warnings);
    expect(warnings.map((w) => w.code)).toContain('capacity_unknown');
    expect(warnings.map((w) => w.message).flatMap(flagsNamedIn)).toEqual([]);
  });

  it('in the recurring-peak and resolution warnings of a metrics import (5-minute Sums, a nightly batch)', () => {
    const r = readMetrics(nightlyMetrics, {});
    expect(r.ok).toBe(true);
    if (!r.ok || !r.imported.profiles) return;
    const messages = Object.values(r.imported.profiles).flatMap((p) => p.warnings.map((w) => w.message));
    const recurring = messages.filter((m) => /^Recurring peak/.test(m));
    expect(recurring.length, 'the p99 and p95 keep the nightly peak and say so').toBeGreaterThanOrEqual(2);
    expect(recurring.join(' ')).toContain('the “Ignore recurring peaks” option sizes on the p');
    expect(messages.flatMap(flagsNamedIn)).toEqual([]);
  });

  it('in the period and throughput-unit problems of a metrics import (the questions, not the flags)', () => {
    const csv =
      'time,read IOPS,read throughput\n2026-11-24T10:00:00Z,100,5000\n2026-11-24T10:01:00Z,120,6000\n';
    const problems = [
      readMetrics(csv, {}),
      readMetrics(csv, { throughputUnit: 'furlongs' as never }),
      readMetrics(csv, { throughputUnit: 'MiB/s', periodSec: 0 }),
    ].map((r) => (r.ok ? null : r.error));
    expect(problems.map((p) => p?.code)).toEqual(['choice_required', 'bad_unit', 'bad_period']);
    const texts = problems.flatMap((p) => [p?.message ?? '', p?.path ?? '']);
    expect(texts.join(' ')).toContain('the “In which unit is the throughput column?” question');
    expect(texts.join(' ')).toContain('the “How long is each point’s period?” question');
    expect(texts.flatMap(flagsNamedIn)).toEqual([]);
  });

  it('in the notes of a fleet plan made on the Fleet page (a nightly batch, kept and ignored)', () => {
    const catalog = joinCatalog(catalogModule, analysisModule);
    const read = readDroppedFleet({
      volumes: { name: 'volumes.json', kind: 'volumes', json: JSON.parse(nightlyVolumes), fingerprint: 'v' },
      instances: null,
      metrics: [
        { name: 'metrics.json', kind: 'metrics', json: JSON.parse(nightlyMetrics), fingerprint: 'm' },
      ],
    });
    expect(read?.ok).toBe(true);
    if (!read?.ok) return;
    const notes = [false, true].flatMap((ignoreRecurring) => {
      const plan = planReadFleet(
        read.value,
        { ...DEFAULT_FLEET, statistic: 'p99', ignoreRecurring },
        catalog,
      );
      expect(plan.ok).toBe(true);
      return plan.ok ? plan.value.volumes.flatMap((v) => v.notes) : [];
    });
    expect(notes.join(' ')).toContain('recurring peak');
    expect(notes.join(' ')).toContain('ignored as asked (the “Ignore recurring peaks” option)');
    expect(notes.flatMap(flagsNamedIn)).toEqual([]);
  });
});
