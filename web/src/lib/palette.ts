/**
 * Chart colors, checked for contrast on white: text ≥ 4.5:1, graphical marks ≥ 3:1 (WCAG 1.4.11).
 * Kept as hex (not CSS variables) because exported PNGs have no stylesheet.
 */
export const COLORS = {
  text: '#1b1f24',
  axisText: '#57606a',
  axis: '#8c959f',
  grid: '#e4e8ec',
  cursor: 'rgba(9, 105, 218, 0.08)',
  /** EBS series (blue, 5.2:1). */
  ebs: '#0969da',
  /** NVMe series (purple, 5.6:1). */
  nvme: '#8250df',
  ok: '#1a7f37',
  watch: '#9a6700',
  concern: '#cf222e',
  neutral: '#57606a',
  /** Cost components: storage / IOPS / throughput. */
  storage: '#0969da',
  iops: '#bc4c00',
  throughput: '#1a7f37',
} as const;

/**
 * Extra series colors for charts with more than two runs. Each is also legend text, so each keeps
 * ≥ 4.5:1 (WCAG AA, axe's color-contrast rule) on the page background #f6f8fa, not only on white.
 */
export const SERIES = [
  '#0969da',
  '#8250df',
  '#bc4c00',
  '#1a7f37',
  '#bf3989',
  '#0a7a87',
  '#59636e',
  '#9a6700',
] as const;
