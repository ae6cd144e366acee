import { useId, type ReactNode } from 'react';
import { ErrorBoundary } from './ErrorBoundary.tsx';

type Props = {
  title: string;
  /** Heading level inside the page (h2 for page sections, h3 inside them). */
  level?: 2 | 3;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  resetKey?: unknown;
  className?: string;
  id?: string;
};

/** A titled page region with its own error boundary. */
export function Region({ title, level = 2, description, actions, children, resetKey, className, id }: Props) {
  const headingId = useId();
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <section className={`region region--l${level} ${className ?? ''}`} aria-labelledby={headingId} id={id}>
      <header className="region__header">
        <div>
          <H id={headingId} className="region__title">
            {title}
          </H>
          {description ? <p className="region__description">{description}</p> : null}
        </div>
        {actions ? <div className="region__actions">{actions}</div> : null}
      </header>
      <ErrorBoundary what={title.toLowerCase()} resetKey={resetKey}>
        {children}
      </ErrorBoundary>
    </section>
  );
}
