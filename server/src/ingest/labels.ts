import type { Request } from 'express';
import { LABEL_WIRE_NAMES, NUMERIC_LABELS } from '@blockwise/shared/api';
import { RunLabelsSchema, type RunLabels } from '@blockwise/shared/records';
import { HttpError } from '../http/errors.ts';
import { isStorableText } from '../store/run-store.ts';

/**
 * Labels arrive as strings from query parameters (`?instanceType=r5d.4xlarge&tag.env=prod`),
 * headers (`X-Blockwise-Instance-Type`, `X-Blockwise-Tag: env=prod`) or multipart fields;
 * normalized once, here, into RunLabels — or a 400 naming the label and what was expected.
 * Query parameters win over headers (easier to see in a CI log). A label given twice — a
 * repeated parameter or header, or under two of its names (`instance` and `instanceType`) — is
 * refused: reading one of them silently would label the run with what the sender did not mean.
 */
export type LabelSource = Record<string, string | string[] | undefined>;

/**
 * Query parameters and multipart fields: one string each. A repeated query parameter never gets
 * here — refuseRepeatedQuery (http/route-helpers.ts), mounted on /api, refuses it for every
 * route with 400 `query_invalid` — and readMultipart refuses a repeated field.
 */
export type QueryLabels = Record<string, string | undefined>;

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A number label: decimal, as JSON writes numbers (`3000`, `12.5`, `1e3`, `1.5E+4`). Everything
 * else that Number() would also read — `0x10`, `0b1`, `0o7`, `Infinity`, ` 12 `, `1_000`, `` —
 * is refused, as is a value too large to be finite (`1e400`).
 */
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

export function parseDecimal(value: string): number | null {
  if (!DECIMAL.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function labelsInvalid(message: string, path: string): HttpError {
  return new HttpError(400, 'labels_invalid', message, path);
}

/** The one value of a header (headersDistinct gives repeats as arrays), or a 400 when it came more than once. */
function singleHeader(value: string | string[] | undefined, key: string, header: string): string | undefined {
  if (!Array.isArray(value)) return value;
  if (value.length === 1) return value[0];
  throw labelsInvalid(
    `${key}: given ${value.length} times (header ${header}); send each label once`,
    `labels.${key}`,
  );
}

/** A label's value from the query (under any of its names) or else its header; given once at most. */
function labelValue(
  key: string,
  wire: { query: string[]; header: string },
  query: QueryLabels,
  headers: LabelSource,
): string | undefined {
  const given = wire.query.filter((name) => query[name] !== undefined);
  if (given.length > 1)
    throw labelsInvalid(`${key}: given twice (as ${given.join(' and ')}); send it once`, `labels.${key}`);
  if (given.length === 1) return query[given[0]!];
  return singleHeader(headers[wire.header], key, wire.header);
}

export function labelsFrom(query: QueryLabels, headers: LabelSource = {}): RunLabels {
  const raw: Record<string, unknown> = {};
  for (const [key, wire] of Object.entries(LABEL_WIRE_NAMES)) {
    const value = labelValue(key, wire, query, headers);
    if (value === undefined || value === '') continue;
    if ((NUMERIC_LABELS as readonly string[]).includes(key)) {
      const n = parseDecimal(value);
      if (n === null)
        throw labelsInvalid(
          `${key}: expected a decimal number such as 3000, 12.5 or 1e3, got ${JSON.stringify(value.slice(0, 40))}`,
          `labels.${key}`,
        );
      raw[key] = n;
    } else {
      raw[key] = value;
    }
  }
  const tags: Record<string, string> = Object.create(null);
  const fromQuery = new Set<string>();
  const fromHeader = new Set<string>();
  let tagCount = 0;
  const addTag = (pair: string, origin: 'query' | 'X-Blockwise-Tag', parameter: string) => {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new HttpError(
        400,
        'labels_invalid',
        `${parameter}: expected name=value, got ${JSON.stringify(pair.slice(0, 60))}`,
        'labels.tags',
      );
    const name = pair.slice(0, eq).trim();
    // Zod's record drops an own `__proto__` key silently instead of failing its key check: refuse here.
    if (RESERVED.has(name))
      throw new HttpError(
        400,
        'labels_invalid',
        `labels.tags.${name}: a reserved name`,
        `labels.tags.${name}`,
      );
    // The query wins over the header, as for every label; twice in the header is ambiguous.
    if (origin === 'X-Blockwise-Tag') {
      if (fromHeader.has(name))
        throw labelsInvalid(
          `X-Blockwise-Tag: tag "${name}" given twice; send each tag once`,
          `labels.tags.${name}`,
        );
      fromHeader.add(name);
      if (fromQuery.has(name)) return;
    } else fromQuery.add(name);
    tags[name] = pair.slice(eq + 1).trim();
    tagCount += 1;
  };
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith('tag.') && value !== undefined) addTag(`${key.slice(4)}=${value}`, 'query', key);
  }
  // The tag header is a list: repeating the header adds tags, as a comma does.
  const tagHeader = headers['x-blockwise-tag'];
  const tagLines = Array.isArray(tagHeader) ? tagHeader : tagHeader === undefined ? [] : [tagHeader];
  for (const line of tagLines)
    for (const part of line.split(','))
      if (part.trim()) addTag(part.trim(), 'X-Blockwise-Tag', 'X-Blockwise-Tag');
  if (tagCount > 0) raw.tags = { ...tags };

  // The store refuses U+0000 and lone surrogates in text (PostgreSQL cannot hold them, see
  // isStorableText). The shared schema refuses them too; checked here first to name the label
  // and to cover tag names, which the schema's key pattern checks only as a pattern.
  const texts: [string, unknown][] = [
    ...Object.entries(raw),
    ...Object.entries(tags).flatMap(
      ([k, v]) =>
        [
          [`tags.${k}`, k],
          [`tags.${k}`, v],
        ] as [string, unknown][],
    ),
  ];
  for (const [path, value] of texts) {
    if (typeof value === 'string' && !isStorableText(value))
      throw new HttpError(
        400,
        'labels_invalid',
        `labels.${path}: contains U+0000 or a lone UTF-16 surrogate`,
        `labels.${path}`,
      );
  }

  const parsed = RunLabelsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = ['labels', ...issue.path.map(String)].join('.');
    throw new HttpError(400, 'labels_invalid', `${path}: ${issue.message}`, path);
  }
  return parsed.data;
}

/**
 * Labels of a raw upload: query parameters, then headers. Headers are read before Node joins
 * repeated ones (`X-Blockwise-Branch: a` twice would read as "a, a"), so a repeat is refused.
 */
export function labelsFromRequest(req: Request): RunLabels {
  return labelsFrom(req.query as QueryLabels, labelHeaders(req));
}

/** The request's headers with repeated ones as arrays (IncomingMessage.headersDistinct). */
export function labelHeaders(req: Request): LabelSource {
  return (req.headersDistinct as LabelSource | undefined) ?? (req.headers as LabelSource);
}
