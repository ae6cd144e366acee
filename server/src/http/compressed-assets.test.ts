import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { listen, send } from '../reliability/testing/http-client.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptsEncoding, compressedAssets } from './compressed-assets.ts';

const dist = mkdtempSync(join(tmpdir(), 'bw-dist-'));
mkdirSync(join(dist, 'assets'));
const js = Buffer.from(`export const answer = ${JSON.stringify('x'.repeat(5000))};\n`);
writeFileSync(join(dist, 'assets', 'index-AbC123.js'), js);
// What the web build writes beside each asset (web/vite.config.ts precompressAssets).
writeFileSync(join(dist, 'assets', 'index-AbC123.js.gz'), gzipSync(js, { level: 9 }));
writeFileSync(join(dist, 'assets', 'index-AbC123.js.br'), brotliCompressSync(js));
// An asset of an older build, without precompressed files.
writeFileSync(join(dist, 'assets', 'old-XyZ789.css'), `.a{color:red}${' '.repeat(4000)}`);
writeFileSync(join(dist, 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
writeFileSync(join(dist, 'secret.txt'), 'not an asset');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const app = express();
app.use(compressedAssets(dist));
app.use((_req, res) => res.status(404).send('fell through'));

/** Raw HTTP (supertest would ask for gzip and inflate the answer itself). */
async function get(target: express.Express, path: string, acceptEncoding?: string) {
  const server = await listen(target);
  try {
    return await send(server.port, {
      method: 'GET',
      path,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });
  } finally {
    await server.close();
  }
}

describe('precompressed assets (P11)', () => {
  it('serves the precompressed brotli file to a client that accepts br, immutable', async () => {
    const res = await get(app, '/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.bytes).equals(js)).toBe(true);
  });

  it('serves the precompressed gzip file to a client that accepts gzip only', async () => {
    const res = await get(app, '/assets/index-AbC123.js', 'gzip, deflate');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = res.bytes;
    expect(body.length).toBeLessThan(js.length / 10);
    expect(gunzipSync(body).equals(js)).toBe(true);
  });

  it.each([
    ['no Accept-Encoding', '/assets/index-AbC123.js', undefined],
    ['gzip refused (q=0)', '/assets/index-AbC123.js', 'gzip;q=0, identity'],
    ['gzip and br refused by name beside a wildcard', '/assets/index-AbC123.js', 'gzip;q=0, br;q=0, *'],
    ['a type it does not compress', '/assets/logo.png', 'gzip'],
    ['a file outside assets/', '/secret.txt', 'gzip'],
    ['a path that climbs out', '/assets/..%2Fsecret.txt', 'gzip'],
    ['a name not in the build', '/assets/other.js', 'gzip'],
    [
      'an asset built without .gz/.br (compressed by nothing on the request path)',
      '/assets/old-XyZ789.css',
      'gzip, br',
    ],
    ['a precompressed file asked for by name', '/assets/index-AbC123.js.gz', 'gzip'],
  ])('falls through for %s', async (_, path, accept) => {
    const res = await get(app, path, accept);
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('does nothing without a built web app', async () => {
    const bare = express();
    bare.use(compressedAssets(null));
    bare.use((_req, res) => res.status(404).end());
    expect((await get(bare, '/assets/index-AbC123.js', 'gzip')).status).toBe(404);
  });

  it('with Accept-Encoding refused, falls through to the uncompressed file and says it varies', async () => {
    const res = await get(app, '/assets/index-AbC123.js', 'identity');
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
  });
});

describe('acceptsEncoding', () => {
  it.each([
    [undefined, false],
    ['gzip', true],
    ['GZIP', true],
    ['gzip;q=0', false],
    ['gzip; q=0.0', false],
    ['gzip;q=0, *', false],
    ['*;q=0, gzip', true],
    ['*', true],
    ['*;q=0', false],
    ['deflate, br', false],
    ['gzip;q=0.001', true],
    ['gzip;q=nonsense', false],
  ])('%s → %s', (header, expected) => {
    expect(acceptsEncoding(header, 'gzip')).toBe(expected);
  });
});
