# bash completion for reckon(1)                                  -*- shell-script -*-
#
# Options; files after --questions, --words, --deck, --salvage and for FILE arguments; folders after
# --data-dir; the saved profiles after --profile (from `reckon --list-profiles`, with the
# --data-dir given earlier on the line). Needs nothing from the bash-completion package.

_reckon_list_profiles() {
  local command=${COMP_WORDS[0]} i word
  local -a dir=()
  [[ $command == "~/"* ]] && command=$HOME/${command#"~/"}
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ $word == --data-dir ]]; then
      word=${COMP_WORDS[i + 1]}
      # --data-dir=DIR arrives as three words when = is a word break (the default).
      [[ $word == = ]] && word=${COMP_WORDS[i + 2]}
      dir=(--data-dir "$word")
    elif [[ $word == --data-dir=* ]]; then
      dir=(--data-dir "${word#--data-dir=}")
    fi
  done
  [[ ${#dir[@]} -gt 0 && ${dir[1]} == "~/"* ]] && dir[1]=$HOME/${dir[1]#"~/"}
  "$command" "${dir[@]}" --list-profiles 2>/dev/null
}

_reckon() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" prefix="" i
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # --option=value: three words (--option, =, value) when = is a word break, else one.
  if [[ $cur == = && $prev == --* ]]; then
    cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == --*=* && $COMP_WORDBREAKS != *=* ]]; then
    prefix=${cur%%=*}= prev=${cur%%=*} cur=${cur#*=}
  fi
  COMPREPLY=()

  # After --, every argument is a FILE.
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [[ ${COMP_WORDS[i]} == -- ]]; then
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return 0
    fi
  done

  case $prev in
    -e | --expression)
      return 0
      ;;
    --data-dir)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      ;;
    --questions | --words | --deck | --salvage)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      ;;
    --profile)
      mapfile -t COMPREPLY < <(compgen -W "$(_reckon_list_profiles)" -- "$cur")
      ;;
    *)
      [[ -n $prefix ]] && return 0 # an option that takes no value, or an unknown one
      if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W '-e --expression --data-dir --profile --questions --words --deck
          --salvage --list-profiles -h --help --version --' -- "$cur")
      else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      return 0
      ;;
  esac
  if [[ -n $prefix ]]; then
    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=$prefix${COMPREPLY[i]}; done
  fi
  return 0
}

complete -F _reckon reckon
