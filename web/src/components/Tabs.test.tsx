import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs } from './Tabs.tsx';

function Harness() {
  const [i, setI] = useState(0);
  const items = ['gp3', 'io2', 'local NVMe'].map((k) => ({ key: k, label: k }));
  return (
    <Tabs label="Configurations" items={items} selected={i} onSelect={setI}>
      <p>panel {items[i]!.label}</p>
    </Tabs>
  );
}

describe('Tabs (WAI-ARIA, automatic activation)', () => {
  it('arrow keys move and select; only the selected tab is tabbable', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1, -1]);
    await user.tab();
    expect(document.activeElement).toBe(tabs[0]);
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tabs[1]);
    expect(tabs[1]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('panel io2');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('tabpanel').textContent).toBe('panel local NVMe');
    await user.keyboard('{Home}');
    expect(screen.getByRole('tabpanel', { name: 'gp3' })).toBeDefined();
  });
});
