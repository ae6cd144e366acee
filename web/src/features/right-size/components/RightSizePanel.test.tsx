import { type RateCard } from '@blockwise/shared/aws';
import { planStorage, type PlanInput } from '@blockwise/shared/plan';
import { defaultRateCard, findInstanceType, regionRateCardFor, upgradePool } from '@blockwise/shared/catalog';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { typedProfile } from '../../../test/fixtures.ts';
import { RightSizePanel } from './RightSizePanel.tsx';

const plan = (input: Omit<PlanInput, 'instanceCandidates'>) =>
  planStorage({ ...input, instanceCandidates: input.instance ? upgradePool(input.instance) : [] });

function types() {
  return screen.getByRole('table', { name: 'Volume types side by side, right-sized for this profile' });
}

/** The cell of a type's column in a row, by the row's header. */
function cell(row: string, column: number) {
  return within(within(types()).getByRole('row', { name: new RegExp(`^${row}`) })).getAllByRole('cell')[
    column
  ]!;
}

describe('RightSizePanel', () => {
  it('a 4 × gp3 stripe: what to provision on each volume, the total, and the cost', () => {
    // 51,200 IOPS of 64 KiB on r6i.32xlarge with gp3's limits before 2025: four volumes.
    const p = plan({
      profile: typedProfile({ readMiBps: 1600, readIops: 25_600, writeMiBps: 1600, writeIops: 25_600 }),
      target: {
        kind: 'ebs',
        volume: { type: 'gp3', sizeGiB: 500, iops: 16_000, throughputMiBps: 1000, count: 4 },
      },
      instance: findInstanceType('r6i.32xlarge')!,
      rateCard: defaultRateCard(),
      gp3Generation: 'before-2025',
    });
    render(<RightSizePanel plans={[{ title: '4 × gp3', plan: p }]} selected={0} waste={[]} />);
    expect(cell('Provision', 0).textContent).toBe(
      '4 × gp3 500 GiB, 16,000 IOPS, 1,000 MiB/s each (2,000 GiB total)',
    );
    expect(cell('Size', 0).textContent).toBe('2,000 GiBtotal of 4 volumes × 500 GiB (RAID 0)');
    expect(cell('Sustained IOPS', 0).textContent).toBe('64,000');
    expect(cell('Per node / month', 0).textContent).toBe('$560.00');
  });

  it('sa-east-1 without an io2 price: "no price in this region", never $0', async () => {
    const p = plan({
      profile: typedProfile({ readMiBps: 100, readIops: 5000, writeMiBps: 100, writeIops: 5000 }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 500, iops: 12_000, throughputMiBps: 250 } },
      instance: findInstanceType('r6i.4xlarge')!,
      rateCard: regionRateCardFor('sa-east-1') as unknown as RateCard,
    });
    render(<RightSizePanel plans={[{ title: 'gp3', plan: p }]} selected={0} waste={[]} />);
    // gp3, io2, gp2 side by side: io2 is the second column.
    expect(cell('Verdict', 1).textContent).toMatch(/no price in this region$/);
    expect(cell('Provision', 1).textContent).toBe('io2 500 GiB, 12,500 IOPS');
    expect(cell('Per node / month', 1).textContent).toBe('no price in this region');
    expect(cell('Cluster / month', 1).textContent).toBe('no price in this region');
    // All types: st1 and sc1 are not viable — dashes, not "0 GiB".
    await userEvent.setup().click(screen.getByRole('button', { name: 'Also show io1, st1 and sc1' }));
    const st1 = within(types())
      .getAllByRole('columnheader')
      .findIndex((h) => /st1/.test(h.textContent ?? ''));
    expect(st1).toBeGreaterThan(2);
    expect(cell('Size', st1).textContent).toBe('—');
    expect(cell('Per node / month', st1).textContent).toBe('—');
  });

  it('an instance that caps the target: the cheapest upgrade and the alternatives, in a named table', () => {
    const c6a = findInstanceType('c6a.xlarge')!;
    const p = plan({
      profile: typedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 625, writeIops: 40_000 }),
      target: { kind: 'ebs', volume: { type: 'io2', sizeGiB: 100, iops: 60_000 } },
      instance: c6a,
      rateCard: defaultRateCard(),
    });
    render(<RightSizePanel plans={[{ title: 'io2', plan: p }]} selected={0} waste={[]} />);
    expect(cell('Verdict', 0).textContent).toMatch(/capped by the instance — does not meet the target$/);
    const advice = p.rightSizing.instanceAdvice!;
    const table = screen.getByRole('table', { name: /^Instances that sustain the target/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1 + (advice.alternatives ?? []).length);
    expect(within(rows[0]!).getByRole('rowheader').textContent).toBe(
      `${advice.upgrade!.instanceType}cheapest upgrade`,
    );
    expect(rows.slice(1).map((r) => within(r).getByRole('rowheader').textContent)).toEqual(
      (advice.alternatives ?? []).map((a) => a.instanceType),
    );
  });
});
