/**
 * The relax rule: after a filter, when relax is on, that filter has not been loosened yet in this run,
 * fewer than max(1, ceil(10 % of its input)) candidates passed, and the run still has fewer rows than
 * its target, the coordinator asks the filter role to loosen it once. Input and passed count the whole
 * run so far (see FilterTally): a later round bringing two fresh candidates that both fail does not mean
 * the filter "keeps almost nobody" when it kept most of the earlier rounds' candidates.
 */
export interface RelaxDecisionInput {
  relaxEnabled: boolean;
  alreadyTried: boolean;
  inputCount: number;
  passedCount: number;
  rowsSoFar: number;
  target: number;
}

export function relaxThreshold(inputCount: number): number {
  return Math.max(1, Math.ceil(inputCount * 0.1));
}

export function shouldRelax(input: RelaxDecisionInput): boolean {
  if (!input.relaxEnabled || input.alreadyTried) return false;
  if (input.inputCount === 0) return false;
  return input.passedCount < relaxThreshold(input.inputCount) && input.rowsSoFar < input.target;
}

/** What one filter of a run has seen so far, over all rounds: candidates in, and passes of the original. */
export interface FilterTally {
  input: number;
  passed: number;
}
