import type { SeriesChoice, SeriesImportOptions } from '@blockwise/shared/timeseries';
import { useMemo } from 'react';
import { browserTimeZone, questionsFor } from '../choice-form.ts';
import { ChoiceForm } from './ChoiceForm.tsx';

/**
 * The importer stopped on a question (`choice_required`): ask it, then read the file again with
 * the answers. Loaded lazily with the form's parsing helpers.
 */
export default function SeriesQuestions({
  fileName,
  choices,
  options,
  onAnswer,
}: {
  fileName: string;
  choices: readonly SeriesChoice[];
  /** Answers given so far (a second question can follow the first answer). */
  options: SeriesImportOptions;
  onAnswer: (options: SeriesImportOptions) => void;
}) {
  const questions = useMemo(() => questionsFor(choices, browserTimeZone()), [choices]);
  return (
    <ChoiceForm
      key={choices.map((c) => c.option).join(',')}
      fileName={fileName}
      questions={questions}
      base={options}
      submitLabel="Read the file with these answers"
      onSubmit={onAnswer}
    />
  );
}
