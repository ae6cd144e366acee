import type { Warning } from '@blockwise/shared/problem';

/** Warnings in plain words; the stable code rides along as a data attribute for tests and e2e. */
export function Warnings({ warnings, compact = false }: { warnings: readonly Warning[]; compact?: boolean }) {
  if (warnings.length === 0) return null;
  return (
    <ul className={`warnings${compact ? ' warnings--compact' : ''}`}>
      {warnings.map((w, i) => (
        <li key={`${w.code}-${i}`} className="warning" data-code={w.code}>
          <span className="warning__icon" aria-hidden="true">
            ⚠
          </span>
          <span className="visually-hidden">Warning: </span>
          <span>{w.message}</span>
        </li>
      ))}
    </ul>
  );
}
