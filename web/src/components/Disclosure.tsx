import { useState, type ReactNode } from 'react';

/** A native <details> whose initial state is chosen once and then left to the user. */
export function Disclosure({
  summary,
  initiallyOpen = false,
  className,
  label,
  children,
}: {
  summary: ReactNode;
  /** Accessible name when the visible summary is ambiguous among several on the page. */
  label?: string;
  initiallyOpen?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details className={className} open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary aria-label={label}>{summary}</summary>
      {open ? children : null}
    </details>
  );
}
