import { VolumeTypeSchema, type VolumeType } from '../aws/volume-types.ts';
import { provisionedFieldsOf } from '../plan/volume.ts';
import { fail, ok, type Result } from '../problem.ts';
import {
  TerraformEbsVolumeSchema,
  TerraformInstanceSchema,
  TerraformLaunchTemplateSchema,
  TerraformPlanSchema,
  type IacFinding,
  type TerraformPlan,
  type IacVolume,
  type TerraformModule,
  type TerraformResource,
  type UnreadableNumber,
} from './schema.ts';

/**
 * EBS volumes in `terraform show -json` output (Terraform "JSON Output Format",
 * https://developer.hashicorp.com/terraform/internals/json-format): `aws_ebs_volume`,
 * `aws_instance` root_block_device / ebs_block_device, `aws_launch_template`
 * block_device_mappings[].ebs. Modules are walked recursively (`child_modules`).
 */

export type IacExtracted = { volumes: IacVolume[]; findings: IacFinding[] };

/** A number attribute as read: missing, a number, or a value that is not one. */
type RawNumber = number | null | undefined | UnreadableNumber;

/**
 * What a volume block says before it is resolved: any field may be missing (unknown until apply,
 * or left to the AMI). `attributes`: the block's own names for size, IOPS and throughput, for messages.
 */
export type IacRawVolume = {
  subject: string;
  type: string | null | undefined;
  sizeGiB: RawNumber;
  iops: RawNumber;
  throughputMiBps: RawNumber;
  instanceType: string | null;
  /** The resource the volume attaches to in the code (aws_instance, aws_launch_template address): its volumes share its caps. */
  instance?: string | null;
  attributes: { sizeGiB: string; iops: string; throughputMiBps: string };
  /** aws_ebs_volume `multi_attach_enabled` is true. */
  multiAttach?: boolean;
};

const EBS_VOLUME_ATTRIBUTES = { sizeGiB: 'size', iops: 'iops', throughputMiBps: 'throughput' };
const BLOCK_DEVICE_ATTRIBUTES = { sizeGiB: 'volume_size', iops: 'iops', throughputMiBps: 'throughput' };

const note = (file: string, subject: string, code: string, message: string): IacFinding => ({
  kind: 'note',
  code,
  file,
  subject,
  message,
  wasteUsdPerMonth: null,
});

/** A setting of 0 is what the provider reports for "not set" in some blocks (launch templates). */
const setting = (n: number | null | undefined) => (n === null || n === undefined || n === 0 ? null : n);

const isUnreadable = (n: RawNumber): n is UnreadableNumber => typeof n === 'object' && n !== null;

/** The attributes of a block that are not numbers, as one finding naming each; null when all read. */
function unreadableFinding(raw: IacRawVolume, file: string): IacFinding | null {
  const bad = (['sizeGiB', 'iops', 'throughputMiBps'] as const).flatMap((field) => {
    const value = raw[field];
    return isUnreadable(value) ? [`${raw.attributes[field]}: ${JSON.stringify(value.unreadable)}`] : [];
  });
  if (bad.length === 0) return null;
  return {
    kind: 'invalid',
    code: 'attribute_not_a_number',
    file,
    subject: raw.subject,
    message: `${bad.join(' and ')} ${bad.length > 1 ? 'are not numbers' : 'is not a number'}: the volume is not checked (judged without ${bad.length > 1 ? 'them' : 'it'}, it would be judged as a configuration the code does not provision)`,
    wasteUsdPerMonth: null,
  };
}

/** A volume type the check knows, or a note saying why the volume is left out. */
export function resolveVolumeType(
  text: string | null | undefined,
  file: string,
  subject: string,
): { type: VolumeType } | { note: IacFinding } {
  if (text === null || text === undefined || text === '')
    return {
      note: note(
        file,
        subject,
        'type_unknown',
        'no volume type in the code (left to the AMI or unknown until apply): not checked',
      ),
    };
  const parsed = VolumeTypeSchema.safeParse(text.trim().toLowerCase());
  if (parsed.success) return { type: parsed.data };
  return {
    note: note(
      file,
      subject,
      'type_not_checked',
      `volume type "${text}" is not one Blockwise plans (gp3, gp2, io2, io1, st1, sc1): not checked`,
    ),
  };
}

/**
 * A raw volume resolved to a configuration, or a finding saying why it is not checked. IOPS and
 * throughput on a type that takes none are dropped: the AWS provider fills them with what EC2
 * computed (gp2: its baseline, 3 IOPS per GiB, and throughput 0) in planned_values and in a state,
 * so they describe the volume rather than ask for anything — and the provider refuses `iops` on
 * an aws_ebs_volume whose type takes none before a plan exists.
 */
export function resolveRawVolume(
  raw: IacRawVolume,
  file: string,
  origin: IacVolume['origin'],
): IacVolume | IacFinding {
  const type = resolveVolumeType(raw.type, file, raw.subject);
  if ('note' in type) return type.note;
  const unreadable = unreadableFinding(raw, file);
  if (unreadable) return unreadable;
  const number = (n: RawNumber) => (isUnreadable(n) ? null : setting(n));
  const size = number(raw.sizeGiB);
  if (size === null)
    return note(
      file,
      raw.subject,
      'size_unknown',
      'no size in the code (taken from the AMI snapshot, or unknown until apply): not checked',
    );
  const volume: IacVolume['volume'] = { type: type.type, sizeGiB: size };
  const takes = provisionedFieldsOf(type.type);
  const iops = number(raw.iops);
  const tp = number(raw.throughputMiBps);
  if (iops !== null && takes.iops) volume.iops = iops;
  if (tp !== null && takes.throughputMiBps) volume.throughputMiBps = tp;
  return {
    file,
    subject: raw.subject,
    origin,
    volume,
    instanceType: raw.instanceType,
    ...(raw.multiAttach ? { multiAttach: 'multi_attach_enabled' as const } : {}),
    ...(raw.instance ? { instance: raw.instance } : {}),
  };
}

function* walk(module: TerraformModule | undefined): Generator<TerraformResource> {
  if (!module) return;
  for (const r of module.resources ?? []) yield r;
  for (const child of module.child_modules ?? []) yield* walk(child);
}

/** The resources the plan will leave in place: planned_values, else a state's values, else resource_changes' `after`. */
function resourcesOf(plan: ReturnType<typeof TerraformPlanSchema.parse>): TerraformResource[] {
  const root = plan.planned_values?.root_module ?? plan.values?.root_module;
  if (root) return [...walk(root)];
  return (plan.resource_changes ?? [])
    .filter((c) => !(c.change.actions.length === 1 && c.change.actions[0] === 'delete'))
    .map((c) => ({ address: c.address, mode: c.mode, type: c.type, values: c.change.after ?? null }));
}

function rawVolumesOf(r: TerraformResource): IacRawVolume[] {
  const values = r.values ?? {};
  switch (r.type) {
    case 'aws_ebs_volume': {
      const v = TerraformEbsVolumeSchema.parse(values);
      // CreateVolume's default type is gp2 (EC2 API reference, CreateVolume VolumeType: "Default: gp2").
      return [
        {
          subject: r.address,
          type: v.type ?? 'gp2',
          sizeGiB: v.size,
          iops: v.iops,
          throughputMiBps: v.throughput,
          instanceType: null,
          attributes: EBS_VOLUME_ATTRIBUTES,
          multiAttach: v.multi_attach_enabled === true || v.multi_attach_enabled === 'true',
        },
      ];
    }
    case 'aws_instance': {
      const v = TerraformInstanceSchema.parse(values);
      const instanceType = v.instance_type ?? null;
      const block = (b: NonNullable<typeof v.root_block_device>[number], subject: string): IacRawVolume => ({
        subject,
        type: b.volume_type,
        sizeGiB: b.volume_size,
        iops: b.iops,
        throughputMiBps: b.throughput,
        instanceType,
        instance: r.address,
        attributes: BLOCK_DEVICE_ATTRIBUTES,
      });
      return [
        ...(v.root_block_device ?? []).map((b) => block(b, `${r.address} root_block_device`)),
        ...(v.ebs_block_device ?? []).map((b, i) =>
          block(b, `${r.address} ebs_block_device ${b.device_name ?? `[${i}]`}`),
        ),
      ];
    }
    case 'aws_launch_template': {
      const v = TerraformLaunchTemplateSchema.parse(values);
      const instanceType = v.instance_type ?? null;
      return (v.block_device_mappings ?? []).flatMap((m, i) =>
        (m.ebs ?? []).map((b) => ({
          subject: `${r.address} block_device_mappings ${m.device_name ?? `[${i}]`}`,
          type: b.volume_type,
          sizeGiB: b.volume_size,
          iops: b.iops,
          throughputMiBps: b.throughput,
          instanceType,
          instance: r.address,
          attributes: BLOCK_DEVICE_ATTRIBUTES,
        })),
      );
    }
    default:
      return [];
  }
}

/**
 * What the volumes a plan updates are today (`resource_changes[].change.before` of an update),
 * by subject: metrics were measured under those limits. Unreadable ones are left out (no finding:
 * the plan's own values are what is judged).
 */
function currentVolumesOf(plan: TerraformPlan, file: string): Map<string, IacVolume['volume']> {
  const out = new Map<string, IacVolume['volume']>();
  for (const c of plan.resource_changes ?? []) {
    if (!c.change.actions.includes('update') || !c.change.before || c.mode === 'data') continue;
    const parsed = (() => {
      try {
        return rawVolumesOf({ address: c.address, type: c.type, values: c.change.before });
      } catch {
        return [];
      }
    })();
    for (const raw of parsed) {
      const resolved = resolveRawVolume(raw, file, 'terraform');
      if (!('kind' in resolved)) out.set(resolved.subject, resolved.volume);
    }
  }
  return out;
}

const sameVolume = (a: IacVolume['volume'], b: IacVolume['volume']) =>
  a.type === b.type &&
  a.sizeGiB === b.sizeGiB &&
  a.iops === b.iops &&
  a.throughputMiBps === b.throughputMiBps;

function withCurrent(v: IacVolume, current: IacVolume['volume'] | undefined): IacVolume {
  return current && !sameVolume(current, v.volume) ? { ...v, current } : v;
}

/** Every EBS volume a Terraform plan provisions, with notes for those it cannot check. */
export function extractTerraformVolumes(doc: unknown, file: string): Result<IacExtracted> {
  const parsed = TerraformPlanSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(
      'not_a_terraform_plan',
      `expected \`terraform show -json\` output (an object with format_version and planned_values): ${issue?.path.join('.') || 'document'}: ${issue?.message ?? 'invalid'}`,
      issue?.path.join('.'),
    );
  }
  const volumes: IacVolume[] = [];
  const findings: IacFinding[] = [];
  const current = currentVolumesOf(parsed.data, file);
  for (const r of resourcesOf(parsed.data)) {
    if (r.mode === 'data') continue;
    for (const raw of rawVolumesOf(r)) {
      const resolved = resolveRawVolume(raw, file, 'terraform');
      if ('kind' in resolved) findings.push(resolved);
      else volumes.push(withCurrent(resolved, current.get(resolved.subject)));
    }
  }
  return ok({ volumes, findings });
}
