/**
 * Words of an instruction to a coding agent about the task at hand (actions, chat, generic work
 * objects) rather than a topic: "run the tests again" or "thanks, continue" names nothing a memory
 * could be about. Git and release words (commit, branch, merge, deploy…) are left out on purpose:
 * a project's memories are often about exactly those. Only the prompt hook's decision to stay
 * silent uses them (`RankTuning.abstain.taskWords`).
 */
export const TASK_WORDS =
  'run rerun fix check update add remove delete change create write rewrite read review try continue proceed start stop finish redo undo ' +
  'revert implement refactor rename move clean cleanup explain show look see find search open close keep done help edit debug investigate ' +
  'figure raise respond reply answer ask address resolve handle describe summarize list print verify validate confirm retry again next ' +
  'ok okay yes yeah nope thanks thank great good nice cool perfect sounds fine right wrong sure also instead maybe actually just really ' +
  'still already first last new old other same seems something anything everything bit lot little whole ' +
  'test build code file function method error failure failing fail failed issue comment line step part output log work working works ' +
  'doc docs message case cases example';

/**
 * TASK_WORDS as search terms, `new Set(tokenize(TASK_WORDS))` written out (a unit test keeps the two
 * in step): stemming them would cost the prompt hook on every prompt.
 */
export const TASK_TERMS: ReadonlySet<string> = new Set(
  (
    'run rerun fix check updat add remov delet chang creat write rewrit read review try continu proce ' +
    'start stop finish redo undo revert implement refactor renam move clean cleanup explain show look see ' +
    'find search open close keep done help edit debug investig figur rais respond repli answer ask ' +
    'address resolv handl describ summar list print verifi valid confirm retri next ok okai ye yeah nope ' +
    'thank great good nice cool perfect sound fine right wrong sure instead mayb actual realli still ' +
    'alreadi 1 last new old seem someth anyth everyth bit lot littl whole test build code file function ' +
    'method error failur fail issu comment line step part output log work doc messag case exampl'
  ).split(' '),
);

/**
 * A Korean request ending ("올려줘", "설명해 주세요", "바꿔줄래"): the word asks the agent to act, it names
 * no topic, whatever the verb.
 */
const KOREAN_REQUEST = /(?:줘|줘요|주세요|줄래|줄래요|주실래요)$/;

/** Whether a search term only instructs the agent (see TASK_WORDS). */
export const isTaskTerm = (term: string): boolean => TASK_TERMS.has(term) || KOREAN_REQUEST.test(term);
