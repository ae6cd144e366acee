import type { ComparisonResult, PlanSession } from '@blockwise/shared/records';
import { PrintButton } from '../../../components/PrintButton.tsx';
import { downloadText } from '../../../lib/download.ts';
import { slug } from '../../../lib/format.ts';
import { exportCsv, exportJson, type AnswerExport } from '../export-rows.ts';

/** CSV and JSON of the numbers shown (CSV cells defused against formula injection). */
export function ExportMenu({
  result,
  session,
  analysisVersion,
  title,
  names,
  answer,
}: {
  result: ComparisonResult;
  session: PlanSession | null;
  analysisVersion: string;
  title: string;
  names?: Record<string, string>;
  /** The page's answer: the CSV's first rows. */
  answer?: AnswerExport;
}) {
  const base = slug(`blockwise ${title}`);
  return (
    <div className="button-row" role="group" aria-label="Export">
      <button
        type="button"
        className="btn btn--small"
        onClick={() => downloadText(exportCsv(result, names, answer), `${base}.csv`, 'text/csv')}
      >
        Export CSV
      </button>
      <button
        type="button"
        className="btn btn--small"
        onClick={() =>
          downloadText(
            exportJson(result, { analysisVersion, session, exportedAt: new Date().toISOString() }),
            `${base}.json`,
            'application/json',
          )
        }
      >
        Export JSON
      </button>
      <PrintButton />
    </div>
  );
}
