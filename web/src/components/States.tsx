import type { ReactNode } from 'react';

/** Designed empty, loading and error states: never a blank region. */

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state--empty">
      <p className="state__title">{title}</p>
      {children ? <div className="state__detail">{children}</div> : null}
    </div>
  );
}

export function LoadingState({ label }: { label: string }) {
  return (
    <div className="state state--loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function ErrorState({
  title,
  message,
  onRetry,
  children,
}: {
  title: string;
  message?: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="state state--error" role="alert">
      <p className="state__title">{title}</p>
      {message ? <p className="state__detail">{message}</p> : null}
      {children}
      {onRetry ? (
        <button type="button" className="btn btn--small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** A placeholder with the chart's height while its code loads (no layout shift). */
export function ChartSkeleton({ height, label }: { height: number; label: string }) {
  return (
    <div className="chart-skeleton" style={{ height }} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
