import type { z } from 'zod';
import { fail, ok, type Result } from '../problem.ts';
import { DescribeInstancesOutputSchema, DescribeVolumesOutputSchema } from './aws-outputs.ts';
import type { FleetInstance, FleetVolume } from './schema.ts';

/** The first issue of a Zod error as a Problem naming the field: `Volumes.3.Size: expected number`. */
export function problemOf(error: z.ZodError, code: string, what: string) {
  const issue = error.issues[0];
  const path = issue ? issue.path.join('.') : '';
  const message = issue ? `${what}: ${path || '(top level)'}: ${issue.message}` : `${what}: invalid`;
  return fail(code, message, path || undefined);
}

/** `aws ec2 describe-volumes --output json` → the planner's volumes. */
export function parseFleetVolumes(json: unknown): Result<FleetVolume[]> {
  const parsed = DescribeVolumesOutputSchema.safeParse(json);
  if (!parsed.success)
    return problemOf(
      parsed.error,
      'volumes_invalid',
      'not describe-volumes output (expected {"Volumes":[...]})',
    );
  return ok(
    parsed.data.Volumes.map((v) => {
      const attached = v.Attachments.filter((a) => a.State === undefined || a.State !== 'detached');
      return {
        volumeId: v.VolumeId,
        type: v.VolumeType,
        sizeGib: v.Size,
        iops: v.Iops ?? null,
        throughputMibps: v.Throughput ?? null,
        state: v.State,
        availabilityZone: v.AvailabilityZone ?? null,
        instanceId: attached[0]?.InstanceId ?? null,
        alsoAttachedTo: attached.slice(1).map((a) => a.InstanceId),
        name: v.Tags?.find((t) => t.Key === 'Name')?.Value ?? null,
      };
    }),
  );
}

/** `aws ec2 describe-instances --output json` → instance id, TYPE and state (the hypervisor field is not used). */
export function parseFleetInstances(json: unknown): Result<FleetInstance[]> {
  const parsed = DescribeInstancesOutputSchema.safeParse(json);
  if (!parsed.success)
    return problemOf(
      parsed.error,
      'instances_invalid',
      'not describe-instances output (expected {"Reservations":[{"Instances":[...]}]})',
    );
  return ok(
    parsed.data.Reservations.flatMap((r) =>
      r.Instances.map((i) => ({
        instanceId: i.InstanceId,
        instanceType: i.InstanceType,
        state: i.State.Name,
      })),
    ),
  );
}
