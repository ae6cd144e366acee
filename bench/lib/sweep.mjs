// The right-sizing sweep of P12, bundled by compute.mjs with esbuild before it runs (as the
// browser gets it from Vite: no tsx loader helpers such as __name in the hot path).
import { readFileSync } from 'node:fs';
import { parseFio } from '../../shared/src/fio/parse-fio.ts';
import { profileFromFio } from '../../shared/src/profile/from-fio.ts';
import { rightSize } from '../../shared/src/plan/right-size.ts';
import { listInstanceTypes, upgradePool } from '../../shared/src/aws/instances.ts';
import { defaultRateCard } from '../../shared/src/aws/ebs-prices.ts';
import { VOLUME_TYPES } from '../../shared/src/aws/volume-types.ts';

/** Times full sweeps: every instance type × every volume type, each with its upgrade pool (as plans get it). */
export function measureSweep(fioPath, runs = 21) {
  const fio = parseFio(readFileSync(fioPath));
  if (!fio.ok) throw new Error(fio.error.message);
  const profile = profileFromFio(fio.report);
  if (!profile.ok) throw new Error(JSON.stringify(profile.error));
  const instances = listInstanceTypes();
  const rateCard = defaultRateCard();
  const pools = new Map(instances.map((i) => [i.instanceType, upgradePool(i)]));
  const input = (instance, members) => ({
    profile: profile.value,
    headroom: 0.25,
    minSizeGiB: 500,
    instance,
    rateCard,
    instanceCandidates: members,
  });
  const sweep = () => {
    let recommendations = 0;
    for (const instance of instances)
      recommendations += rightSize(input(instance, pools.get(instance.instanceType))).recommendations.length;
    return recommendations;
  };
  for (let i = 0; i < 5; i++) sweep();
  const times = [];
  let recommendations = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    recommendations = sweep();
    times.push(performance.now() - t);
  }
  // The same with the pool looked up per instance (what the planner's callers do).
  const uncached = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    for (const instance of instances) rightSize(input(instance, upgradePool(instance)));
    uncached.push(performance.now() - t);
  }
  return { times, uncached, instances: instances.length, volumeTypes: VOLUME_TYPES.length, recommendations };
}
