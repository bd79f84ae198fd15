#compdef pay
# zsh completion for pay, generated from its commander tree by `pay completion zsh`.
# Do not edit: regenerate with `npm run completions` (a test fails while this file is stale).
# Install: copy it as _pay into a directory of $fpath, or source it after compinit

# Each function takes the command typed so far ('' for pay itself, 'customers create')
# and sets $reply to name:description entries.
_pay_commands() {
  reply=()
  case $1 in
    '') reply=('api:Send a raw request to the service with your profile'\''s auth' 'completion:Print the shell completion script for bash, zsh or fish' 'customers:Create, get and list customers' 'help:display help for command' 'profiles:Manage profiles: service URL, account and API key' 'sandbox:Run the local sandbox service and its test clock') ;;
    'customers') reply=('create:Create a customer' 'get:Show a customer' 'help:display help for command' 'list:List customers, newest first') ;;
    'profiles') reply=('add:Add or replace a profile (prompts at a TTY for what is missing)' 'help:display help for command' 'list:List profiles (keys masked)' 'remove:Remove a profile' 'show:Show the profile in force (flag > env > config), key masked' 'use:Make a profile the default') ;;
    'sandbox') reply=('accounts:Accounts of the sandbox' 'help:display help for command' 'reset:Erase every object and event of the profile'\''s sandbox account (keys and profile stay)' 'start:Start the local sandbox service (it becomes the `sandbox` profile)' 'status:Show whether the sandbox is running (exit 7 when it is not)' 'stop:Stop the background sandbox of this config dir') ;;
    'sandbox accounts') reply=('add:Add another sandbox account and a profile for it' 'help:display help for command') ;;
  esac
}

_pay_flags() {
  reply=()
  case $1 in
    '') reply=('--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked' '--version:Print the version' '-V:Print the version') ;;
    'api') reply=('--data:A body field (query parameter for GET); repeatable; dotted keys nest, key[]=v appends' '-d:A body field (query parameter for GET); repeatable; dotted keys nest, key[]=v appends' '--data-json:The whole body as JSON' '--help:display help for command' '-h:display help for command' '--idempotency-key:Send this Idempotency-Key (to replay a write deliberately)' '--json:Print data as JSON on stdout (messages stay on stderr)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
    'completion') reply=('--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked' '--write:Write the script (every shell'\''s without [shell]) to the package'\''s completions/') ;;
    'customers'|'customers get'|'profiles'|'profiles list'|'profiles remove'|'profiles show'|'profiles use'|'sandbox'|'sandbox accounts'|'sandbox status'|'sandbox stop') reply=('--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
    'customers create') reply=('--email:Email address' '--first-name:First name' '--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--last-name:Last name' '--metadata:Metadata pair (repeatable)' '--middle-name:Middle name' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--phone:Phone number, digits only' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
    'customers help'|'help'|'profiles help'|'sandbox accounts help'|'sandbox help') reply=('--json:Print data as JSON on stdout (messages stay on stderr)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
    'customers list') reply=('--email:Only customers with this email' '--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--limit:How many to show, 1 to 100' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--starting-after:Show the page after this id (cursor from a previous page)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
    'profiles add') reply=('--account:Merchant account id' '--api-key:API key (prefer --api-key-stdin: flags end up in shell history)' '--api-key-stdin:Read the API key from stdin' '--base-url:Base URL of the service, e.g. https://api.example.com' '--default:Make it the default profile' '--header-prefix:The service'\''s auth header prefix' '--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
    'sandbox accounts add') reply=('--account:Account id (acct_…); generated when omitted' '--api-key-stdin:Read the new account'\''s API key from stdin; generated when omitted' '--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--name:Name of the profile to write (default: the account id)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
    'sandbox reset') reply=('--help:display help for command' '-h:display help for command' '--json:Print data as JSON on stdout (messages stay on stderr)' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked' '--yes:Do not ask for confirmation' '-y:Do not ask for confirmation') ;;
    'sandbox start') reply=('--clock:Start new accounts'\'' test clocks at this date (YYYY-MM-DD) or date-time, for reproducible runs' '--db:SQLite database file (default: sandbox.db in the config dir)' '--detach:Run in the background and return once it accepts requests' '--help:display help for command' '-h:display help for command' '--host:Address to listen on' '--json:Print data as JSON on stdout (messages stay on stderr)' '--memory:Keep everything in memory; nothing survives a stop' '--no-color:Disable colour (NO_COLOR is honoured too)' '--no-input:Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)' '--port:Port to listen on; 0 picks a free one' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--verbose:Trace HTTP requests on stderr, API keys masked') ;;
  esac
}

_pay_value_flags() {
  reply=()
  case $1 in
    ''|'completion'|'customers'|'customers get'|'customers help'|'help'|'profiles'|'profiles help'|'profiles list'|'profiles remove'|'profiles show'|'profiles use'|'sandbox'|'sandbox accounts'|'sandbox accounts help'|'sandbox help'|'sandbox reset'|'sandbox status'|'sandbox stop') reply=('--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)') ;;
    'api') reply=('--data:A body field (query parameter for GET); repeatable; dotted keys nest, key[]=v appends' '-d:A body field (query parameter for GET); repeatable; dotted keys nest, key[]=v appends' '--data-json:The whole body as JSON' '--idempotency-key:Send this Idempotency-Key (to replay a write deliberately)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)') ;;
    'customers create') reply=('--email:Email address' '--first-name:First name' '--last-name:Last name' '--metadata:Metadata pair (repeatable)' '--middle-name:Middle name' '--phone:Phone number, digits only' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)') ;;
    'customers list') reply=('--email:Only customers with this email' '--limit:How many to show, 1 to 100' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)' '--starting-after:Show the page after this id (cursor from a previous page)') ;;
    'profiles add') reply=('--account:Merchant account id' '--api-key:API key (prefer --api-key-stdin: flags end up in shell history)' '--base-url:Base URL of the service, e.g. https://api.example.com' '--header-prefix:The service'\''s auth header prefix' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)') ;;
    'sandbox accounts add') reply=('--account:Account id (acct_…); generated when omitted' '--name:Name of the profile to write (default: the account id)' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)') ;;
    'sandbox start') reply=('--clock:Start new accounts'\'' test clocks at this date (YYYY-MM-DD) or date-time, for reproducible runs' '--db:SQLite database file (default: sandbox.db in the config dir)' '--host:Address to listen on' '--port:Port to listen on; 0 picks a free one' '--profile:Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)') ;;
  esac
}

# Completes the values of flag $2 of command $1 ('' for its positional argument).
_pay_values() {
  case "$1|$2" in
    'completion|') compadd -- 'bash' 'zsh' 'fish' ;;
    'customers help|') compadd -- 'create' 'get' 'list' ;;
    'help|') compadd -- 'api' 'completion' 'customers' 'profiles' 'sandbox' ;;
    'profiles help|') compadd -- 'add' 'list' 'remove' 'show' 'use' ;;
    'profiles remove|'|'profiles use|'|*'|--profile') compadd -- ${(f)"$(pay profiles list 2>/dev/null | cut -f2)"} ;;
    'sandbox accounts help|') compadd -- 'add' ;;
    'sandbox help|') compadd -- 'accounts' 'reset' 'start' 'status' 'stop' ;;
    'sandbox start|--db') _files ;;
  esac
}

_pay() {
  local command='' word i cur=${words[CURRENT]} prev=${words[CURRENT-1]}
  local -a reply
  for ((i = 2; i < CURRENT; i++)); do
    word=${words[i]}
    if [[ $word == -* ]]; then
      _pay_value_flags "$command"
      (( ${${(@)reply%%:*}[(Ie)$word]} )) && ((i++))
    else
      _pay_commands "$command"
      (( ${${(@)reply%%:*}[(Ie)$word]} )) && command=${command:+$command }$word
    fi
  done
  _pay_value_flags "$command"
  if [[ $prev == -* ]] && (( ${${(@)reply%%:*}[(Ie)$prev]} )); then
    _pay_values "$command" "$prev"
  elif [[ $cur == -* ]]; then
    _pay_flags "$command"
    _describe -t options flag reply
  else
    _pay_commands "$command"
    (( ${#reply} )) && _describe -t commands command reply
    _pay_values "$command" ''
  fi
}

if [[ $funcstack[1] == _pay ]]; then
  _pay "$@"
else
  compdef _pay pay
fi
