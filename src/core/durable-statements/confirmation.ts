/** Family "confirmation": approval of a way of working, meant to continue ("keep doing it this way"). Pure. */
import { LEAD } from './message.js';

// Approval of a way of working, meant to continue: "keep doing it this way", "that's how I want it from now on".
export const CONFIRMATION =
  /\bkeep (?:doing (?:it|that|this)|(?:it|that|this) up|(?:it|that) (?:this|that) way|doing (?:it|that) like (?:this|that))\b|\bexactly (?:what|how) I want\b|\bthat's (?:how|what) I want\b|\bdo it like this (?:from now on|every time|again)\b|\bthat(?:'s| was| is) the right (?:call|approach|way)\b|\bthis is (?:exactly )?the (?:approach|way|level of detail|format|style|tone|length) I (?:want|like)\b|\b(?:that's|this is) how I (?:like|want) it\b|\bthat's (?:exactly )?the (?:\w+ ){1,2}I (?:want|like)\b|\b(?:more|all) of (?:this|that),? please\b|\b(?:use|do|apply) (?:this|that|the same)(?: \w+)? (?:for|in|on) (?:all|every|each|any) (?!the\b)\w+|\b(?:perfect|great|good|nice|love|like|works?|exactly)\b[^.?!]*\b(?:use|do|apply) it (?:for|in|on) (?:all|every|each|any) \w+/i;
// The way just shown, asked for again later: "please use this approach in the future as well".
export const FUTURE_CONFIRMATION = new RegExp(
  String.raw`(?:^|[.!;,]\s*)${LEAD}(?:use|follow|apply|keep|take|do) (?:this|that|the same|it)\b[^.?!]*\b(?:in the future|in future|from now on|going forward|from here on|next time)\b`,
  'i',
);
