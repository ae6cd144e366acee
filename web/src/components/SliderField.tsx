import { useId, useState } from 'react';
import { numberProblem, parseNumberText, suffixRefusal } from '../lib/parse-number.ts';

/**
 * A number with a slider and an exact input side by side (both keyboard-operable). The slider
 * moves in `step`s; the input takes any value, and an out-of-range one is reported, not clamped,
 * so the domain's own validation can explain it.
 */
export function SliderField({
  label,
  value,
  min,
  max,
  step,
  unit,
  onChange,
  error,
  hint,
  suffixes = false,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  unit: string;
  onChange: (value: number) => void;
  error?: string | null;
  hint?: string;
  /** A count (IOPS, nodes): "16k" is accepted; other units refuse k/M (parseNumberText). */
  suffixes?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(String(value));
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(String(value));
  }
  const [typingError, setTypingError] = useState<string | null>(null);
  const message = typingError ?? error ?? null;
  const describedBy =
    [hint ? `${id}-hint` : null, message ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field slider-field">
      <label htmlFor={`${id}-num`} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      <div className="slider-field__row">
        <input
          type="range"
          className="range"
          aria-label={`${label} (slider)`}
          min={min}
          max={max}
          step={step}
          value={Math.min(Math.max(value, min), max)}
          onChange={(e) => {
            setTypingError(null);
            onChange(Number(e.target.value));
          }}
        />
        <div className="field__control slider-field__exact">
          <input
            id={`${id}-num`}
            className="input input--num"
            inputMode="decimal"
            autoComplete="off"
            value={text}
            aria-invalid={message ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => {
              setText(e.target.value);
              const n = parseNumberText(e.target.value, { suffixes });
              if (n === null)
                setTypingError(
                  numberProblem(e.target.value, { suffixes }) === 'suffix'
                    ? `${label}: ${suffixRefusal(unit)}`
                    : `${label}: expected a number.`,
                );
              else {
                setTypingError(null);
                setShown(n);
                onChange(n);
              }
            }}
          />
          <span className="field__suffix">{unit}</span>
        </div>
      </div>
      {message ? (
        <p id={`${id}-error`} className="field__error">
          {message}
        </p>
      ) : null}
    </div>
  );
}
