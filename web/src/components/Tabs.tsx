import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/**
 * WAI-ARIA tabs (automatic activation): ←/→ move and select, Home/End jump; only the selected
 * tab is in the tab order. The parent owns the selection.
 */
export type TabItem = { key: string; label: ReactNode; hint?: ReactNode };

export function Tabs({
  label,
  items,
  selected,
  onSelect,
  children,
}: {
  label: string;
  items: TabItem[];
  selected: number;
  onSelect: (index: number) => void;
  children: ReactNode;
}) {
  const id = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.min(Math.max(selected, 0), items.length - 1);
  const move = (index: number) => {
    const next = (index + items.length) % items.length;
    onSelect(next);
    refs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') move(current + 1);
    else if (event.key === 'ArrowLeft') move(current - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else return;
    event.preventDefault();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {items.map((item, i) => (
          <button
            key={item.key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${i}`}
            aria-selected={i === current}
            aria-controls={`${id}-panel`}
            tabIndex={i === current ? 0 : -1}
            className={`tabs__tab${i === current ? ' is-selected' : ''}`}
            onClick={() => onSelect(i)}
          >
            <span className="tabs__label">{item.label}</span>
            {item.hint ? <span className="tabs__hint">{item.hint}</span> : null}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${current}`}
        className="tabs__panel"
        tabIndex={0}
      >
        {children}
      </div>
    </div>
  );
}
