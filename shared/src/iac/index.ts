// The infrastructure-as-code check (docs/iac.md): Terraform plans and EBS CSI manifests vs measured demand.
export * from './schema.ts';
export * from './terraform.ts';
export * from './kubernetes.ts';
export * from './csi-driver.ts';
export * from './check.ts';
export * from './format.ts';
export * from './sarif.ts';
export * from './junit.ts';
export * from './github.ts';
export * from './codequality.ts';
