import * as analysisModule from '@blockwise/shared/analysis';
import * as catalogModule from '@blockwise/shared/catalog';
import { parseFio } from '@blockwise/shared/fio';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../../session/analysis.ts';
import { exampleSession } from '../../session/example-session.ts';
import type { SessionState } from '../../session/session-state.ts';
import { answerOf } from '@blockwise/shared/answer';
import { joinCatalog } from '../../../lib/catalog.ts';

const catalog = joinCatalog(catalogModule, analysisModule);

const parse = async (b: Blob) => parseFio(new Uint8Array(await b.arrayBuffer()));

function answerFor(state: SessionState) {
  const a = analyzeSession(state, catalog);
  if (!a.result?.ok) throw new Error('the session does not plan');
  const plan = a.result.value.plans[0]!.plan;
  const t = state.settings.instanceType;
  return { answer: answerOf(plan, state.settings.nodes, t ? a.nvmePremiums[t] : undefined), plan };
}

describe('the one-screen answer (the example: the guide’s NoSQL profile on r6i.4xlarge, gp3 candidate)', () => {
  it('needs, what binds, what to provision for how much, the NVMe alternative — from the plan itself', async () => {
    const { answer, plan } = answerFor(await exampleSession(parse));
    expect(answer.needs).toBe('Needs 13,125 IOPS and 650 MiB/s: the peak plus 25% headroom; 1,000 GiB.');
    expect(answer.binds).toBe(
      'Instance EBS bandwidth binds at 87.2% (520 of 596 MiB/s) on r6i.4xlarge, with gp3 1000 GiB, 16,000 IOPS, 1000 MiB/s.',
    );
    expect(answer.bindsTone).toBe('watch');
    // 650 MiB/s is above the 596 MiB/s r6i.4xlarge sustains: gp3 is provisioned up to the cap.
    expect(answer.provision).toBe(
      'Provision gp3 1,000 GiB, 13,125 IOPS, 596 MiB/s for $149.47/month — capped by the instance: it does not meet the target.',
    );
    expect(answer.instance).toBe(
      'r6i.4xlarge cannot sustain the target; r6in.4xlarge can (12,500 Mbps, 50,000 IOPS, $1,018.09/month on demand in us-east-1).',
    );
    expect(answer.nvme).toBe(
      'The NVMe alternative, r6id.4xlarge, costs $147.17/month more than r6i.4xlarge (on demand, us-east-1).',
    );
    expect(answer.prices).toBe(`us-east-1 prices of ${plan.rates.date}`);
  });

  it('follows the inputs: four nodes, a bigger instance', async () => {
    const example = await exampleSession(parse);
    const { answer } = answerFor({
      ...example,
      settings: { ...example.settings, instanceType: 'r6in.4xlarge', nodes: 4 },
    });
    expect(answer.binds).toMatch(/ on r6in\.4xlarge, with gp3 1000 GiB/);
    expect(answer.instance).toBeNull();
    expect(answer.provision).toMatch(
      /^Provision gp3 1,000 GiB, 13,125 IOPS, 650 MiB\/s for \$\d[\d,.]*\/month per node \(\$[\d,.]+\/month for 4 nodes\)\.$/,
    );
  });
});
