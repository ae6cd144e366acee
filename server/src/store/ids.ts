import { randomFillSync } from 'node:crypto';

/**
 * Public ids of runs, comparisons and tokens: 16 bytes from node:crypto's CSPRNG (OpenSSL's
 * RAND_bytes, seeded by the OS) → 22 base64url characters, 128 bits of entropy.
 *
 * Why 128 bits and not a UUID: share links are bearer capabilities — whoever knows the id can read
 * the run — and ASVS 5.0 §11.5.1 asks for ≥ 128 bits from a CSPRNG ("UUIDs do not respect this
 * condition": a v4 UUID carries 122 random bits). Never sequential, never a non-cryptographic PRNG.
 *
 * Why a pool: one `randomBytes(16)` call costs ~6 µs in Node 20 (a native round trip per call);
 * filling 4 KiB at a time and slicing 16-byte ids from it is ~5× cheaper. `randomFillSync` draws
 * from the same CSPRNG as `randomBytes`; every pooled byte is handed out exactly once, and the pool
 * is refilled in place before reuse, so no two ids share randomness.
 */
const ID_BYTES = 16;
const POOL_BYTES = ID_BYTES * 256;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** A fresh 128-bit random id: 22 characters of `[A-Za-z0-9_-]`. */
export function newId(): string {
  if (poolOffset === POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = pool.toString('base64url', poolOffset, poolOffset + ID_BYTES);
  poolOffset += ID_BYTES;
  return id;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * Whether `value` has the shape of an id. Stores check it before querying so garbage from a URL
 * costs no database round trip.
 */
export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
