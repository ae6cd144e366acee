import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedAnswerPlan, storedCapacityAnswer } from '@blockwise/shared/answer';
import { ComparisonSchema, CreatedComparisonSchema, type Comparison } from '@blockwise/shared/api';
import { type PlanSession } from '@blockwise/shared/records';
import { CLOUDWATCH_PEAK, planSession } from '../../../../shared/src/test-support/plan-session.ts';
import { fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const ids: Record<string, string> = {};
const asIs = (b: unknown) => b as string;

beforeAll(async () => {
  t = await makeTestApp();
  const upload = async (name: string, query: string, file: string) => {
    const res = await request(t.app)
      .post(`/api/runs?name=${name}&${query}`)
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(fixture(file));
    expect(res.status).toBe(201);
    ids[name] = res.body.id;
  };
  await upload(
    'nvme',
    'kind=nvme&instanceType=r5d.4xlarge',
    'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json',
  );
  await upload(
    'ebs',
    'kind=ebs&instanceType=r5d.4xlarge&volumeType=gp3&volumeSizeGiB=1000&volumeIops=16000&volumeThroughputMiBps=1000',
    'fio/generated/i1_randread_4k_percentile_list_lat_clat_percentiles.json',
  );
  // One fio job (randrw, bsrange 4k-16k / 64k, 33 % reads, 4 × iodepth 16), grouped and per job.
  await upload(
    'nvmeMix',
    'kind=nvme&instanceType=r5d.4xlarge',
    'fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json',
  );
  await upload(
    'ebsMix',
    'kind=ebs&instanceType=r5d.4xlarge&volumeType=gp3&volumeSizeGiB=1000',
    'fio/generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json',
  );
});
afterAll(async () => {
  await t.close();
});

const session = planSession({
  observed: [CLOUDWATCH_PEAK],
  profileRef: 'observed:cw',
  instanceType: 'r5d.4xlarge',
  candidates: [
    { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 },
    { type: 'io2', sizeGiB: 1000, iops: 16_000 },
  ],
  nodes: 4,
});

describe('POST /api/comparisons → GET: an immutable share link', () => {
  it('freezes runs, the NVMe-vs-EBS comparison (jobs_differ here) and the session plans with the price date', async () => {
    const created = await request(t.app)
      .post('/api/comparisons')
      .send({ title: 'r5d: NVMe vs gp3', runIds: [ids.ebs, ids.nvme], plan: session });
    expect(created.status).toBe(201);
    const { id, url } = CreatedComparisonSchema.parse(created.body);
    expect(url).toMatch(new RegExp(`/c/${id}$`));
    const got = ComparisonSchema.parse((await request(t.app).get(`/api/comparisons/${id}`)).body);
    expect(got.title).toBe('r5d: NVMe vs gp3');
    expect(got.result.runs.map((r) => r.labels.kind)).toEqual(['ebs', 'nvme']);
    // Both 4k randread, but at iodepth 32 for 5 s and 16 for 4 s: no verdict, the warning frozen.
    expect(got.result.nvmeVsEbs?.differences.map((d) => [d.setting, d.reference, d.candidate])).toEqual([
      ['iodepth', '32', '16'],
      ['runtime', '5 s', '4 s'],
    ]);
    expect(got.result.nvmeVsEbs?.verdict).toEqual({ status: 'withheld', reason: 'jobs_differ' });
    expect(got.result.warnings?.map((w) => w.code)).toEqual(['jobs_differ']);
    expect(got.result.latency).toBeNull();
    // The share page without the built web app says so before its numbers.
    const page = await request(t.app).get(`/c/${id}`);
    expect(page.text).toMatch(
      /<h1>[^<]*<\/h1><p role="alert"><strong>Warning \[jobs_differ\]:<\/strong> NVMe run/,
    );
    expect(got.result.plans.map((p) => p.title)).toEqual([
      'gp3 1000 GiB, 16,000 IOPS, 1000 MiB/s',
      'io2 1000 GiB, 16,000 IOPS',
      'local NVMe (r5d.4xlarge instance store)',
    ]);
    expect(got.result.plans[0]!.plan.bottleneck?.id).toBe('instance-bandwidth');
    expect(got.result.plans[0]!.plan.cost.current?.clusterMonthlyUsd.total).toBe(720);
    expect(got.priceTableDate).toBe('2024-07-18');
    expect(got.analysisVersion).toMatch(/^\d{4}\.\d+\.\d+$/);
    // Later uploads change nothing about an existing link.
    await request(t.app)
      .post('/api/runs?name=later&kind=ebs')
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(fixture('fio/generated/d_randwrite_16k_psync_timebased5s.json'));
    const again = await request(t.app).get(`/api/comparisons/${id}`);
    // Frozen, but read as this release reads it (fields derived on reading): caches revalidate
    // against an ETag of the version and the bytes, never keep a year-old body.
    expect(again.headers['cache-control']).toBe('public, no-cache');
    expect(again.headers.etag).toMatch(/^"analysis-\d{4}\.\d+\.\d+-[\w-]{27}"$/);
    const revalidated = await request(t.app)
      .get(`/api/comparisons/${id}`)
      .set('If-None-Match', String(again.headers.etag));
    expect(revalidated.status).toBe(304);
    const otherTag = String(again.headers.etag).replace(/-[\w-]{27}"$/, `-${'x'.repeat(27)}"`);
    expect((await request(t.app).get(`/api/comparisons/${id}`).set('If-None-Match', otherTag)).status).toBe(
      200,
    );
    expect({ ...again.body, url: null }).toEqual({ ...got, url: null }); // the test server's port differs per request
    for (const method of ['put', 'patch', 'delete'] as const) {
      expect((await request(t.app)[method](`/api/comparisons/${id}`).send({})).status).toBe(405);
    }
  });

  it('the same fio job on NVMe and EBS: latency verdicts for reads and writes, no warning', async () => {
    const created = await request(t.app)
      .post('/api/comparisons')
      .send({ runIds: [ids.nvmeMix, ids.ebsMix] });
    expect(created.status).toBe(201);
    const { id } = CreatedComparisonSchema.parse(created.body);
    const got = ComparisonSchema.parse((await request(t.app).get(`/api/comparisons/${id}`)).body);
    const pair = got.result.nvmeVsEbs!;
    expect([pair.reference.id, pair.candidate.id]).toEqual([ids.nvmeMix, ids.ebsMix]);
    expect(pair.jobsDiffer).toBe(false);
    expect(got.result.warnings).toEqual([]);
    if (pair.verdict.status !== 'given') throw new Error('verdict withheld');
    expect(pair.verdict.latency.read?.rows.length).toBeGreaterThan(0);
    expect(pair.verdict.latency.write?.rows.length).toBeGreaterThan(0);
    expect(got.result.latency).toEqual(pair.verdict.latency.read);
  });

  it('Save & share keeps the dataset growth: the link answers with the grown size', async () => {
    const growth = { percentPerYear: 20, horizonMonths: 12 };
    const created = await request(t.app)
      .post('/api/comparisons')
      .send({ runIds: [], plan: { ...session, datasetGiB: 1500, datasetGrowth: growth } });
    expect(created.status).toBe(201);
    const { id } = CreatedComparisonSchema.parse(created.body);
    const got = ComparisonSchema.parse((await request(t.app).get(`/api/comparisons/${id}`)).body);
    expect(got.plan?.datasetGrowth).toEqual(growth);
    const first = got.result.plans[0]!.plan;
    expect(first.dataset).toEqual({ todayGiB: 1500, growth, provisionGiB: 1800 });
    expect(first.rightSizing.target.minSizeGiB).toBe(1800);
  });

  describe('issue 27: a session sizes on demand only', () => {
    // Two fio runs at saturation (no rate set): what an NVMe store and a gp3 volume delivered.
    const capacityOnly: PlanSession = {
      ...session,
      observed: [],
      profileRef: null,
      candidates: [session.candidates[0]!],
      nodes: 1,
    };
    /** The words of a stored comparison's answer, as its share page and HTML say them. */
    const answerText = (c: Comparison) => {
      const planned = storedAnswerPlan(c);
      if (planned) return Object.values(planned.answer).join(' ');
      const capacity = storedCapacityAnswer(c);
      return capacity ? [...capacity.lines, capacity.comparison, capacity.ask].join(' ') : '';
    };
    const save = async (plan: PlanSession) => {
      const created = await request(t.app)
        .post('/api/comparisons')
        .send({ title: 'saturation runs', runIds: [ids.nvmeMix, ids.ebsMix], plan });
      expect(created.status).toBe(201);
      const { id } = CreatedComparisonSchema.parse(created.body);
      const res = await request(t.app).get(`/api/comparisons/${id}`);
      return { id, text: res.text, got: ComparisonSchema.parse(res.body) };
    };

    it('capacity evidence only: stored without a plan; its JSON and HTML say what each delivered and ask for peaks, never “Needs”', async () => {
      const { id, text, got } = await save(capacityOnly);
      expect(got.result.plans).toEqual([]);
      expect(text).not.toMatch(/Needs/);
      expect(got.result.runs.map((r) => r.labels.name)).toEqual(['nvmeMix', 'ebsMix']);
      // The answer the share page and its server-painted head word, and the script-free page.
      expect(storedAnswerPlan(got)).toBeNull();
      const minimal = (await request(t.app).get(`/c/${id}`)).text;
      expect(minimal).toContain('<strong>No demand yet.</strong>');
      for (const html of [answerText(got), minimal]) {
        expect(html).not.toMatch(/Needs|Provision /);
        expect(html).toMatch(
          /nvmeMix \(fio · NVMe\) delivered [\d,]+ IOPS and [\d,]+ MiB\/s \(read \+ write\)/,
        );
        expect(html).toMatch(
          /ebsMix \(fio · EBS\) delivered [\d,]+ IOPS and [\d,]+ MiB\/s \(read \+ write\)/,
        );
        expect(html).toMatch(/delivered [\d.]+× the IOPS of/);
        expect(html).toMatch(/What does the workload ask at its peak\?/);
      }
    });

    it('the same runs with the workload’s peaks typed in: planned on the peaks', async () => {
      const { got } = await save({ ...capacityOnly, observed: session.observed });
      expect(got.result.plans.map((p) => p.title)).toEqual([
        'gp3 1000 GiB, 16,000 IOPS, 1000 MiB/s',
        'local NVMe (r5d.4xlarge instance store)',
      ]);
      const target = got.result.plans[0]!.plan.rightSizing.target;
      // (3,043 + 6,018) × 1.25 = 11,326.25 IOPS; (188 + 381) MiB/s × 1.25 = 711.25 MiB/s: both
      // rounded up to what can be provisioned.
      expect(target.iops).toBe(11_327);
      expect(target.throughputMiBps).toBe(712);
      expect(answerText(got)).toMatch(/Needs 11,327 IOPS and 712 MiB\/s: the peak plus 25% headroom/);
    });

    it('a run the session names (profileRef) is planned on, as the user chose it', async () => {
      // An API client that sends no replay marks: the server stores none (replaysLoad: []), so the
      // profileRef is the user's choice, though it names a run at saturation.
      const { got } = await save({ ...capacityOnly, profileRef: `run:${ids.ebsMix}` });
      expect(got.plan?.replaysLoad).toEqual([]);
      expect(got.result.plans).toHaveLength(2);
      expect(storedAnswerPlan(got)).not.toBeNull();
      expect(storedCapacityAnswer(got)).toBeNull();
      expect(answerText(got)).toMatch(/Needs [\d,]+ IOPS/);
    });

    /** Stored as that web's POST was stored then: the session without a replaysLoad field. */
    const saveAsOldWeb = async (plan: PlanSession) => {
      const { got: posted } = await save(plan);
      const { replaysLoad: _, ...legacyPlan } = posted.plan!;
      const stored = await t.store.insertComparison({
        title: 'saturation runs',
        runIds: posted.result.runs.map((r) => r.id),
        plan: legacyPlan,
        result: posted.result,
        priceTableDate: posted.priceTableDate,
        analysisVersion: posted.analysisVersion,
      });
      if (!stored.ok) throw new Error(stored.error.message);
      const id = stored.value.id;
      const got = ComparisonSchema.parse((await request(t.app).get(`/api/comparisons/${id}`)).body);
      return { id, got };
    };

    it('an old link holding typed-in peaks it was not sized on names them, and asks for none', async () => {
      const { id } = await saveAsOldWeb({
        ...capacityOnly,
        observed: session.observed,
        profileRef: `run:${ids.nvmeMix}`,
      });
      const html = (await request(t.app).get(`/c/${id}`)).text;
      expect(html).not.toContain('No demand yet');
      expect(html).not.toContain('What does the workload ask at its peak?');
      expect(html).toContain('This link was sized on a benchmark run, not on the workload’s peaks “');
    });

    it('a link the web saved before replay marks were kept (profileRef: the first run at saturation) says what each delivered', async () => {
      const { id, got } = await saveAsOldWeb({ ...capacityOnly, profileRef: `run:${ids.nvmeMix}` });
      expect(got.plan?.replaysLoad).toBeUndefined();
      expect(got.result.plans).toHaveLength(2);
      expect(storedAnswerPlan(got)).toBeNull();
      expect(answerText(got)).not.toMatch(/Needs|Provision /);
      expect(answerText(got)).toMatch(/ebsMix \(fio · EBS\) delivered [\d,]+ IOPS/);
      const minimal = (await request(t.app).get(`/c/${id}`)).text;
      expect(minimal).toContain('<strong>No demand yet.</strong>');
      // Its plans, still listed, are a what-if on the run at saturation, not the workload's need.
      expect(minimal).toContain(
        '<p>What-if on nvmeMix (a benchmark at saturation), not the workload’s need.</p><ul><li>gp3',
      );
    });

    it('a benchmark’s numbers kept as capacity (sysbench) are not sized on by default', async () => {
      const sysbench = {
        ...session.observed[0]!,
        id: 'sb',
        label: 'sysbench fileio',
        role: 'capacity' as const,
      };
      const { got } = await save({ ...capacityOnly, observed: [sysbench] });
      expect(got.result.plans).toEqual([]);
      expect(answerText(got)).toMatch(/sysbench fileio \(benchmark\) delivered 9,061 IOPS and 569 MiB\/s/);
    });
  });

  it('a session with typed-in numbers only (no runs) is a valid comparison', async () => {
    const res = await request(t.app).post('/api/comparisons').send({ runIds: [], plan: session });
    expect(res.status).toBe(201);
  });

  it.each([
    [{ runIds: [] }, 422, 'body_invalid', 'runIds'],
    [{ runIds: ['AAAAAAAAAAAAAAAAAAAAAA'] }, 422, 'run_not_found', 'runIds.0'],
    [{ runIds: ['short'] }, 422, 'body_invalid', 'runIds.0'],
    [
      { runIds: [], plan: { ...session, profileRef: 'observed:nope' } },
      422,
      'body_invalid',
      'plan.profileRef',
    ],
    [
      { runIds: [], plan: { ...session, candidates: [{ type: 'gp3', sizeGiB: 1000, iops: 90_000 }] } },
      422,
      'body_invalid',
      'plan.candidates.0.iops',
    ],
    [
      { runIds: [], plan: { ...session, rateOverrides: 'storage=cheap' } },
      422,
      'body_invalid',
      'plan.rateOverrides',
    ],
    [
      {
        runIds: [],
        plan: { ...session, datasetGiB: 1500, datasetGrowth: { percentPerYear: 20, horizonMonths: 99 } },
      },
      422,
      'body_invalid',
      'plan.datasetGrowth.horizonMonths',
    ],
  ])('%j → %d %s', async (body, status, code, path) => {
    const res = await request(t.app).post('/api/comparisons').send(body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, path });
  });

  it('415 for a non-JSON body, 404 for unknown ids', async () => {
    expect(
      (await request(t.app).post('/api/comparisons').set('Content-Type', 'text/plain').send('{}')).status,
    ).toBe(415);
    const missing = await request(t.app).get('/api/comparisons/AAAAAAAAAAAAAAAAAAAAAA');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('comparison_not_found');
  });
});
