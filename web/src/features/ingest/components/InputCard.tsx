import type { Problem, Warning } from '@blockwise/shared/problem';
import type { IoProfile } from '@blockwise/shared/profile';
import type { ReactNode } from 'react';
import { Warnings } from '../../../components/Warnings.tsx';
import { fmtInt, fmtRate, fmtSize } from '../../../lib/format.ts';
import '../ingest.css';

/**
 * One input of the session: a fio file (reading, read, or why it could not be read — with the
 * file name) or typed-in metrics. A bad file never takes the others with it.
 */

export function headlineText(p: IoProfile, dir: 'read' | 'write'): string {
  const d = p[dir];
  if (d.iops <= 0) return `${dir}: no I/O`;
  return `${dir}: ${fmtInt(d.iops)} IOPS · ${fmtRate(d.bytesPerSec)} · ${fmtSize(d.blockSizeBytes)} per I/O`;
}

export function InputCard({
  title,
  kindLabel,
  status,
  error,
  profile,
  profileError,
  meta,
  warnings = [],
  selected,
  onSelect,
  onRemove,
  children,
}: {
  title: string;
  kindLabel: string;
  status: 'parsing' | 'ready' | 'error';
  error: Problem | null;
  profile: IoProfile | null;
  profileError: Problem | null;
  meta?: ReactNode;
  warnings?: readonly Warning[];
  selected: boolean;
  onSelect: (() => void) | null;
  onRemove: () => void;
  children?: ReactNode;
}) {
  return (
    <li className={`input-card input-card--${status}${selected ? ' is-selected' : ''}`}>
      <div className="input-card__head">
        <div className="input-card__title">
          <span className="badge">{kindLabel}</span>
          <span className="input-card__name">{title}</span>
          {selected ? <span className="badge badge--ok">planned for</span> : null}
        </div>
        <div className="button-row">
          {onSelect && !selected && profile ? (
            <button
              type="button"
              className="btn btn--small"
              onClick={onSelect}
              aria-label={`Plan for this: ${title}`}
            >
              Plan for this
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn--small btn--ghost"
            onClick={onRemove}
            aria-label={`Remove ${title}`}
          >
            Remove
          </button>
        </div>
      </div>
      {status === 'parsing' ? (
        <p className="state state--loading state--inline" role="status">
          <span className="spinner" aria-hidden="true" /> Reading {title}…
        </p>
      ) : null}
      {status === 'error' && error ? (
        <div className="callout callout--concern" role="alert">
          <p>
            <strong>{title}</strong> could not be read: {error.message}
            {error.path ? <span className="cell-note"> (at {error.path})</span> : null}
          </p>
          <p className="cell-note">
            Code {error.code}. The rest of the session is unaffected; remove this file or drop a corrected
            one.
          </p>
        </div>
      ) : null}
      {status === 'ready' && profile ? (
        <p className="input-card__headline">
          {headlineText(profile, 'read')}
          <br />
          {headlineText(profile, 'write')}
          {meta ? (
            <>
              <br />
              <span className="cell-note">{meta}</span>
            </>
          ) : null}
        </p>
      ) : null}
      {status === 'ready' && profileError ? (
        <p className="callout callout--concern" role="alert">
          No profile from {title}: {profileError.message}
        </p>
      ) : null}
      <Warnings warnings={warnings} compact />
      {children}
    </li>
  );
}
