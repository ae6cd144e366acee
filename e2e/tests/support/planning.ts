import { basename } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { planSession, type CreatedRun, type Seeder } from './api.ts';
import { fixtureBytes } from './fixtures.ts';

/**
 * The NVMe-vs-EBS pair used by the journeys: the same fio job (randrw, 33% reads of 4k–16k,
 * 64k writes, 4 jobs × iodepth 16), once with group_reporting and once per job — two real fio 3.33
 * results (fixtures/fio/generated/MANIFEST.md). The faster one plays the NVMe instance store of an
 * r5d.4xlarge, the other a gp3 volume (1,000 GiB, 16,000 IOPS, 1,000 MiB/s) on the same instance,
 * as in the r5d.4xlarge scenario of the domain reference.
 */
export const NVME_FIXTURE = 'fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
export const EBS_FIXTURE = 'fio/generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json';
export const NVME_FILE = basename(NVME_FIXTURE);
export const EBS_FILE = basename(EBS_FIXTURE);
export const INSTANCE = 'r5d.4xlarge';
export const GP3 = { sizeGiB: 1000, iops: 16000, throughputMiBps: 1000 } as const;

/**
 * The planning page, once the app runs it. The heading alone is not enough: index.html paints it
 * (with the skip link and the header) as a static frame before any script, and React then replaces
 * all of #root — a key pressed or an element focused before that lands on a node about to be
 * dropped (focus falls back to <body>). "Bring data" is drawn by React only.
 */
export async function gotoPlan(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Planning session' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bring data' })).toBeVisible({ timeout: 20_000 });
}

/** Picks fio files (fixture paths or in-memory files) with the page's file input, labelled "Choose fio files…". */
export async function addFioFiles(
  page: Page,
  files: (string | { name: string; mimeType: string; buffer: Buffer })[],
): Promise<void> {
  await page
    .getByLabel('Choose fio files…')
    .setInputFiles(
      files.map((f) =>
        typeof f === 'string'
          ? { name: basename(f), mimeType: 'application/json', buffer: fixtureBytes(f) }
          : f,
      ),
    );
}

/** The labels form of one file (open by default while its storage is unlabelled). */
export function labelsOf(page: Page, fileName: string): Locator {
  return page.getByRole('group', { name: `Labels for ${fileName}` });
}

/** Types an instance type into a combobox and picks the exact option with the keyboard. */
export async function pickInstance(combobox: Locator, instanceType: string): Promise<void> {
  await combobox.fill(instanceType);
  await combobox.press('ArrowDown');
  await expect(combobox).toHaveAttribute('aria-activedescendant', /.+/);
  await combobox.press('Enter');
  await expect(combobox).toHaveValue(instanceType);
  await expect(combobox).toHaveAttribute('aria-expanded', 'false');
}

export async function labelNvme(page: Page, fileName: string, instanceType = INSTANCE): Promise<void> {
  const form = labelsOf(page, fileName);
  await form.getByRole('radio', { name: 'NVMe instance store' }).check();
  await pickInstance(form.getByRole('combobox', { name: 'Instance type' }), instanceType);
}

export async function labelEbsGp3(
  page: Page,
  fileName: string,
  volume: { sizeGiB: number; iops: number; throughputMiBps: number } = GP3,
  instanceType = INSTANCE,
): Promise<void> {
  const form = labelsOf(page, fileName);
  await form.getByRole('radio', { name: 'EBS volume' }).check();
  await form.getByRole('combobox', { name: 'Volume type' }).selectOption('gp3');
  await form.getByRole('textbox', { name: 'Size' }).fill(String(volume.sizeGiB));
  await form.getByRole('textbox', { name: 'Provisioned IOPS' }).fill(String(volume.iops));
  await form.getByRole('textbox', { name: 'Provisioned throughput' }).fill(String(volume.throughputMiBps));
  await pickInstance(form.getByRole('combobox', { name: 'Instance type' }), instanceType);
}

/** Both fixtures added and labelled through the UI; resolves once the NVMe-vs-EBS section compares them. */
export async function planNvmeVsEbs(page: Page): Promise<void> {
  await gotoPlan(page);
  await addFioFiles(page, [NVME_FIXTURE, EBS_FIXTURE]);
  await expect(labelsOf(page, NVME_FILE)).toBeVisible({ timeout: 20_000 });
  await expect(labelsOf(page, EBS_FILE)).toBeVisible({ timeout: 20_000 });
  await labelNvme(page, NVME_FILE);
  await labelEbsGp3(page, EBS_FILE);
  await expect(page.getByRole('region', { name: 'Cost: NVMe vs EBS' })).toBeVisible();
}

/** Charts load lazily: wait until no chart placeholder is left on the page. */
export async function chartsDrawn(page: Page): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: /^Loading chart/ })).toHaveCount(0, {
    timeout: 20_000,
  });
}

/**
 * A workload's peaks as typed in from a dashboard (demand-capacity.spec.ts types the same):
 * (3,043 + 6,018) × 1.25 headroom = 11,327 IOPS needed, (188 + 381) × 1.25 = 711 MiB/s.
 */
export const WORKLOAD_PEAKS = {
  id: 'peaks',
  label: 'Workload peaks',
  read: { iops: 3043, throughput: 188, throughputUnit: 'MiB/s' },
  write: { iops: 6018, throughput: 381, throughputUnit: 'MiB/s' },
} as const;

/**
 * The pair uploaded through the API with the same labels, and a comparison of it (what a saved
 * session holds). Other fio files may stand in for either run (e.g. two different jobs).
 */
export async function seedNvmeVsEbs(
  seeder: Seeder,
  title: string,
  fixtures: { nvme?: string; ebs?: string; peaks?: boolean } = {},
): Promise<{ nvme: CreatedRun; ebs: CreatedRun; comparison: CreatedRun }> {
  const nvmeFixture = fixtures.nvme ?? NVME_FIXTURE;
  const ebsFixture = fixtures.ebs ?? EBS_FIXTURE;
  const nvme = await seeder.uploadRun(
    fixtureBytes(nvmeFixture),
    { kind: 'nvme', instanceType: INSTANCE },
    basename(nvmeFixture),
  );
  const ebs = await seeder.uploadRun(
    fixtureBytes(ebsFixture),
    {
      kind: 'ebs',
      instanceType: INSTANCE,
      volumeType: 'gp3',
      volumeSizeGiB: GP3.sizeGiB,
      volumeIops: GP3.iops,
      volumeThroughputMiBps: GP3.throughputMiBps,
    },
    basename(ebsFixture),
  );
  const comparison = await seeder.createComparison({
    title,
    runIds: [nvme.id, ebs.id],
    plan: planSession({
      instanceType: INSTANCE,
      candidates: [{ type: 'gp3', ...GP3, count: 1 }],
      // Both runs went at saturation: capacity evidence, never sized on (issue 27). The plan sizes
      // on the workload's peaks typed in beside them; without them the link has no plan.
      observed: fixtures.peaks === false ? [] : [WORKLOAD_PEAKS],
    }),
  });
  return { nvme, ebs, comparison };
}

/** The value of a fact in a description list (`<dt>term</dt><dd>value</dd>`) within a scope. */
export function fact(scope: Page | Locator, term: string): Locator {
  const page =
    'page' in scope && typeof scope.page === 'function' ? (scope as Locator).page() : (scope as Page);
  return scope
    .locator('dl > div')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) })
    .getByRole('definition');
}
