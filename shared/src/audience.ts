/**
 * Who reads a sentence: someone at the command line, who changes a setting with a flag, or the
 * web app's user, who changes it with a control and has never seen the flags. A sentence that
 * tells the reader what to set names it for its audience through `settingHint`: one sentence,
 * one table of the words, never a second copy of the sentence for the web.
 */
import { z } from 'zod';

/** A request that asks for the web's wording says so (POST /api/fleet/plans `audience`). */
export const AudienceSchema = z.enum(['cli', 'web']);
export type Audience = z.infer<typeof AudienceSchema>;

const SETTING_HINTS = {
  /** plan: the data the volume must hold. */
  dataset: { cli: 'the dataset size (--dataset)', web: 'the dataset size (Dataset size, in Right-size)' },
  /** iostat / sar / per-device exports: which device is read. */
  device: { cli: '--device NAME', web: 'the “Which device?” question' },
  /** A percentile sizing that leaves out recurring peaks on purpose. */
  ignoreRecurring: { cli: '--ignore-recurring', web: 'the “Ignore recurring peaks” option' },
  /** The seconds one point covers (the interval iostat/sar ran with, a CloudWatch Period). */
  period: { cli: '--period', web: 'the “How long is each point’s period?” question' },
  /** The unit of a throughput column whose header names none. */
  throughputUnit: { cli: '--throughput-unit', web: 'the “In which unit is the throughput column?” question' },
} as const satisfies Record<string, Record<Audience, string>>;

export type SettingName = keyof typeof SETTING_HINTS;

/** How a sentence names a setting for its audience (the CLI when none is said: its messages came first). */
export function settingHint(setting: SettingName, audience: Audience = 'cli'): string {
  return SETTING_HINTS[setting][audience];
}
