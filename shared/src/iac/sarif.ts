import type { IacFinding, IacFindingKind, IacReport } from './schema.ts';

/**
 * The check's findings as SARIF 2.1.0 (OASIS, "Static Analysis Results Interchange Format
 * Version 2.1.0", https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html): what GitHub
 * code scanning and other tools read. One run; one rule per finding code present; one result per
 * finding. Tests validate the output against the published JSON schema (fixtures/sarif/).
 */

/**
 * Where the rules are documented. The help links are this URL, then `blob/HEAD/` and the docs
 * path (docs/iac.md, a section of it), once the root package.json names a repository (a test
 * checks the two agree); it names none today, and SARIF's `helpUri` and `informationUri` must be absolute URIs (schema: format "uri"),
 * so until then each rule's help text names the relative path (docs/iac.md#findings) instead.
 */
export const BLOCKWISE_REPOSITORY_URL: string | null = null;

/** The docs section each code is described in; every other code is in the Findings table. */
const SECTION_OF: Record<string, string> = {
  instance_cap_below_volumes: 'volumes-of-one-instance',
  instance_limit_binds_together: 'volumes-of-one-instance',
  csi_driver_version_unverified: 'iops-handling-by-driver-version---csi-driver-version',
  invalid_csi_driver_version: 'iops-handling-by-driver-version---csi-driver-version',
};

/** One line per code: the rule's shortDescription (the message says what this volume does). */
const SHORT_DESCRIPTIONS: Record<string, string> = {
  over_provisioned: 'The volume costs more than the cheapest configuration meeting the measured demand.',
  under_provisioned: "The measured demand exceeds the volume's sustained IOPS or throughput.",
  instance_limit_binds: "The measured demand exceeds the instance's sustained EBS IOPS or bandwidth.",
  instance_limit_binds_together:
    "The instance's volumes together need more than its sustained EBS IOPS or bandwidth.",
  instance_cap_below_volume: 'The volume can deliver more than its instance type sustains to EBS.',
  instance_cap_below_volumes:
    'The volumes of one instance together exceed what its instance type sustains to EBS.',
  volume_invalid: "The configuration is outside the volume type's ranges or ratio rules: AWS refuses it.",
  attribute_not_a_number: 'A size, IOPS or throughput attribute is not a number: the volume is not checked.',
  requires_nitro: 'io1/io2 above 32,000 IOPS on an instance not built on Nitro.',
  parameter_not_string: 'A StorageClass parameter is not a string: the API server refuses the object.',
  unknown_parameter: 'A parameter the EBS CSI driver does not know: it refuses to create volumes.',
  parameter_not_integer:
    'iops, iopsPerGB or throughput is not a whole number: the driver refuses the request.',
  iops_and_iops_per_gb: 'Both iops and iopsPerGB are set: the driver refuses every volume.',
  throughput_not_gp3: 'throughput on a type other than gp3: CreateVolume refuses the request.',
  iops_not_supported: 'iops on a type that takes none: CreateVolume refuses the request.',
  unknown_type: 'A volume type the EBS CSI driver does not know.',
  iops_capped: 'The requested IOPS is above what the type allows: the driver silently provisions less.',
  iops_below_minimum: "The requested IOPS is below the type's minimum: EC2 refuses the volume.",
  iops_raised: "The requested IOPS is below the type's minimum: the driver raises it.",
  iops_above_size_ratio: 'The requested IOPS is above what EC2 takes at this size: it refuses the volume.',
  multi_attach_not_supported: 'Multi-Attach on a volume type that does not take it.',
  multi_attach_needs_block: 'A ReadWriteMany claim in Filesystem mode: the driver refuses it.',
  object_invalid: 'A Kubernetes object that the API server would refuse.',
  gp2_to_gp3: 'gp3 matches this gp2 volume at equal performance for less.',
  parameter_no_effect: 'A parameter that has no effect.',
  no_dynamic_provisioning: 'The claim binds a pre-made volume: nothing is provisioned or checked.',
  storage_class_unknown: 'The claim names no StorageClass and none is the default: not checked.',
  storage_class_not_found: 'The StorageClass the claim names is not among the files: not checked.',
  attributes_class_not_found: 'The VolumeAttributesClass the claim names is not among the files.',
  not_ebs_csi: 'The StorageClass is not provisioned by the EBS CSI driver: not checked.',
  size_unknown: 'The volume size is not known: not checked.',
  type_unknown: 'The volume type is not known: not checked.',
  type_not_checked: 'A volume type the check does not judge.',
  price_missing: 'The region has no price for this volume type: its cost is not judged.',
  instance_unknown: 'The instance type is not in the catalog: its EBS caps are not checked.',
  instance_not_in_code: 'The instance the volume attaches to is not in the files: its caps are not checked.',
  nitro_unknown: 'Whether the instance is built on Nitro is not known.',
  nitro_unchecked: 'Whether the instance is built on Nitro could not be checked.',
  csi_driver_version_unverified: 'The driver version given has not been checked against its source.',
};

/** The finding's kind as a SARIF level: what fails a build reads as an error. */
const LEVELS: Record<IacFindingKind, 'error' | 'warning' | 'note'> = {
  invalid: 'error',
  under: 'error',
  driver: 'error',
  over: 'warning',
  'instance-cap': 'warning',
  hint: 'note',
  note: 'note',
};
/** Driver findings where the driver provisions something other than asked, instead of refusing. */
const DRIVER_CHANGES = new Set(['iops_capped', 'iops_raised']);

export function sarifLevel(finding: Pick<IacFinding, 'kind' | 'code'>): 'error' | 'warning' | 'note' {
  if (finding.kind === 'driver' && DRIVER_CHANGES.has(finding.code)) return 'warning';
  return LEVELS[finding.kind];
}

/** The docs address of a code's rule: absolute with a repository URL, else the relative path. */
export function ruleHelpPath(code: string, repositoryUrl: string | null = BLOCKWISE_REPOSITORY_URL): string {
  const path = `docs/iac.md#${SECTION_OF[code] ?? 'findings'}`;
  return repositoryUrl ? `${repositoryUrl.replace(/\/+$/, '')}/blob/HEAD/${path}` : path;
}

/**
 * The Terraform address a finding's subject starts with (`aws_instance.db root_block_device` →
 * `aws_instance.db`); a for_each key in brackets may hold spaces (`aws_ebs_volume.d["a b"]`).
 */
export function terraformAddress(subject: string): string {
  return /^(?:[^\s[]|\[(?:"(?:[^"\\]|\\.)*"|[^\]])*\])+/.exec(subject)?.[0] ?? subject;
}

/** A file name as a relative URI: forward slashes, each segment percent-encoded. */
function fileUri(file: string): string {
  return file.replaceAll('\\', '/').split('/').map(encodeURIComponent).join('/');
}

export type SarifOptions = {
  toolVersion: string;
  /** The file name the report uses → the URI relative to the working directory. */
  relativePath: (file: string) => string;
  /** For YAML manifests: file → subject (`PersistentVolumeClaim prod/pg`) → the object's first line. */
  objectLines: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Which files are Terraform plans (their findings name a resource address, not a line). */
  terraformFiles: ReadonlySet<string>;
  repositoryUrl?: string | null;
};

/** Where a finding points: the file relative to the working directory, the object's line (YAML/JSON manifests), its name. */
export type FindingLocation = {
  path: string;
  line?: number;
  /** The Terraform resource address, or the manifest object (`PersistentVolumeClaim prod/pg`). */
  name: string;
  kind: 'resource' | 'object';
};

/**
 * One place that says where a finding is, for every format that points at code (SARIF, GitHub
 * annotations): a Terraform plan has no lines of the `.tf` source, so its findings name the
 * resource address instead.
 */
export function locateFinding(
  f: Pick<IacFinding, 'file' | 'subject'>,
  options: Pick<SarifOptions, 'relativePath' | 'objectLines' | 'terraformFiles'>,
): FindingLocation {
  const line = options.objectLines.get(f.file)?.get(f.subject);
  return {
    path: options.relativePath(f.file),
    ...(line !== undefined ? { line } : {}),
    ...(options.terraformFiles.has(f.file)
      ? { name: terraformAddress(f.subject), kind: 'resource' as const }
      : { name: f.subject, kind: 'object' as const }),
  };
}

/** A finding in one line: its subject, the message, and the money it wastes or saves (USD per month, with the prices' source). */
export function findingMessage(f: IacFinding, prices: string): string {
  const money = f.wasteUsdPerMonth
    ? ` (${f.kind === 'hint' ? 'saves' : 'waste'} USD ${f.wasteUsdPerMonth.toFixed(2)} per month, prices ${prices})`
    : '';
  return `${f.subject}: ${f.message}${money}`;
}

export function formatIacSarif(report: IacReport, options: SarifOptions): string {
  const repositoryUrl =
    options.repositoryUrl === undefined ? BLOCKWISE_REPOSITORY_URL : options.repositoryUrl;
  const codes = [...new Set(report.findings.map((f) => f.code))].sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const rules = codes.map((code) => {
    const kind = report.findings.find((f) => f.code === code)!.kind;
    const help = ruleHelpPath(code, repositoryUrl);
    return {
      id: code,
      name: code,
      shortDescription: { text: SHORT_DESCRIPTIONS[code] ?? `A check-iac finding of kind ${kind}.` },
      ...(repositoryUrl ? { helpUri: help } : {}),
      help: { text: `Rule ${code}, its sources and thresholds: ${help}` },
      defaultConfiguration: { level: sarifLevel({ kind, code }) },
      properties: { kind },
    };
  });
  const results = report.findings.map((f) => {
    const at = locateFinding(f, options);
    return {
      ruleId: f.code,
      ruleIndex: ruleIndex.get(f.code)!,
      level: sarifLevel(f),
      message: { text: findingMessage(f, report.prices) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: fileUri(at.path) },
            ...(at.line !== undefined ? { region: { startLine: at.line } } : {}),
          },
          logicalLocations: [{ fullyQualifiedName: at.name, kind: at.kind }],
        },
      ],
      properties: {
        kind: f.kind,
        subject: f.subject,
        ...(f.wasteUsdPerMonth !== null ? { wasteUsdPerMonth: f.wasteUsdPerMonth } : {}),
      },
    };
  });
  const driver = {
    name: 'blockwise',
    version: options.toolVersion,
    ...(repositoryUrl ? { informationUri: repositoryUrl } : {}),
    rules,
  };
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver }, results, columnKind: 'utf16CodeUnits' }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
