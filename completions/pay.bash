# bash completion for pay, generated from its commander tree by `pay completion bash`.
# Do not edit: regenerate with `npm run completions` (a test fails while this file is stale).
# Install: source it from ~/.bashrc, or copy it to ~/.local/share/bash-completion/completions/pay

# Each function takes the command typed so far ('' for pay itself, 'customers create')
# and prints one word a line.
_pay_commands() {
  case $1 in
    '') printf '%s\n' 'api' 'charges' 'checkout' 'completion' 'customers' 'events' 'help' 'intents' 'payment-links' 'payment-methods' 'profiles' 'readers' 'refunds' 'sandbox' 'subscriptions' 'terminal' 'trigger' 'webhooks' ;;
    'charges') printf '%s\n' 'get' 'help' 'list' ;;
    'checkout'|'customers'|'payment-links'|'refunds') printf '%s\n' 'create' 'get' 'help' 'list' ;;
    'events') printf '%s\n' 'get' 'help' 'list' 'resend' 'tail' ;;
    'intents') printf '%s\n' 'cancel' 'capture' 'confirm' 'create' 'get' 'help' 'list' 'update' ;;
    'payment-methods') printf '%s\n' 'attach' 'create' 'get' 'help' 'list' ;;
    'profiles') printf '%s\n' 'add' 'help' 'list' 'remove' 'show' 'use' ;;
    'readers') printf '%s\n' 'activate' 'activation-code' 'get' 'help' 'list' 'present' ;;
    'sandbox') printf '%s\n' 'accounts' 'cards' 'clock' 'help' 'reset' 'start' 'status' 'stop' ;;
    'sandbox accounts') printf '%s\n' 'add' 'help' ;;
    'sandbox clock') printf '%s\n' 'advance' 'help' 'show' ;;
    'subscriptions') printf '%s\n' 'cancel' 'create' 'get' 'help' 'list' 'past-due' 'pause' 'resume' 'retry' 'retry-past-due' 'schedule' 'update' ;;
    'terminal') printf '%s\n' 'help' 'simulate' ;;
    'webhooks') printf '%s\n' 'endpoints' 'help' 'listen' 'rotate-secret' ;;
    'webhooks endpoints') printf '%s\n' 'create' 'delete' 'get' 'help' 'list' ;;
  esac
}

_pay_flags() {
  case $1 in
    '') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--version' '-V' ;;
    'api') printf '%s\n' '--data-json' '--field' '-F' '--header' '-H' '--help' '-h' '--idempotency-key' '--json' '--method' '-X' '--no-color' '--no-input' '--profile' '--raw-field' '-f' '--verbose' ;;
    'charges'|'charges get'|'checkout'|'customers'|'customers get'|'events'|'events get'|'intents'|'intents get'|'payment-links'|'payment-links get'|'payment-methods'|'payment-methods get'|'profiles'|'profiles list'|'profiles show'|'profiles use'|'readers'|'readers activation-code'|'readers get'|'refunds'|'refunds get'|'sandbox'|'sandbox accounts'|'sandbox cards'|'sandbox clock'|'sandbox clock show'|'sandbox status'|'sandbox stop'|'subscriptions'|'subscriptions get'|'subscriptions pause'|'subscriptions resume'|'subscriptions retry'|'terminal'|'webhooks'|'webhooks endpoints'|'webhooks endpoints get'|'webhooks rotate-secret') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'charges help'|'checkout help'|'customers help'|'events help'|'help'|'intents help'|'payment-links help'|'payment-methods help'|'profiles help'|'readers help'|'refunds help'|'sandbox accounts help'|'sandbox clock help'|'sandbox help'|'subscriptions help'|'terminal help'|'webhooks endpoints help'|'webhooks help') printf '%s\n' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'charges list') printf '%s\n' '--all' '--customer' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--payment-intent' '--profile' '--starting-after' '--verbose' ;;
    'checkout create') printf '%s\n' '--amount' '--cancel-url' '--currency' '--customer' '--description' '--help' '-h' '--json' '--merchant-name' '--metadata' '--no-color' '--no-input' '--open' '--profile' '--success-url' '--verbose' ;;
    'checkout get') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--open' '--profile' '--verbose' ;;
    'checkout list'|'refunds list') printf '%s\n' '--all' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--payment-intent' '--profile' '--starting-after' '--status' '--verbose' ;;
    'completion') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--write' ;;
    'customers create') printf '%s\n' '--email' '--first-name' '--help' '-h' '--json' '--last-name' '--metadata' '--middle-name' '--no-color' '--no-input' '--phone' '--profile' '--verbose' ;;
    'customers list') printf '%s\n' '--all' '--email' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--starting-after' '--verbose' ;;
    'events list') printf '%s\n' '--all' '--created-gt' '--created-gte' '--created-lt' '--created-lte' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--starting-after' '--type' '--verbose' ;;
    'events resend') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--webhook-endpoint' ;;
    'events tail') printf '%s\n' '--events' '--from' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'intents cancel') printf '%s\n' '--cancellation-reason' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--yes' '-y' ;;
    'intents capture') printf '%s\n' '--amount-to-capture' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'intents confirm') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--payment-method' '--profile' '--verbose' ;;
    'intents create') printf '%s\n' '--amount' '--capture-method' '--confirm' '--currency' '--customer' '--description' '--help' '-h' '--json' '--metadata' '--no-color' '--no-input' '--payment-method' '--payment-method-types' '--profile' '--verbose' ;;
    'intents list') printf '%s\n' '--all' '--customer' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--starting-after' '--status' '--subscription' '--verbose' ;;
    'intents update') printf '%s\n' '--amount' '--description' '--help' '-h' '--json' '--metadata' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'payment-links create') printf '%s\n' '--amount' '--cancel-url' '--currency' '--description' '--help' '-h' '--json' '--merchant-name' '--metadata' '--no-color' '--no-input' '--profile' '--success-url' '--verbose' ;;
    'payment-links list'|'webhooks endpoints list') printf '%s\n' '--all' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--starting-after' '--verbose' ;;
    'payment-methods attach') printf '%s\n' '--customer' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'payment-methods create') printf '%s\n' '--card' '--card-number' '--customer' '--cvc' '--exp' '--exp-month' '--exp-year' '--help' '-h' '--json' '--metadata' '--no-color' '--no-input' '--profile' '--reader' '--type' '--verbose' '--zip' ;;
    'payment-methods list') printf '%s\n' '--all' '--customer' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--starting-after' '--type' '--verbose' ;;
    'profiles add') printf '%s\n' '--account' '--api-key' '--api-key-stdin' '--base-url' '--default' '--header-prefix' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'profiles remove'|'sandbox reset'|'subscriptions cancel'|'webhooks endpoints delete') printf '%s\n' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' '--yes' '-y' ;;
    'readers activate') printf '%s\n' '--activation-code' '--help' '-h' '--json' '--label' '--model' '--no-color' '--no-input' '--processor' '--profile' '--serial' '--serial-number' '--verbose' ;;
    'readers list') printf '%s\n' '--all' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--processor' '--profile' '--starting-after' '--verbose' ;;
    'readers present') printf '%s\n' '--available-amount' '--card' '--card-number' '--help' '-h' '--json' '--method' '--no-color' '--no-input' '--outcome' '--profile' '--tip-amount' '--verbose' ;;
    'refunds create') printf '%s\n' '--amount' '--help' '-h' '--json' '--metadata' '--no-color' '--no-input' '--payment-intent' '--profile' '--reason' '--verbose' ;;
    'sandbox accounts add') printf '%s\n' '--account' '--api-key-stdin' '--help' '-h' '--json' '--name' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'sandbox clock advance') printf '%s\n' '--days' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--to' '--verbose' ;;
    'sandbox start') printf '%s\n' '--clock' '--db' '--detach' '--help' '-h' '--host' '--json' '--memory' '--no-color' '--no-input' '--port' '--profile' '--rate-limit' '--verbose' ;;
    'subscriptions create') printf '%s\n' '--billing-cycle-anchor' '--cancel-at' '--currency' '--customer' '--help' '-h' '--interval-count' '--interval-unit' '--json' '--metadata' '--no-color' '--no-input' '--payment-method' '--platform-fee-amount' '--price' '--profile' '--verbose' '--yes' '-y' ;;
    'subscriptions list') printf '%s\n' '--all' '--customer' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--starting-after' '--status' '--verbose' ;;
    'subscriptions past-due') printf '%s\n' '--all' '--customer' '--help' '-h' '--json' '--limit' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'subscriptions retry-past-due') printf '%s\n' '--concurrency' '--customer' '--dry-run' '--help' '-h' '--include-unchanged' '--journal' '--json' '--no-color' '--no-input' '--only' '--profile' '--report' '--resume' '--verbose' '--yes' '-y' ;;
    'subscriptions schedule') printf '%s\n' '--count' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--verbose' ;;
    'subscriptions update') printf '%s\n' '--cancel-at' '--help' '-h' '--json' '--metadata' '--no-cancel-at' '--no-color' '--no-input' '--no-platform-fee-amount' '--payment-method' '--platform-fee-amount' '--profile' '--verbose' ;;
    'terminal simulate') printf '%s\n' '--activation-code' '--available-amount' '--card' '--card-number' '--help' '-h' '--json' '--label' '--method' '--model' '--no-color' '--no-input' '--once' '--outcome' '--processor' '--profile' '--serial' '--serial-number' '--tip-amount' '--verbose' ;;
    'trigger') printf '%s\n' '--file' '--help' '-h' '--json' '--list' '--no-color' '--no-input' '--override' '--profile' '--show' '--verbose' ;;
    'webhooks endpoints create') printf '%s\n' '--description' '--enabled-events' '--help' '-h' '--json' '--no-color' '--no-input' '--profile' '--subscription-group' '--url' '--verbose' ;;
    'webhooks listen') printf '%s\n' '--events' '--exit-after-idle' '--fail-on-error' '--forward-header' '--forward-to' '--from' '--give-up-after' '--help' '-h' '--json' '--max-events' '--no-color' '--no-input' '--print-secret' '--profile' '--route' '--skip-verify' '--timeout' '--verbose' ;;
  esac
}

_pay_value_flags() {
  case $1 in
    ''|'charges'|'charges get'|'charges help'|'checkout'|'checkout get'|'checkout help'|'completion'|'customers'|'customers get'|'customers help'|'events'|'events get'|'events help'|'help'|'intents'|'intents get'|'intents help'|'payment-links'|'payment-links get'|'payment-links help'|'payment-methods'|'payment-methods get'|'payment-methods help'|'profiles'|'profiles help'|'profiles list'|'profiles remove'|'profiles show'|'profiles use'|'readers'|'readers activation-code'|'readers get'|'readers help'|'refunds'|'refunds get'|'refunds help'|'sandbox'|'sandbox accounts'|'sandbox accounts help'|'sandbox cards'|'sandbox clock'|'sandbox clock help'|'sandbox clock show'|'sandbox help'|'sandbox reset'|'sandbox status'|'sandbox stop'|'subscriptions'|'subscriptions cancel'|'subscriptions get'|'subscriptions help'|'subscriptions pause'|'subscriptions resume'|'subscriptions retry'|'terminal'|'terminal help'|'webhooks'|'webhooks endpoints'|'webhooks endpoints delete'|'webhooks endpoints get'|'webhooks endpoints help'|'webhooks help'|'webhooks rotate-secret') printf '%s\n' '--profile' ;;
    'api') printf '%s\n' '--data-json' '--field' '-F' '--header' '-H' '--idempotency-key' '--method' '-X' '--profile' '--raw-field' '-f' ;;
    'charges list') printf '%s\n' '--customer' '--limit' '--payment-intent' '--profile' '--starting-after' ;;
    'checkout create') printf '%s\n' '--amount' '--cancel-url' '--currency' '--customer' '--description' '--merchant-name' '--metadata' '--profile' '--success-url' ;;
    'checkout list'|'refunds list') printf '%s\n' '--limit' '--payment-intent' '--profile' '--starting-after' '--status' ;;
    'customers create') printf '%s\n' '--email' '--first-name' '--last-name' '--metadata' '--middle-name' '--phone' '--profile' ;;
    'customers list') printf '%s\n' '--email' '--limit' '--profile' '--starting-after' ;;
    'events list') printf '%s\n' '--created-gt' '--created-gte' '--created-lt' '--created-lte' '--limit' '--profile' '--starting-after' '--type' ;;
    'events resend') printf '%s\n' '--profile' '--webhook-endpoint' ;;
    'events tail') printf '%s\n' '--events' '--from' '--profile' ;;
    'intents cancel') printf '%s\n' '--cancellation-reason' '--profile' ;;
    'intents capture') printf '%s\n' '--amount-to-capture' '--profile' ;;
    'intents confirm') printf '%s\n' '--payment-method' '--profile' ;;
    'intents create') printf '%s\n' '--amount' '--capture-method' '--currency' '--customer' '--description' '--metadata' '--payment-method' '--payment-method-types' '--profile' ;;
    'intents list') printf '%s\n' '--customer' '--limit' '--profile' '--starting-after' '--status' '--subscription' ;;
    'intents update') printf '%s\n' '--amount' '--description' '--metadata' '--profile' ;;
    'payment-links create') printf '%s\n' '--amount' '--cancel-url' '--currency' '--description' '--merchant-name' '--metadata' '--profile' '--success-url' ;;
    'payment-links list'|'webhooks endpoints list') printf '%s\n' '--limit' '--profile' '--starting-after' ;;
    'payment-methods attach') printf '%s\n' '--customer' '--profile' ;;
    'payment-methods create') printf '%s\n' '--card' '--card-number' '--customer' '--cvc' '--exp' '--exp-month' '--exp-year' '--metadata' '--profile' '--reader' '--type' '--zip' ;;
    'payment-methods list') printf '%s\n' '--customer' '--limit' '--profile' '--starting-after' '--type' ;;
    'profiles add') printf '%s\n' '--account' '--api-key' '--base-url' '--header-prefix' '--profile' ;;
    'readers activate') printf '%s\n' '--activation-code' '--label' '--model' '--processor' '--profile' '--serial' '--serial-number' ;;
    'readers list') printf '%s\n' '--limit' '--processor' '--profile' '--starting-after' ;;
    'readers present') printf '%s\n' '--available-amount' '--card' '--card-number' '--method' '--outcome' '--profile' '--tip-amount' ;;
    'refunds create') printf '%s\n' '--amount' '--metadata' '--payment-intent' '--profile' '--reason' ;;
    'sandbox accounts add') printf '%s\n' '--account' '--name' '--profile' ;;
    'sandbox clock advance') printf '%s\n' '--days' '--profile' '--to' ;;
    'sandbox start') printf '%s\n' '--clock' '--db' '--host' '--port' '--profile' '--rate-limit' ;;
    'subscriptions create') printf '%s\n' '--billing-cycle-anchor' '--cancel-at' '--currency' '--customer' '--interval-count' '--interval-unit' '--metadata' '--payment-method' '--platform-fee-amount' '--price' '--profile' ;;
    'subscriptions list') printf '%s\n' '--customer' '--limit' '--profile' '--starting-after' '--status' ;;
    'subscriptions past-due') printf '%s\n' '--customer' '--limit' '--profile' ;;
    'subscriptions retry-past-due') printf '%s\n' '--concurrency' '--customer' '--journal' '--only' '--profile' '--report' ;;
    'subscriptions schedule') printf '%s\n' '--count' '--profile' ;;
    'subscriptions update') printf '%s\n' '--cancel-at' '--metadata' '--payment-method' '--platform-fee-amount' '--profile' ;;
    'terminal simulate') printf '%s\n' '--activation-code' '--available-amount' '--card' '--card-number' '--label' '--method' '--model' '--outcome' '--processor' '--profile' '--serial' '--serial-number' '--tip-amount' ;;
    'trigger') printf '%s\n' '--file' '--override' '--profile' ;;
    'webhooks endpoints create') printf '%s\n' '--description' '--enabled-events' '--profile' '--subscription-group' '--url' ;;
    'webhooks listen') printf '%s\n' '--events' '--exit-after-idle' '--forward-header' '--forward-to' '--from' '--give-up-after' '--max-events' '--profile' '--route' '--timeout' ;;
  esac
}

# The values of flag $2 of command $1 ('' for its positional argument); $3 is the word typed.
_pay_values() {
  case "$1|$2" in
    'charges help|') printf '%s\n' 'get' 'list' ;;
    'checkout help|'|'customers help|'|'payment-links help|'|'refunds help|') printf '%s\n' 'create' 'get' 'list' ;;
    'checkout list|--status') printf '%s\n' 'open' 'complete' 'expired' ;;
    'completion|') printf '%s\n' 'bash' 'zsh' 'fish' ;;
    'events help|') printf '%s\n' 'get' 'list' 'resend' 'tail' ;;
    'help|') printf '%s\n' 'api' 'charges' 'checkout' 'completion' 'customers' 'events' 'intents' 'payment-links' 'payment-methods' 'profiles' 'readers' 'refunds' 'sandbox' 'subscriptions' 'terminal' 'trigger' 'webhooks' ;;
    'intents cancel|--cancellation-reason') printf '%s\n' 'duplicate' 'fraudulent' 'requested_by_customer' 'abandoned' ;;
    'intents create|--capture-method') printf '%s\n' 'automatic' 'manual' ;;
    'intents help|') printf '%s\n' 'cancel' 'capture' 'confirm' 'create' 'get' 'list' 'update' ;;
    'intents list|--status') printf '%s\n' 'requires_payment_method' 'requires_confirmation' 'requires_capture' 'requires_action' 'processing' 'succeeded' 'canceled' ;;
    'payment-methods create|--type'|'payment-methods list|--type') printf '%s\n' 'card' 'card_present' ;;
    'payment-methods help|') printf '%s\n' 'attach' 'create' 'get' 'list' ;;
    'profiles help|') printf '%s\n' 'add' 'list' 'remove' 'show' 'use' ;;
    'profiles remove|'|'profiles use|'|*'|--profile') pay profiles list 2>/dev/null | cut -f2 ;;
    'readers activate|--model'|'terminal simulate|--model') printf '%s\n' 'a-countertop' 'a-handheld' 'b-countertop' 'b-handheld' 'b-mobile' ;;
    'readers activate|--processor'|'readers list|--processor'|'terminal simulate|--processor') printf '%s\n' 'A' 'B' ;;
    'readers help|') printf '%s\n' 'activate' 'activation-code' 'get' 'list' 'present' ;;
    'readers present|--method'|'terminal simulate|--method') printf '%s\n' 'tap' 'insert' 'swipe' 'wallet' ;;
    'readers present|--outcome'|'terminal simulate|--outcome') printf '%s\n' 'approved' 'declined' 'insufficient_funds' 'expired_card' 'incorrect_cvc' 'hsa_fsa' 'partial' ;;
    'refunds create|--reason') printf '%s\n' 'duplicate' 'fraudulent' 'requested_by_customer' ;;
    'refunds list|--status') printf '%s\n' 'pending' 'succeeded' 'failed' ;;
    'sandbox accounts help|') printf '%s\n' 'add' ;;
    'sandbox clock help|') printf '%s\n' 'advance' 'show' ;;
    'sandbox help|') printf '%s\n' 'accounts' 'cards' 'clock' 'reset' 'start' 'status' 'stop' ;;
    'sandbox start|--db'|'subscriptions retry-past-due|--journal'|'subscriptions retry-past-due|--report') compgen -f -- "$3" ;;
    'subscriptions help|') printf '%s\n' 'cancel' 'create' 'get' 'list' 'past-due' 'pause' 'resume' 'retry' 'retry-past-due' 'schedule' 'update' ;;
    'terminal help|') printf '%s\n' 'simulate' ;;
    'trigger|') printf '%s\n' 'customer.created' 'payment_intent.succeeded' 'payment_intent.payment_failed' 'charge.refunded' 'subscription.active' 'subscription.past_due' 'checkout.completed' ;;
    'webhooks endpoints help|') printf '%s\n' 'create' 'delete' 'get' 'list' ;;
    'webhooks help|') printf '%s\n' 'endpoints' 'listen' 'rotate-secret' ;;
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
