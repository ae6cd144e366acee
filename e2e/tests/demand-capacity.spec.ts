import { basename } from 'node:path';
import { artifactPath, fixtureBytes } from './support/fixtures.ts';
import { addFioFiles, EBS_FIXTURE, gotoPlan, NVME_FIXTURE, pickInstance } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 27, items 1, 2 and 5): demand apart from capacity. Two fio runs at saturation (no
 * `rate` set) say what each storage delivered, never what the workload needs: the answer compares
 * them and asks for the peaks in place. Typed peaks are planned on without another click, with the
 * dataset size beside them (an NVMe alternative that cannot hold it is marked) and its growth (the
 * answer names the grown size, and a store that holds today's data but not the grown is marked); a metrics import
 * then becomes the demand, named with its statistic and resolution, and a control switches back.
 * Every action's outcome is in the answer's status line (aria-live) and beside the control.
 */

const METRICS = 'cloudwatch/console_volume_sum_5min.csv';

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('two fio runs → no "Needs", a request for peaks → typed peaks planned on → a metrics import named', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const w = viewport.width;
      await gotoPlan(page);
      const answer = page.getByRole('region', { name: 'The answer', exact: true });
      const status = answer.getByRole('status').first();

      await addFioFiles(page, [NVME_FIXTURE, EBS_FIXTURE]);
      await expect(status).toHaveText('All 2 files were read.', { timeout: 20_000 });
      await expect(status).toHaveAttribute('aria-live', 'polite');
      // Beside the control pressed, too.
      await expect(
        page.getByRole('region', { name: 'Bring data' }).getByText('All 2 files were read.'),
      ).toBeVisible();

      // Capacity evidence only: what each delivered, compared — and no "Needs" from a benchmark.
      await expect(answer.getByText('No demand yet.')).toBeVisible();
      await expect(answer.getByText(/Needs/)).toHaveCount(0);
      await expect(
        answer.getByText(`${basename(NVME_FIXTURE)} (fio) delivered`, { exact: false }),
      ).toBeVisible();
      await expect(
        answer.getByText(`${basename(EBS_FIXTURE)} (fio) delivered`, { exact: false }),
      ).toBeVisible();
      await expect(answer.getByText(/delivered [\d.]+× the IOPS of/)).toBeVisible();
      const peaks = answer.getByRole('form', { name: 'The workload’s peaks' });
      await expect(peaks).toBeVisible();
      // The dataset is asked with its growth, as beside "Needs …" once there is demand.
      await expect(peaks.getByLabel('Dataset growth (compounded yearly)')).toBeVisible();
      await expect(peaks.getByLabel('Planning horizon')).toBeVisible();
      await answer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath(`demand-capacity-only-${w}.png`) });

      // Typed peaks and the dataset, in the answer box: planned on at once.
      await peaks.getByLabel('Workload read IOPS').fill('3043');
      await peaks.getByLabel('Workload write IOPS').fill('6018');
      await peaks.getByLabel('Workload read throughput').fill('188');
      await peaks.getByLabel('Workload write throughput').fill('381');
      await peaks.getByLabel('Dataset size').fill('2000');
      await peaks.getByRole('button', { name: 'Plan for these peaks' }).click();
      // (3,043 + 6,018) × 1.25 = 11,326.25 → 11,327 IOPS; (188 + 381) × 1.25 = 711.25 MiB/s.
      await expect(
        answer.getByText(/^Needs 11,327 IOPS and 71\d MiB\/s: the peak plus 25% headroom; 2,000 GiB\.$/),
      ).toBeVisible();
      await expect(answer.getByText(/Demand from peaks typed in \(Workload peaks\)/)).toBeVisible();
      await expect(status).toHaveText('Peaks added. The answer plans on Workload peaks.');
      await expect(answer.getByLabel('Dataset size (the data the storage must hold)')).toHaveValue('2000');

      // The NVMe alternative is checked against the dataset: r6id.8xlarge's 1 × 1,900 GB store.
      await pickInstance(page.getByRole('combobox', { name: 'Instance type for the plan' }), 'r6i.8xlarge');
      await expect(
        answer.getByText(
          /r6id\.8xlarge: its instance store holds about 1,653 GiB after formatting \(1,769 GiB raw, 6\.6% kept by ext4’s defaults\): it cannot hold the 2,000 GiB dataset\./,
        ),
      ).toBeVisible();
      // Dataset growth (item 2): 1,500 GiB fits the store's ~1,653 GiB today, but at 20 %/year
      // it is 1,500 × 1.2 = 1,800 GiB in 12 months — every size and the NVMe check use that.
      const datasetField = answer.getByLabel('Dataset size (the data the storage must hold)');
      await datasetField.fill('1500');
      await expect(answer.getByText(/r6id\.8xlarge: .*: it holds the 1,500 GiB dataset\./)).toBeVisible();
      await answer.getByLabel('Dataset growth (compounded yearly)').fill('20');
      await answer.getByLabel('Planning horizon').fill('12');
      await expect(
        answer.getByText(
          /^Needs 11,327 IOPS and 71\d MiB\/s: the peak plus 25% headroom; 1,500 GiB today, 1,800 GiB in 12 months at 20 %\/year\.$/,
        ),
      ).toBeVisible();
      await expect(
        answer.getByText(
          /r6id\.8xlarge: its instance store holds about 1,653 GiB after formatting .*: it cannot hold the 1,800 GiB the dataset grows to in 12 months at 20 %\/year \(it holds today’s 1,500 GiB\)\./,
        ),
      ).toBeVisible();
      await expect(answer.getByText(/^Provision \S+ 1,8\d\d GiB/)).toBeVisible();
      await answer.getByLabel('Planning horizon').fill('61');
      await expect(
        answer.getByText('Enter the horizon in whole months (1 to 60), or leave it empty for 12 months.'),
      ).toBeVisible();
      await answer.getByLabel('Planning horizon').fill('12');
      await answer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath(`demand-dataset-growth-${w}.png`) });
      // No growth again: planned for today's size.
      await answer.getByLabel('Dataset growth (compounded yearly)').fill('');
      await expect(
        answer.getByText(/^Needs 11,327 IOPS and 71\d MiB\/s: the peak plus 25% headroom; 1,500 GiB\.$/),
      ).toBeVisible();

      // Without a dataset: "capacity not known", never a 1 GiB volume.
      await answer.getByLabel('Dataset size (the data the storage must hold)').fill('');
      await expect(
        answer.getByText(
          /^Needs 11,327 IOPS and 71\d MiB\/s: the peak plus 25% headroom; capacity not known\.$/,
        ),
      ).toBeVisible();
      await expect(
        answer.getByText(/its size waits for the dataset size \(capacity not known\)/),
      ).toBeVisible();
      await answer.getByLabel('Dataset size (the data the storage must hold)').fill('2000');
      await answer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath(`demand-typed-peaks-${w}.png`) });

      // A metrics import: the newest demand source, planned on and named with statistic and resolution.
      await page.getByLabel('Choose metrics files…').setInputFiles({
        name: basename(METRICS),
        mimeType: 'text/csv',
        buffer: fixtureBytes(METRICS),
      });
      await expect(status).toHaveText(`The file was read. The answer plans on ${basename(METRICS)}.`, {
        timeout: 20_000,
      });
      await expect(
        answer.getByText(`Demand from production metrics ${basename(METRICS)}: maximum of 5-minute points.`, {
          exact: false,
        }),
      ).toBeVisible();
      await expect(answer.getByText(/^Needs [\d,]+ IOPS/)).toBeVisible();
      await answer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath(`demand-metrics-source-${w}.png`) });

      // The control to switch between demand sources: back to the typed peaks.
      await answer.getByLabel('Size on').selectOption({ label: 'Workload peaks' });
      await expect(answer.getByText(/^Needs 11,327 IOPS/)).toBeVisible();
    });

    test('2 of 3 files failed: said beside the control and in the answer’s status line', async ({ page }) => {
      const w = viewport.width;
      await gotoPlan(page);
      await addFioFiles(page, [
        NVME_FIXTURE,
        { name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) },
        { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"not": "fio"}') },
      ]);
      const status = page
        .getByRole('region', { name: 'The answer', exact: true })
        .getByRole('status')
        .first();
      await expect(status).toHaveText(
        /^2 of 3 files failed: empty\.json \(the file is empty\); notes\.json \(.+\); 1 file read\.$/,
        {
          timeout: 20_000,
        },
      );
      await expect(
        page.getByRole('region', { name: 'Bring data' }).getByText(/^2 of 3 files failed/),
      ).toBeVisible();
      await page.screenshot({ path: artifactPath(`demand-files-failed-${w}.png`) });
    });
  });
}
