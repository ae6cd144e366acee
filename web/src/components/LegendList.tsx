import type { LegendEntry } from '../lib/png-export.ts';

/** One swatch as the PNG export draws it (lib/png-export.ts swatchSvg): the same shapes on the page. */
function Swatch({ entry: e }: { entry: LegendEntry }) {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" className="legend-list__swatch">
      {e.dashed ? (
        <line
          x1="0"
          y1="7"
          x2="14"
          y2="7"
          stroke={e.color}
          strokeWidth="2"
          strokeDasharray={typeof e.dashed === 'string' ? e.dashed : '4 2'}
        />
      ) : e.ring ? (
        <circle cx="7" cy="7" r="5.5" fill="none" stroke={e.color} strokeWidth="2" />
      ) : (
        <rect
          x="1"
          y="1"
          width="12"
          height="12"
          fill={e.color}
          fillOpacity={e.opacity}
          {...(e.outline ? { stroke: e.outline, strokeWidth: 1.5 } : {})}
        />
      )}
    </svg>
  );
}

/**
 * A chart's key on the page, from the entries its PNG export draws: a chart whose colours carry
 * meaning (the "What binds" bars: bottleneck, at the ceiling, headroom, burst) says so on screen
 * too, not only in the exported image.
 */
export function LegendList({ entries, label }: { entries: readonly LegendEntry[]; label: string }) {
  if (entries.length === 0) return null;
  return (
    <ul className="legend-list" aria-label={label}>
      {entries.map((e) => (
        <li key={e.label}>
          <Swatch entry={e} />
          {e.label}
        </li>
      ))}
    </ul>
  );
}
