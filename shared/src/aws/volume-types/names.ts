import { z } from 'zod';

/**
 * The names of the EBS volume types, apart from their descriptors: a descriptor names the types it
 * offers as alternatives, so the names must not depend on the registry (aws/volume-types.ts)
 * that imports the descriptors.
 */

/** Every volume type, in the order plans list them (cheapest general purpose first). */
export const VOLUME_TYPES = ['gp3', 'gp2', 'io2', 'io1', 'st1', 'sc1'] as const;
export const VolumeTypeSchema = z.enum(VOLUME_TYPES);
export type VolumeType = z.infer<typeof VolumeTypeSchema>;
