import { useId, type ComponentPropsWithRef, type ReactNode, type SelectHTMLAttributes } from 'react';

/**
 * Form fields with a visible label, an optional hint and an inline error, wired with
 * aria-describedby / aria-invalid so screen readers read the error with the field.
 */

type Common = { label: ReactNode; hint?: ReactNode; error?: string | null; className?: string };

function describedBy(hintId: string, errorId: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
}

export function TextField({
  label,
  hint,
  error,
  className,
  id: idProp,
  suffix,
  ...input
}: Common & ComponentPropsWithRef<'input'> & { suffix?: ReactNode }) {
  const auto = useId();
  const id = idProp ?? auto;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      <div className="field__control">
        <input
          id={id}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(`${id}-hint`, `${id}-error`, hint, error)}
          {...input}
        />
        {suffix ? <span className="field__suffix">{suffix}</span> : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SelectField({
  label,
  hint,
  error,
  className,
  id: idProp,
  children,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const id = idProp ?? auto;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      <select
        id={id}
        className="select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(`${id}-hint`, `${id}-error`, hint, error)}
        {...select}
      >
        {children}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
