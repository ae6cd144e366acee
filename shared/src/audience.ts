/**
 * Who reads a sentence: someone at the command line, who changes a setting with a flag, or the
 * web app's user, who changes it with a control and has never seen the flags. A sentence that
 * tells the reader what to set names it for its audience through `settingHint`: one sentence,
 * one table of the words, never a second copy of the sentence for the web.
 */
export type Audience = 'cli' | 'web';

const SETTING_HINTS = {
  /** plan: the data the volume must hold. */
  dataset: { cli: 'the dataset size (--dataset)', web: 'the dataset size (Dataset size, in Right-size)' },
  /** iostat / sar / per-device exports: which device is read. */
  device: { cli: '--device NAME', web: 'the “Which device?” question' },
  /** A percentile sizing that leaves out recurring peaks on purpose. */
  ignoreRecurring: {
    cli: '--ignore-recurring',
    web: 'the choice to size on the percentile even where a peak recurs',
  },
} as const satisfies Record<string, Record<Audience, string>>;

export type SettingName = keyof typeof SETTING_HINTS;

/** How a sentence names a setting for its audience (the CLI when none is said: its messages came first). */
export function settingHint(setting: SettingName, audience: Audience = 'cli'): string {
  return SETTING_HINTS[setting][audience];
}
