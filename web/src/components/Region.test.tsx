import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Region } from './Region.tsx';

let broken = true;
function LatencyChart(): never | string {
  if (broken) throw new Error('percentiles went missing');
  return 'latency chart';
}

describe('Region: a failure stays in its region', () => {
  it('a broken latency chart does not blank the cost table', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Page() {
      const [n] = useState(0);
      return (
        <>
          <Region title="Latency">
            <LatencyChart />
          </Region>
          <Region title="Cost">
            <table>
              <tbody>
                <tr>
                  <td>gp3 $137.50 {n}</td>
                </tr>
              </tbody>
            </table>
          </Region>
        </>
      );
    }
    render(<Page />);
    expect(screen.getByRole('alert').textContent).toMatch(/Could not show latency.*percentiles went missing/);
    expect(screen.getByText(/gp3 \$137.50/)).toBeDefined();
    expect(screen.getByRole('region', { name: 'Cost' })).toBeDefined();
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('latency chart')).toBeDefined();
    error.mockRestore();
  });
});
