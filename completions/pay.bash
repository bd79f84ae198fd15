# bash completion for pay, generated from its commander tree by `pay completion bash`.
# Do not edit: regenerate with `npm run completions` (a test fails while this file is stale).
# Install: source it from ~/.bashrc, or copy it to ~/.local/share/bash-completion/completions/pay

# Each function takes the command typed so far ('' for pay itself, 'customers create')
# and prints one word a line.
_pay_commands() {
  case $1 in
    '') printf '%s\n' 'api' 'completion' 'customers' 'help' 'profiles' 'sandbox' ;;
    'customers') printf '%s\n' 'create' 'get' 'help' 'list' ;;
    'profiles') printf '%s\n' 'add' 'help' 'list' 'remove' 'show' 'use' ;;
    'sandbox') printf '%s\n' 'accounts' 'help' 'reset' 'start' 'status' 'stop' ;;
    'sandbox accounts') printf '%s\n' 'add' 'help' ;;
  esac
}

_pay_flags() {
  case $1 in
    '') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--version' '-V' ;;
    'api') printf '%s\n' '--data' '-d' '--data-json' '--help' '-h' '--idempotency-key' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'completion') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--write' ;;
    'customers'|'customers get'|'profiles'|'profiles list'|'profiles remove'|'profiles show'|'profiles use'|'sandbox'|'sandbox accounts'|'sandbox status'|'sandbox stop') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'customers create') printf '%s\n' '--email' '--first-name' '--help' '-h' '--json' '--last-name' '--metadata' '--middle-name' '--no-color' '--no-input' '--phone' '--profile' '--verbose' ;;
    'customers help'|'help'|'profiles help'|'sandbox accounts help'|'sandbox help') printf '%s\n' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'customers list') printf '%s\n' '--email' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--starting-after' '--verbose' ;;
    'profiles add') printf '%s\n' '--account' '--api-key' '--api-key-stdin' '--base-url' '--default' '--header-prefix' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'sandbox accounts add') printf '%s\n' '--account' '--api-key-stdin' '--help' '-h' '--json' '--name' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'sandbox reset') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--yes' '-y' ;;
    'sandbox start') printf '%s\n' '--clock' '--db' '--detach' '--help' '-h' '--host' '--json' '--memory' '--no-color' '--no-input' '--port' '--profile' '--verbose' ;;
  esac
}

_pay_value_flags() {
  case $1 in
    ''|'completion'|'customers'|'customers get'|'customers help'|'help'|'profiles'|'profiles help'|'profiles list'|'profiles remove'|'profiles show'|'profiles use'|'sandbox'|'sandbox accounts'|'sandbox accounts help'|'sandbox help'|'sandbox reset'|'sandbox status'|'sandbox stop') printf '%s\n' '--profile' ;;
    'api') printf '%s\n' '--data' '-d' '--data-json' '--idempotency-key' '--profile' ;;
    'customers create') printf '%s\n' '--email' '--first-name' '--last-name' '--metadata' '--middle-name' '--phone' '--profile' ;;
    'customers list') printf '%s\n' '--email' '--limit' '--profile' '--starting-after' ;;
    'profiles add') printf '%s\n' '--account' '--api-key' '--base-url' '--header-prefix' '--profile' ;;
    'sandbox accounts add') printf '%s\n' '--account' '--name' '--profile' ;;
    'sandbox start') printf '%s\n' '--clock' '--db' '--host' '--port' '--profile' ;;
  esac
}

# The values of flag $2 of command $1 ('' for its positional argument); $3 is the word typed.
_pay_values() {
  case "$1|$2" in
    'completion|') printf '%s\n' 'bash' 'zsh' 'fish' ;;
    'customers help|') printf '%s\n' 'create' 'get' 'list' ;;
    'help|') printf '%s\n' 'api' 'completion' 'customers' 'profiles' 'sandbox' ;;
    'profiles help|') printf '%s\n' 'add' 'list' 'remove' 'show' 'use' ;;
    'profiles remove|'|'profiles use|'|*'|--profile') pay profiles list 2>/dev/null | cut -f2 ;;
    'sandbox accounts help|') printf '%s\n' 'add' ;;
    'sandbox help|') printf '%s\n' 'accounts' 'reset' 'start' 'status' 'stop' ;;
    'sandbox start|--db') compgen -f -- "$3" ;;
  esac
}

_pay_contains() {
  local word=$1 item
  shift
  for item; do [[ $item == "$word" ]] && return 0; done
  return 1
}

_pay() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command='' word i IFS=$'\n'
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      _pay_contains "$word" $(_pay_value_flags "$command") && ((i++))
    elif _pay_contains "$word" $(_pay_commands "$command"); then
      command=${command:+$command }$word
    fi
  done
  if [[ $prev == -* ]] && _pay_contains "$prev" $(_pay_value_flags "$command"); then
    COMPREPLY=($(compgen -W "$(_pay_values "$command" "$prev" "$cur")" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_pay_flags "$command")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_pay_commands "$command"; _pay_values "$command" '' "$cur")" -- "$cur"))
  fi
}

complete -F _pay pay
