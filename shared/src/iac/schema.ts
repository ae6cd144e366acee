import { z } from 'zod';
import { VolumeTypeSchema } from '../aws/volume-types.ts';
import { CostBreakdownSchema } from '../plan/cost.ts';
import { VolumeConfigSchema } from '../plan/volume.ts';

/**
 * The infrastructure-as-code check (docs/iac.md): what a Terraform plan or a set of Kubernetes
 * manifests provisions, and what is wrong with it. The input schemas read only the fields the
 * check needs and let everything else through: both formats carry far more than volumes.
 */

/**
 * A number attribute the check could not read ("abc", `true`, an object): kept as such, so the
 * volume is reported (`attribute_not_a_number`) instead of judged as if the setting were unset —
 * that would judge a configuration the code does not provision.
 */
export const UnreadableNumberSchema = z.object({ unreadable: z.unknown() });
export type UnreadableNumber = z.infer<typeof UnreadableNumberSchema>;

/** A non-negative decimal as JSON or text writes it: `64`, `1.5`, `.5`, `1e4`, `1.2E+4`. */
const NUMERIC_TEXT = /^\s*(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * A number attribute of a plan: a JSON number, or a number written as a string (plans of older
 * providers and hand-written JSON carry some); absent or null when unset; anything else unreadable.
 */
const optionalNumber = z
  .unknown()
  .transform((v): number | null | undefined | UnreadableNumber => {
    if (v === undefined || v === null) return v;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && NUMERIC_TEXT.test(v) && Number.isFinite(Number(v))) return Number(v);
    return { unreadable: v };
  })
  .optional();
const optionalString = z.string().nullable().optional().catch(undefined);

/**
 * One resource in `terraform show -json` output (Terraform "JSON Output Format",
 * https://developer.hashicorp.com/terraform/internals/json-format): `values` holds the planned
 * attributes; attributes unknown until apply are left out of it.
 */
export const TerraformResourceSchema = z.looseObject({
  address: z.string(),
  mode: z.string().optional(),
  type: z.string(),
  values: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type TerraformResource = z.infer<typeof TerraformResourceSchema>;

export type TerraformModule = {
  address?: string | undefined;
  resources?: TerraformResource[] | undefined;
  child_modules?: TerraformModule[] | undefined;
};
export const TerraformModuleSchema: z.ZodType<TerraformModule> = z.lazy(() =>
  z.looseObject({
    address: z.string().optional(),
    resources: z.array(TerraformResourceSchema).optional(),
    child_modules: z.array(TerraformModuleSchema).optional(),
  }),
);

const ResourceChangeSchema = z.looseObject({
  address: z.string(),
  mode: z.string().optional(),
  type: z.string(),
  change: z.looseObject({
    actions: z.array(z.string()),
    before: z.record(z.string(), z.unknown()).nullable().optional(),
    after: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
});

/** `terraform show -json plan.tfplan` (planned_values) or `terraform show -json` of a state (values). */
export const TerraformPlanSchema = z.looseObject({
  format_version: z.string(),
  terraform_version: z.string().optional(),
  planned_values: z.looseObject({ root_module: TerraformModuleSchema.optional() }).optional(),
  values: z.looseObject({ root_module: TerraformModuleSchema.optional() }).optional(),
  resource_changes: z.array(ResourceChangeSchema).optional(),
});
export type TerraformPlan = z.infer<typeof TerraformPlanSchema>;

/** The block device attributes of aws_instance (root_block_device, ebs_block_device) and aws_launch_template (ebs). */
export const TerraformBlockDeviceSchema = z.looseObject({
  device_name: optionalString,
  volume_type: optionalString,
  volume_size: optionalNumber,
  iops: optionalNumber,
  throughput: optionalNumber,
});

export const TerraformEbsVolumeSchema = z.looseObject({
  type: optionalString,
  size: optionalNumber,
  iops: optionalNumber,
  throughput: optionalNumber,
  /** A boolean in a plan; `"true"` from hand-written JSON is read as true too. */
  multi_attach_enabled: z.unknown().optional(),
});

const blockList = z.array(TerraformBlockDeviceSchema).nullable().optional().catch(undefined);
export const TerraformInstanceSchema = z.looseObject({
  instance_type: optionalString,
  root_block_device: blockList,
  ebs_block_device: blockList,
});

export const TerraformLaunchTemplateSchema = z.looseObject({
  instance_type: optionalString,
  block_device_mappings: z
    .array(z.looseObject({ device_name: optionalString, ebs: blockList }))
    .nullable()
    .optional()
    .catch(undefined),
});

/** The envelope every Kubernetes object has (Kubernetes API conventions). */
export const KubernetesObjectSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z
    .looseObject({
      name: z.string().optional(),
      namespace: z.string().optional(),
      annotations: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .optional(),
});

/** StorageClass (storage.k8s.io/v1): `parameters` is a map of strings handed to the CSI driver. */
export const StorageClassSchema = KubernetesObjectSchema.extend({
  provisioner: z.string(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** VolumeAttributesClass (storage.k8s.io/v1beta1, v1 since Kubernetes 1.34): mutable parameters. */
export const VolumeAttributesClassSchema = KubernetesObjectSchema.extend({
  driverName: z.string(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const PersistentVolumeClaimSchema = KubernetesObjectSchema.extend({
  spec: z.looseObject({
    storageClassName: z.string().nullable().optional(),
    volumeAttributesClassName: z.string().nullable().optional(),
    /** ReadWriteOnce, ReadWriteMany, …: anything else than a list of strings reads as none given. */
    accessModes: z.array(z.unknown()).nullable().optional().catch(undefined),
    /** Filesystem (the default) or Block. */
    volumeMode: z.unknown().optional(),
    resources: z
      .looseObject({ requests: z.record(z.string(), z.unknown()).nullable().optional() })
      .nullable()
      .optional(),
  }),
});

/** A volume the code provisions, resolved to the settings AWS would receive. */
export const IacVolumeSchema = z.object({
  file: z.string(),
  /** `aws_ebs_volume.data`, `aws_instance.db root_block_device`, `PersistentVolumeClaim prod/pg-data`. */
  subject: z.string(),
  origin: z.enum(['terraform', 'kubernetes']),
  volume: VolumeConfigSchema,
  /** The EC2 instance type it attaches to, when the code says (aws_instance, aws_launch_template). */
  instanceType: z.string().nullable(),
  /**
   * Multi-Attach asked for, and how: Terraform's `multi_attach_enabled = true`, or a claim with
   * access mode ReadWriteMany in Block or Filesystem volume mode (the EBS CSI driver's way to ask).
   */
  multiAttach: z.enum(['multi_attach_enabled', 'ReadWriteMany Block', 'ReadWriteMany Filesystem']).optional(),
  /**
   * The resource it attaches to in the code (`aws_instance.db`, `aws_launch_template.web`): the
   * volumes of one share its EBS caps and are checked together (iac/instance-groups.ts).
   */
  instance: z.string().nullable().optional(),
  /**
   * What the volume is today, when the plan changes it (Terraform `resource_changes[].change.before`
   * differing from what the plan provisions): metrics were delivered under these limits, so
   * censoring is judged against them (iac/check.ts).
   */
  current: VolumeConfigSchema.optional(),
});
export type IacVolume = z.infer<typeof IacVolumeSchema>;

/**
 * `over` and `under`: against measured demand; `instance-cap`: the instance's EBS cap binds before
 * the volume does; `invalid`: AWS rejects or caps the combination; `driver`: the EBS CSI driver
 * rejects, ignores or silently changes a parameter; `hint`: a cheaper configuration at equal
 * performance, needing no demand (never fails a build); `note`: a check that could not be made.
 */
export const IAC_FINDING_KINDS = [
  'over',
  'under',
  'instance-cap',
  'invalid',
  'driver',
  'hint',
  'note',
] as const;
export const IacFindingKindSchema = z.enum(IAC_FINDING_KINDS);
export type IacFindingKind = z.infer<typeof IacFindingKindSchema>;

export const IacFindingSchema = z.object({
  kind: IacFindingKindSchema,
  /** Stable: part of the CLI's JSON output (docs/iac.md lists them). */
  code: z.string(),
  file: z.string(),
  subject: z.string(),
  message: z.string(),
  /**
   * `over`: USD per month above the cheapest configuration meeting demand × (1 + headroom);
   * `hint` (`gp2_to_gp3`): USD per month saved at equal performance.
   */
  wasteUsdPerMonth: z.number().nullable(),
});
export type IacFinding = z.infer<typeof IacFindingSchema>;

export const IacVolumeResultSchema = IacVolumeSchema.extend({
  /** The configuration as provisioned, per month (null: the region has no price for the type). */
  monthlyUsd: CostBreakdownSchema.nullable(),
  /** The cheapest configuration meeting demand × (1 + headroom); null without demand. */
  rightSized: z
    .object({ type: VolumeTypeSchema, volume: VolumeConfigSchema, monthlyUsd: CostBreakdownSchema })
    .nullable(),
});
export type IacVolumeResult = z.infer<typeof IacVolumeResultSchema>;

export const IacReportSchema = z.object({
  volumes: z.array(IacVolumeResultSchema),
  findings: z.array(IacFindingSchema),
  /** What the volumes were judged against; null when no demand was given (static rules only). */
  demand: z
    .object({
      source: z.string(),
      peakIops: z.number(),
      peakThroughputMiBps: z.number(),
      headroom: z.number(),
      targetIops: z.number(),
      targetThroughputMiBps: z.number(),
    })
    .nullable(),
  /** "us-east-1, prices as of 2024-07-18, source: …" */
  prices: z.string(),
});
export type IacReport = z.infer<typeof IacReportSchema>;
