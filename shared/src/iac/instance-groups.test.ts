import { describe, expect, it } from 'vitest';
import { findInstanceType } from '../aws/instances.ts';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { checkIac } from './check.ts';
import { extractTerraformVolumes } from './terraform.ts';

/**
 * Volumes of one instance in the code are checked together against its caps (r6i.xlarge:
 * 6,000 baseline IOPS, 1,250 Mbps = 149.0 MiB/s; DescribeInstanceTypes via the catalog).
 */
const planWith = (ebs: unknown[]) => ({
  format_version: '1.2',
  planned_values: {
    root_module: {
      resources: [
        {
          address: 'aws_instance.db',
          mode: 'managed',
          type: 'aws_instance',
          values: { instance_type: 'r6i.xlarge', ebs_block_device: ebs },
        },
      ],
    },
  },
});
const gp3 = (device: string) => ({
  device_name: device,
  volume_type: 'gp3',
  volume_size: 200,
  iops: 3000,
  throughput: 125,
});

function report(doc: unknown, profile: ReturnType<typeof publishedProfile> | null) {
  const tf = extractTerraformVolumes(doc, 'plan.json');
  if (!tf.ok) throw new Error(tf.error.message);
  return checkIac({
    volumes: tf.value.volumes,
    profile,
    headroom: 0.25,
    rateCard: regionRateCardFor('us-east-1')!,
    findInstance: findInstanceType,
  });
}

describe('check-iac: the volumes of one instance share its caps', () => {
  it('two gp3 at 125 MiB/s each deliver 250 MiB/s together, above r6i.xlarge’s 149.0 MiB/s (each alone is within)', () => {
    const r = report(planWith([gp3('/dev/sdf'), gp3('/dev/sdg')]), null);
    const f = r.findings.filter((x) => x.code === 'instance_cap_below_volumes');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ kind: 'instance-cap', subject: 'aws_instance.db' });
    expect(f[0]!.message).toContain(
      '2 volumes of aws_instance.db can deliver 6,000 IOPS and 250 MiB/s together',
    );
    expect(f[0]!.message).toContain('1,250 Mbps = 149 MiB/s');
  });

  it('each peaks at 4,000 IOPS: 5,000 with headroom fits one volume and the instance, but together 10,000 > 6,000', () => {
    // 4,000 random 8 KiB writes per second (31.25 MiB/s) on each volume
    const demand = publishedProfile({
      readIops: 0,
      readMiBps: 0,
      writeIops: 4000,
      writeMiBps: (4000 * 8) / 1024,
    });
    const doc = planWith([
      { ...gp3('/dev/sdf'), iops: 6000 },
      { ...gp3('/dev/sdg'), iops: 6000 },
    ]);
    const r = report(doc, demand);
    const f = r.findings.filter((x) => x.code === 'instance_limit_binds_together');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ kind: 'under', subject: 'aws_instance.db' });
    expect(f[0]!.message).toContain('2 × 4,000 IOPS + 25% = 10,000 IOPS, above its 6,000 baseline IOPS');
    // judged alone, neither volume is under-provisioned
    expect(
      r.findings.filter((x) => x.code === 'under_provisioned' || x.code === 'instance_limit_binds'),
    ).toEqual([]);
  });

  it('one volume of the instance, or demand within the baseline together: nothing to add', () => {
    const small = publishedProfile({ readIops: 1000, readMiBps: 8, writeIops: 0, writeMiBps: 0 });
    const r = report(
      planWith([
        { ...gp3('/dev/sdf'), throughput: 60 },
        { ...gp3('/dev/sdg'), throughput: 60 },
      ]),
      small,
    );
    expect(r.findings.map((x) => x.code)).not.toContain('instance_limit_binds_together');
    expect(r.findings.map((x) => x.code)).not.toContain('instance_cap_below_volumes');
  });
});
