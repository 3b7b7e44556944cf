// Turns the public long-term-memory benchmarks named in bench/recall/SOURCES.md into the compact
// JSONL the recall benchmark reads (one memory directory per line). Run once, by hand:
//   node bench/recall/convert-public.js REALTALK_DATA_DIR MEMSIM_QA_DIR > bench/recall/public.jsonl
// The output is frozen: never regenerate it after tuning has started.
import fs from 'node:fs';
import path from 'node:path';

const pad = (n) => String(n).padStart(2, '0');

/** "29.12.2023, 22:42:04" → "2023-12-29" */
function realtalkDay(stamp) {
  const [d, m, y] = stamp.split(',')[0].trim().split('.');
  return `${y}-${m}-${d}`;
}

/**
 * REALTALK: one directory per conversation, one topic file per session. The description holds the
 * session's annotated events (what a memory extractor would keep), the body the session's messages.
 * A question's relevant files are the sessions holding its evidence turns.
 */
function realtalk(dir) {
  const chats = fs
    .readdirSync(dir)
    .filter((f) => /^Chat_\d+_.*\.json$/.test(f))
    .sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
  return chats.map((file) => {
    const chat = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    const number = Number(file.split('_')[1]);
    const sessionOf = new Map();
    const files = [];
    for (let s = 1; chat[`session_${s}`]; s++) {
      const turns = chat[`session_${s}`];
      const name = `session_${pad(s)}.md`;
      for (const turn of turns) sessionOf.set(turn.dia_id, name);
      const events = Object.values(chat[`events_session_${s}`] ?? {})
        .flat()
        .map((e) => e['sub-event'])
        .filter(Boolean);
      const day = realtalkDay(chat[`session_${s}_date_time`] ?? turns[0].date_time);
      files.push({
        path: name,
        name: `Chat session ${s} (${day})`,
        description: events.join(' ') || `Chat session ${s} on ${day}`,
        body: turns.map((t) => `${t.speaker}: ${t.clean_text}`).join('\n'),
        date: day,
      });
    }
    const queries = chat.qa.flatMap((qa, i) => {
      const relevant = [...new Set((qa.evidence ?? []).map((id) => sessionOf.get(id)).filter(Boolean))].sort();
      return relevant.length ? [{ id: `realtalk-${number}-${i + 1}`, query: qa.question, relevant, category: qa.category }] : [];
    });
    return { set: 'realtalk', dir: `realtalk-${pad(number)}`, split: number % 2 === 1 ? 'dev' : 'test', files, queries };
  });
}

/** "2024年04月01日 周一 08:30" → "2024-04-01" */
const memsimDay = (stamp) => stamp.replace(/^(\d{4})年(\d{2})月(\d{2})日.*$/, '$1-$2-$3');

/** MemSim (MemDaily, Chinese): one directory per trajectory, one topic file per user message. */
function memsim(dir, file, take) {
  const trajectories = JSON.parse(fs.readFileSync(path.join(dir, `${file}.json`), 'utf8')).slice(0, take);
  return trajectories.map((t) => {
    const files = t.message_list.map((m) => ({
      path: `message_${pad(m.mid)}.md`,
      name: `用户消息 ${m.mid + 1}`,
      description: m.message,
      body: `${m.message}\n\n时间：${m.time}；地点：${m.place}`,
      date: memsimDay(m.time),
    }));
    const queries = t.question_list.map((q) => ({
      id: `memsim-${file}-${t.tid}-${q.qid}`,
      query: q.question,
      relevant: [...new Set(q.target_step_id)].sort((a, b) => a - b).map((mid) => `message_${pad(mid)}.md`),
    }));
    return { set: `memsim-${file}`, dir: `memsim-${file}-${t.tid}`, split: t.tid % 2 === 0 ? 'dev' : 'test', files, queries };
  });
}

const [realtalkDir, memsimDir] = process.argv.slice(2);
const dirs = [...realtalk(realtalkDir), ...memsim(memsimDir, '01_simple_hybrid', 150), ...memsim(memsimDir, '06_noisy_hybrid', 150)];
for (const d of dirs) process.stdout.write(`${JSON.stringify(d)}\n`);
