import type { ReactNode } from 'react';
import { sectionsOf, type Answer, type AnswerSection } from '@blockwise/shared/answer';

function Line({ href, linkText, children }: { href: string | null; linkText: string; children: ReactNode }) {
  return (
    <li>
      {children}
      {href ? (
        <>
          {' '}
          <a href={href}>{linkText}</a>
        </>
      ) : null}
    </li>
  );
}

/**
 * The answer's lines — what it needs, what binds, what to buy and for how much a month, the NVMe
 * alternative — and the prices they use. One component for every page that shows a plan: the
 * planning page (live), a share link and an archived run (stored), so they read alike.
 */
export function AnswerLines({
  answer: a,
  sections = sectionsOf({ kind: 'planning' }),
  needsExtra = null,
  nvmeExtra = null,
}: {
  answer: Answer;
  /** The sections on this page (default: all of the planning page's). */
  sections?: ReadonlySet<AnswerSection>;
  /** The planning page's controls beside "Needs …" (the demand source, the dataset size). */
  needsExtra?: ReactNode;
  /** Beside the NVMe alternative: whether its instance store holds the dataset. */
  nvmeExtra?: ReactNode;
}) {
  const to = (id: AnswerSection) => (sections.has(id) ? `#${id}` : null);
  return (
    <>
      <ul className="answer__lines">
        <Line href={to('profile')} linkText="Profile">
          <strong>{a.needs}</strong>
          {needsExtra}
        </Line>
        {a.binds ? (
          <Line href={to('limits')} linkText="What binds">
            <span className={`answer__binds answer__binds--${a.bindsTone}`}>{a.binds}</span>
          </Line>
        ) : (
          <Line href={to('instance')} linkText="Pick an instance">
            No configuration to check yet: pick the instance (and a volume) the plan is for.
          </Line>
        )}
        {a.instance ? (
          <Line href={to('right-size')} linkText="Instance options">
            {a.instance}
          </Line>
        ) : null}
        {a.provision ? (
          <Line href={to('right-size')} linkText="Right-size">
            {a.provision}
          </Line>
        ) : null}
        {a.nvme ? (
          <Line href={to('compare')} linkText="NVMe vs EBS">
            {a.nvme}
            {nvmeExtra}
          </Line>
        ) : null}
      </ul>
      <p className="answer__meta">
        Costs at {a.prices}.{sections.has('rates') ? ' ' : null}
        {sections.has('rates') ? <a href="#rates">Rate card</a> : null}
      </p>
    </>
  );
}
