/** What is already kept elsewhere, so no memory: where code sits in the repository, a rule quoted from its rule file. Pure. */

// Where something sits in the repository is what the code already shows (docs/architecture.md#memory-types),
// including which package files belong to ("the files are part of `twat.coding.pystubnik`").
export const CODE_LOCATION =
  /\b(?:located|defined|declared|implemented|lives?|resides?|can be found|sits?)\b[^.?!]*?(?:[\w.-]+\/)+[\w.-]+\.\w{1,5}\b|\b(?:is|are) (?:part of|inside|under) `[\w./-]+`|\bbelongs? to `[\w./-]+`/i;

// A rule quoted from the rule file that already holds it: "we must never ignore errors according to @dont-ignore-errors.mdc".
export const CITED_RULE = /\b(?:according to|as (?:per|stated in|described in|written in|specified in|defined in|said in)|per)\s+(?:the\s+|our\s+|my\s+)?@?[\w.'-]+\.(?:mdc|md)\b/i;
