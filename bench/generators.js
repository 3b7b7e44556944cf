// Generated bloated memory indexes, shared by the refactor tests and benchmarks.

/** `sections` sections of mixed prose, bullets and tables, `linesPerSection` lines each (plus a heading). */
export function bloatedIndex(sections, linesPerSection) {
  const out = ['# Project memory', ''];
  for (let s = 0; s < sections; s++) {
    out.push(`## Section ${s}: ${['deploy notes', 'team preferences', 'dashboards and links', 'release decisions'][s % 4]}`);
    for (let l = 0; l < linesPerSection; l++) {
      if (s % 4 === 2) out.push(`- Dashboard ${s}.${l}: https://grafana.example.com/d/${s}-${l} shows latency for service ${l}`);
      else if (s % 4 === 1) out.push(`- Never squash commits on branch ${s}-${l}; the user prefers linear history (rule ${l})`);
      else if (l % 5 === 4) out.push(`| service-${s}-${l} | port ${3000 + l} |`);
      else out.push(`Decision ${s}.${l}: ship the release train ${l} after the freeze ends next Thursday for component ${s}.`);
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

/** A 249-line index of pointers, as real agents leave it when they never prune. */
export function pointerIndex(count) {
  const files = {};
  const lines = [];
  for (let i = 0; i < count; i++) {
    const file = `project_item_${i}.md`;
    files[file] =
      `---\nname: Item ${i}\ndescription: Decision number ${i} about the billing service rollout\ntype: project\n---\n\nDecision ${i}.\n\n**Why:** reason ${i}.\n**How to apply:** case ${i}.\n`;
    lines.push(`- [Item ${i}](${file}) — Decision number ${i} about the billing service rollout`);
  }
  return { index: `${lines.join('\n')}\n`, files };
}

/** Mixed Chinese and English, with relative dates in both. */
export const mixedIndex = `# 项目记忆

## 发布计划
下周四开始冻结主干，明天通知移动端团队。
The freeze starts next Thursday; tell the mobile team tomorrow.

## 用户偏好
- 用户不要在回复结尾总结。
- Never end a reply with a summary.

- [已有记忆](project_existing.md) — 已经存在的记忆文件
`;

/**
 * `count` topic files that exist, and their index lines. lint --fix drops dead pointers only when
 * they are a minority of the index (a mostly dead index says the files are kept elsewhere), so a
 * directory that tests or times the drop holds more live pointers than dead ones.
 */
export function liveTopics(count) {
  /** @type {Record<string, string>} */
  const files = {};
  const lines = [];
  for (let i = 0; i < count; i++) {
    files[`project_live_${i}.md`] = `---\nname: Live ${i}\ndescription: Live item ${i} of the generated index\ntype: project\n---\n\nLive item ${i}.\n`;
    lines.push(`- [Live ${i}](project_live_${i}.md) — live item ${i}`);
  }
  return { files, index: lines.length ? `${lines.join('\n')}\n` : '' };
}

/** An index of `count` pointers to topic files that do not exist (what lint --fix removes). */
export function deadPointerIndex(count) {
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(`- [Gone ${i}](project_gone_${i}.md) — removed item ${i}`);
  return lines.length ? `${lines.join('\n')}\n` : '';
}
