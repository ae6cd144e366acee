// The infrastructure-as-code check (docs/iac.md): Terraform plans and EBS CSI manifests vs measured demand.
export { IacReportSchema } from './schema.ts';
export type { IacFinding, IacVolume } from './schema.ts';
export { extractTerraformVolumes } from './terraform.ts';
export { extractKubernetesVolumes, manifestSubject } from './kubernetes.ts';
export type { ManifestObject } from './kubernetes.ts';
export { DEFAULT_CSI_DRIVER_VERSION, parseCsiDriverVersion } from './csi-driver.ts';
export type { CsiDriverVersion } from './csi-driver.ts';
export { checkIac, failingFindings, IAC_FAIL_ON } from './check.ts';
export type { IacFailOn } from './check.ts';
export { formatIacMarkdown, formatIacText, IAC_COMMENT_MARKER } from './format.ts';
export { BLOCKWISE_REPOSITORY_URL, formatIacSarif } from './sarif.ts';
export { formatIacJunit } from './junit.ts';
export { iacGithubReport } from './github.ts';
export { formatIacCodeQuality } from './codequality.ts';
