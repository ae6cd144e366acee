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

/** Where a finding points: the manifest file and the object in it. */
type At = { file: string; subject: string };
const findingAt = (at: At, kind: IacFinding['kind'], code: string, message: string) =>
  finding(kind, at.file, at.subject, code, message);

/** What one parameter sets (last key wins, as in the driver's loop) and what it draws. */
type ParameterRead = { set: Partial<EbsParameters>; findings: IacFinding[] };
const NOTHING: ParameterRead = { set: {}, findings: [] };

/**
 * Reads a StorageClass's or VolumeAttributesClass's parameters as the driver would, and says what
 * it would reject, ignore or change. `modify`: VolumeAttributesClass rules (case-sensitive keys).
 * Each parameter is read on its own (readParameter), then the combination is checked.
 */
export function readEbsParameters(
  parameters: Record<string, unknown>,
  file: string,
  subject: string,
  modify: boolean,
): { params: EbsParameters; findings: IacFinding[] } {
  const at = { file, subject };
  const findings: IacFinding[] = [];
  const params: EbsParameters = {
    type: null,
    iops: null,
    iopsPerGB: null,
    throughputMiBps: null,
    allowAutoIopsIncrease: false,
  };
  for (const [key, raw] of Object.entries(parameters)) {
    const read = readParameter(key, raw, modify, at);
    Object.assign(params, read.set);
    findings.push(...read.findings);
  }
  findings.push(...checkParameterCombination(params, modify, at));
  return { params, findings };
}

/**
 * Keys the driver hands on without reading them as volume settings: tags (`tagSpecification_*`,
 * and `tagDeletion_*` when modifying) and, on a StorageClass, the `csi.storage.k8s.io/` keys
 * Kubernetes itself consumes (fstype, secrets).
 */
export function isPassedThrough(key: string, modify: boolean): boolean {
  if (key.startsWith('tagSpecification') || (modify && key.startsWith('tagDeletion'))) return true;
  return !modify && key.startsWith('csi.storage.k8s.io/');
}

/** One parameter: not a string (Kubernetes refuses), passed through, unknown (the driver refuses), or a setting. */
function readParameter(key: string, raw: unknown, modify: boolean, at: At): ParameterRead {
  if (typeof raw !== 'string') {
    return {
      set: {},
      findings: [
        findingAt(
          at,
          'invalid',
          'parameter_not_string',
          `parameter ${key}: ${JSON.stringify(raw)} is not a string; Kubernetes rejects the object (parameters are a map of strings: quote the value)`,
        ),
      ],
    };
  }
  if (isPassedThrough(key, modify)) return NOTHING;
  const k = modify ? key : key.toLowerCase();
  if (!(modify ? MODIFY_KEYS : CREATE_KEYS).has(k)) {
    return {
      set: {},
      findings: [
        findingAt(
          at,
          'driver',
          'unknown_parameter',
          modify
            ? `parameter ${key} is not one the driver modifies (type, iops, throughput, iopspergb, allowautoiopsincreaseonmodify, tagSpecification_*, tagDeletion_*; keys are case-sensitive here): it fails every modification ("Invalid mutable parameter key")`
            : `parameter ${key} is not one the driver knows: it refuses to create volumes with this class ("Invalid parameter key")`,
        ),
      ],
    };
  }
  return readKnownParameter(k, key, raw, modify, at);
}

/** The integer settings and the field each fills (the driver parses all three the same way). */
const INTEGER_PARAMETERS = { iops: 'iops', iopspergb: 'iopsPerGB', throughput: 'throughputMiBps' } as const;

/** A key the driver accepts (`k` as it compares it): the setting it makes; the rest (encrypted, fstype…) set nothing judged here. */
function readKnownParameter(k: string, key: string, raw: string, modify: boolean, at: At): ParameterRead {
  if (k === 'type' || k === 'volumeType') return { set: { type: raw.trim().toLowerCase() }, findings: [] };
  if (k in INTEGER_PARAMETERS) {
    const read = readDriverInteger(key, raw, modify, at);
    const field = INTEGER_PARAMETERS[k as keyof typeof INTEGER_PARAMETERS];
    return { set: { [field]: read.value }, findings: read.finding ? [read.finding] : [] };
  }
  // The driver's isTrue: exactly "true" ("True" or " true" leave it off).
  if (k === 'allowautoiopspergbincrease')
    return { set: { allowAutoIopsIncrease: raw === 'true' }, findings: [] };
  if (k === 'blockexpress') {
    return {
      set: {},
      findings: [
        findingAt(
          at,
          'note',
          'parameter_no_effect',
          'parameter blockExpress has no effect: every io2 volume is Block Express now (the driver logs it as deprecated)',
        ),
      ],
    };
  }
  return NOTHING;
}

/**
 * An integer parameter as the driver reads it: Go's strconv.ParseInt(value, 10, 32) (no spaces, a
 * sign allowed, 32 bits), and a value of 0 or less counts as not given (pkg/cloud CreateDisk:
 * `IOPS > 0`). Null with the finding that says why when it sets nothing.
 */
export function readDriverInteger(
  key: string,
  value: string,
  modify: boolean,
  at: At,
): { value: number | null; finding: IacFinding | null } {
  const n = /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
  if (!(Number.isSafeInteger(n) && n >= -(2 ** 31) && n < 2 ** 31)) {
    return {
      value: null,
      finding: findingAt(
        at,
        'driver',
        'parameter_not_integer',
        `parameter ${key}: "${value}" is not a whole number of at most 32 bits, without spaces; the driver refuses to ${modify ? 'modify' : 'create'} the volume ("Could not parse")`,
      ),
    };
  }
  if (n > 0) return { value: n, finding: null };
  return {
    value: null,
    finding: findingAt(
      at,
      'note',
      'parameter_no_effect',
      `parameter ${key}: "${value}" asks for nothing (the driver treats 0 or less as not given)`,
    ),
  };
}

/**
 * What the settings of one class do together: a type EC2 does not know, iops with iopsPerGB (the
 * driver refuses), IOPS on a type without provisioned IOPS, throughput on anything but gp3 (EC2
 * refuses). A StorageClass without a type is gp3 (the driver's default); a VolumeAttributesClass
 * without one keeps the volume's type, so its type-dependent checks are left to the claim.
 */
function checkParameterCombination(params: EbsParameters, modify: boolean, at: At): IacFinding[] {
  const findings: IacFinding[] = [];
  const type = params.type ?? (modify ? null : 'gp3');
  if (params.type !== null && !DRIVER_TYPES.has(params.type))
    findings.push(
      findingAt(
        at,
        'driver',
        'unknown_type',
        `type "${params.type}" is not an EBS volume type (io1, io2, gp2, gp3, sc1, st1, standard): EC2 rejects the volume`,
      ),
    );
  if (params.iops !== null && params.iopsPerGB !== null)
    findings.push(
      findingAt(
        at,
        'driver',
        'iops_and_iops_per_gb',
        'iops and iopsPerGB are both set: the driver refuses every volume of this class ("specify either IOPS or IOPSPerGb, not both")',
      ),
    );
  if (type !== null && !TAKES_IOPS.has(type) && (params.iops !== null || params.iopsPerGB !== null))
    findings.push(
      findingAt(
        at,
        'driver',
        'iops_not_supported',
        `${params.iops !== null ? 'iops' : 'iopsPerGB'} on ${type}: only ${IOPS_TYPES.slice(0, -1).join(', ')} and ${IOPS_TYPES.at(-1)} take provisioned IOPS; the driver passes it on and EC2 rejects the volume`,
      ),
    );
  if (type !== null && !takesThroughput(type) && params.throughputMiBps !== null)
    findings.push(
      findingAt(
        at,
        'driver',
        'throughput_not_gp3',
        `throughput ${params.throughputMiBps} MiB/s on ${type}: throughput is only a gp3 setting (the driver's docs: "only effective when gp3 volume type is specified"); the driver passes it to EC2, which refuses it for other types — it never buys ${type} any throughput`,
      ),
    );
  return findings;
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

type StorageClass = ReturnType<typeof StorageClassSchema.parse>;
type Claim = { file: string; object: ReturnType<typeof PersistentVolumeClaimSchema.parse> };

/** The classes the files define, by name, and the claims to judge against them. */
type ManifestIndex = {
  classes: Map<string, ClassEntry<StorageClass>>;
  /** StorageClasses of other provisioners: name → provisioner (a claim on one is not checked, and says so). */
  otherClasses: Map<string, string>;
  attributeClasses: Map<string, ClassEntry<unknown>>;
  /** The class annotated is-default-class (the last one, when several are). */
  defaultClass: string | null;
  claims: Claim[];
  /** What reading the classes found. */
  findings: IacFinding[];
};

/** What the driver is known to do with IOPS requests, and how findings name the driver. */
type DriverContext = { gen: Gp3Generation; rule: CsiIopsRule; driver: string };

/**
 * Every EBS volume the manifests provision (one per PersistentVolumeClaim), and what the driver
 * would do with the classes. Steps: index the objects (classes first, so a claim may come before
 * its class in the files), judge each claim, then say when the driver version was not read.
 */
export function extractKubernetesVolumes(
  objects: readonly ManifestObject[],
  gen: Gp3Generation = 'current',
  driverVersion: CsiDriverVersion = DEFAULT_CSI_DRIVER_VERSION,
): IacExtracted {
  const { rule, verified } = csiIopsRuleOf(driverVersion);
  const context: DriverContext = { gen, rule, driver: `driver ${formatCsiDriverVersion(driverVersion)}` };
  const index = indexManifests(objects);
  const findings = [...index.findings];
  const volumes: IacVolume[] = [];
  for (const claim of index.claims) {
    const judged = judgeClaim(claim, index, context);
    findings.push(...judged.findings);
    if (judged.volume) volumes.push(judged.volume);
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

/** Sorts the Kubernetes objects of the files into classes by name and claims; anything else is ignored. */
function indexManifests(objects: readonly ManifestObject[]): ManifestIndex {
  const index: ManifestIndex = {
    classes: new Map(),
    otherClasses: new Map(),
    attributeClasses: new Map(),
    defaultClass: null,
    claims: [],
    findings: [],
  };
  for (const { file, object } of flatten(objects)) {
    const head = KubernetesObjectSchema.safeParse(object);
    if (!head.success) continue;
    const at = { file, subject: `${head.data.kind} ${nameOf(head.data)}` };
    if (head.data.kind === 'StorageClass') addStorageClass(index, object, at);
    else if (head.data.kind === 'VolumeAttributesClass') addAttributesClass(index, object, at);
    else if (head.data.kind === 'PersistentVolumeClaim') {
      const pvc = PersistentVolumeClaimSchema.safeParse(object);
      if (pvc.success) index.claims.push({ file, object: pvc.data });
    }
  }
  return index;
}

/** A StorageClass: remembered as the default if annotated so; its parameters read only when it is the EBS CSI driver's. */
function addStorageClass(index: ManifestIndex, object: unknown, at: At): void {
  const sc = StorageClassSchema.safeParse(object);
  if (!sc.success) {
    index.findings.push(findingAt(at, 'invalid', 'object_invalid', 'a StorageClass needs a provisioner'));
    return;
  }
  const name = sc.data.metadata?.name ?? '';
  if (sc.data.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true')
    index.defaultClass = name;
  if (sc.data.provisioner !== EBS_CSI_DRIVER) {
    index.otherClasses.set(name, sc.data.provisioner);
    return;
  }
  const read = readEbsParameters(sc.data.parameters ?? {}, at.file, at.subject, false);
  index.findings.push(...read.findings);
  index.classes.set(name, { file: at.file, object: sc.data, params: read.params });
}

/** A VolumeAttributesClass of the EBS CSI driver (others are not ours to judge), read with the modify rules. */
function addAttributesClass(index: ManifestIndex, object: unknown, at: At): void {
  const vac = VolumeAttributesClassSchema.safeParse(object);
  if (!vac.success || vac.data.driverName !== EBS_CSI_DRIVER) return;
  const read = readEbsParameters(vac.data.parameters ?? {}, at.file, at.subject, true);
  index.findings.push(...read.findings);
  index.attributeClasses.set(vac.data.metadata?.name ?? '', {
    file: at.file,
    object: vac.data,
    params: read.params,
  });
}

/**
 * One claim → the volume the driver provisions for it, or the note that says why it is not
 * checked (no class, another provisioner, no size, an unknown type) or the driver finding that
 * says EC2 refuses it.
 */
function judgeClaim(
  claim: Claim,
  index: ManifestIndex,
  context: DriverContext,
): { volume: IacVolume | null; findings: IacFinding[] } {
  const { file, object } = claim;
  const at = { file, subject: `PersistentVolumeClaim ${nameOf(object)}` };
  const refused = (f: IacFinding) => ({ volume: null, findings: [f] });
  const sc = findStorageClass(object.spec.storageClassName, index, at);
  if ('note' in sc) return refused(sc.note);
  const bytes = parseQuantityBytes(object.spec.resources?.requests?.storage);
  if (bytes === null || bytes <= 0)
    return refused(
      findingAt(
        at,
        'note',
        'size_unknown',
        'no resources.requests.storage quantity (such as 100Gi): not checked',
      ),
    );
  const sizeGiB = gibOfBytes(bytes);
  const vac = findAttributesClass(object.spec.volumeAttributesClassName, index, at);
  const findings = vac.findings;
  const request = mergeClassRequest(sc.entry.params, vac.entry?.params, sizeGiB);
  const type = resolveVolumeType(request.type, file, at.subject);
  if ('note' in type) return { volume: null, findings: [...findings, type.note] };
  const volume: IacVolume['volume'] = { type: type.type, sizeGiB };
  if (request.iops !== null && TAKES_IOPS.has(type.type)) {
    const iops = provisionIops(type.type, sizeGiB, request.iops, sc.entry.params, context, at);
    findings.push(...iops.findings);
    if (iops.iops === null) return { volume: null, findings };
    volume.iops = iops.iops;
  }
  if (request.throughputMiBps !== null && takesThroughput(type.type))
    volume.throughputMiBps = request.throughputMiBps;
  const multiAttach = multiAttachOf(object.spec);
  return {
    volume: {
      file,
      subject: at.subject,
      origin: 'kubernetes',
      volume,
      instanceType: null,
      ...(multiAttach ? { multiAttach } : {}),
    },
    findings,
  };
}

/**
 * The claim's StorageClass among the files, or the note that says why the claim is not checked:
 * `storageClassName: ""` binds a pre-made volume; no name takes the default class; a class of
 * another provisioner is not the EBS CSI driver's.
 */
function findStorageClass(
  named: string | null | undefined,
  index: Pick<ManifestIndex, 'classes' | 'otherClasses' | 'defaultClass'>,
  at: At,
): { entry: ClassEntry<StorageClass> } | { note: IacFinding } {
  const note = (code: string, message: string) => ({ note: findingAt(at, 'note', code, message) });
  if (named === '')
    return note(
      'no_dynamic_provisioning',
      'storageClassName is "": binds a pre-made volume, nothing is provisioned: not checked',
    );
  const className = named ?? index.defaultClass;
  if (className === null)
    return note(
      'storage_class_unknown',
      'no storageClassName and no default StorageClass among the files: not checked',
    );
  const entry = index.classes.get(className);
  if (entry) return { entry };
  const other = index.otherClasses.get(className);
  return other
    ? note(
        'not_ebs_csi',
        `StorageClass ${className} uses provisioner ${other}, not ${EBS_CSI_DRIVER}: not checked`,
      )
    : note('storage_class_not_found', `StorageClass ${className} is not among the files given: not checked`);
}

/**
 * The claim's VolumeAttributesClass, when it names one: a name not among the files (or of another
 * driver) is a note, and the claim is judged on its StorageClass alone rather than not at all.
 */
function findAttributesClass(
  named: string | null | undefined,
  index: Pick<ManifestIndex, 'attributeClasses'>,
  at: At,
): { entry: ClassEntry<unknown> | undefined; findings: IacFinding[] } {
  if (!named) return { entry: undefined, findings: [] };
  const entry = index.attributeClasses.get(named);
  if (entry) return { entry, findings: [] };
  return {
    entry: undefined,
    findings: [
      findingAt(
        at,
        'note',
        'attributes_class_not_found',
        `VolumeAttributesClass ${named} is not among the files given (or not for ${EBS_CSI_DRIVER}): judged on the StorageClass alone`,
      ),
    ],
  };
}

/** What a claim asks for: IOPS as given, or iopsPerGB × size (the text says which). */
type IopsRequest = { value: number; fromRatio: boolean };

/**
 * What the claim's classes ask for together. The attributes class's values win over the
 * StorageClass's (CSI spec: mutable_parameters take precedence); no type anywhere is gp3 (the
 * driver's default); IOPS come from iops, else the StorageClass's iopsPerGB × the claim's size.
 */
export function mergeClassRequest(
  storageClass: EbsParameters,
  attributes: EbsParameters | undefined,
  sizeGiB: number,
): { type: string; iops: IopsRequest | null; throughputMiBps: number | null } {
  const given = attributes?.iops ?? storageClass.iops;
  const iops: IopsRequest | null =
    given !== null
      ? { value: given, fromRatio: false }
      : storageClass.iopsPerGB !== null
        ? { value: storageClass.iopsPerGB * sizeGiB, fromRatio: true }
        : null;
  return {
    type: attributes?.type ?? storageClass.type ?? 'gp3',
    iops,
    throughputMiBps: attributes?.throughputMiBps ?? storageClass.throughputMiBps,
  };
}

/**
 * The IOPS the driver provisions for a request (driverIops) and what it says about it: a raise or
 * a silent cap is a finding on a volume that exists; a request EC2 refuses leaves no volume
 * (`iops: null`).
 */
function provisionIops(
  type: VolumeType,
  sizeGiB: number,
  request: IopsRequest,
  storageClass: EbsParameters,
  context: DriverContext,
  at: At,
): { iops: number | null; findings: IacFinding[] } {
  const { driver } = context;
  const d = driverIops(
    type,
    sizeGiB,
    request.value,
    storageClass.allowAutoIopsIncrease,
    context.gen,
    context.rule,
  );
  const asked = request.fromRatio
    ? `iopsPerGB ${storageClass.iopsPerGB} × ${n0(sizeGiB)} GiB = ${n0(request.value)} IOPS`
    : `${n0(request.value)} IOPS`;
  const say = (code: string, message: string) => [findingAt(at, 'driver', code, message)];
  switch (d.change) {
    case 'below-minimum':
      return {
        iops: null,
        findings: say(
          'iops_below_minimum',
          `${asked} is below ${d.limit}: the volume is refused (the driver passes the request on and EC2 rejects it; set allowAutoIOPSPerGBIncrease: "true" to have it raised)`,
        ),
      };
    case 'above-ratio':
      return {
        iops: null,
        findings: say(
          'iops_above_size_ratio',
          `${asked} is above ${d.limit}: the ${driver} does not cap it (its per-GiB cap would fall below the minimum) and EC2 refuses the volume; drivers after v1.66 cap it to the minimum (PR #3021)`,
        ),
      };
    case 'raised':
      return {
        iops: d.iops,
        findings: say(
          'iops_raised',
          `${asked} is below ${d.limit}: the ${driver} raises it to ${n0(d.iops)}${storageClass.allowAutoIopsIncrease ? ' (allowAutoIOPSPerGBIncrease)' : ''}`,
        ),
      };
    case 'capped':
      return {
        iops: d.iops,
        findings: say(
          'iops_capped',
          `${asked} is above ${d.limit}: the ${driver} silently provisions ${n0(d.iops)} IOPS`,
        ),
      };
    default:
      return { iops: d.iops, findings: [] };
  }
}

/** ReadWriteMany is how a claim asks the EBS CSI driver for Multi-Attach (its docs/multi-attach.md); Block or Filesystem decides whether that is safe. */
export function multiAttachOf(spec: {
  accessModes?: readonly unknown[] | null | undefined;
  volumeMode?: unknown;
}): IacVolume['multiAttach'] | null {
  if (!(spec.accessModes?.includes('ReadWriteMany') ?? false)) return null;
  return spec.volumeMode === 'Block' ? 'ReadWriteMany Block' : 'ReadWriteMany Filesystem';
}
