# memdir completion for bash: add to ~/.bashrc
#   source <(memdir completion bash)
# Each Tab asks memdir for the commands, options and choices that fit the words before the cursor.
_memdir_completions() {
  local IFS=$'\n'
  COMPREPLY=($(compgen -W "$(memdir --get-yargs-completions "${COMP_WORDS[@]:0:COMP_CWORD+1}" 2>/dev/null)" -- "${COMP_WORDS[COMP_CWORD]}"))
}
complete -o bashdefault -o default -F _memdir_completions memdir
