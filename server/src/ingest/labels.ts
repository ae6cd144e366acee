import type { Request } from 'express';
import { LABEL_WIRE_NAMES, NUMERIC_LABELS, RunLabelsSchema, type RunLabels } from '@blockwise/shared';
import { HttpError } from '../http/errors.ts';
import { isStorableText } from '../store/run-store.ts';

/**
 * Labels arrive as strings from query parameters (`?instanceType=r5d.4xlarge&tag.env=prod`),
 * headers (`X-Blockwise-Instance-Type`, `X-Blockwise-Tag: env=prod`) or multipart fields;
 * normalized once, here, into RunLabels — or a 400 naming the label and what was expected.
 * Query parameters win over headers (easier to see in a CI log).
 */
export type LabelSource = Record<string, string | string[] | undefined>;

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function labelsFrom(query: LabelSource, headers: LabelSource = {}): RunLabels {
  const raw: Record<string, unknown> = {};
  for (const [key, wire] of Object.entries(LABEL_WIRE_NAMES)) {
    const q = wire.query.map((name) => first(query[name])).find((v) => v !== undefined);
    const value = q ?? first(headers[wire.header]);
    if (value === undefined || value === '') continue;
    if ((NUMERIC_LABELS as readonly string[]).includes(key)) {
      const n = Number(value.trim());
      if (value.trim() === '' || !Number.isFinite(n))
        throw new HttpError(
          400,
          'labels_invalid',
          `${key}: expected a number, got ${JSON.stringify(value.slice(0, 40))}`,
          `labels.${key}`,
        );
      raw[key] = n;
    } else {
      raw[key] = value;
    }
  }
  const tags: Record<string, string> = Object.create(null);
  let tagCount = 0;
  const addTag = (pair: string, origin: string) => {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new HttpError(
        400,
        'labels_invalid',
        `${origin}: expected name=value, got ${JSON.stringify(pair.slice(0, 60))}`,
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
    tags[name] = pair.slice(eq + 1).trim();
    tagCount += 1;
  };
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith('tag.')) continue;
    const v = first(value);
    if (v !== undefined) addTag(`${key.slice(4)}=${v}`, key);
  }
  const tagHeader = first(headers['x-blockwise-tag']);
  if (tagHeader)
    for (const part of tagHeader.split(',')) if (part.trim()) addTag(part.trim(), 'X-Blockwise-Tag');
  if (tagCount > 0) raw.tags = { ...tags };

  // The store refuses U+0000 and lone surrogates in text (PostgreSQL cannot hold them, see
  // isStorableText); the shared schema does not, so without this check they became a 500.
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

export function labelsFromRequest(req: Request): RunLabels {
  return labelsFrom(req.query as LabelSource, req.headers as LabelSource);
}
