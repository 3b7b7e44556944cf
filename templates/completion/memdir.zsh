# memdir completion for zsh: add to ~/.zshrc, after compinit
#   source <(memdir completion zsh)
# Each Tab asks memdir for the commands, options and choices that fit the words before the cursor,
# with their descriptions (SHELL=zsh makes memdir answer in zsh's name:description form).
_memdir() {
  local -a reply
  reply=(${(f)"$(SHELL=zsh memdir --get-yargs-completions "${(@)words[1,CURRENT]}" 2>/dev/null)"})
  _describe 'memdir' reply
}
compdef _memdir memdir
