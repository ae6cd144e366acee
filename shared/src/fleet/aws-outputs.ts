import { z } from 'zod';
import { unitSchema } from '../units.ts';

/**
 * The AWS CLI outputs the fleet planner reads (`--output json`), only the fields it needs; extra
 * fields pass (AWS adds fields over time). Shapes from the EC2 and CloudWatch API references:
 * DescribeVolumes https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeVolumes.html,
 * DescribeInstances https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html,
 * GetMetricData https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_GetMetricData.html.
 */

/**
 * AWS ids and type names are short tokens (`vol-0abc…`, `i-0abc…`, `m5.large`, `gp3`): anything
 * else (spaces, control characters) is refused here, so every printed id is inert and a query
 * Label (`<volume id> <metric>`) splits back unambiguously.
 */
const AwsToken = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'expected an AWS id or type name (letters, digits, . _ : -)');

export const VolumeAttachmentSchema = z.looseObject({
  InstanceId: AwsToken,
  Device: z.string().optional(),
  /** attaching | attached | detaching | detached | busy */
  State: z.string().optional(),
});

export const AwsTagSchema = z.looseObject({ Key: z.string(), Value: z.string() });

export const AwsVolumeSchema = z.looseObject({
  VolumeId: AwsToken,
  /** GiB: AWS's `Size`, read as GiB here and nowhere else (parse.ts maps it to `sizeGib`). */
  Size: unitSchema.gib(z.number().int().positive()),
  /** gp2 | gp3 | io1 | io2 | st1 | sc1 | standard */
  VolumeType: AwsToken,
  Iops: unitSchema.iops(z.number().nonnegative()).optional(),
  /** MiB/s (gp3 only): AWS's `Throughput` (parse.ts maps it to `throughputMibps`). */
  Throughput: unitSchema.mibps(z.number().nonnegative()).optional(),
  /** creating | available | in-use | deleting | deleted | error */
  State: AwsToken,
  AvailabilityZone: z.string().optional(),
  Attachments: z.array(VolumeAttachmentSchema).default([]),
  Tags: z.array(AwsTagSchema).optional(),
});
export type AwsVolume = z.infer<typeof AwsVolumeSchema>;

export const DescribeVolumesOutputSchema = z.looseObject({
  Volumes: z.array(AwsVolumeSchema),
  NextToken: z.string().nullable().optional(),
});

export const AwsInstanceSchema = z.looseObject({
  InstanceId: AwsToken,
  /** e.g. m5.xlarge: the planner takes the EBS limits of this type from the catalog. */
  InstanceType: AwsToken,
  /** pending | running | shutting-down | terminated | stopping | stopped */
  State: z.looseObject({ Name: AwsToken }),
});

export const DescribeInstancesOutputSchema = z.looseObject({
  Reservations: z.array(z.looseObject({ Instances: z.array(AwsInstanceSchema) })),
  NextToken: z.string().nullable().optional(),
});

export const MetricDataResultSchema = z.looseObject({
  Id: z.string(),
  Label: z.string().optional(),
  /**
   * ISO 8601 (AWS CLI v2's default) or epoch seconds (v1 prints what the service sends; v2 with
   * `cli_timestamp_format = wire`); CloudWatch returns them sorted (newest first unless ScanBy says otherwise).
   */
  Timestamps: z.array(z.union([z.string(), z.number()])),
  Values: z.array(z.number()),
  /** Complete | InternalError | PartialData | Forbidden */
  StatusCode: z.string().optional(),
});

export const GetMetricDataOutputSchema = z.looseObject({
  MetricDataResults: z.array(MetricDataResultSchema),
  NextToken: z.string().nullable().optional(),
  Messages: z.array(z.looseObject({ Code: z.string().optional(), Value: z.string().optional() })).optional(),
});
