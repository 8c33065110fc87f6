#!/usr/bin/env zsh -f
# Runs the zsh completion in an interactive zsh on a pseudo-terminal (zsh/zpty): types WORDS and a
# TAB, and polls what zsh prints until every EXPECTED string appears (exit 0) or 20 s pass (exit 1,
# printing what it saw). Usage: zsh -f zsh_complete.zsh COMPLETIONS_DIR 'WORDS' EXPECTED...
dir=$1 words=$2
shift 2
setopt extendedglob
zmodload zsh/zpty || exit 1
zpty z zsh -f -i
zpty -w z "PS1='' RPROMPT=''; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D; zstyle ':completion:*' format '<%d>'; setopt nolistambiguous"
zpty -n -w z "$words"$'\t'
out=""
deadline=$((SECONDS + 20))
while (( SECONDS < deadline )); do
  if zpty -r -t z line; then
    out+=$line
    clean=${out//$'\e'\[[0-9;?]#[a-zA-Z]/}
    all=1
    for want in "$@"; do [[ $clean == *$want* ]] || all=0; done
    (( all )) && { zpty -d z; exit 0; }
  else
    sleep 0.05
  fi
done
zpty -d z
print -r -- "zsh completed '$words<TAB>' to: ${clean//$'\r'/}"
exit 1
