import { createHash, webcrypto } from 'node:crypto';
import type { RunLabels } from './run-store.ts';

/**
 * JSON with object keys sorted (recursively) and no whitespace, so that two label objects that
 * are equal as data serialize to the same bytes whatever order their keys were written in.
 * Follows JSON.stringify otherwise: undefined properties are omitted, undefined array items and
 * non-finite numbers become null.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
  }
  return `{${parts.join(',')}}`;
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * From this size an upload's SHA-256 is computed in libuv's thread pool (WebCrypto's digest), not
 * on the event loop: a 1 MB upload hashed in place held the loop ~3–4 ms on a CPU without SHA
 * instructions (bench P13 sends 1,000,000-byte files: they stay above this). Below it, hashing in
 * place costs less CPU than the hop to the pool and back (the job's copy of the bytes, a promise,
 * the thread hand-off), and P2 counts every thread: measured 2026-11-29 on the bench machine
 * (SHA-NI), 104 KB in place 0.054 ms of CPU, through WebCrypto 0.073–0.124 ms; server CPU per CI
 * upload of that file −7 % (docs/performance.md §4, issue 24 item 4, fourth pass). Without SHA
 * instructions 256 KiB in place is ~1 ms, what an inline analysis of a 128 KiB body holds anyway.
 */
export const OFF_LOOP_SHA256_MIN_BYTES = 256 * 1024;

/** sha256Hex of `bytes`, hashed off the event loop from OFF_LOOP_SHA256_MIN_BYTES (the pool gets a copy). */
export async function sha256HexOffLoop(bytes: Uint8Array): Promise<string> {
  if (bytes.byteLength < OFF_LOOP_SHA256_MIN_BYTES) return sha256Hex(bytes);
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/**
 * The default idempotency key of an upload: SHA-256 over a version tag, the SHA-256 of the raw
 * bytes and the canonical JSON of the labels. The fixed-length digest in the middle makes the
 * encoding unambiguous (no bytes/labels split can collide with another), and hashing the digest
 * rather than the bytes again costs nothing extra for a 20 MB upload.
 *
 * Identical bytes + labels → the same key → the same run, however often CI retries.
 */
export function idempotencyKeyFor(rawBytes: Uint8Array, labels: RunLabels): string {
  return idempotencyKeyFromDigest(sha256Hex(rawBytes), labels);
}

/** Same as idempotencyKeyFor, from an already computed hex digest of the raw bytes. */
export function idempotencyKeyFromDigest(rawSha256: string, labels: RunLabels): string {
  return sha256Hex(`blockwise.run.v1\n${rawSha256}\n${canonicalJson(labels)}`);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && SHA256_HEX.test(value);
}
