import { useId, useState } from 'react';
import { numberProblem, parseNumberText, suffixRefusal } from '../lib/parse-number.ts';

/** Positions of a log-scale slider: fine enough that each is at most ~1 % of the value apart. */
const LOG_POSITIONS = 1000;

/** Where a value sits on a log-scale slider (0…LOG_POSITIONS), clamped to the range. */
function logPosition(value: number, min: number, max: number): number {
  const v = Math.min(Math.max(value, min), max);
  return Math.round((Math.log(v / min) / Math.log(max / min)) * LOG_POSITIONS);
}

/** The value at a log-scale position, rounded to the field's step and kept in the range. */
function logValue(position: number, min: number, max: number, step: number): number {
  const raw = min * (max / min) ** (position / LOG_POSITIONS);
  return Math.min(Math.max(Math.round(raw / step) * step, min), max);
}

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
  scale = 'linear',
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
  /**
   * 'log': the slider moves by ratios, not steps (a size from 1 GiB to 64 TiB: each position
   * ~1 % apart, where steps of 1 GiB would put everything below 1 TiB in the first 2 %). The
   * exact input still takes any value. Needs min > 0.
   */
  scale?: 'linear' | 'log';
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
  const log = scale === 'log' && min > 0 && max > min;
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
          min={log ? 0 : min}
          max={log ? LOG_POSITIONS : max}
          step={log ? 1 : step}
          value={log ? logPosition(value, min, max) : Math.min(Math.max(value, min), max)}
          // A log slider's positions mean nothing to a screen reader: it hears the value.
          aria-valuetext={log ? `${value} ${unit}` : undefined}
          onChange={(e) => {
            setTypingError(null);
            const n = Number(e.target.value);
            onChange(log ? logValue(n, min, max, step) : n);
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
