/**
 * What makes a statement task-scoped rather than durable: a pointer to the work at hand ("this PR",
 * "for now", "use that") or pasted output. Pure.
 */

// Pasted output and code (errors, paths, aligned columns, shell).
export const PASTED_OUTPUT = /\b(?:\w*Error|error|warning|Traceback|Exception)\b:|(?:^|\s)(?:~|\.{0,2})\/[\w.-]+\/[\w.-]+|\S\s{4,}\S|\[\[|\$[A-Z_]{2,}\b/i;

// Pointers to the work at hand: "this PR", "for now", "use that", "here.", "this test".
const TASK_SCOPE = [
  /\b(?:this|that)\s+(?:one\s+)?(?:PR|pull request|commit|branch|ticket|task|test run|run|script|file|function|line|time)\b|\b(?:this|that|these|those)\s+(?:tests?|session|bug|error|issue|page|step|part|section|diff|output|loop|case|example|library|endpoint|query|feature|approach|idea|plan|option|version)\b/i,
  /\bin this one\b|\bfor now\b|\bfor this(?:\s+(?:one|time|task|run|change|fix|step|test|script|feature))?\s*[.,!]?\s*$|\bfor this (?:one|time|task|run|change|fix|step|feature)\b|\bright now\b|\b(?:today|today's|tonight|yesterday|this morning|this afternoon)\b|\b(?:das|dies|es)\s+(?:nicht|nie|jetzt)\b|\b(?:every|each|all|any) \w+ (?:you|we) (?:just )?\w+ed\b|\bnow\b(?!\s+on\b)|\byet\b|\bthere\b(?!\s+(?:is|are)\b)|\bhere\b\s*(?:[.,!]|$)(?!.*\b(?:project|repo)\b)/i,
  // ("I can do that" says who does it, not what to change.)
  /(?<!\bI (?:can |will |'ll )?)\b(?:do|use|change|touch|undo|revert|fix|try|run|delete|remove|move|copy|merge|push|implement|check|rename|install|open|close)\s+(?:it|this|that|these|those|them)\b(?!\s+(?:way|kind|sort|type|project|repo|codebase)\b)|\bany more \w+s\b|\bjust (?:do|go|continue|finish|fix|merge) (?:it|on|ahead)\b|\blet's\b(?![^.!?]*\b(?:always|never|from now on)\b)/i,
  /\bnever mind\b|\bnevermind\b/i,
  PASTED_OUTPUT,
  /先别|先把|这次|这个(?:文件|函数|PR)|先回滚|再说/,
];

// "the file" points at the work at hand, except inside a condition ("unless the file is generated").
const DEFINITE_TASK_OBJECT = /\bthe\s+(?:one\s+)?(?:PR|pull request|commit|branch|ticket|task|test run|run|script|file|function|line|time)\b/i;
const CONDITION = /\b(?:unless|if|when|whenever|before|after|until|once)\b[^,;.!?]*/gi;

export const taskScoped = (sentence: string) => TASK_SCOPE.some((re) => re.test(sentence)) || DEFINITE_TASK_OBJECT.test(sentence.replace(CONDITION, ''));
