// The answer's wording (what a plan needs, what binds, what to buy and for how much a month), in
// one place: the web pages render it and the server paints it into a share link's HTML.

export { answerOf, describeRecommendation } from './answer.ts';
export type { Answer } from './answer.ts';
export { sectionsOf } from './sections.ts';
export type { AnswerSection } from './sections.ts';
export { storedAnswerPlan, storedRunAnswerOf } from './stored-answer.ts';
export type { StoredAnswer } from './stored-answer.ts';
export {
  CAPACITY_LEAD,
  NO_DEMAND_NOTE,
  deliveredComparison,
  deliveredText,
  fioKindLabel,
  profileEvidence,
  SESSION_ASK,
  storedCapacityAnswer,
} from './capacity-answer.ts';
export type { StoredCapacityAnswer } from './capacity-answer.ts';
