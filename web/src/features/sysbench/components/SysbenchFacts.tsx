import type { SysbenchFileio } from '@blockwise/shared/sysbench';
import { sysbenchFacts } from '../sysbench-facts.ts';

/** How a sysbench fileio run ran and what it measured, as a definition list for its input card. */
export function SysbenchFacts({ run, title }: { run: SysbenchFileio; title: string }) {
  return (
    <dl className="facts facts--inline" aria-label={`sysbench facts of ${title}`}>
      {sysbenchFacts(run).map((f) => (
        <div key={f.label}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
