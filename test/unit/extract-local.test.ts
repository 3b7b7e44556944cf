import { describe, expect, test } from 'vitest';
import { findDurableStatement, proposeMemory } from '../../src/extract/local.js';
import { withoutControlCharacters } from '../../src/core/plain-text.js';
import { checkOperations } from '../../src/extract/operations.js';
import { extract as extractTable } from '../../src/cmd/table/extract.js';
import { parseFastArgs } from '../../src/shell/hook-args.js';

// Written here, not taken from the labelled set (bench/extract/labelled.jsonl measures the engine).
describe('local engine: durable statements only', () => {
  test.each([
    ['Please remember that the demo environment is rebuilt every night', 'project'],
    ['From now on, write commit messages in the imperative mood.', 'feedback'],
    ['Never push to the release branch without a second review — it broke prod twice.', 'feedback'],
    ["I'm a backend engineer and new to React, so explain the hooks you use.", 'user'],
    ['yes, keep doing it like that: small PRs with a test each', 'feedback'],
    ['Bugs for this service are tracked in Linear under the INGEST project.', 'reference'],
    ['记住：发布前一定要跑端到端测试', 'project'],
    ['以后都用中文回复我', 'feedback'],
    ['好的。以后不要在测试里 mock 数据库', 'feedback'],
    // Each scope word durably here and in task scope below, in several languages.
    ['in this project we use pnpm workspaces', 'feedback'],
    ['In diesem Projekt nutzen wir immer pnpm', 'feedback'],
    ["Please don't create new markdown files unless I ask for them.", 'feedback'],
    ['Always run the full test suite before you say it works.', 'feedback'],
    ['I hate emojis in code', 'feedback'],
    ['Réponds-moi toujours en anglais.', 'feedback'],
    ['Todos los commits en inglés, por favor, siempre.', 'feedback'],
    ['Всегда пиши тесты перед кодом.', 'feedback'],
    ['毎回テストを実行してから報告してください', 'feedback'],
    ['Speichere das dauerhaft: Antworten bitte kurz halten.', 'feedback'],
    ['my name is Dana, I maintain the ingestion service', 'user'],
    ['Ich bin Designerin und kein Entwickler, erklär mir Code bitte einfach.', 'user'],
    ['add to CLAUDE.md that the e2e suite needs the VPN', 'project'],
    ['im a data engineer, so explain frontend things slowly', 'user'],
    ['When you lose the connection to the server always re-check the state first.', 'feedback'],
    ['We should NEVER set timestamps by hand, please remove that.', 'feedback'],
    ['I have no experience with Go, but years of Python', 'user'],
    ['The company I work for is Acme Electric', 'user'],
    ['Keep your answers short.', 'feedback'],
    ['dont use the type any. Everything must be typed', 'feedback'],
    ["don't do amplify deploys, I can do that", 'feedback'],
    ['Please update your fixes to alwasy use the factory, and update CLAUDE.md with that information.', 'feedback'],
    // Agent instruction files of other tools, a way shown and asked for again, how to involve the user.
    ['update .cursorrules with this guideline: never use default exports', 'feedback'],
    ['good, please use this pattern in the future too', 'feedback'],
    ["ok, don't ask me to confirm every rename", 'feedback'],
    ["I'm not a native English speaker, keep the wording simple", 'user'],
    ['this is my first time using Rust', 'user'],
    ["I'm just a solo dev on this", 'user'],
    ["it's just a hobby project, keep it simple", 'project'],
    ['schema.ts is an automatically generated file so we can never edit it by hand', 'project'],
    ['production runs on Fly.io and staging on a VPS', 'project'],
    ['I think we should bump the version each time we release', 'feedback'],
    ['Run the linter every time you commit.', 'feedback'],
    ['remeber that the staging data is fake', 'project'],
    // Explicit requests and "from now on" in more languages.
    ['Ricorda che il database di staging viene azzerato ogni lunedì', 'project'],
    ['Onthoud dat de staging database elke maandag wordt gereset', 'project'],
    ['Zapamiętaj: baza stagingowa jest czyszczona co poniedziałek', 'project'],
    ['Unutma ki staging veritabanı her pazartesi sıfırlanıyor', 'project'],
    ['Ingat bahwa database staging direset setiap Senin', 'project'],
    ['스테이징 DB는 매주 월요일에 초기화된다는 걸 기억해 둬', 'project'],
    ['Hãy nhớ rằng cơ sở dữ liệu staging được đặt lại mỗi thứ Hai', 'project'],
    ['จำไว้ว่าฐานข้อมูล staging จะถูกรีเซ็ตทุกวันจันทร์', 'project'],
    ["D'ora in poi scrivi i messaggi di commit in inglese.", 'feedback'],
    ['Voortaan schrijf je commitberichten in het Engels.', 'feedback'],
    ['Od teraz pisz testy przed kodem.', 'feedback'],
    ['Bundan böyle commit mesajlarını İngilizce yaz.', 'feedback'],
    ['이제부터 커밋 메시지는 영어로 작성해 주세요', 'feedback'],
    ['Từ giờ trở đi hãy viết commit bằng tiếng Anh.', 'feedback'],
    ['จากนี้ไปให้ตอบเป็นภาษาไทยเท่านั้น', 'feedback'],
    // The language of every reply, work the user keeps, a decision.
    ['Reply only in English, please.', 'feedback'],
    ['me responderás solamente en español', 'feedback'],
    ['Antworte bitte immer auf Deutsch.', 'feedback'],
    ['Responda sempre em português.', 'feedback'],
    ['Отвечай только на русском.', 'feedback'],
    ['请只用中文回答', 'feedback'],
    ['ตอบภาษาไทยเท่านั้น', 'feedback'],
    ["don't test the frontend, I will test it myself manually", 'feedback'],
    ['Leave the deployment to me.', 'feedback'],
    ["I've decided to publish the puzzle as Zigzag since the old name is a slur.", 'project'],
    // A prohibition that says what it protects; who the user is, or work they keep, inside a sentence about the task.
    ["Do not reinit task-master, we don't want to lose the history of tasks we have worked on", 'feedback'],
    ["i've got an oauth setup in this backend, i'm not very familiar with oauth, and now i need to take it further", 'user'],
    ['after testing, there is an issue, the digest button does nothing yet, implement and UI test leave it to me', 'feedback'],
    ['the catch is that I develop on a Windows laptop and the servers run Debian.', 'user'],
    // A rule asked for as such; what "this" is comes from the sentences before it.
    ['create a rule that says we always squash-merge feature branches', 'feedback'],
    ['record this as a global rule: prefer jq over grep for JSON', 'feedback'],
    ['never use npm here, only pnpm. make a rule so you never do that again', 'feedback'],
    ['add to cursor rules: every API handler validates its input with zod', 'feedback'],
    ["I don't want to see that pager prompt ever again", 'feedback'],
    ["Don't weaken the type checks to get a build through, ever!", 'feedback'],
    ['No no, keep the changelog as is. Plus always use "pnpm dlx", not "npx"!', 'feedback'],
    ["I'm comfortable with Python but not with Rust", 'user'],
    ['Also, please log every command you run in commands.md, for all the future sessions too.', 'feedback'],
    ['ok, ship the fixes yourself, always', 'feedback'],
    // An explicit request that tells the agent how to work, wherever in it the rule is.
    ['note for the future: when you review code, list the risky lines first', 'feedback'],
    ['save this to memory: small pure functions only, never add global state', 'feedback'],
    // Across the user's projects, "stop doing" in other languages, a habit asked for as a question.
    ["it's always yarn in my repos", 'feedback'],
    ['et arrête de mettre des emojis dans les commits', 'feedback'],
    ['y deja de usar var en los ejemplos', 'feedback'],
    ['can you make a habit of running the linter before you hand back', 'feedback'],
    // Openers, reasons from experience, "unless I say otherwise", habits, complaints, what to do when unsure.
    ['and please never commit generated files, we got burned when the lockfile drifted', 'feedback'],
    ['the migration looks good. oh and DONT add comments that restate the code', 'feedback'],
    ['fix the header. unit tests are enough for css tweaks unless I say otherwise', 'feedback'],
    ['make a habit of running the type checker before every commit', 'feedback'],
    ["I'm sick of you reformatting whole files", 'feedback'],
    ["I'd rather you didn't add new dependencies for small helpers", 'feedback'],
    ["when you're unsure whether a flag exists, ask me instead of guessing", 'feedback'],
    // The user's experience, machine and time.
    ['Kotlin is brand new to me, explain the syntax as you go', 'user'],
    ['my machine is a Raspberry Pi 4, so keep memory use low', 'user'],
    ['I only have 20 minutes a day for this side project', 'user'],
    ["german isn't my first language", 'user'],
    // Project facts, also in a sentence that points at the work; where things live, in other languages too.
    ['this is a throwaway prototype for the pitch, keep it simple', 'project'],
    ['the investor demo is on Thursday, so nothing risky before that', 'project'],
    ['we release from the stable branch only', 'project'],
    ['heads up, the billing service belongs to another team', 'project'],
    ['the legacy importer gets removed next month, skip fixes there', 'project'],
    ['flags live in LaunchDarkly, check there before touching env vars', 'reference'],
    ['los requisitos están en Jira', 'reference'],
    ['die Doku liegt in Confluence unter Plattform', 'reference'],
    ['Die Anforderungen stehen im Projekt SHOP in Jira.', 'reference'],
  ])('%s → %s', (text, type) => {
    expect(findDurableStatement(text)?.type).toBe(type);
  });

  test.each([
    'remember when the build broke on Friday? same thing again',
    'Can you remember which flag we used for the migration?',
    'always?',
    'never mind, revert it',
    "Don't change the schema in this PR.",
    "I'm getting a timeout from the API now",
    'keep doing what you are doing, back in 5 minutes',
    '先别管这个，以后再说',
    // 以后 after a word is "after", not "from now on"; 吗 makes its clause a question wherever it stands.
    '提交以后状态会延迟几秒，我们需要解决这个问题',
    '这个是什么意思，是每次都要延迟这么多吗，这个值从哪里来',
    'Please update the README with the new flags',
    'Set up eslint in this project',
    'Bitte erstelle in diesem Projekt eine README',
    'Add a docstring to every function in the repo',
    "don't make any changes, just explain",
    "Don't fix anything, I don't want to break it",
    "don't touch it, I don't want to lose my changes",
    "Don't worry about the tests since they are flaky",
    "from now on the tests pass, so let's move to the docs",
    'whenever you can, fix the flaky test',
    "we're moving on to the next step",
    "I'm an idiot, that was my fault",
    'I prefer the second option',
    'stop running the server',
    'next time it fails, show me the full log',
    'siempre falla con el mismo error',
    'ça ne marche toujours pas',
    'почему оно всегда падает',
    '总是报错',
    '毎回エラーになる',
    'add the new endpoint to CLAUDE.md',
    'do it again but make it wider',
    'the header is not centered like it is in Figma',
    'Then take notes and drop them in docs/ for future reference',
    'Getting Error: the command is deprecated, use the new one',
    'best linux helper ever',
    "don't make any changes",
    'make your answer shorter',
    'no, it closes the session    # After RDP closes, stop the container unless --keep-alive was given',
    'No more bottom sheet camera component',
    'Review what you have researched and make a plan going forward.',
    'Extend my config with by default showing hidden files',
    'modify the agent to prevent the same issue in the future',
    'Update claude md with that information',
    'the order of the rows => sort them by date',
    // Behaviour of the product, a complaint, a prediction, a location in the repo, a reminder about the work at hand.
    'when we open the page the first panel is open and always shown, then the next one opens',
    'set the retry flag to always be true',
    'every time you rename the folders',
    'this part is simple but in the future will be extended to polygons',
    'for future reference: the parser is defined in src/parse/tokens.ts',
    'remember that this test code only checks the happy path',
    // A document made "for future reference", a request for suggestions, a state, reported speech.
    'create a markdown file in the module explaining it for future reference',
    'please suggest a rule for what to add at the end of each response',
    'drop the status column, always will be open anyway',
    'the bot thinks I am a customer, fix the greeting',
    // Remembering as recall, and a next step, in the languages added above.
    'Ricordi quando il build si è rotto?',
    'Ik weet het niet meer, onthouden is lastig',
    'Nie pamiętam, jak to działało',
    'Unutmadım, zaten yaptım',
    'Saya ingat kita sudah memperbaiki ini',
    '기억나요? 어제 빌드가 깨졌어요',
    'Tôi nhớ là đã sửa lỗi này rồi',
    'Poi scrivi i test.',
    'Bundan sonra testleri çalıştır.',
    // One answer's language, one piece of work, a choice on screen.
    'Please answer in English.',
    '请用中文解释这段代码',
    'I will review it myself.',
    'I decided to go with option B.',
    // Rules of a tool or a product, a rule request without its rule, a work item, what the product should do,
    // a plan for later, vague objects, a rule quoted from its file, where code sits, a page pasted after a
    // link, numbered steps, a state.
    'add an eslint rule that forbids default exports',
    'improve that rule so you always do it from now on',
    'create a task to make sure the exporter always writes UTF-8',
    'It should support more formats in the future when we add exporters',
    'In the future I would like to add SSO so teams can share boards',
    "Bob the bot doesn't need to always confirm the order",
    "Refactor the parser and don't break things",
    'we must always pin versions, as per @deps.mdc',
    'remember that the helpers are part of `app.core.utils`',
    'have you seen this? https://example.com/docs\nAlways call the batch endpoint when you send more than 100 items.',
    'Now:\n(1) Review the backlog so that it drops tasks that are no longer relevant.\n(2) Implement the next item.\n(3) Update the changelog.',
    'Make the enemy retreat when having no more units left',
    'Generate an icon and use it on all the buttons on the page',
    'it crashes on save, always',
    // "Stop that" is about this moment, in any language.
    'arrête de le faire maintenant',
    'para de fazer isso',
    // A question without its mark, what the product returns or shows, a requirement on a schedule, a hint
    // for the task, a result to keep for a few steps, a pasted form with its commands.
    'the docs say this flag is deprecated, what should we use instead',
    'always return an empty list when the query has no results',
    'never show the full card number on the receipt',
    'the backup job should run every night at 2am',
    'keep in mind the loop runs twice here',
    'запомни этот результат, он понадобится позже',
    'Steps:\ngit add src/app.ts\ngit commit -m fix\nDo not create new files unless required.',
    // A prohibition of "anything" with its reason, options listed after a question.
    "Don't change anything, just check the login hook, because the report may be stale",
    'Which approach is better?\n1. Ask once at setup, do not ask anymore.\n2. Something else?',
  ])('%s → nothing', (text) => {
    expect(findDurableStatement(text)).toBeNull();
  });

  test("explicitOnly (the Stop hook's mode) keeps explicit requests and standing instructions, drops what is only inferred", () => {
    const explicitOnly = { explicitOnly: true };
    expect(findDurableStatement('Please remember that the demo environment is rebuilt every night', explicitOnly)?.type).toBe('project');
    expect(findDurableStatement('add to CLAUDE.md that the e2e suite needs the VPN', explicitOnly)?.type).toBe('project');
    expect(findDurableStatement("I'm a backend engineer and new to React, so explain the hooks you use.", explicitOnly)).toBeNull();
  });

  // Issue 34: the Stop hook dropped this for good. An instruction to the agent with a lasting scope or an
  // always/never is asked for as much as "remember…" is.
  test.each([
    'From now on answer in British English, and never use emojis in commit messages.',
    'From now on, write commit messages in the imperative mood.',
    'Going forward, run the linter before every commit.',
    'Never force-push shared branches, people lose work that way.',
    'Always use pnpm in this repo.',
    'When you open a pull request, always link the issue.',
  ])('the Stop hook\'s mode keeps the standing instruction "%s", as the full detector finds it', (text) => {
    const full = findDurableStatement(text);
    expect(full).toMatchObject({ kind: 'standing', type: 'feedback' });
    expect(findDurableStatement(text, { explicitOnly: true })).toEqual(full);
  });

  test.each([
    ['I prefer small pull requests.', 'standing'],
    ['we use date-fns, not moment', 'standing'],
    ["I'm a data scientist and new to TypeScript.", 'identity'],
    ['Yes, that approach is exactly right, keep doing it that way.', 'confirmation'],
    ['Bugs for this service are tracked in Linear under the INGEST project.', 'reference'],
  ])('the Stop hook\'s mode leaves the inferred "%s" (%s) to review', (text, kind) => {
    expect(findDurableStatement(text)?.kind).toBe(kind);
    expect(findDurableStatement(text, { explicitOnly: true })).toBeNull();
  });

  test.each([
    'Keep this in mind: we deploy only on Tuesdays.',
    'Please keep in mind that we deploy only on Tuesdays.',
    'Bear this in mind: we deploy only on Tuesdays.',
    'Note for later: we deploy only on Tuesdays.',
    'Please remember this for next time: we deploy only on Tuesdays.',
    'Remember this: we deploy only on Tuesdays.',
    'Add this to your memory: we deploy only on Tuesdays.',
    'Save this as a memory: we deploy only on Tuesdays.',
    'Memorize this: we deploy only on Tuesdays.',
    'Commit this to memory: we deploy only on Tuesdays.',
    'Going forward, remember that we deploy only on Tuesdays.',
    'I want you to remember that we deploy only on Tuesdays.',
  ])('"%s" is an explicit request, kept without its request words', (text) => {
    expect(findDurableStatement(text)).toMatchObject({ kind: 'explicit', statement: 'we deploy only on Tuesdays.' });
  });

  test('a request followed by a list keeps the list as a list', () => {
    const found = findDurableStatement('Remember these conventions:\n- use pnpm, never npm\n- never force-push to main\n- put tests next to the code they test');
    expect(found).toMatchObject({ kind: 'explicit', statement: 'conventions:\n- use pnpm, never npm\n- never force-push to main\n- put tests next to the code they test' });
    const memory = proposeMemory(found!, new Date('2026-03-02T10:00:00Z'));
    expect(memory.name).toBe('Conventions');
    expect(memory.body.startsWith('Conventions:\n- use pnpm, never npm\n- never force-push to main\n')).toBe(true);
    expect(findDurableStatement('Keep these rules in mind:\n- no default exports\n- named imports only')?.statement).toBe('rules:\n- no default exports\n- named imports only');
    expect(findDurableStatement('Please keep these in mind: we deploy on Tuesdays.')?.statement).toBe('we deploy on Tuesdays.');
  });

  test.each([
    'keep it in mind',
    'I want you to keep in mind the rate limit for this call',
    'you should remember to close the file',
    'keep that in mind when you fix this test',
    'remember these files for the next step',
    'keep those in mind when you refactor',
  ])('"%s" asks for nothing to be kept', (text) => {
    expect(findDurableStatement(text)).toBeNull();
  });

  test.each([
    ['请记住：周二才能部署。', '周二才能部署。'],
    ['记住这个：周二才能部署。', '周二才能部署。'],
    ['记下来：周二才能部署', '周二才能部署'],
    ['覚えておいて：デプロイは火曜日だけ。', 'デプロイは火曜日だけ。'],
    ['Bitte merk dir, dass wir nur dienstags deployen.', 'wir nur dienstags deployen.'],
    ['Retiens que nous déployons seulement le mardi.', 'nous déployons seulement le mardi.'],
    ['Запомни, что деплой только по вторникам.', 'деплой только по вторникам.'],
    // "terças" does not end in the word "as" (a reason marker): words are whole in any script.
    ['Lembre-se: só fazemos deploy às terças.', 'só fazemos deploy às terças.'],
  ])('%s keeps "%s"', (text, statement) => {
    expect(findDurableStatement(text)).toMatchObject({ kind: 'explicit', statement, why: null });
  });

  test('the request words of the other languages are not kept in the memory', () => {
    expect(findDurableStatement('Ricorda che il database di staging viene azzerato ogni lunedì')?.statement).toBe('il database di staging viene azzerato ogni lunedì');
    expect(findDurableStatement('Onthoud dat de staging database elke maandag wordt gereset')?.statement).toBe('de staging database elke maandag wordt gereset');
    expect(findDurableStatement('จำไว้ว่าฐานข้อมูล staging จะถูกรีเซ็ตทุกวันจันทร์')?.statement).toBe('ฐานข้อมูล staging จะถูกรีเซ็ตทุกวันจันทร์');
  });

  test('each statement names the family of rules that found it', () => {
    const kindOf = (text: string) => findDurableStatement(text)?.kind;
    expect(kindOf('Please remember that the demo environment is rebuilt every night')).toBe('explicit');
    expect(kindOf('From now on, write commit messages in the imperative mood.')).toBe('standing');
    expect(kindOf("I'm a backend engineer and new to React, so explain the hooks you use.")).toBe('identity');
  });

  test('in a long message only an explicit request or who the user is counts, and only its own sentence', () => {
    const work = 'Please refactor the parser so that every token carries its position. '.repeat(9);
    expect(findDurableStatement(`${work}From now on, use tabs.`)).toBeNull();
    expect(findDurableStatement(`${work}Remember: the parser must stay streaming. ${work}`)?.statement).toBe('the parser must stay streaming.');
    // A rule asked for at the start of a long message, its rule after the colon (it once threw).
    expect(findDurableStatement(`record this as a global rule: prefer jq over grep for JSON. ${work}`)).toMatchObject({ kind: 'explicit', type: 'feedback' });
    expect(findDurableStatement(`${work}Keep it small, since I'm a solo founder and maintain this alone. ${work}`)).toMatchObject({
      type: 'user',
      kind: 'identity',
    });
  });

  test('a memory is named by its statement, not by the words that open it, and an inferred one does not claim a request', () => {
    const anchor = new Date('2026-03-02T10:00:00Z');
    const standing = proposeMemory(findDurableStatement('From now on, write commit messages in the imperative mood.')!, anchor);
    // The pointer line (150 characters) holds the name twice (title and file name): a short title leaves the hook room for the rule whole.
    expect(standing).toEqual({
      type: 'feedback',
      name: 'Write commit messages',
      description: 'From now on, write commit messages in the imperative mood',
      body: 'From now on, write commit messages in the imperative mood.',
    });
    expect(proposeMemory(findDurableStatement('yes, keep doing it like that: small PRs with a test each')!, anchor).name).toBe('Keep doing it like that');
    expect(proposeMemory(findDurableStatement('Please always respond in Thai.')!, anchor).name).toBe('Always respond in Thai');
    // No reason given, none made up: no **Why:**, and no **How to apply:** every memory would share.
    const asked = proposeMemory(findDurableStatement('Please remember that the demo environment is rebuilt every night')!, anchor);
    expect(asked.body).toBe('The demo environment is rebuilt every night.');
  });

  test.each([
    ['remember: run `pnpm test:e2e` before pushing, the CI does not run it', 'Run `pnpm test:e2e` before pushing'],
    ['Remember that the API docs are at https://docs.example.com/api/v2', 'The API docs are at https://docs.example.com/api/v2'],
    ['Please remember: the on-call rotation changes every Monday at 09:00 CET; ask Priya for swaps.', 'The on-call rotation changes every Monday at 09:00 CET'],
  ])('a name ends at a clause break, not inside code, a URL or a time: %s', (text, name) => {
    expect(proposeMemory(findDurableStatement(text)!, new Date('2026-03-02T10:00:00Z')).name).toBe(name);
  });

  test('"as" gives a reason only after a break', () => {
    expect(findDurableStatement("I've decided to publish the puzzle as Zigzag since the old name is a slur.")).toMatchObject({
      statement: "I've decided to publish the puzzle as Zigzag",
      why: 'since the old name is a slur.',
    });
    expect(findDurableStatement('Never use moment in new code, as it is deprecated.')).toMatchObject({ statement: 'Never use moment in new code', why: 'as it is deprecated.' });
  });

  test('a Chinese or Japanese statement ends with its own full stop in the memory', () => {
    const memory = proposeMemory(findDurableStatement('覚えておいて：デプロイは火曜日だけ。')!, new Date('2026-03-02T10:00:00Z'));
    expect(memory.body.split('\n')[0]).toBe('デプロイは火曜日だけ。');
    expect(memory.name).toBe('デプロイは火曜日だけ');
  });

  test('How to apply says what to use in place of what only when the statement says both', () => {
    const anchor = new Date('2026-03-02T10:00:00Z');
    const body = (text: string) => proposeMemory(findDurableStatement(text)!, anchor).body;
    expect(body('Always use pnpm in this repo, never npm or yarn.')).toBe(
      'Always use pnpm in this repo, never npm or yarn.\n\n**How to apply:** wherever npm or yarn would come up, use pnpm in this repo instead.',
    );
    expect(body('Never use moment in new code, as it is deprecated.')).toBe('Never use moment in new code.\n\n**Why:** as it is deprecated.');
  });

  test('a memory gets the reason the user gave as its Why, and absolute dates', () => {
    const found = findDurableStatement('Note for the future: the API freeze starts tomorrow because of the audit.')!;
    const memory = proposeMemory(found, new Date('2026-03-02T10:00:00Z'));
    expect(memory.body).toBe('The API freeze starts 2026-03-03.\n\n**Why:** because of the audit.');
    // The statement is one short clause: the name says it as a headline, the hook says it whole.
    expect(memory.name).toBe('API freeze starts 2026-03-03');
    expect(memory.description).toBe('The API freeze starts 2026-03-03');
  });
});

describe('claude engine operations are checked', () => {
  const base = { name: 'Deploy window', description: 'Deploys happen on Tuesdays and Thursdays only', type: 'project', body: 'Deploy Tue/Thu.\n\n**Why:** ops.\n**How to apply:** plan releases.' };
  test.each([
    [{ ...base, op: 'create', file: 'project_deploy.md' }, undefined],
    [{ ...base, op: 'create', file: '/etc/passwd.md' }, 'file must be a simple .md name inside the memory directory'],
    [{ ...base, op: 'create', file: 'MEMORY.md' }, 'file must be a topic file inside the memory directory'],
    [{ ...base, op: 'create', file: '.memdir/x.md' }, 'file must be a simple .md name inside the memory directory'],
    [{ ...base, op: 'create', file: 'project_known.md' }, 'the file exists; an update must name it'],
    [{ ...base, op: 'update', file: 'project_other.md' }, 'update of a file that is not in the manifest'],
    [{ ...base, op: 'create', file: 'project_x.md', body: 'See src/deploy.ts:42 for the window.' }, 'holds what the code or git history already says (a file:line citation or a commit hash)'],
    [{ ...base, op: 'create', file: 'project_x.md', name: '' }, 'name is empty'],
    [{ ...base, op: 'rename', file: 'project_x.md' }, 'unknown operation "rename"'],
    [{ ...base, op: 'create', file: 'project_x.md', name: 'Deploys happen on Tuesdays and…' }, 'name is cut ("…"); write it whole'],
    [{ ...base, op: 'create', file: 'project_x.md', description: 'Deploys happen on Tuesdays...' }, 'description is cut ("…"); write it whole'],
  ])('%o', (operation, reason) => {
    const { valid, rejected } = checkOperations([operation], new Set(['project_known.md']), new Date('2026-03-02T10:00:00Z'));
    expect(rejected[0]?.reason).toBe(reason);
    expect(valid).toHaveLength(reason ? 0 : 1);
  });

  test('escape sequences and control characters the model quotes are dropped, not a reason to refuse', () => {
    const operation = { ...base, op: 'create', file: 'project_deploy.md', name: 'Deploy\x1b[1m window\x1b[0m\x07', body: `\x00${base.body}\x7f` };
    const { valid, rejected } = checkOperations([operation], new Set(), new Date('2026-03-02T10:00:00Z'));
    expect(rejected).toEqual([]);
    expect(valid[0]).toMatchObject({ name: 'Deploy window', body: base.body });
  });
});

test.each([
  ['\x1b[31mred\x1b[0m and \x1b[1;38;5;208mbold\x1b[m', 'red and bold'],
  ['title \x1b]0;window title\x07done \x1b]8;;https://x.example\x1b\\link', 'title done link'],
  ['reset\x1b(B and \x1b7saved', 'reset and saved'],
  ['nul\x00 bel\x07 del\x7f c1\x85', 'nul bel del c1'],
  ['tabs\tand\nlines\r\n stay', 'tabs\tand\nlines\r\n stay'],
])('withoutControlCharacters(%j)', (text, plain) => {
  expect(withoutControlCharacters(text)).toBe(plain);
});

test('a request pasted with a colour sequence is found, and its statement (what extract saves and dream reports) is plain', () => {
  expect(findDurableStatement('remember: the \x1b[31mstaging\x1b[0m database is read-only on Fridays\x07')?.statement).toBe('the staging database is read-only on Fridays');
});

test('the hook fast path reads only plain hook command lines', () => {
  expect(parseFastArgs(extractTable, ['extract', '--hook', '--engine', 'local', '--dir=/tmp/m'])).toMatchObject({ engine: 'local', dir: '/tmp/m', every: undefined });
  expect(parseFastArgs(extractTable, ['extract', '--hook', '--every=3'])).toMatchObject({ engine: undefined, every: 3 });
  expect(parseFastArgs(extractTable, ['extract', '--hook', '--explicit-only'])).toMatchObject({ explicitOnly: true });
  expect(parseFastArgs(extractTable, ['extract', '--hook'])).toMatchObject({ explicitOnly: undefined });
  expect(parseFastArgs(extractTable, ['extract', '--hook', '--json'])).toBeUndefined();
  expect(parseFastArgs(extractTable, ['extract', '--hook', '--every', '0'])).toBeUndefined();
  expect(parseFastArgs(extractTable, ['extract', '--from', 'x'])).toBeUndefined();
});
