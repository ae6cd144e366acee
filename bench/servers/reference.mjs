// Reference servers: bare Express 5 (the same express the app ships with) doing only the JSON part
// of a request, so each ratio says what the app's own work costs on top of the framework.
//   GET  /small  constant JSON             (P3, P4: the floor of any GET)
//   POST /ack    express.json() + {ok:true} (P2, P5, P7: "parse and acknowledge")
//   POST /echo   express.json() + res.json(req.body) (P1: JSON in and out)
//   PUT  /stored then GET /stored: res.json() of a document kept in memory (P3's same-size reference)
//   PUT  /bytes then GET /bytes: those bytes sent as they are, as JSON (P3bytes: the app's own answer)
//   POST /store  the body's JSON parsed and, with its bytes, stored durably — one SQLite transaction
//                per request (WAL, synchronous=FULL, as the app ships), the document written back
//                as JSON — then {ok:true} (P2durable: what keeping an upload costs, analyzing nothing)
// Same process conventions as app-server.mjs: port over IPC, memory over IPC.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverRequire } from '../lib/deps.mjs';

const express = serverRequire('express');
const app = express();
app.disable('x-powered-by');
const json = express.json({ limit: '64mb', type: () => true });
app.get('/small', (_req, res) => res.json({ hello: 'world' }));
app.post('/ack', json, (_req, res) => res.json({ ok: true }));
app.post('/echo', json, (req, res) => res.json(req.body));
let stored = null;
app.put('/stored', json, (req, res) => {
  stored = req.body;
  res.json({ ok: true });
});
app.get('/stored', (_req, res) => res.json(stored));
let bytes = null;
app.put('/bytes', express.raw({ limit: '64mb', type: () => true }), (req, res) => {
  bytes = req.body;
  res.json({ ok: true });
});
app.get('/bytes', (_req, res) => res.type('json').send(bytes));
// Opened on the first POST /store: the other references (and P7's peak RSS of this process) carry
// no database.
let durable = null;
function durableStore() {
  if (durable) return durable;
  const dir = mkdtempSync(join(tmpdir(), 'bw-bench-ref-'));
  const Database = serverRequire('better-sqlite3');
  const db = new Database(join(dir, 'ref.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE uploads (id INTEGER PRIMARY KEY, raw BLOB NOT NULL, document TEXT NOT NULL)');
  durable = { dir, db, insert: db.prepare('INSERT INTO uploads (raw, document) VALUES (?, ?)') };
  return durable;
}
app.post('/store', express.raw({ limit: '64mb', type: () => true }), (req, res) => {
  const document = JSON.parse(req.body.toString('utf8'));
  durableStore().insert.run(req.body, JSON.stringify(document));
  res.json({ ok: true });
});
app.use((err, _req, res, _next) => res.status(err.status ?? 500).json({ error: err.type ?? 'error' }));

const server = createServer(app);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: server.address().port, pid: process.pid });
});
process.on('message', (message) => {
  if (message?.type === 'mem') {
    globalThis.gc?.();
    process.send?.({ type: 'mem', ...process.memoryUsage() });
  }
});
process.on('SIGTERM', () => {
  if (durable) {
    durable.db.close();
    rmSync(durable.dir, { recursive: true, force: true });
  }
  process.exit(0);
});
