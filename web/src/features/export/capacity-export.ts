import { CAPACITY_LEAD, NO_DEMAND_NOTE, type StoredCapacityAnswer } from '@blockwise/shared/answer';
import type { ComparisonResult } from '@blockwise/shared/records';

/**
 * The answer without demand (issue 27) as an export's first rows (export-rows.ts answerRows): what
 * each storage delivered, one row per storage — a benchmark at saturation says what a storage can
 * do, never what a workload "needs". Apart from export-rows so the planning page's first load,
 * which builds it, does not load the export code (ExportMenu is lazy there, bench P10).
 */
export type CapacityAnswerExport = {
  for: string;
  /** "No demand yet. These runs went as fast as the storage allowed: …". */
  lead: string;
  /**
   * Above a legacy link's stored plans (sized on a run at saturation): "What-if on … not the
   * workload's need." — the plans' rows below say what they were sized on. null otherwise.
   */
  plansNote: string | null;
  /** `storage`: the run or benchmark and what measured it, "ebs.json (fio · EBS)". */
  delivered: readonly { storage: string; text: string }[];
  comparison: string | null;
  ask: string;
  prices: string;
};

/** The storages as the planning page's answer and a share link's list them. */
export function capacityExport(
  delivered: readonly { title: string; kindLabel: string; text: string }[],
  comparison: string | null,
  ask: string,
  rates: ComparisonResult['rates'],
  lead = `No demand yet. ${CAPACITY_LEAD}`,
  { note = NO_DEMAND_NOTE, plansNote = null as string | null } = {},
): CapacityAnswerExport {
  return {
    for: note.toLowerCase(),
    lead,
    plansNote,
    delivered: delivered.map((d) => ({ storage: `${d.title} (${d.kindLabel})`, text: d.text })),
    comparison,
    ask,
    prices: `${rates.region ?? 'custom rates'} prices of ${rates.date}`,
  };
}

/** A share link saved without demand (storedCapacityAnswer) as the CSV's first rows. */
export function storedCapacityExport(
  a: StoredCapacityAnswer,
  rates: ComparisonResult['rates'],
): CapacityAnswerExport {
  return capacityExport(a.delivered, a.comparison, a.ask, rates, `${a.lead.strong} ${a.lead.text}`, {
    note: a.note,
    plansNote: a.plansNote,
  });
}
