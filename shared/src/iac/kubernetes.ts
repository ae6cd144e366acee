import { descriptorOf, VOLUME_TYPES, type Gp3Generation, type VolumeType } from '../aws/volume-types.ts';
import { formatInt } from '../units.ts';
import {
  DEFAULT_CSI_DRIVER_VERSION,
  csiIopsRuleOf,
  formatCsiDriverVersion,
  type CsiDriverVersion,
  type CsiIopsRule,
} from './csi-driver.ts';
import {
  KubernetesObjectSchema,
  PersistentVolumeClaimSchema,
  StorageClassSchema,
  VolumeAttributesClassSchema,
  type IacFinding,
  type IacVolume,
} from './schema.ts';
import { resolveVolumeType, type IacExtracted } from './terraform.ts';

/**
 * EBS volumes that Kubernetes manifests provision through the AWS EBS CSI driver: a
 * PersistentVolumeClaim with its StorageClass (provisioner `ebs.csi.aws.com`) and, when it names
 * one, its VolumeAttributesClass (driverName `ebs.csi.aws.com`). The driver's behaviour is
 * described in docs/iac.md with its sources (the driver's docs/parameters.md, and its
 * pkg/driver/controller.go, controller_modify_volume.go and pkg/cloud/cloud.go).
 */

export const EBS_CSI_DRIVER = 'ebs.csi.aws.com';

/** A parsed manifest document and the file it came from. */
export type ManifestObject = { file: string; object: unknown };

const n0 = formatInt;

const finding = (
  kind: IacFinding['kind'],
  file: string,
  subject: string,
  code: string,
  message: string,
): IacFinding => ({ kind, code, file, subject, message, wasteUsdPerMonth: null });

/**
 * A Kubernetes resource quantity ("100Gi", "1Ti", "500G", "1e12", "1073741824") in bytes; null
 * when it is not one (Kubernetes API reference, "Quantity").
 */
export function parseQuantityBytes(text: unknown): number | null {
  const s = typeof text === 'number' ? String(text) : typeof text === 'string' ? text.trim() : null;
  if (s === null) return null;
  const m = /^(\d+(?:\.\d+)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/.exec(s);
  if (!m) return null;
  const factor: Record<string, number> = {
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    Ei: 2 ** 60,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
  };
  const value = Number(m[1]) * (m[2] ? factor[m[2]]! : m[3] ? 10 ** Number(m[3]) : 1);
  return Number.isFinite(value) ? value : null;
}

/** The driver rounds a claim's request up to whole GiB (pkg/util RoundUpBytes), the unit EBS sizes in. */
export const gibOfBytes = (bytes: number) => Math.max(1, Math.ceil(bytes / 2 ** 30 - 1e-12));

/** StorageClass parameter keys the driver's CreateVolume accepts, lower-cased (it compares them lower-cased). */
const CREATE_KEYS = new Set([
  'type',
  'iopspergb',
  'allowautoiopspergbincrease',
  'allowautoiopsincreaseonmodify',
  'iops',
  'throughput',
  'encrypted',
  'kmskeyid',
  'blockexpress',
  'blocksize',
  'inodesize',
  'bytesperinode',
  'numberofinodes',
  'ext4bigalloc',
  'ext4clustersize',
  'ext4encryptionsupport',
  'volumeinitializationrate',
  'blockattachuntilinitialized',
  'fstype',
]);

/** VolumeAttributesClass keys the driver's ModifyVolume accepts, compared as written (case-sensitive). */
const MODIFY_KEYS = new Set([
  'type',
  'volumeType',
  'iops',
  'throughput',
  'iopspergb',
  'allowautoiopsincreaseonmodify',
]);

/** Types the driver passes to CreateVolume (its docs/parameters.md "type" values). */
const DRIVER_TYPES = new Set(['io1', 'io2', 'gp2', 'gp3', 'sc1', 'st1', 'standard']);

/** The types that take provisioned IOPS (their descriptors give an IOPS range). */
const IOPS_TYPES: readonly string[] = VOLUME_TYPES.filter(
  (t) => descriptorOf(t).settingRanges('current').iops !== null,
);
const TAKES_IOPS = new Set(IOPS_TYPES);
const takesThroughput = (type: string) =>
  (VOLUME_TYPES as readonly string[]).includes(type) &&
  descriptorOf(type as VolumeType).settingRanges('current').throughputMiBps !== null;

/** What a class asks the driver for, after its own checks. */
export type EbsParameters = {
  type: string | null;
  iops: number | null;
  iopsPerGB: number | null;
  throughputMiBps: number | null;
  allowAutoIopsIncrease: boolean;
};

/**
 * Reads a StorageClass's or VolumeAttributesClass's parameters as the driver would, and says what
 * it would reject, ignore or change. `modify`: VolumeAttributesClass rules (case-sensitive keys).
 */
export function readEbsParameters(
  parameters: Record<string, unknown>,
  file: string,
  subject: string,
  modify: boolean,
): { params: EbsParameters; findings: IacFinding[] } {
  const findings: IacFinding[] = [];
  const params: EbsParameters = {
    type: null,
    iops: null,
    iopsPerGB: null,
    throughputMiBps: null,
    allowAutoIopsIncrease: false,
  };
  // As the driver reads them: Go's strconv.ParseInt(value, 10, 32) (no spaces, a sign allowed, 32
  // bits), and a value of 0 or less counts as not given (pkg/cloud CreateDisk: `IOPS > 0`).
  const integer = (key: string, value: string): number | null => {
    const n = /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
    if (Number.isSafeInteger(n) && n >= -(2 ** 31) && n < 2 ** 31) {
      if (n > 0) return n;
      findings.push(
        finding(
          'note',
          file,
          subject,
          'parameter_no_effect',
          `parameter ${key}: "${value}" asks for nothing (the driver treats 0 or less as not given)`,
        ),
      );
      return null;
    }
    findings.push(
      finding(
        'driver',
        file,
        subject,
        'parameter_not_integer',
        `parameter ${key}: "${value}" is not a whole number of at most 32 bits, without spaces; the driver refuses to ${modify ? 'modify' : 'create'} the volume ("Could not parse")`,
      ),
    );
    return null;
  };
  for (const [key, raw] of Object.entries(parameters)) {
    if (typeof raw !== 'string') {
      findings.push(
        finding(
          'invalid',
          file,
          subject,
          'parameter_not_string',
          `parameter ${key}: ${JSON.stringify(raw)} is not a string; Kubernetes rejects the object (parameters are a map of strings: quote the value)`,
        ),
      );
      continue;
    }
    if (key.startsWith('tagSpecification') || (modify && key.startsWith('tagDeletion'))) continue;
    if (!modify && key.startsWith('csi.storage.k8s.io/')) continue;
    const k = modify ? key : key.toLowerCase();
    if (!(modify ? MODIFY_KEYS : CREATE_KEYS).has(k)) {
      findings.push(
        finding(
          'driver',
          file,
          subject,
          'unknown_parameter',
          modify
            ? `parameter ${key} is not one the driver modifies (type, iops, throughput, iopspergb, allowautoiopsincreaseonmodify, tagSpecification_*, tagDeletion_*; keys are case-sensitive here): it fails every modification ("Invalid mutable parameter key")`
            : `parameter ${key} is not one the driver knows: it refuses to create volumes with this class ("Invalid parameter key")`,
        ),
      );
      continue;
    }
    switch (k) {
      case 'type':
      case 'volumeType':
        params.type = raw.trim().toLowerCase();
        break;
      case 'iops':
        params.iops = integer(key, raw);
        break;
      case 'iopspergb':
        params.iopsPerGB = integer(key, raw);
        break;
      case 'throughput':
        params.throughputMiBps = integer(key, raw);
        break;
      case 'allowautoiopspergbincrease':
        // The driver's isTrue: exactly "true" ("True" or " true" leave it off).
        params.allowAutoIopsIncrease = raw === 'true';
        break;
      case 'blockexpress':
        findings.push(
          finding(
            'note',
            file,
            subject,
            'parameter_no_effect',
            'parameter blockExpress has no effect: every io2 volume is Block Express now (the driver logs it as deprecated)',
          ),
        );
        break;
    }
  }
  const type = params.type ?? (modify ? null : 'gp3');
  if (params.type !== null && !DRIVER_TYPES.has(params.type))
    findings.push(
      finding(
        'driver',
        file,
        subject,
        'unknown_type',
        `type "${params.type}" is not an EBS volume type (io1, io2, gp2, gp3, sc1, st1, standard): EC2 rejects the volume`,
      ),
    );
  if (params.iops !== null && params.iopsPerGB !== null)
    findings.push(
      finding(
        'driver',
        file,
        subject,
        'iops_and_iops_per_gb',
        'iops and iopsPerGB are both set: the driver refuses every volume of this class ("specify either IOPS or IOPSPerGb, not both")',
      ),
    );
  if (type !== null && !TAKES_IOPS.has(type) && (params.iops !== null || params.iopsPerGB !== null))
    findings.push(
      finding(
        'driver',
        file,
        subject,
        'iops_not_supported',
        `${params.iops !== null ? 'iops' : 'iopsPerGB'} on ${type}: only ${IOPS_TYPES.slice(0, -1).join(', ')} and ${IOPS_TYPES.at(-1)} take provisioned IOPS; the driver passes it on and EC2 rejects the volume`,
      ),
    );
  if (type !== null && !takesThroughput(type) && params.throughputMiBps !== null)
    findings.push(
      finding(
        'driver',
        file,
        subject,
        'throughput_not_gp3',
        `throughput ${params.throughputMiBps} MiB/s on ${type}: throughput is only a gp3 setting (the driver's docs: "only effective when gp3 volume type is specified"); the driver passes it to EC2, which refuses it for other types — it never buys ${type} any throughput`,
      ),
    );
  return { params, findings };
}

/** The IOPS limits the driver caps a request with (it asks EC2 by dry run; these are the type's descriptor's, aws/volume-types/*.ts). */
function iopsLimitsOf(type: VolumeType, gen: Gp3Generation) {
  const d = descriptorOf(type);
  const range = d.settingRanges(gen).iops;
  if (range === null || d.maxIopsPerGiB === null) return null;
  return { min: range[0], max: range[1], perGiB: d.maxIopsPerGiB };
}

/**
 * What happens to an IOPS request, in the order of the driver's pkg/cloud capIOPS: (1) below the
 * type's minimum it is raised to it, only with allowAutoIOPSPerGBIncrease; (2) above the type's
 * maximum it is capped; (3) above IOPS-per-GiB × size it is capped to that product — when the
 * product is below the minimum, drivers up to v1.66 skip the cap (`skip-cap`) and those with PR
 * #3021 cap to the minimum instead (`cap-to-minimum`, iac/csi-driver.ts). Then EC2 judges what the
 * driver sends: below the minimum (`below-minimum`), or above the most it takes at this size, the
 * larger of the minimum and IOPS-per-GiB × size (`above-ratio`: gp3 includes 3,000 IOPS at any
 * size), it refuses the volume. Caps are silent; `limit` names the one that applied.
 */
export function driverIops(
  type: VolumeType,
  sizeGiB: number,
  requested: number,
  allowIncrease: boolean,
  gen: Gp3Generation,
  rule: CsiIopsRule = 'skip-cap',
): {
  iops: number;
  change: 'raised' | 'capped' | 'below-minimum' | 'above-ratio' | null;
  limit: string;
} {
  const l = iopsLimitsOf(type, gen);
  if (!l) return { iops: requested, change: null, limit: '' };
  const minimum = `${type}'s minimum of ${n0(l.min)} IOPS`;
  let iops = requested;
  let change: 'raised' | 'capped' | null = null;
  let limit = '';
  if (iops < l.min && allowIncrease) [iops, change, limit] = [l.min, 'raised', minimum];
  if (iops > l.max) [iops, change, limit] = [l.max, 'capped', `${type}'s maximum of ${n0(l.max)} IOPS`];
  const byCapacity = l.perGiB * sizeGiB;
  const ratio = `${n0(l.perGiB)} IOPS per GiB × ${n0(sizeGiB)} GiB = ${n0(byCapacity)} IOPS`;
  if (iops > byCapacity && byCapacity >= l.min) [iops, change, limit] = [byCapacity, 'capped', ratio];
  else if (iops > byCapacity && rule === 'cap-to-minimum')
    // PR #3021: the per-GiB cap below the minimum becomes the minimum — a raise for a request under it.
    [iops, change, limit] = [
      l.min,
      l.min < requested ? 'capped' : 'raised',
      `${minimum}, to which the driver caps a request above ${ratio} (PR #3021)`,
    ];
  if (iops < l.min) return { iops, change: 'below-minimum', limit: minimum };
  // Only reachable when the per-GiB cap was skipped (byCapacity < minimum): EC2 then takes the minimum at most.
  if (iops > Math.max(l.min, byCapacity))
    return {
      iops,
      change: 'above-ratio',
      limit: `the ${n0(l.min)} IOPS EC2 takes on a ${n0(sizeGiB)} GiB ${type} (${ratio} is below the ${n0(l.min)} minimum, which any size takes)`,
    };
  return { iops, change, limit };
}

const nameOf = (o: {
  metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined;
}) => `${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name ?? '(unnamed)'}`;

/**
 * How findings name an object (`StorageClass fast`, `PersistentVolumeClaim prod/pg-data`); null
 * for a document that is not a Kubernetes object. The CLI finds an object's line by it (SARIF).
 */
export function manifestSubject(object: unknown): string | null {
  const head = KubernetesObjectSchema.safeParse(object);
  return head.success ? `${head.data.kind} ${nameOf(head.data)}` : null;
}

type ClassEntry<P> = { file: string; object: P; params: EbsParameters };

/** Objects of a `List` (kubectl get -o yaml) are its items. */
function flatten(objects: readonly ManifestObject[]): ManifestObject[] {
  return objects.flatMap((o) => {
    const list = o.object as { kind?: unknown; items?: unknown };
    if (list && typeof list === 'object' && list.kind === 'List' && Array.isArray(list.items))
      return flatten(list.items.map((object) => ({ file: o.file, object })));
    return [o];
  });
}

/** Every EBS volume the manifests provision (one per PersistentVolumeClaim), and what the driver would do with the classes. */
export function extractKubernetesVolumes(
  objects: readonly ManifestObject[],
  gen: Gp3Generation = 'current',
  driverVersion: CsiDriverVersion = DEFAULT_CSI_DRIVER_VERSION,
): IacExtracted {
  const { rule, verified } = csiIopsRuleOf(driverVersion);
  const driver = `driver ${formatCsiDriverVersion(driverVersion)}`;
  const findings: IacFinding[] = [];
  const volumes: IacVolume[] = [];
  const classes = new Map<string, ClassEntry<ReturnType<typeof StorageClassSchema.parse>>>();
  const otherClasses = new Map<string, string>();
  const attributeClasses = new Map<string, ClassEntry<unknown>>();
  let defaultClass: string | null = null;
  const claims: { file: string; object: ReturnType<typeof PersistentVolumeClaimSchema.parse> }[] = [];

  for (const { file, object } of flatten(objects)) {
    const head = KubernetesObjectSchema.safeParse(object);
    if (!head.success) continue;
    const subject = `${head.data.kind} ${nameOf(head.data)}`;
    if (head.data.kind === 'StorageClass') {
      const sc = StorageClassSchema.safeParse(object);
      if (!sc.success) {
        findings.push(
          finding('invalid', file, subject, 'object_invalid', 'a StorageClass needs a provisioner'),
        );
        continue;
      }
      const name = sc.data.metadata?.name ?? '';
      const isDefault =
        sc.data.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true';
      if (isDefault) defaultClass = name;
      if (sc.data.provisioner !== EBS_CSI_DRIVER) {
        otherClasses.set(name, sc.data.provisioner);
        continue;
      }
      const read = readEbsParameters(sc.data.parameters ?? {}, file, subject, false);
      findings.push(...read.findings);
      classes.set(name, { file, object: sc.data, params: read.params });
    } else if (head.data.kind === 'VolumeAttributesClass') {
      const vac = VolumeAttributesClassSchema.safeParse(object);
      if (!vac.success || vac.data.driverName !== EBS_CSI_DRIVER) continue;
      const read = readEbsParameters(vac.data.parameters ?? {}, file, subject, true);
      findings.push(...read.findings);
      attributeClasses.set(vac.data.metadata?.name ?? '', { file, object: vac.data, params: read.params });
    } else if (head.data.kind === 'PersistentVolumeClaim') {
      const pvc = PersistentVolumeClaimSchema.safeParse(object);
      if (pvc.success) claims.push({ file, object: pvc.data });
    }
  }

  for (const { file, object } of claims) {
    const subject = `PersistentVolumeClaim ${nameOf(object)}`;
    const note = (code: string, message: string) =>
      findings.push(finding('note', file, subject, code, message));
    const named = object.spec.storageClassName;
    if (named === '') {
      note(
        'no_dynamic_provisioning',
        'storageClassName is "": binds a pre-made volume, nothing is provisioned: not checked',
      );
      continue;
    }
    const className = named ?? defaultClass;
    if (className === null || className === undefined) {
      note(
        'storage_class_unknown',
        'no storageClassName and no default StorageClass among the files: not checked',
      );
      continue;
    }
    const sc = classes.get(className);
    if (!sc) {
      const other = otherClasses.get(className);
      note(
        other ? 'not_ebs_csi' : 'storage_class_not_found',
        other
          ? `StorageClass ${className} uses provisioner ${other}, not ${EBS_CSI_DRIVER}: not checked`
          : `StorageClass ${className} is not among the files given: not checked`,
      );
      continue;
    }
    const bytes = parseQuantityBytes(object.spec.resources?.requests?.storage);
    if (bytes === null || bytes <= 0) {
      note('size_unknown', 'no resources.requests.storage quantity (such as 100Gi): not checked');
      continue;
    }
    const sizeGiB = gibOfBytes(bytes);
    const vacName = object.spec.volumeAttributesClassName ?? null;
    const vac = vacName ? attributeClasses.get(vacName) : undefined;
    if (vacName && !vac)
      note(
        'attributes_class_not_found',
        `VolumeAttributesClass ${vacName} is not among the files given (or not for ${EBS_CSI_DRIVER}): judged on the StorageClass alone`,
      );
    // The attributes class's values win over the StorageClass's (CSI spec: mutable_parameters take precedence).
    const p = sc.params;
    const v = vac?.params;
    const typeText = v?.type ?? p.type ?? 'gp3';
    const type = resolveVolumeType(typeText, file, subject);
    if ('note' in type) {
      findings.push(type.note);
      continue;
    }
    const t = type.type;
    const requested = v?.iops ?? p.iops ?? (p.iopsPerGB !== null ? p.iopsPerGB * sizeGiB : null);
    const volume: IacVolume['volume'] = { type: t, sizeGiB };
    if (requested !== null && TAKES_IOPS.has(t)) {
      const fromRatio = v?.iops == null && p.iops === null;
      const d = driverIops(t, sizeGiB, requested, p.allowAutoIopsIncrease, gen, rule);
      const asked = fromRatio
        ? `iopsPerGB ${p.iopsPerGB} × ${n0(sizeGiB)} GiB = ${n0(requested)} IOPS`
        : `${n0(requested)} IOPS`;
      if (d.change === 'below-minimum') {
        findings.push(
          finding(
            'driver',
            file,
            subject,
            'iops_below_minimum',
            `${asked} is below ${d.limit}: the volume is refused (the driver passes the request on and EC2 rejects it; set allowAutoIOPSPerGBIncrease: "true" to have it raised)`,
          ),
        );
        continue;
      }
      if (d.change === 'above-ratio') {
        findings.push(
          finding(
            'driver',
            file,
            subject,
            'iops_above_size_ratio',
            `${asked} is above ${d.limit}: the ${driver} does not cap it (its per-GiB cap would fall below the minimum) and EC2 refuses the volume; drivers after v1.66 cap it to the minimum (PR #3021)`,
          ),
        );
        continue;
      }
      if (d.change === 'raised')
        findings.push(
          finding(
            'driver',
            file,
            subject,
            'iops_raised',
            `${asked} is below ${d.limit}: the ${driver} raises it to ${n0(d.iops)}${p.allowAutoIopsIncrease ? ' (allowAutoIOPSPerGBIncrease)' : ''}`,
          ),
        );
      if (d.change === 'capped')
        findings.push(
          finding(
            'driver',
            file,
            subject,
            'iops_capped',
            `${asked} is above ${d.limit}: the ${driver} silently provisions ${n0(d.iops)} IOPS`,
          ),
        );
      volume.iops = d.iops;
    }
    const throughput = v?.throughputMiBps ?? p.throughputMiBps;
    if (throughput !== null && takesThroughput(t)) volume.throughputMiBps = throughput;
    // ReadWriteMany is how a claim asks the EBS CSI driver for Multi-Attach (its docs/multi-attach.md).
    const multiNode = object.spec.accessModes?.includes('ReadWriteMany') ?? false;
    const block = object.spec.volumeMode === 'Block';
    volumes.push({
      file,
      subject,
      origin: 'kubernetes',
      volume,
      instanceType: null,
      ...(multiNode
        ? { multiAttach: block ? ('ReadWriteMany Block' as const) : ('ReadWriteMany Filesystem' as const) }
        : {}),
    });
  }
  if (!verified && volumes.length > 0)
    findings.push(
      finding(
        'note',
        volumes[0]!.file,
        `EBS CSI driver ${formatCsiDriverVersion(driverVersion)}`,
        'csi_driver_version_unverified',
        `the driver's IOPS handling was read for v1.52.0 and later (docs/iac.md); ${formatCsiDriverVersion(driverVersion)} may raise, cap or refuse differently: its IOPS findings follow v1.52`,
      ),
    );
  return { volumes, findings };
}
