import {
  CloudWatchStatisticSchema,
  ValueKindSchema,
  parseTimeZone,
  type IoSeries,
  type SeriesChoice,
  type SeriesImportOptions,
} from '@blockwise/shared/timeseries';
import { parseSeconds, type ThroughputUnit } from '@blockwise/shared/units';
import { unitName } from '../../lib/format.ts';

/**
 * The questions a metrics export leaves open, as form questions. The importer never guesses
 * (`choice_required` lists what it needs: the CloudWatch statistic, the period, the data-point
 * interval, a throughput unit); neither does the form — nothing is preselected, and the file is
 * read again with the answers. After a successful import three more things can be changed: the
 * time zone of times written without an offset (read as UTC otherwise), which volume to keep
 * when a graph held several (added otherwise), and which device of a per-device export (iostat,
 * sar, Prometheus, Datadog) to read (the busiest otherwise).
 */

export type QuestionOption = SeriesChoice['option'] | 'match' | 'device';

export type Answer = { value: string; label: string; hint?: string };

export type Question = {
  option: QuestionOption;
  /** The question, as the fieldset's legend. */
  legend: string;
  /** Why it is asked (the importer's reason, or ours). */
  why: string;
  answers: Answer[];
  /** A free-text answer besides the listed ones (another period, another zone). */
  other: { label: string; hint: string } | null;
  /** The answer in force; null for an open question (never guessed). */
  current: string | null;
};

/** The radio value of the free-text answer. */
export const OTHER = '__other__';

export type AnswerDraft = { value: string | null; other: string };

const PERIOD_NAMES: Record<string, string> = {
  '1': '1 second',
  '10': '10 seconds',
  '60': '1 minute',
  '300': '5 minutes',
  '900': '15 minutes',
  '3600': '1 hour',
  '86400': '1 day',
};

const seconds = (s: string) => (PERIOD_NAMES[s] ? `${s} seconds (${PERIOD_NAMES[s]})` : `${s} seconds`);

const STATISTIC_HINTS: Record<string, string> = {
  Sum: 'the total operations or bytes in each period; divided by the period’s seconds for a per-second rate (what AWS recommends for these metrics)',
  Average: 'the average of the raw data points in each period (each a per-minute or per-5-minute total)',
  Maximum: 'the busiest raw data point in each period',
  Minimum: 'the quietest raw data point in each period',
};

const VALUE_KIND_HINTS: Record<string, string> = {
  counter: 'cumulative totals since boot (node_exporter’s *_total as scraped): turned into rates here',
  rate: 'per-second rates already (the query applied rate() or irate())',
};

const INTERVAL_HINTS: Record<string, string> = {
  '300': 'EC2 basic monitoring: one data point per 5 minutes (the default)',
  '60': 'EC2 detailed monitoring, and EBS volume metrics: one data point per minute',
};

function zoneAnswers(candidates: readonly string[], browserZone: string | null): Answer[] {
  const zones = [...new Set(['UTC', ...(browserZone ? [browserZone] : []), ...candidates])];
  return zones.map((z) => ({
    value: z,
    label: z,
    ...(z === browserZone && z !== 'UTC' ? { hint: 'this browser’s time zone' } : {}),
  }));
}

const ZONE_OTHER = {
  label: 'Another time zone',
  hint: 'an offset such as +05:30, or a zone name such as America/New_York',
};

/** The importer's open questions (`choice_required`), as form questions without a preselected answer. */
export function questionsFor(choices: readonly SeriesChoice[], browserZone: string | null): Question[] {
  return choices.map((c): Question => {
    switch (c.option) {
      case 'statistic':
        return {
          option: 'statistic',
          legend: 'Which CloudWatch statistic do the values hold?',
          why: c.why,
          answers: c.candidates.map((s) => ({ value: s, label: s, hint: STATISTIC_HINTS[s] ?? '' })),
          other: null,
          current: null,
        };
      case 'periodSec':
        return {
          option: 'periodSec',
          legend: 'How long is each point’s period?',
          why: c.why,
          answers: c.candidates.map((s) => ({ value: s, label: seconds(s) })),
          other: { label: 'Another period', hint: 'seconds, or with a unit: 120, 2m, 1h' },
          current: null,
        };
      case 'sourceIntervalSec':
        return {
          option: 'sourceIntervalSec',
          legend: 'How often did CloudWatch collect the raw data points?',
          why: c.why,
          answers: c.candidates.map((s) => ({ value: s, label: seconds(s), hint: INTERVAL_HINTS[s] ?? '' })),
          other: null,
          current: null,
        };
      case 'throughputUnit':
        return {
          option: 'throughputUnit',
          legend: 'In which unit is the throughput column?',
          why: c.why,
          answers: c.candidates.map((u) => ({ value: u, label: u, hint: unitName(u) })),
          other: null,
          current: null,
        };
      case 'timeZone':
        return {
          option: 'timeZone',
          legend: 'In which time zone are the file’s times?',
          why: c.why,
          answers: zoneAnswers(c.candidates, browserZone),
          other: ZONE_OTHER,
          current: null,
        };
      case 'valueKind':
        return {
          option: 'valueKind',
          legend: 'Are the values counters or rates?',
          why: c.why,
          answers: c.candidates.map((k) => ({ value: k, label: k, hint: VALUE_KIND_HINTS[k] ?? '' })),
          other: null,
          current: null,
        };
    }
  });
}

/** The resources (volume or instance ids) whose columns the importer added, from its warning. */
function summedResources(series: IoSeries): string[] {
  if (!series.warnings.some((w) => w.code === 'columns_summed') || !series.label) return [];
  return series.label.split(' + ').filter((r) => r.length > 0);
}

/**
 * What can still be changed after a successful import: the zone of offset-less times (they were
 * read as UTC, with the peak times and per-day minutes following that reading), and which of
 * several volumes to keep. Prefilled with the reading in force.
 */
export function adjustQuestions(
  series: IoSeries,
  options: SeriesImportOptions,
  browserZone: string | null,
): Question[] {
  const out: Question[] = [];
  const readAs = series.quality.naiveTimesAs;
  if (readAs !== null) {
    out.push({
      option: 'timeZone',
      legend: 'In which time zone are the file’s times?',
      why: `The times carry no UTC offset and were read as ${readAs}. Peak windows and the minutes per day above a limit follow this choice; the sizing numbers do not.`,
      answers: zoneAnswers([readAs], browserZone),
      other: ZONE_OTHER,
      current: options.timeZone ?? readAs,
    });
  }
  const device = series.device;
  if (device && device.devices.length > 1) {
    const total = device.devices.reduce((s, d) => s + d.operations, 0);
    out.push({
      option: 'device',
      legend: 'Which device?',
      why:
        device.chosenBy === 'busiest'
          ? `The file holds ${device.devices.length} devices; ${device.name}, the busiest by operations, was read. Device-mapper and partition rows count the same I/O as the disk under them: pick one, never add them.`
          : `The file holds ${device.devices.length} devices; ${device.name} is read, as asked.`,
      answers: [...device.devices]
        .sort((a, b) => b.operations - a.operations)
        .map((d) => ({
          value: d.name,
          label: d.name,
          hint: total > 0 ? `${Math.round((d.operations / total) * 1000) / 10}% of the operations` : '',
        })),
      other: null,
      current: options.device ?? device.name,
    });
  }
  const resources = summedResources(series);
  if (resources.length > 1 || options.match !== undefined) {
    const kept = options.match !== undefined ? [options.match] : resources;
    out.push({
      option: 'match',
      legend: 'Which volumes?',
      why:
        options.match !== undefined
          ? `Only the columns whose label contains “${options.match}” are read.`
          : `The file holds ${resources.length} resources; their columns were added, as the instance sees them together.`,
      answers: [
        { value: '', label: 'All of them, added', hint: 'what the instance’s limits see' },
        ...kept.map((r) => ({ value: r, label: `Only ${r}` })),
      ],
      other: null,
      current: options.match ?? '',
    });
  }
  return out;
}

export function initialDrafts(questions: readonly Question[]): Record<string, AnswerDraft> {
  return Object.fromEntries(
    questions.map((q) => {
      const listed = q.current === null || q.answers.some((a) => a.value === q.current);
      return [
        q.option,
        listed
          ? { value: q.current, other: '' }
          : // The answer in force is not one of the listed ones: show it as the free text.
            { value: OTHER, other: q.current ?? '' },
      ];
    }),
  );
}

/**
 * The answers as import options (over `base`, the answers given before), or an error per
 * question: every question needs an answer; free-text answers must parse.
 */
export function readAnswers(
  questions: readonly Question[],
  drafts: Readonly<Record<string, AnswerDraft>>,
  base: SeriesImportOptions,
):
  | { ok: true; options: SeriesImportOptions }
  | { ok: false; errors: Partial<Record<QuestionOption, string>> } {
  const options: SeriesImportOptions = { ...base };
  const errors: Partial<Record<QuestionOption, string>> = {};
  for (const q of questions) {
    const d = drafts[q.option];
    const value = d?.value ?? null;
    if (value === null) {
      errors[q.option] =
        `Choose an answer: ${q.answers.map((a) => a.label).join(', ')}${q.other ? `, or ${q.other.label.toLowerCase()}` : ''}.`;
      continue;
    }
    const text = value === OTHER ? (d?.other ?? '').trim() : value;
    if (value === OTHER && text === '') {
      errors[q.option] = `${q.other?.label ?? 'Answer'}: type ${q.other?.hint ?? 'a value'}.`;
      continue;
    }
    switch (q.option) {
      case 'statistic': {
        const s = CloudWatchStatisticSchema.safeParse(text);
        if (s.success) options.statistic = s.data;
        else errors.statistic = `Expected Sum, Average, Maximum or Minimum, got “${text}”.`;
        break;
      }
      case 'periodSec':
      case 'sourceIntervalSec': {
        const s = parseSeconds(text);
        if (s.ok && s.value > 0) options[q.option] = s.value;
        else errors[q.option] = `Expected ${s.ok ? 'a period above 0 seconds' : s.expected}, got “${text}”.`;
        break;
      }
      case 'throughputUnit':
        options.throughputUnit = text as ThroughputUnit;
        break;
      case 'timeZone':
        if (parseTimeZone(text) === null)
          errors.timeZone = `Unknown time zone “${text}”: expected UTC, an offset such as +01:00, or a zone name such as America/New_York.`;
        else options.timeZone = text;
        break;
      case 'match':
        if (text === '') delete options.match;
        else options.match = text;
        break;
      case 'device':
        options.device = text;
        break;
      case 'valueKind': {
        const k = ValueKindSchema.safeParse(text);
        if (k.success) options.valueKind = k.data;
        else errors.valueKind = `Expected counter or rate, got “${text}”.`;
        break;
      }
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, options };
}

/** The browser's own IANA zone ("Europe/Berlin"), offered as an answer; null when unknown. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}
