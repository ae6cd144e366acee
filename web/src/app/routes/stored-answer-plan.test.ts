import * as analysisModule from '@blockwise/shared/analysis';
import { answerOf, storedRunAnswerOf } from '@blockwise/shared/answer';
import * as catalogModule from '@blockwise/shared/catalog';
import { roleOfEvidence } from '@blockwise/shared/demand';
import { parseFio } from '@blockwise/shared/fio';
import { describe, expect, it } from 'vitest';
import unpacedText from '../../../../fixtures/fio/settings/s1_randwrite_4k_unpaced.json?raw';
import rateIopsText from '../../../../fixtures/fio/settings/s2_randwrite_4k_rate_iops500_thinktime100.json?raw';
import { joinCatalog } from '../../lib/catalog.ts';
import { analyzeSession } from '../session/analysis.ts';
import { exampleSession } from '../session/example-session.ts';

const catalog = joinCatalog(catalogModule, analysisModule);
const parse = async (b: Blob) => parseFio(new Uint8Array(await b.arrayBuffer()));

type Plan = Parameters<typeof answerOf>[0];
/** A stored plan's answer as the pages word it: for its own node count, no live NVMe premium. */
const storedAnswerOf = (plan: Plan) => answerOf(plan, plan.cost.current?.nodes ?? 1, undefined);

/** A real fio 3.33 run from fixtures/fio/settings (README: 22,130 IOPS unpaced, 500 under rate_iops). */
function settingsReport(text: string) {
  const parsed = parseFio(new TextEncoder().encode(text));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.report;
}

async function examplePlan() {
  const a = analyzeSession(await exampleSession(parse), catalog);
  if (!a.result?.ok) throw new Error('the example does not plan');
  return a.result.value.plans[0]!.plan;
}

describe('an archived run’s answer: a benchmark at saturation is capacity, never “Needs”', () => {
  it('an unpaced fio run says what it delivered and sizes nothing on it', async () => {
    const plan = await examplePlan();
    const role = roleOfEvidence({
      kind: 'fio',
      report: settingsReport(unpacedText),
      replaysLoad: false,
    });
    expect(role.role).toBe('capacity');
    const answer = storedRunAnswerOf(plan, role);
    const iops = plan.profile.read.iops + plan.profile.write.iops;
    expect(answer.needs).toMatch(
      /^Delivered [\d,]+ IOPS and [\d,]+ MiB\/s — capacity evidence \(no rate set/,
    );
    expect(answer.needs).toContain(`${Math.round(iops).toLocaleString('en-US')} IOPS`);
    expect(answer.needs).not.toMatch(/Needs/);
    expect(answer.provision).toBeNull();
    expect(answer.instance).toBeNull();
    // What bound the run is still what the run shows.
    expect(answer.binds).toBe(storedAnswerOf(plan).binds);
  });

  it('a rate-limited run replays a load: its stored plan answers as the planning page does', async () => {
    const plan = await examplePlan();
    const role = roleOfEvidence({
      kind: 'fio',
      report: settingsReport(rateIopsText),
      replaysLoad: false,
    });
    expect(role.role).toBe('demand');
    expect(storedRunAnswerOf(plan, role)).toEqual(storedAnswerOf(plan));
  });
});
