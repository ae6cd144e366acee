import type { SeriesImportOptions } from '@blockwise/shared/timeseries';
import { useId, useRef, useState, type FormEvent } from 'react';
import '../metrics-import.css';
import {
  OTHER,
  initialDrafts,
  readAnswers,
  type AnswerDraft,
  type Question,
  type QuestionOption,
} from '../choice-form.ts';

/**
 * Asks what a metrics export leaves open (the CloudWatch statistic, the period, the data-point
 * interval, a unit, the time zone, which volume) — one radio group per question, nothing
 * preselected unless it is the reading already in force — and hands the answers back as import
 * options. Errors sit next to their question; the first one gets the focus.
 */
export function ChoiceForm({
  fileName,
  questions,
  base,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  fileName: string;
  questions: readonly Question[];
  /** Answers given before (kept unless a question here changes them). */
  base: SeriesImportOptions;
  submitLabel: string;
  onSubmit: (options: SeriesImportOptions) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [drafts, setDrafts] = useState<Record<string, AnswerDraft>>(() => initialDrafts(questions));
  const [errors, setErrors] = useState<Partial<Record<QuestionOption, string>>>({});

  const set = (option: QuestionOption, patch: Partial<AnswerDraft>) => {
    setDrafts((d) => ({ ...d, [option]: { value: null, other: '', ...d[option], ...patch } }));
    setErrors((e) => {
      const next = { ...e };
      delete next[option];
      return next;
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const r = readAnswers(questions, drafts, base);
    if (!r.ok) {
      setErrors(r.errors);
      requestAnimationFrame(() =>
        form.current?.querySelector<HTMLElement>('[data-invalid="true"] input')?.focus(),
      );
      return;
    }
    setErrors({});
    onSubmit(r.options);
  };

  const count = Object.keys(errors).length;
  return (
    <form
      ref={form}
      className="choice-form"
      noValidate
      onSubmit={submit}
      aria-label={`Questions about ${fileName}`}
    >
      {count > 0 ? (
        <p className="form-error" role="alert">
          {count === 1 ? 'One question needs an answer.' : `${count} questions need an answer.`}
        </p>
      ) : null}
      {questions.map((q) => {
        const d = drafts[q.option] ?? { value: null, other: '' };
        const error = errors[q.option];
        const qid = `${id}-${q.option}`;
        return (
          <fieldset
            key={q.option}
            className="fieldset choice-form__question"
            data-invalid={error ? 'true' : undefined}
            aria-describedby={[`${qid}-why`, error ? `${qid}-error` : null].filter(Boolean).join(' ')}
          >
            <legend>{q.legend}</legend>
            <p id={`${qid}-why`} className="field__hint">
              {`${q.why.charAt(0).toUpperCase()}${q.why.slice(1)}`}
            </p>
            <div className="choice-form__answers">
              {q.answers.map((a, i) => (
                <div key={a.value} className="choice-form__answer">
                  <label className="radio">
                    <input
                      type="radio"
                      name={qid}
                      value={a.value}
                      checked={d.value === a.value}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={a.hint ? `${qid}-hint-${i}` : undefined}
                      onChange={() => set(q.option, { value: a.value })}
                    />
                    {a.label}
                  </label>
                  {a.hint ? (
                    <p id={`${qid}-hint-${i}`} className="field__hint choice-form__hint">
                      {a.hint}
                    </p>
                  ) : null}
                </div>
              ))}
              {q.other ? (
                <div className="choice-form__answer choice-form__other">
                  <label className="radio">
                    <input
                      type="radio"
                      name={qid}
                      value={OTHER}
                      checked={d.value === OTHER}
                      aria-invalid={error ? true : undefined}
                      onChange={() => set(q.option, { value: OTHER })}
                    />
                    {q.other.label}
                  </label>
                  <input
                    className="input"
                    type="text"
                    autoComplete="off"
                    aria-label={`${q.other.label} (${q.legend})`}
                    aria-describedby={`${qid}-other-hint`}
                    value={d.other}
                    onChange={(e) => set(q.option, { value: OTHER, other: e.target.value })}
                  />
                  <p id={`${qid}-other-hint`} className="field__hint choice-form__hint">
                    {q.other.hint}
                  </p>
                </div>
              ) : null}
            </div>
            {error ? (
              <p id={`${qid}-error`} className="field__error">
                {error}
              </p>
            ) : null}
          </fieldset>
        );
      })}
      <div className="form-actions">
        <button type="submit" className="btn btn--primary">
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
