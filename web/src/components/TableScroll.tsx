import type { ReactNode } from 'react';

/**
 * A wide table's horizontal scroller. It is a named, focusable region, so keyboard users can
 * scroll it with the arrow keys when it overflows (on phones most tables do): WCAG 2.1.1, axe
 * `scrollable-region-focusable`. `label` names it, usually as the table's caption does.
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={`table-scroll${className ? ` ${className}` : ''}`}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
