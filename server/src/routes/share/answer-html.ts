import {
  sectionsOf,
  type Answer,
  type AnswerSection,
  type StoredAnswer,
  type StoredCapacityAnswer,
} from '@blockwise/shared/answer';
import { escapeHtml } from '../../presenters/escape-html.ts';

/**
 * A share link's answer box as HTML, element for element what web's StoredAnswer renders
 * (AnswerBox + AnswerLines: the same tags, classes, ids, link texts and spaces), so the answer is
 * on screen before any script and nothing moves when React replaces #root. The words are
 * @blockwise/shared/answer's, as the page's; every one is escaped (titles, labels and warning text
 * in it are user input). e2e/tests/share-static-head.spec.ts holds the two together.
 */

function line(
  content: string,
  href: AnswerSection | null,
  linkText: string,
  sections: ReadonlySet<AnswerSection>,
) {
  const link = href && sections.has(href) ? ` <a href="#${href}">${linkText}</a>` : '';
  return `<li>${content}${link}</li>`;
}

function linesHtml(a: Answer, sections: ReadonlySet<AnswerSection>): string {
  const e = escapeHtml;
  const lines = [
    line(`<strong>${e(a.needs)}</strong>`, 'profile', 'Profile', sections),
    a.binds
      ? line(
          `<span class="answer__binds answer__binds--${e(a.bindsTone)}">${e(a.binds)}</span>`,
          'limits',
          'What binds',
          sections,
        )
      : line(
          'No configuration to check yet: pick the instance (and a volume) the plan is for.',
          'instance',
          'Pick an instance',
          sections,
        ),
    a.instance ? line(e(a.instance), 'right-size', 'Instance options', sections) : '',
    a.provision ? line(e(a.provision), 'right-size', 'Right-size', sections) : '',
    a.nvme ? line(e(a.nvme), 'compare', 'NVMe vs EBS', sections) : '',
  ];
  const rates = sections.has('rates') ? ' <a href="#rates">Rate card</a>' : '';
  return `<ul class="answer__lines">${lines.join('')}</ul><p class="answer__meta">Costs at ${e(a.prices)}.${rates}</p>`;
}

/**
 * The answer box of a share page holding `plans` plans; its lines link to the sections that page
 * shows (sectionsOf, as SharePage asks).
 */
export function shareAnswerHtml(stored: StoredAnswer, plans: number): string {
  const note = `<span class="answer__note">For ${escapeHtml(stored.title)}</span>`;
  return (
    '<section class="answer" aria-labelledby="answer-title" id="answer"><div class="answer__head">' +
    `<h2 class="answer__title" id="answer-title">The answer</h2>${note}</div>` +
    `${linesHtml(stored.answer, sectionsOf({ kind: 'share', plans }))}</section>`
  );
}

/** A session saved without demand: web's StoredCapacity, element for element (no plan, nothing sized). */
export function shareCapacityHtml(a: StoredCapacityAnswer): string {
  const e = escapeHtml;
  const note = `<span class="answer__note">${e(a.note)}</span>`;
  return (
    '<section class="answer" aria-labelledby="answer-title" id="answer"><div class="answer__head">' +
    `<h2 class="answer__title" id="answer-title">The answer</h2>${note}</div>` +
    `<div class="answer__capacity"><p><strong>${e(a.lead.strong)}</strong> ${e(a.lead.text)}</p>` +
    `<ul class="answer__lines">${a.lines.map((l) => `<li>${e(l)}</li>`).join('')}</ul>` +
    `${a.comparison ? `<p>${e(a.comparison)}</p>` : ''}<p>${e(a.ask)}</p></div></section>`
  );
}
