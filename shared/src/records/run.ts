import { z } from 'zod';
import { VolumeTypeSchema } from '../aws/volume-types.ts';
import { PlanResultSchema } from '../plan/plan.ts';
import { WarningSchema } from '../problem.ts';
import { labelTextSchema, storableTextSchema } from './text.ts';

/**
 * The archived run's records: what an upload is about (labels), its headline numbers and the
 * analysis stored with it. The API contract composes these; the server's store parses what it
 * reads back with the same schemas.
 */

/** Ids: 16 CSPRNG bytes, base64url (22 characters) — unguessable, never sequential. */
export const IdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'a 22-character id');

export const TargetKindSchema = z.enum(['nvme', 'ebs']);

/** Keys that would touch Object.prototype if anything ever copied labels naively. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const positive = z.number().positive().finite();

/** What an upload is about. Every field optional; numbers in the EBS units (GiB, IOPS, MiB/s). */
export const RunLabelsSchema = z.object({
  name: labelTextSchema(200).optional(),
  kind: TargetKindSchema.optional(),
  instanceType: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9.-]{0,62}$/, 'an EC2 instance type such as r5d.4xlarge')
    .optional(),
  volumeType: VolumeTypeSchema.optional(),
  volumeSizeGiB: positive.max(1_000_000).optional(),
  volumeIops: positive.max(10_000_000).optional(),
  volumeThroughputMiBps: positive.max(1_000_000).optional(),
  volumeCount: z.number().int().min(1).max(64).optional(),
  region: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,40}$/, 'an AWS region code such as us-east-1')
    .optional(),
  /** CI history: e.g. `pg-data-volume`. */
  series: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._/-]{1,100}$/, 'letters, digits and . _ / - (at most 100)')
    .optional(),
  branch: labelTextSchema(200).optional(),
  baseBranch: labelTextSchema(200).optional(),
  commit: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{4,64}$/, 'a commit hash (4–64 hex digits)')
    .optional(),
  tags: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'tag names: letters, digits and . _ - (at most 64)')
        .refine((k) => !RESERVED_KEYS.has(k), 'a reserved name (__proto__, constructor, prototype)'),
      storableTextSchema().max(200),
    )
    .refine((t) => Object.keys(t).length <= 20, 'at most 20 tags')
    .optional(),
});
export type RunLabels = z.infer<typeof RunLabelsSchema>;

/** Headline numbers of a run, for lists and history (read/write, total over jobs). */
export const RunHeadlineSchema = z.object({
  readIops: z.number(),
  writeIops: z.number(),
  readBytesPerSec: z.number(),
  writeBytesPerSec: z.number(),
  readBlockSizeBytes: z.number().nullable(),
  writeBlockSizeBytes: z.number().nullable(),
  /** clat percentiles in ms (exact, or the upper bound when approximate). */
  readClatMs: z.record(z.string(), z.number()).nullable(),
  writeClatMs: z.record(z.string(), z.number()).nullable(),
  clatApproximate: z.boolean(),
  runtimeSec: z.number().nullable(),
});
export type RunHeadline = z.infer<typeof RunHeadlineSchema>;

/**
 * The analysis stored with a run (recomputable from the raw bytes when rules or prices change).
 * Stored summaries are read through readStoredSummary (stored-summary.ts), which upgrades the
 * shapes of earlier analysis versions to this one.
 */
export const RunSummarySchema = z.object({
  analysisVersion: z.string(),
  fioVersion: z.string().nullable(),
  jobCount: z.number().int(),
  groupCount: z.number().int(),
  headline: RunHeadlineSchema,
  /** The plan for the configuration the labels describe (instance + volume, or NVMe); null when they describe none. */
  plan: PlanResultSchema.nullable(),
  warnings: z.array(WarningSchema),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;
