import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { metricsFixture } from '../../features/metrics-import/metrics-fixtures.ts';
import { FIXTURES } from '../../test/fixtures.ts';
import PlanPage from '../routes/PlanPage.tsx';
import { contentHash, indexedDbFileStore, type FileStore } from './file-store.ts';
import { memoryStorage } from './memory-storage.ts';
import { SessionProvider, useSession } from './SessionProvider.tsx';
import { STORAGE_KEY } from './session-storage.ts';

/**
 * The session's raw files across a reload, with the real page, parsers and fixtures, and
 * IndexedDB as fake-indexeddb (the browser's own runs in e2e/tests/kept-files.spec.ts).
 */

let n = 0;
const freshFileStore = (): FileStore => indexedDbFileStore(`kept-files-test-${++n}`)!;

/** Which cards hold their file's bytes (what "Save & share" uploads), by file name. */
function BlobProbe() {
  const { state } = useSession();
  return (
    <output aria-label="bytes held">
      {state.inputs
        .flatMap((i) => ((i.kind === 'fio' || i.kind === 'series') && i.blob ? [i.fileName] : []))
        .join(',')}
    </output>
  );
}

function renderPage(storage: Storage, fileStore: FileStore) {
  const view = render(
    <SessionProvider storage={storage} fileStore={fileStore}>
      <BlobProbe />
      <PlanPage />
    </SessionProvider>,
  );
  return { user: userEvent.setup(), ...view };
}

const held = () => screen.getByLabelText('bytes held').textContent;
const fioFile = () => new File([FIXTURES.randread4k], 'randread4k.json', { type: 'application/json' });
const METRICS_NAME = 'iostat_12.6.1_x_t_C.txt';
const metricsFile = () => new File([metricsFixture(METRICS_NAME)], METRICS_NAME, { type: 'text/plain' });

/** Waits until the delayed write has stored the session (it waits for a 300 ms quiet period). */
async function stored(storage: ReturnType<typeof memoryStorage>, text: RegExp) {
  await waitFor(() => expect(storage.items.get(STORAGE_KEY) ?? '').toMatch(text), { timeout: 10_000 });
}

describe('the session’s files survive a reload (IndexedDB)', () => {
  it('a fio file comes back with its bytes; the same file added again is its card, not a second one', async () => {
    const storage = memoryStorage();
    const files = freshFileStore();
    const first = renderPage(storage, files);
    await first.user.upload(screen.getByLabelText('Choose fio files…'), fioFile());
    await screen.findByText('In this session (1)', {}, { timeout: 5000 });
    const hash = await contentHash(fioFile());
    await waitFor(async () => expect(await files.get(hash)).not.toBeNull(), { timeout: 5000 });
    await stored(storage, new RegExp(`"contentHash":"${hash}"`));
    first.unmount();

    const second = renderPage(storage, files);
    expect(screen.getByText('In this session (1)')).toBeDefined();
    // Read back from IndexedDB after the first render: the card holds the bytes "Save & share" uploads.
    await waitFor(() => expect(held()).toBe('randread4k.json'), { timeout: 5000 });

    await second.user.upload(screen.getByLabelText('Choose fio files…'), fioFile());
    expect(
      await screen.findByText(
        /randread4k\.json is already in this session \(the same bytes\)/,
        {},
        { timeout: 5000 },
      ),
    ).toBeDefined();
    expect(screen.getByText('In this session (1)')).toBeDefined();
  }, 30_000);

  it('a file the browser no longer keeps: said, and adding it again gives its card the bytes back', async () => {
    const storage = memoryStorage();
    const first = renderPage(storage, freshFileStore());
    await first.user.upload(screen.getByLabelText('Choose fio files…'), fioFile());
    await screen.findByText('In this session (1)', {}, { timeout: 5000 });
    await stored(storage, /"contentHash":"[0-9a-f]{64}"/);
    first.unmount();

    // Another (empty) store: the file was evicted, or the site's data was cleared.
    const second = renderPage(storage, freshFileStore());
    expect(
      await screen.findByText(
        /randread4k\.json: its file is no longer kept in this browser/,
        {},
        { timeout: 5000 },
      ),
    ).toBeDefined();
    expect(held()).toBe('');
    await second.user.upload(screen.getByLabelText('Choose fio files…'), fioFile());
    await waitFor(() => expect(held()).toBe('randread4k.json'), { timeout: 5000 });
    expect(screen.getByText(/its card has its file back/)).toBeDefined();
    expect(screen.getByText('In this session (1)')).toBeDefined();
  }, 30_000);

  it('a metrics export comes back read again: its statistics, chart section and p99 choice', async () => {
    const storage = memoryStorage();
    const files = freshFileStore();
    const first = renderPage(storage, files);
    await first.user.upload(screen.getByLabelText('Choose metrics files…'), metricsFile());
    const region = await screen.findByRole(
      'region',
      { name: `Production metrics: ${METRICS_NAME}` },
      { timeout: 10_000 },
    );
    const table = await within(region).findByRole('table', { name: /statistics of/ }, { timeout: 5000 });
    const tableName = table.getAttribute('aria-label') ?? table.querySelector('caption')?.textContent;
    await first.user.click(within(region).getByRole('radio', { name: /^P99 of the points/ }));
    await waitFor(() => expect(screen.getByText(/sized on the p99 of the points/)).toBeDefined());
    await stored(storage, /"statistic":"p99"/);
    first.unmount();

    renderPage(storage, files);
    const again = await screen.findByRole(
      'region',
      { name: `Production metrics: ${METRICS_NAME}` },
      { timeout: 10_000 },
    );
    const tableAgain = await within(again).findByRole(
      'table',
      { name: /statistics of/ },
      { timeout: 10_000 },
    );
    expect(tableAgain.getAttribute('aria-label') ?? tableAgain.querySelector('caption')?.textContent).toBe(
      tableName,
    );
    expect(within(again).getByRole('radio', { name: /^P99 of the points/ })).toHaveProperty('checked', true);
    expect(screen.getByText(/sized on the p99 of the points/)).toBeDefined();
    // Not a "typed in" card: one input, the export itself.
    expect(screen.getByText('In this session (1)')).toBeDefined();
    expect(held()).toBe(METRICS_NAME);
  }, 60_000);
});
