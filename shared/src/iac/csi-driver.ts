import { fail, ok, type Result } from '../problem.ts';

/**
 * Which EBS CSI driver release the manifests will meet, and what that release does with an IOPS
 * request whose per-GiB cap falls below the type's minimum (docs/iac.md "IOPS handling by driver
 * version"). Sources, kubernetes-sigs/aws-ebs-csi-driver:
 * - up to v1.66 (PR #3013 "Release1.66", merged 2026-09-09): pkg/cloud/cloud.go capIOPS, read at
 *   commit 429e202e (2026-08-19), applies the per-GiB cap only when IOPS-per-GiB × size is at
 *   least the minimum; below it the request passes on and EC2 refuses the volume. The same code
 *   since v1.52.0 (commit 1539e9f6 "Fix IOPS handling", 2025-10-23).
 * - PR #3021 ("Properly cap iops for volumes below minimum iops", merged 2026-09-21, after v1.66):
 *   the request is then capped to exactly the type's minimum ("requesting a GP3 volume with
 *   iopsPerGb of 3001 at a size of 1GiB must cap to 3000 iops"). First in the release after v1.66;
 *   no such release could be cited when this was written, so it is taken as v1.67.0.
 */

/** A driver release: major.minor.patch. */
export type CsiDriverVersion = { major: number; minor: number; patch: number };

/** The newest release that could be cited (PR #3013, 2026-09-09): the default. */
export const DEFAULT_CSI_DRIVER_VERSION: CsiDriverVersion = { major: 1, minor: 66, patch: 0 };

/** The first release with PR #3021's capping (the one after v1.66). */
const CAPS_TO_MINIMUM_FROM: CsiDriverVersion = { major: 1, minor: 67, patch: 0 };

/** The oldest release whose IOPS handling was read (v1.52.0, "Fix IOPS handling"). */
const READ_FROM: CsiDriverVersion = { major: 1, minor: 52, patch: 0 };

/**
 * What the driver does with a request above IOPS-per-GiB × size when that product is below the
 * type's minimum: `skip-cap` (≤ v1.66: passed on, EC2 refuses) or `cap-to-minimum` (PR #3021).
 */
export type CsiIopsRule = 'skip-cap' | 'cap-to-minimum';

const compare = (a: CsiDriverVersion, b: CsiDriverVersion) =>
  a.major - b.major || a.minor - b.minor || a.patch - b.patch;

export const formatCsiDriverVersion = (v: CsiDriverVersion) => `v${v.major}.${v.minor}.${v.patch}`;

/**
 * `1.66`, `v1.66.0`, `v1.67.0-eksbuild.1` (an EKS add-on version) or a Helm image tag: the
 * driver's version; anything else is refused with what was expected.
 */
export function parseCsiDriverVersion(text: string): Result<CsiDriverVersion> {
  const m = /^\s*v?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?(?:[-+][0-9A-Za-z.-]*)?\s*$/.exec(text);
  if (!m)
    return fail(
      'invalid_csi_driver_version',
      `expected an EBS CSI driver version such as 1.66, v1.66.0 or v1.66.0-eksbuild.1, got ${JSON.stringify(text)}`,
    );
  return ok({ major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) });
}

/** The rule a release follows, and whether its IOPS handling was read at all (older than v1.52: not). */
export function csiIopsRuleOf(v: CsiDriverVersion): { rule: CsiIopsRule; verified: boolean } {
  return {
    rule: compare(v, CAPS_TO_MINIMUM_FROM) >= 0 ? 'cap-to-minimum' : 'skip-cap',
    verified: compare(v, READ_FROM) >= 0,
  };
}
