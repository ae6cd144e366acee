import type { InstanceSpec } from '@blockwise/shared/aws';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { fmtInt } from '../lib/format.ts';
import { filterInstanceTypes, resolveInstanceType, suggestInstanceTypes } from './instance-suggest.ts';

/**
 * Instance type picker over all 1,390 types: an editable combobox with a listbox popup and list
 * autocomplete (WAI-ARIA APG "Editable Combobox With List Autocomplete"). Focus stays in the
 * textbox; the active option is announced through aria-activedescendant.
 *
 * Keys: ↓/↑ open the list and move, Alt+↓ opens, Enter picks, Escape closes (a second Escape
 * clears the text), Home/End move in the text. Typing filters by prefix first, then substring;
 * Enter on text that names one type (a single match, `r6id.4xl`) picks it (instance-suggest.ts).
 */

export const MAX_OPTIONS = 50;

type Props = {
  label: string;
  value: string | null;
  onChange: (instanceType: string | null) => void;
  /** null while the catalog loads. */
  types: readonly InstanceSpec[] | null;
  catalogError?: string | null;
  description?: string;
  /** Someone reached for the field (focus): a page that loads the catalog on demand loads it now. */
  onInterest?: () => void;
};

export function describeInstance(spec: InstanceSpec): string {
  const parts: string[] = [];
  if (spec.vCpus !== null) parts.push(`${spec.vCpus} vCPU`);
  if (spec.memoryMiB !== null) parts.push(`${fmtInt(spec.memoryMiB / 1024)} GiB`);
  if (spec.ebs) {
    const e = spec.ebs;
    const bursts = e.maximumBandwidthMbps > e.baselineBandwidthMbps || e.maximumIops > e.baselineIops;
    parts.push(
      `EBS ${fmtInt(e.baselineBandwidthMbps)} Mbps / ${fmtInt(e.baselineIops)} IOPS${bursts ? ` (burst ${fmtInt(e.maximumBandwidthMbps)} Mbps / ${fmtInt(e.maximumIops)} IOPS)` : ''}`,
    );
  } else parts.push('no dedicated EBS limits');
  if (spec.instanceStore) {
    parts.push(
      `store ${spec.instanceStore.volumes} × ${fmtInt(spec.instanceStore.volumeSizeGB)} GB ${spec.instanceStore.kind}`,
    );
  }
  return parts.join(' · ');
}

export function InstanceCombobox({
  label,
  value,
  onChange,
  types,
  catalogError,
  description,
  onInterest,
}: Props) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const statusId = `${id}-status`;
  const descId = `${id}-desc`;
  const errorId = `${id}-error`;
  const [text, setText] = useState(value ?? '');
  const [lastValue, setLastValue] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  // Text left (blur, Enter) before the catalog arrived: checked and applied when it does.
  const commitOnLoad = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);

  // An outside change of the value (e.g. "use this run's instance") replaces the text.
  if (value !== lastValue) {
    setLastValue(value);
    setText(value ?? '');
    setError(null);
  }

  const matches = useMemo(() => (types ? filterInstanceTypes(types, text) : []), [types, text]);
  const shown = matches.slice(0, MAX_OPTIONS);
  const selected = useMemo(
    () => (value && types ? (types.find((t) => t.instanceType === value) ?? null) : null),
    [types, value],
  );

  const pick = (spec: InstanceSpec) => {
    setText(spec.instanceType);
    setOpen(false);
    setActive(-1);
    setError(null);
    setLastValue(spec.instanceType);
    onChange(spec.instanceType);
  };

  const commitText = () => {
    const t = text.trim().toLowerCase();
    if (t === '') {
      setError(null);
      if (value !== null) {
        setLastValue(null);
        onChange(null);
      }
      return;
    }
    if (!types) {
      commitOnLoad.current = true;
      return;
    }
    // The name itself, its abbreviation spelled out (r6id.4xl), or the one type the text matches.
    const exact = resolveInstanceType(types, t);
    if (exact) {
      if (exact.instanceType !== value) pick(exact);
      else setText(exact.instanceType);
      return;
    }
    const near = suggestInstanceTypes(types, t).map((s) => s.instanceType);
    setError(
      `“${text.trim()}” is not one of the ${fmtInt(types.length)} instance types in the catalog${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}.`,
    );
  };

  useEffect(() => {
    if (!types || !commitOnLoad.current) return;
    commitOnLoad.current = false;
    commitText();
    // commitText reads this render's text and value; it runs once, when the types arrive.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [types]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown': {
        event.preventDefault();
        if (!open) {
          setOpen(true);
          if (!event.altKey) setActive(shown.length > 0 ? 0 : -1);
          return;
        }
        if (!event.altKey) setActive((a) => (shown.length === 0 ? -1 : (a + 1) % shown.length));
        return;
      }
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(shown.length - 1);
          return;
        }
        setActive((a) => (shown.length === 0 ? -1 : a <= 0 ? shown.length - 1 : a - 1));
        return;
      }
      case 'Enter': {
        if (open && active >= 0 && shown[active]) {
          event.preventDefault();
          pick(shown[active]);
        } else if (open || (matches.length === 1 && matches[0]!.instanceType !== value)) {
          // No option chosen with the arrows: the text decides (one match, or an abbreviation).
          event.preventDefault();
          setOpen(false);
          commitText();
        }
        return;
      }
      case 'Escape': {
        if (open) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (text !== '') {
          event.preventDefault();
          commitOnLoad.current = false;
          setText('');
          setError(null);
        }
        return;
      }
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
  };

  const expanded = open && shown.length > 0;
  const activeId = expanded && active >= 0 && shown[active] ? `${id}-opt-${active}` : undefined;
  const describedBy =
    [description ? descId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className="field combobox">
      <label htmlFor={inputId} className="field__label">
        {label}
      </label>
      {description ? (
        <p id={descId} className="field__hint">
          {description}
        </p>
      ) : null}
      <div className="combobox__control">
        <input
          ref={inputRef}
          id={inputId}
          className="input"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. r6i.4xlarge"
          value={text}
          onChange={(e) => {
            // Typing again: a name queued for the catalog's arrival is no longer what was meant;
            // the next blur or Enter queues the new text.
            commitOnLoad.current = false;
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
            setError(null);
          }}
          onKeyDown={onKeyDown}
          onFocus={onInterest}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
            commitText();
          }}
        />
        <button
          type="button"
          className="combobox__toggle"
          tabIndex={-1}
          aria-label={`${open ? 'Close' : 'Open'} the ${label.toLowerCase()} list`}
          aria-controls={listId}
          aria-expanded={expanded}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            setOpen((o) => !o);
            inputRef.current?.focus();
          }}
        >
          <span aria-hidden="true">▾</span>
        </button>
      </div>
      {expanded ? (
        <div className="combobox__popup">
          <ul id={listId} role="listbox" aria-label={`${label} options`} className="combobox__list">
            {shown.map((spec, i) => (
              <li
                key={spec.instanceType}
                id={`${id}-opt-${i}`}
                role="option"
                aria-selected={i === active}
                className={`combobox__option${i === active ? ' is-active' : ''}${spec.instanceType === value ? ' is-selected' : ''}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => setActive(i)}
                onClick={() => pick(spec)}
              >
                <span className="combobox__name">{spec.instanceType}</span>
                <span className="combobox__meta">{describeInstance(spec)}</span>
              </li>
            ))}
          </ul>
          {matches.length > shown.length ? (
            <p className="combobox__note">
              Showing {shown.length} of {fmtInt(matches.length)} matches — keep typing to narrow.
            </p>
          ) : null}
        </div>
      ) : open ? (
        <div className="combobox__popup">
          <p className="combobox__note">
            {types === null
              ? (catalogError ?? 'Loading the instance catalog…')
              : `No instance type matches “${text}”.`}
          </p>
        </div>
      ) : null}
      <p id={statusId} className="visually-hidden" role="status" aria-live="polite">
        {open && types ? `${fmtInt(matches.length)} instance types match.` : ''}
      </p>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : selected ? (
        <p className="field__hint">{describeInstance(selected)}</p>
      ) : null}
    </div>
  );
}
