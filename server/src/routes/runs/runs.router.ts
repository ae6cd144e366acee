import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { CreatedRun, Run } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { type RunLabels } from '@blockwise/shared/records';
import { baseUrl, rawUrl, runUrl, type RouteContext, type StorelessContext } from '../../context.ts';
import { acceptsGzip } from '../../http/compressed-assets.ts';
import { HttpError, problemError } from '../../http/errors.ts';
import { readMultipart, type UploadedFile } from '../../http/multipart.ts';
import { chargeBodyBytes, rateLimit, writeLimits } from '../../http/rate-limit.ts';
import { RAW_MEDIA_TYPES, mediaTypeOf, readRawBody } from '../../http/read-body.ts';
import { storableName } from '../../http/text.ts';
import type { AnalyzedUpload } from '../../ingest/analyze-upload.ts';
import { busy, type Reservation } from '../../ingest/parse-pool.ts';
import { labelHeaders, labelsFrom, labelsFromRequest, type QueryLabels } from '../../ingest/labels.ts';
import { isValidId } from '../../store/ids.ts';
import { runRecordOf } from '../../store/records.ts';
import { JsonObjectText, type RunJson, type RunRecords } from '../../store/run-store.ts';
import { methodNotAllowed, pageOrThrow, storeCall } from '../../http/route-helpers.ts';
import { runsValidators } from '../validators.ts';
import { toListPage } from '../../presenters/run.ts';
import { analyze, currentAnalysis } from '../../services/current-analysis.ts';
import { RunAnswers } from './run-answers.ts';

/** A request's room in the parse pool, from before its body is read until its run is stored. */
type Admission = {
  /** Null while the body is small enough to be analyzed inline. */
  readonly reservation: Reservation | null;
  /**
   * The body (inflated) has reached `bytes`: hold them, or throw 503 busy. A gzip body declares
   * its compressed length, so what was reserved for it may be far below what it inflates to;
   * one that was small enough for no slot may need one now.
   */
  fit: (bytes: number) => void;
  release: () => void;
};

/**
 * Admission control before reading a large body (declared > largeBodyBytes, or no length): it
 * reserves room in the parse pool (a slot and the declared bytes) for the whole request, or
 * answers 503 at once when the pool is full instead of buffering another 20 MB that would wait
 * anyway (bounded memory, perf P7; see ParsePool). The room then grows with the body as it is
 * inflated (`fit`), through the same check. The caller releases it when done. Small bodies need
 * no slot (analyzed inline).
 */
function admitLargeBody(ctx: StorelessContext, req: Request): Admission {
  const declared = Number(req.headers['content-length']);
  const known = Number.isFinite(declared) && declared >= 0;
  let reservation: Reservation | null = null;
  if (!known || declared > ctx.config.largeBodyBytes) {
    // No length (chunked): it may be anything up to the limit.
    reservation = ctx.pool.reserve(known ? declared : ctx.config.maxUploadBytes);
    if (!reservation) {
      req.resume();
      throw busy();
    }
  }
  return {
    get reservation() {
      return reservation;
    },
    fit: (bytes) => {
      if (reservation) {
        if (!reservation.grow(bytes)) throw busy();
      } else if (bytes > ctx.config.largeBodyBytes) {
        reservation = ctx.pool.reserve(bytes);
        if (!reservation) throw busy();
      }
    },
    release: () => reservation?.release(),
  };
}

/** What storeUpload answers: the status, and the body (CreatedRun) as JSON text. */
type StoredUpload = { status: number; created: boolean; json: string };

async function storeUpload(
  ctx: RouteContext<RunRecords>,
  base: string,
  file: UploadedFile,
  labels: RunLabels,
  analyzed: Extract<AnalyzedUpload, { ok: true }>,
  tokenId: string | null,
): Promise<StoredUpload> {
  const { run, created } = await storeCall(() =>
    ctx.store.insertRun({
      // Checked when the body was first seen (TokenGate) and again at commit: a revoke while
      // the body was read or analyzed stores nothing.
      tokenId,
      rawBytes: file.bytes,
      mediaType: file.mediaType,
      fileName: file.fileName,
      labels,
      report: new JsonObjectText(analyzed.reportJson),
      summary: new JsonObjectText(analyzed.summaryJson),
      analysisVersion: ANALYSIS_VERSION,
      fioVersion: analyzed.fioVersion,
      // Neither the body nor the report is read after this: the store may take their memory.
      giveBytes: true,
    }),
  );
  ctx.metrics?.runUploaded(created);
  // The regression gate's comparison with the run's baseline is frozen when its link is first
  // opened (GET /c/pair/:baselineId/:runId, regression-gate.ts), not here.
  const head: Omit<CreatedRun, 'summary'> = { id: run.id, url: runUrl(base, run.id), created };
  return {
    status: created ? 201 : 200,
    created,
    // The summary as serialized once, for the store and this answer. An identical earlier upload
    // keeps the analysis it was stored with.
    json: created
      ? `${JSON.stringify(head).slice(0, -1)},"summary":${analyzed.summaryJson}}`
      : JSON.stringify({ ...head, summary: runRecordOf(run).summary }),
  };
}

/** The validators of the run routes (the OpenAPI document reads their schemas). */
/**
 * The ETag of a run's answer: the analysis version (what the answer says depends on the rules that
 * made it), the run and the Content-Encoding (the gzip and identity bytes differ).
 */
export const runAnswerEtag = (id: string, encoding: 'gzip' | 'identity') =>
  `"analysis-${ANALYSIS_VERSION}-${id}-${encoding}"`;

/**
 * @param answers the answers of `GET /api/runs/:id` kept by this app: the app reads them before
 *   Express too (cached-run-reads.ts).
 */
export function runsRouter(ctx: RouteContext<RunRecords>, answers = new RunAnswers()): Router {
  const listQuery = runsValidators.list;
  const router = Router();
  const { writeLimit, bytesLimiter, byteBudget } = writeLimits(ctx.limiters);

  /** multipart/form-data: one or more files plus label fields (what the browser sends). */
  async function uploadMultipart(req: Request, res: Response, base: string, admission: Admission) {
    const { files, fields } = await readMultipart(req, ctx.config.maxUploadBytes);
    const bodyBytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
    // Gzip'd files are inflated by now: all of them are held until the runs are stored.
    admission.fit(bodyBytes);
    await chargeBodyBytes(bytesLimiter(req), req, bodyBytes);
    if (files.length === 0)
      throw new HttpError(
        400,
        'body_invalid',
        'the multipart body holds no file (send the fio output as a file part)',
        'files',
      );
    // Query and header labels apply to every file; form fields override them.
    const shared: QueryLabels = { ...(req.query as QueryLabels), ...fields };
    const analyzed: {
      file: UploadedFile;
      labels: RunLabels;
      result: Extract<AnalyzedUpload, { ok: true }>;
    }[] = [];
    for (const [i, file] of files.entries()) {
      const labels = labelsFrom(
        { name: file.fileName ? storableName(file.fileName, 200) : undefined, ...shared },
        labelHeaders(req),
      );
      const result = await analyze(ctx, file.bytes, labels, admission.reservation);
      // All or nothing: one bad file rejects the upload, naming it, and nothing is stored.
      if (!result.ok) {
        const e = problemError(result.error);
        throw new HttpError(
          e.status,
          e.code,
          `${file.fileName ?? `file ${i + 1}`}: ${e.message}`,
          `files.${i}${e.path ? `.${e.path}` : ''}`,
        );
      }
      analyzed.push({ file, labels, result });
    }
    const runs = [];
    for (const a of analyzed)
      runs.push(await storeUpload(ctx, base, a.file, a.labels, a.result, req.tokenId ?? null));
    res
      .status(runs.some((r) => r.created) ? 201 : 200)
      .type('json')
      .send(`{"runs":[${runs.map((r) => r.json).join(',')}]}`);
  }

  router.post('/api/runs', ctx.tokens.middleware(true), writeLimit, byteBudget, async (req, res) => {
    const base = baseUrl(ctx);
    const type = mediaTypeOf(req);
    if (type === 'multipart/form-data') {
      const admission = admitLargeBody(ctx, req);
      try {
        await uploadMultipart(req, res, base, admission);
      } finally {
        admission.release();
      }
      return;
    }
    if (type === null || !RAW_MEDIA_TYPES.includes(type)) {
      req.resume();
      throw new HttpError(
        415,
        'unsupported_media_type',
        `Content-Type ${type ? `"${type}"` : '(missing)'} is not accepted: send fio's output as application/json or text/plain (gzip allowed), or multipart/form-data`,
      );
    }
    const fileName =
      typeof req.query.filename === 'string' && req.query.filename.trim()
        ? storableName(req.query.filename.trim(), 255)
        : null;
    const given = labelsFromRequest(req);
    // Unnamed runs are named after their file, as multipart uploads are.
    const labels =
      given.name === undefined && fileName ? { ...given, name: storableName(fileName, 200) } : given;
    // The slot is held until the run is stored: it bounds the bodies held in memory, not only parses.
    const admission = admitLargeBody(ctx, req);
    try {
      const bytes = await readRawBody(req, ctx.config.maxUploadBytes, admission.fit);
      await chargeBodyBytes(bytesLimiter(req), req, bytes.length);
      const result = await analyze(ctx, bytes, labels, admission.reservation);
      if (!result.ok) throw problemError(result.error);
      const mediaType =
        type === 'application/gzip' || type === 'application/x-gzip' ? 'application/octet-stream' : type;
      const stored = await storeUpload(
        ctx,
        base,
        { fileName, mediaType, bytes },
        labels,
        result,
        req.tokenId ?? null,
      );
      res.status(stored.status).type('json').send(stored.json);
    } finally {
      admission.release();
    }
  });

  router.get(
    '/api/runs',
    ctx.tokens.middleware(true),
    rateLimit(ctx.limiters.reads),
    listQuery,
    async (req, res) => {
      const q = listQuery.values(req).query;
      const page = pageOrThrow(
        await storeCall(() =>
          ctx.store.listRuns({
            series: q.series,
            instanceType: q.instance,
            kind: q.kind,
            branch: q.branch,
            limit: q.limit,
            cursor: q.cursor,
          }),
        ),
      );
      res.json(toListPage(baseUrl(ctx), page));
    },
  );

  const notFound = rateLimit(ctx.limiters.notFound);
  const findRun: RequestHandler = (req, res, next) => {
    if (isValidId(String(req.params.id))) return next();
    // Malformed ids count against the anti-enumeration budget too.
    notFound(req, res, (err?: unknown) =>
      next(err ?? new HttpError(404, 'run_not_found', 'no run with this id')),
    );
  };

  router.get('/api/runs/:id', rateLimit(ctx.limiters.reads), findRun, async (req, res, next) => {
    const id = String(req.params.id);
    let answer = answers.get(id);
    if (!answer) {
      const run = await storeCall(() => ctx.store.getRunJson(id));
      if (!run)
        return notFound(req, res, (err?: unknown) =>
          next(err ?? new HttpError(404, 'run_not_found', 'no run with this id')),
        );
      answer = answers.remember(id, Buffer.from(await runAnswerJson(ctx, run)));
    }
    // What the run says depends on the rules that analyze it: the representation is keyed on the
    // analysis version (ETag), and caches revalidate (a cheap 304) instead of keeping a year-old
    // analysis that today's web app no longer reads. The raw bytes stay immutable.
    // A strong ETag names one representation: the gzip and the identity bodies differ in bytes, so
    // each has its own (RFC 9110 §8.8.3), and a cache holding one is never told it holds the other.
    const gzip = answer.gzip && acceptsGzip(req.headers['accept-encoding']) ? answer.gzip : null;
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', runAnswerEtag(id, gzip ? 'gzip' : 'identity'));
    res.setHeader('Vary', 'Accept-Encoding');
    if (req.fresh) return void res.status(304).end();
    res.type('json');
    if (gzip) {
      res.setHeader('Content-Encoding', 'gzip');
      return void res.send(gzip);
    }
    res.send(answer.json);
  });

  /**
   * A run's answer as JSON text, made once per run (RunAnswers keeps it). A run of this analysis
   * version: its report (tens of KB for a many-job file) goes out as the store wrote it
   * (JSON.stringify output, so valid JSON); the (small) summary goes through its schema, so a
   * stored summary that does not parse is a 500, never served. A run of an earlier version is
   * analyzed again from its raw bytes (currentAnalysis).
   */
  async function runAnswerJson(ctx: RouteContext<RunRecords>, run: RunJson): Promise<string> {
    const base = baseUrl(ctx);
    const head: Omit<Run, 'report' | 'summary'> = {
      id: run.id,
      createdAt: new Date(run.createdAt).toISOString(),
      url: runUrl(base, run.id),
      rawUrl: rawUrl(base, run.id),
      fileName: run.fileName,
      mediaType: run.mediaType,
      rawSha256: run.rawSha256,
      sizeBytes: run.rawSize,
      labels: run.labels,
      fioVersion: run.fioVersion,
    };
    const current = await currentAnalysis(ctx, run, run);
    return `${JSON.stringify(head).slice(0, -1)},"report":${current.reportJson},"summary":${JSON.stringify(current.summary)}}`;
  }

  router.get('/api/runs/:id/raw', rateLimit(ctx.limiters.reads), findRun, async (req, res, next) => {
    const raw = await storeCall(() => ctx.store.getRunRaw(String(req.params.id)));
    if (!raw)
      return notFound(req, res, (err?: unknown) =>
        next(err ?? new HttpError(404, 'run_not_found', 'no run with this id')),
      );
    const name = raw.fileName ?? `${String(req.params.id)}.json`;
    // The bytes are the user's, never HTML: attachment, nosniff, and a sandboxing CSP.
    // Bytes, not a document: fio output may be UTF-16 (PowerShell), so no charset is claimed.
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('X-Original-Content-Type', raw.mediaType);
    res.setHeader('Content-Disposition', contentDisposition(name));
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; sandbox",
    );
    res.setHeader('X-Content-SHA256', raw.sha256);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.end(raw.bytes);
  });

  // Published runs are immutable (R11).
  router.all('/api/runs/:id', methodNotAllowed('GET, HEAD'));
  router.all('/api/runs/:id/raw', methodNotAllowed('GET, HEAD'));
  router.all('/api/runs', methodNotAllowed('GET, HEAD, POST'));
  return router;
}

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name, so no header injection and no mojibake. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
