import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../test/fixtures.ts';
import PlanPage from '../routes/PlanPage.tsx';
import { SessionProvider } from './SessionProvider.tsx';
import { STORAGE_KEY } from './session-storage.ts';
import { memoryStorage } from './memory-storage.ts';

function renderPage(storage: Storage) {
  const view = render(
    <SessionProvider storage={storage}>
      <PlanPage />
    </SessionProvider>,
  );
  return { user: userEvent.setup(), ...view };
}

async function typeInMetrics(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Type in metrics…' }));
  await user.type(screen.getByLabelText('Peak read IOPS'), '3043');
  await user.type(screen.getByLabelText('Peak read throughput'), '188');
  await user.type(screen.getByLabelText('Peak write IOPS'), '6018');
  await user.type(screen.getByLabelText('Peak write throughput'), '381');
  await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
}

/** Whether the browser would ask before unloading (a listener called preventDefault). */
function unloadAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('the planning session survives a reload', () => {
  it('example → kept in storage → a new page (reload) shows the same session and answer', async () => {
    const storage = memoryStorage();
    const first = renderPage(storage);
    await first.user.click(screen.getByRole('button', { name: 'Try an example' }));
    await screen.findByText('In this session (3)', {}, { timeout: 5000 });
    // The write waits for a 300 ms quiet period: a busy machine may take longer than waitFor's 1 s default.
    await waitFor(() => expect(storage.items.has(STORAGE_KEY)).toBe(true), { timeout: 10_000 });
    first.unmount();

    renderPage(storage);
    // Restored before the first paint: no waiting for the inputs.
    expect(screen.getByText('In this session (3)')).toBeDefined();
    expect(screen.getAllByText(/Example NVMe instance store/).length).toBeGreaterThan(0);
    const answer = screen.getByRole('region', { name: 'The answer' });
    await waitFor(() => expect(within(answer).getByText(/^Needs 13,125 IOPS and 650 MiB\/s/)).toBeDefined(), {
      timeout: 5000,
    });
    expect(screen.getByRole('combobox', { name: 'Instance type for the plan' })).toHaveProperty(
      'value',
      'r6i.4xlarge',
    );
  });

  it('“New session” clears the page and the stored copy; unsaved work is asked about first', async () => {
    const storage = memoryStorage();
    const { user } = renderPage(storage);
    expect(screen.queryByRole('button', { name: 'New session' })).toBeNull();
    await typeInMetrics(user);
    // The write waits for a 300 ms quiet period: a busy machine may take longer than waitFor's 1 s default.
    await waitFor(() => expect(storage.items.has(STORAGE_KEY)).toBe(true), { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'New session' }));
    const ask = screen.getByRole('group', { name: 'Discard the unsaved session?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep it' }));
    expect(screen.getByText('In this session (1)')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'New session' }));
    await user.click(screen.getByRole('button', { name: 'Discard and start anew' }));
    expect(screen.queryByText(/In this session/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Try an example' })).toBeDefined();
    // The write waits for a 300 ms quiet period: a busy machine may take longer than waitFor's 1 s default.
    await waitFor(() => expect(storage.items.has(STORAGE_KEY)).toBe(false), { timeout: 10_000 });
  });

  it('asks before unloading unsaved work only', async () => {
    const { user } = renderPage(memoryStorage());
    expect(unloadAsks()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Try an example' }));
    await screen.findByText('In this session (3)', {}, { timeout: 5000 });
    // A loaded example is nobody's work yet.
    expect(unloadAsks()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(unloadAsks()).toBe(false);
    await user.selectOptions(screen.getByLabelText('Judge latency at'), '99.9');
    expect(unloadAsks()).toBe(true);
  });

  it('a link that carries the whole session shares it: no unload question until the next change', async () => {
    const { user } = renderPage(memoryStorage());
    await typeInMetrics(user);
    expect(unloadAsks()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Share as a link without saving' }));
    expect(screen.getByLabelText('Session link')).toBeDefined();
    expect(unloadAsks()).toBe(false);
    await user.selectOptions(screen.getByLabelText('Judge latency at'), '99.9');
    expect(unloadAsks()).toBe(true);
  });

  it('a link without the session’s fio file leaves it unsaved work', async () => {
    const { user } = renderPage(memoryStorage());
    await typeInMetrics(user);
    await user.upload(
      screen.getByLabelText('Choose fio files…'),
      new File([FIXTURES.randread4k], 'randread4k.json', { type: 'application/json' }),
    );
    await screen.findByText('In this session (2)', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Share as a link without saving' }));
    expect(screen.getByLabelText('Session link')).toBeDefined();
    expect(unloadAsks()).toBe(true);
  });

  it('a full storage shows a notice and the page keeps working', async () => {
    const { user } = renderPage(memoryStorage({ full: true }));
    await typeInMetrics(user);
    expect(await screen.findByText(/storage is full: the session is not kept across reloads/)).toBeDefined();
    expect(screen.getByText('In this session (1)')).toBeDefined();
  });

  it('a stored session that cannot be read is discarded with a visible notice', () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEY, '{"plan":{"version":1}');
    renderPage(storage);
    expect(screen.getByRole('alert').textContent).toMatch(
      /The session kept in this browser could not be read \(not JSON\); a new session was started/,
    );
  });
});
