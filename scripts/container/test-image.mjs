// Runs the image build-image.mjs wrote, for real, under Debian's runc (docs/container.md):
// `node scripts/container/test-image.mjs [--layout DIR] [--tag TAG]`. Needs root and Debian's
// runc and umoci (skopeo too for the registry-tool checks): `apt-get install runc umoci skopeo`.
// Not part of `npm test` (a fresh machine has neither root nor runc); .ci/run's `container` stage
// installs them and runs it.
//
// 1. The layout: every blob's sha256 and size match its descriptor, each layer's diff_id is the
//    sha256 of its uncompressed tar, the config runs a non-root user (checked here, independently
//    of the tools below); `skopeo inspect` reads the same digests.
// 2. `skopeo copy` to a docker-archive (what `docker load` reads) keeps the config: user,
//    entrypoint, healthcheck.
// 3. `umoci unpack` makes an OCI runtime bundle from the image config (args, env, user, cwd);
//    the test changes only what a `docker run -p … -v …` would: the host's network namespace
//    (the port reachable from here, chosen free), and /data bound to a host directory owned by
//    the image's user (umoci makes a Volume a root-owned tmpfs). `runc run` starts it; then
//    /healthz says ok with the SQLite store writable, `/` serves the web app, a real fio upload
//    is stored in /data and read back, the image's HEALTHCHECK command passes when run in the
//    container, `blockwise token create` run in it closes anonymous uploads, the server runs as the image's user, and SIGTERM stops it with exit 0.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { repoRoot } from '../pnpm.mjs';

const { values } = parseArgs({
  options: {
    layout: { type: 'string', default: join(repoRoot, 'dist', 'container', 'oci') },
    tag: {
      type: 'string',
      default: JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version,
    },
  },
});
const layout = resolve(values.layout);
const FIO_FIXTURE = join(repoRoot, 'fixtures', 'fio', 'public', 'arau_fio-3.12_randrw50_32k.json');

let failures = 0;
function check(ok, what, detail = '') {
  console.log(`${ok ? '✓' : '✗'} ${what}${!ok && detail ? `: ${detail}` : ''}`);
  if (!ok) failures += 1;
  return ok;
}

function has(bin) {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).status === 0;
}

function run(bin, args, options = {}) {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...options });
  if (r.status !== 0)
    throw new Error(`${bin} ${args.join(' ')}: exit ${r.status ?? r.signal}\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

function blob(digest) {
  return readFileSync(join(layout, 'blobs', ...digest.split(':')));
}

/** The layout's own consistency, read with nothing but node: returns the manifest digest and config. */
function checkLayout() {
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'));
  check(
    JSON.parse(readFileSync(join(layout, 'oci-layout'), 'utf8')).imageLayoutVersion === '1.0.0',
    'oci-layout 1.0.0',
  );
  const entry = index.manifests.find(
    (m) => m.annotations?.['org.opencontainers.image.ref.name'] === values.tag,
  );
  if (!check(entry !== undefined, `index.json names tag ${values.tag}`)) process.exit(1);
  const matches = (d) => {
    const bytes = blob(d.digest);
    return (
      `sha256:${createHash('sha256').update(bytes).digest('hex')}` === d.digest && bytes.length === d.size
    );
  };
  check(matches(entry), 'manifest digest and size');
  const manifest = JSON.parse(blob(entry.digest));
  check(matches(manifest.config), 'config digest and size');
  const config = JSON.parse(blob(manifest.config.digest));
  manifest.layers.forEach((layer, i) => {
    check(matches(layer), `layer ${i + 1} digest and size`);
    const tar = gunzipSync(blob(layer.digest));
    const diffId = `sha256:${createHash('sha256').update(tar).digest('hex')}`;
    check(diffId === config.rootfs.diff_ids[i], `layer ${i + 1} diff_id is its uncompressed tar's sha256`);
  });
  const referenced = new Set([entry.digest, manifest.config.digest, ...manifest.layers.map((l) => l.digest)]);
  const stray = readdirSync(join(layout, 'blobs', 'sha256')).filter((f) => !referenced.has(`sha256:${f}`));
  check(stray.length === 0, 'no unreferenced blob', stray.join(', '));
  const c = config.config;
  check(c.User !== undefined && !/^(0|root)(:|$)/.test(c.User), `runs as a non-root user (${c.User})`);
  check(c.Entrypoint?.[0] === '/usr/local/bin/node', `entrypoint is node (${JSON.stringify(c.Entrypoint)})`);
  check(c.ExposedPorts?.['8080/tcp'] !== undefined, 'exposes 8080/tcp');
  return { manifestDigest: entry.digest, manifest, config };
}

function checkWithSkopeo({ manifestDigest, manifest }, work) {
  const inspect = JSON.parse(run('skopeo', ['inspect', `oci:${layout}:${values.tag}`]));
  check(
    inspect.Digest === manifestDigest,
    `skopeo inspect: manifest ${manifestDigest.slice(0, 19)}…`,
    inspect.Digest,
  );
  check(
    JSON.stringify(inspect.Layers) === JSON.stringify(manifest.layers.map((l) => l.digest)),
    'skopeo inspect: the same layers',
  );
  const archive = join(work, 'docker-archive.tar');
  run('skopeo', [
    'copy',
    '--quiet',
    `oci:${layout}:${values.tag}`,
    `docker-archive:${archive}:blockwise:${values.tag}`,
  ]);
  const unpacked = join(work, 'docker-archive');
  run('mkdir', [unpacked]);
  run('tar', ['-xf', archive, '-C', unpacked]);
  const [loaded] = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
  const dockerConfig = JSON.parse(readFileSync(join(unpacked, loaded.Config), 'utf8')).config;
  check(
    loaded.RepoTags.some((t) => t.endsWith(`blockwise:${values.tag}`)) &&
      dockerConfig.User === '65532:65532' &&
      dockerConfig.Healthcheck?.Test?.[0] === 'CMD',
    `docker-archive (docker load's input): tag blockwise:${values.tag}, user, healthcheck kept`,
  );
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/**
 * One HTTP request on a connection of its own (no keep-alive pool: a pooled connection the server
 * closed while a `runc exec` ran would fail the next request for a reason that is not the image's).
 */
function send(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        done({
          status: res.statusCode,
          type: res.headers['content-type'] ?? '',
          text: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** GET/POST until the server answers or the container stops; a deadline only for a hung start. */
async function waitForHealth(base, container) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && container.exitCode === null) {
    try {
      return await send(`${base}/healthz`);
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return null;
}

async function runContainer(work, config) {
  const bundle = join(work, 'bundle');
  run('umoci', ['unpack', '--image', `${layout}:${values.tag}`, bundle]);
  const port = await freePort();
  const data = join(work, 'data');
  run('mkdir', [data]);
  const [uid, gid] = config.config.User.split(':').map(Number);
  chownSync(data, uid, gid);
  const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8'));
  spec.process.terminal = false;
  spec.process.env = [
    ...spec.process.env.filter((e) => !/^(PORT|HOST)=/.test(e)),
    `PORT=${port}`,
    'HOST=127.0.0.1',
  ];
  spec.linux.namespaces = spec.linux.namespaces.filter((n) => n.type !== 'network');
  const volume = spec.mounts.find((m) => m.destination === '/data');
  if (!check(volume !== undefined, "umoci turned the image's /data volume into a mount")) return;
  Object.assign(volume, {
    type: 'bind',
    source: data,
    options: ['rbind', 'rw', 'nosuid', 'nodev', 'noexec'],
  });
  writeFileSync(join(bundle, 'config.json'), JSON.stringify(spec, null, 2));

  const id = `blockwise-image-test-${process.pid}`;
  const container = spawn('runc', ['run', '--bundle', bundle, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  container.stdout.on('data', (b) => (output += b));
  container.stderr.on('data', (b) => (output += b));
  const exited = new Promise((done) => container.on('exit', (code, signal) => done(code ?? signal)));
  const base = `http://127.0.0.1:${port}`;
  try {
    const health = await waitForHealth(base, container);
    if (!check(health !== null, `the container answers on ${base}`, output)) return;
    const body = JSON.parse(health.text);
    check(
      health.status === 200 &&
        body.status === 'ok' &&
        body.store.kind === 'sqlite' &&
        body.store.writable === true,
      'GET /healthz: 200, status ok, SQLite store writable',
      JSON.stringify(body),
    );
    const home = await send(`${base}/`);
    const html = home.text;
    check(
      home.status === 200 && home.type.startsWith('text/html') && html.includes('<div id="root">'),
      'GET /: the web app',
      `${home.status} ${html.slice(0, 200)}`,
    );
    const cli = await send(`${base}/cli/blockwise.mjs`);
    check(
      cli.status === 200,
      'GET /cli/blockwise.mjs: the CLI bundle CI machines download',
      String(cli.status),
    );
    const upload = await send(`${base}/api/runs?name=image-test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: readFileSync(FIO_FIXTURE),
    });
    const created = JSON.parse(upload.text);
    check(
      upload.status === 201 && created.created === true,
      'POST /api/runs: a real fio run stored',
      JSON.stringify(created),
    );
    const back = await send(`${base}/api/runs/${created.id}`);
    check(back.status === 200, `GET /api/runs/${created.id}: read back`, String(back.status));
    check(existsSync(join(data, 'blockwise.db')), 'the archive is in the /data volume (blockwise.db)');
    // The image's HEALTHCHECK command (Docker runs it in the container; there is no shell or curl).
    const [kind, ...probe] = config.config.Healthcheck.Test;
    const healthcheck = spawnSync('runc', ['exec', '--user', config.config.User, id, ...probe], {
      encoding: 'utf8',
    });
    check(
      kind === 'CMD' && healthcheck.status === 0,
      'the HEALTHCHECK command, run in the container: exit 0',
      `${healthcheck.status} ${healthcheck.stderr}`,
    );
    // What an operator does next, with no shell in the image: the CLI through the image's node.
    const token = spawnSync(
      'runc',
      [
        'exec',
        '--user',
        config.config.User,
        id,
        ...config.config.Entrypoint,
        'token',
        'create',
        '--name',
        'image-test',
      ],
      { encoding: 'utf8' },
    );
    // The whole of stdout is the token (base64url: it may hold '-' anywhere, first character too —
    // a `\w+` check failed one CI run in 64).
    const issued = /^(bw_[A-Za-z0-9_-]{43})\n$/.exec(token.stdout ?? '')?.[1];
    check(
      token.status === 0 && issued !== undefined,
      '`blockwise token create` in the container (DATABASE_URL from the image): a token',
      `${token.status} stdout ${JSON.stringify(token.stdout)} stderr ${token.stderr}`,
    );
    const anonymous = await send(`${base}/api/runs?name=after-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // A small body: the server refuses before reading it, and may close on a large one mid-write.
      body: '{}',
    });
    check(
      anonymous.status === 401,
      'with a token created, an anonymous upload: 401',
      String(anonymous.status),
    );
    if (issued !== undefined) {
      const authorized = await send(`${base}/api/runs?name=with-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${issued}` },
        body: readFileSync(FIO_FIXTURE),
      });
      check(
        authorized.status === 200 || authorized.status === 201,
        'with that token, the same upload is accepted',
        `${authorized.status} ${authorized.text.slice(0, 200)}`,
      );
    }
    const state = JSON.parse(run('runc', ['state', id]));
    const uidLine = readFileSync(`/proc/${state.pid}/status`, 'utf8').match(/^Uid:\s+(\d+)/m)?.[1];
    check(Number(uidLine) === uid, `the server runs as uid ${uid}`, `uid ${uidLine}`);
  } finally {
    spawnSync('runc', ['kill', id, 'TERM']);
    const code = await Promise.race([
      exited,
      new Promise((r) => setTimeout(() => r('still running'), 30_000)),
    ]);
    check(code === 0, 'SIGTERM: the server shuts down, exit 0', `${code}\n${output}`);
    spawnSync('runc', ['delete', '--force', id]);
  }
}

async function main() {
  const missing = ['runc', 'umoci', 'skopeo'].filter((bin) => !has(bin));
  if (process.getuid?.() !== 0 || missing.length > 0) {
    console.error(
      `✗ this test needs root and Debian's runc, umoci and skopeo (apt-get install runc umoci skopeo)${missing.length ? `; missing: ${missing.join(', ')}` : ''}`,
    );
    process.exit(2);
  }
  if (!existsSync(join(layout, 'index.json'))) {
    console.error(`✗ no image layout at ${layout}: run node scripts/container/build-image.mjs first`);
    process.exit(2);
  }
  const work = mkdtempSync(join(tmpdir(), 'blockwise-image-test.'));
  try {
    const image = checkLayout();
    checkWithSkopeo(image, work);
    await runContainer(work, image.config);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (failures > 0) {
    console.error(`✗ ${failures} check(s) failed`);
    process.exit(1);
  }
  console.log('✓ the image runs under runc and answers');
}

await main();
