import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { decodeSession, readSessionParam } from '../../lib/session-url.ts';
import { FIXTURES } from '../../test/fixtures.ts';
import PlanPage from '../routes/PlanPage.tsx';
import { SessionProvider } from './SessionProvider.tsx';
import { memoryStorage } from './memory-storage.ts';
import { STORAGE_KEY } from './session-storage.ts';

/** The address bar keeps `/#session=…` of the session while a link can carry all of it. */

function renderPage(storage: Storage | null) {
  const view = render(
    <SessionProvider storage={storage}>
      <PlanPage />
    </SessionProvider>,
  );
  return { user: userEvent.setup(), ...view };
}

async function typeInMetrics(user: ReturnType<typeof userEvent.setup>, readIops = '3043') {
  await user.click(screen.getByRole('button', { name: 'Type in metrics…' }));
  await user.type(screen.getByLabelText('Peak read IOPS'), readIops);
  await user.type(screen.getByLabelText('Peak read throughput'), '188');
  await user.type(screen.getByLabelText('Peak write IOPS'), '6018');
  await user.type(screen.getByLabelText('Peak write throughput'), '381');
  await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
}

/** The session the address holds (null: no `#session=`). */
function addressSession() {
  const text = readSessionParam(window.location);
  if (text === null) return null;
  const session = decodeSession(text);
  if (!session.ok) throw new Error(session.error.message);
  return session.value;
}
const addressReadIops = () => addressSession()?.observed[0]?.read.iops ?? null;

const hasSessionHash = () => window.location.hash.startsWith('#session=');

describe('the address follows the session', () => {
  it('typed-in numbers → `#session=` of them, replacing the entry (no history step per keystroke)', async () => {
    const entries = window.history.length;
    const { user } = renderPage(memoryStorage());
    await typeInMetrics(user);
    await waitFor(() => expect(addressReadIops()).toBe(3043));
    expect(window.location.pathname).toBe('/');
    // A slider dragged through six steps: the address ends at the last, in the same history entry.
    // (The comparison's panels, the what-if controls among them, load once there is a plan.)
    const slider = await screen.findByLabelText('Headroom above the peak (slider)', {}, { timeout: 10_000 });
    for (const pct of [30, 35, 40, 45, 50, 55]) fireEvent.change(slider, { target: { value: String(pct) } });
    await waitFor(() => expect(addressSession()?.headroom).toBe(0.55));
    expect(window.history.length).toBe(entries);
    // The "without saving" link is the address itself.
    await user.click(screen.getByRole('button', { name: 'Share as a link without saving' }));
    expect(screen.getByLabelText('Session link')).toHaveProperty('value', window.location.href);
  });

  it('a fio file (the link cannot carry it) removes `#session=`; another fragment is left alone', async () => {
    const storage = memoryStorage();
    const { user } = renderPage(storage);
    await typeInMetrics(user);
    await waitFor(() => expect(hasSessionHash()).toBe(true));
    await user.upload(
      screen.getByLabelText('Choose fio files…'),
      new File([FIXTURES.randread4k], 'randread4k.json', { type: 'application/json' }),
    );
    await screen.findByText('In this session (2)', {}, { timeout: 5000 });
    await waitFor(() => expect(window.location.hash).toBe(''));
    window.history.replaceState(null, '', '/#profile');
    await user.selectOptions(screen.getByLabelText('Judge latency at'), '99.9');
    // Past the address's delay: the change was seen and the fragment kept.
    await waitFor(() => expect(storage.items.get(STORAGE_KEY)).toMatch(/"focusPercentile":"99.9"/));
    expect(window.location.hash).toBe('#profile');
  });

  it('reload with the address: the same session, silently; the stored copy and the address agree', async () => {
    const storage = memoryStorage();
    const first = renderPage(storage);
    await typeInMetrics(first.user);
    await waitFor(() => expect(addressReadIops()).toBe(3043));
    await waitFor(() => expect(storage.items.has(STORAGE_KEY)).toBe(true), { timeout: 10_000 });
    const address = window.location.href;
    first.unmount();

    renderPage(storage);
    expect(screen.getByText('In this session (1)')).toBeDefined();
    expect(screen.queryByText(/Opened the planning session from the link/)).toBeNull();
    expect(window.location.href).toBe(address);
  });

  it('the address in a fresh browser (nothing stored) restores the session from it', async () => {
    const first = renderPage(null);
    await typeInMetrics(first.user);
    await waitFor(() => expect(addressReadIops()).toBe(3043));
    first.unmount();

    renderPage(memoryStorage());
    expect(await screen.findByText('Opened the planning session from the link.')).toBeDefined();
    expect(screen.getByText('In this session (1)')).toBeDefined();
    expect(screen.getByText(/read: 3,043 IOPS/)).toBeDefined();
    await waitFor(() => expect(addressReadIops()).toBe(3043));
  });

  it('another session’s link wins over the stored one; an older address of this tab does not', async () => {
    // Another session's link, opened in a tab: it replaces what the browser had stored.
    const other = renderPage(null);
    await typeInMetrics(other.user, '1111');
    await waitFor(() => expect(addressReadIops()).toBe(1111));
    const otherLink = `/#${window.location.hash.slice(1)}`;
    other.unmount();
    window.history.replaceState(null, '', '/');

    const storage = memoryStorage();
    const mine = renderPage(storage);
    await typeInMetrics(mine.user, '3043');
    await waitFor(() => expect(addressReadIops()).toBe(3043));
    await waitFor(() => expect(storage.items.get(STORAGE_KEY)).toMatch(/"iops":3043/));
    const ownState: unknown = window.history.state;
    mine.unmount();

    // This tab's own address, older than what is stored (a reload within the delay): the stored copy.
    window.history.replaceState(ownState, '', otherLink);
    const reload = renderPage(storage);
    expect(screen.getByText(/read: 3,043 IOPS/)).toBeDefined();
    await waitFor(() => expect(addressReadIops()).toBe(3043));

    // Back/forward to an older address of this tab: the session stays, the address follows it.
    window.history.replaceState(ownState, '', otherLink);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(screen.getByText(/read: 3,043 IOPS/)).toBeDefined();
    expect(addressReadIops()).toBe(3043);
    reload.unmount();

    // A link (not this tab's address): it wins, and the stored copy follows it.
    window.history.replaceState(null, '', otherLink);
    renderPage(storage);
    expect(await screen.findByText(/it replaced the session you had open/)).toBeDefined();
    expect(screen.getByText(/read: 1,111 IOPS/)).toBeDefined();
    await waitFor(() => expect(storage.items.get(STORAGE_KEY)).toMatch(/"iops":1111/));
  });
});
