# >>> memdir pre-commit >>> added by `memdir hooks install`; `memdir hooks uninstall` removes it
memdir_pre_commit() {
  [ "${MEMDIR_HOOKS:-}" = 0 ] && return 0
  # Fast path: no Markdown staged, nothing for memdir to look at.
  memdir_staged=$(git -c core.quotePath=false diff --cached --name-only --diff-filter=ACMR -- '*.md' 2>/dev/null)
  [ -n "$memdir_staged" ] || return 0
  # A memory file sits under .claude/memory/ or in a folder (or below one) with a tracked MEMORY.md.
  { git -c core.quotePath=false ls-files -- '*MEMORY.md' 2>/dev/null; echo; printf '%s\n' "$memdir_staged"; } | awk '
    !files && $0 == "" { files = 1; next }
    !files { if ($0 ~ /\/MEMORY\.md$/) { d = $0; sub(/\/MEMORY\.md$/, "", d); dirs[d] = 1 }; next }
    /^"/ || /(^|\/)\.claude\/memory\// { found = 1 }
    { d = $0; while (sub(/\/[^\/]*$/, "", d)) if (d in dirs) found = 1 }
    END { exit !found }' || return 0
{{find}}
  {{command}} lint --staged
  memdir_status=$?
  # 1 is lint's verdict on the memory files; any other failure is memdir's own and lets the commit through.
  [ "$memdir_status" -ne 1 ] || return 1
}
memdir_pre_commit || exit 1
# <<< memdir pre-commit <<<
