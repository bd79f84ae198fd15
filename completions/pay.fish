# fish completion for pay, generated from its commander tree by `pay completion fish`.
# Do not edit: regenerate with `npm run completions` (a test fails while this file is stale).
# Install: copy it to ~/.config/fish/completions/pay.fish

function __pay_commands
    switch $argv[1]
        case ''
            printf '%s\n' 'api' 'charges' 'checkout' 'completion' 'customers' 'events' 'help' 'intents' 'payment-links' 'payment-methods' 'profiles' 'readers' 'refunds' 'sandbox' 'subscriptions' 'terminal' 'trigger' 'webhooks'
        case 'charges'
            printf '%s\n' 'get' 'help' 'list'
        case 'checkout' 'customers' 'payment-links' 'refunds'
            printf '%s\n' 'create' 'get' 'help' 'list'
        case 'events'
            printf '%s\n' 'get' 'help' 'list' 'resend' 'tail'
        case 'intents'
            printf '%s\n' 'cancel' 'capture' 'confirm' 'create' 'get' 'help' 'list' 'update'
        case 'payment-methods'
            printf '%s\n' 'attach' 'create' 'get' 'help' 'list'
        case 'profiles'
            printf '%s\n' 'add' 'help' 'list' 'remove' 'show' 'use'
        case 'readers'
            printf '%s\n' 'activate' 'activation-code' 'get' 'help' 'list' 'present'
        case 'sandbox'
            printf '%s\n' 'accounts' 'cards' 'clock' 'help' 'reset' 'start' 'status' 'stop'
        case 'sandbox accounts'
            printf '%s\n' 'add' 'help'
        case 'sandbox clock'
            printf '%s\n' 'advance' 'help' 'show'
        case 'subscriptions'
            printf '%s\n' 'cancel' 'create' 'get' 'help' 'list' 'past-due' 'pause' 'resume' 'retry' 'retry-past-due' 'schedule' 'update'
        case 'terminal'
            printf '%s\n' 'help' 'simulate'
        case 'webhooks'
            printf '%s\n' 'endpoints' 'help' 'listen' 'rotate-secret'
        case 'webhooks endpoints'
            printf '%s\n' 'create' 'delete' 'get' 'help' 'list'
    end
end

function __pay_value_flags
    switch $argv[1]
        case '' 'charges' 'charges get' 'charges help' 'checkout' 'checkout get' 'checkout help' 'completion' 'customers' 'customers get' 'customers help' 'events' 'events get' 'events help' 'help' 'intents' 'intents get' 'intents help' 'payment-links' 'payment-links get' 'payment-links help' 'payment-methods' 'payment-methods get' 'payment-methods help' 'profiles' 'profiles help' 'profiles list' 'profiles remove' 'profiles show' 'profiles use' 'readers' 'readers activation-code' 'readers get' 'readers help' 'refunds' 'refunds get' 'refunds help' 'sandbox' 'sandbox accounts' 'sandbox accounts help' 'sandbox cards' 'sandbox clock' 'sandbox clock help' 'sandbox clock show' 'sandbox help' 'sandbox reset' 'sandbox status' 'sandbox stop' 'subscriptions' 'subscriptions cancel' 'subscriptions get' 'subscriptions help' 'subscriptions pause' 'subscriptions resume' 'subscriptions retry' 'terminal' 'terminal help' 'webhooks' 'webhooks endpoints' 'webhooks endpoints delete' 'webhooks endpoints get' 'webhooks endpoints help' 'webhooks help' 'webhooks rotate-secret'
            printf '%s\n' '--profile'
        case 'api'
            printf '%s\n' '--data-json' '--field' '-F' '--header' '-H' '--idempotency-key' '--method' '-X' '--profile' '--raw-field' '-f'
        case 'charges list'
            printf '%s\n' '--customer' '--limit' '--payment-intent' '--profile' '--starting-after'
        case 'checkout create'
            printf '%s\n' '--amount' '--cancel-url' '--currency' '--customer' '--description' '--merchant-name' '--metadata' '--profile' '--success-url'
        case 'checkout list' 'refunds list'
            printf '%s\n' '--limit' '--payment-intent' '--profile' '--starting-after' '--status'
        case 'customers create'
            printf '%s\n' '--email' '--first-name' '--last-name' '--metadata' '--middle-name' '--phone' '--profile'
        case 'customers list'
            printf '%s\n' '--email' '--limit' '--profile' '--starting-after'
        case 'events list'
            printf '%s\n' '--created-gt' '--created-gte' '--created-lt' '--created-lte' '--limit' '--profile' '--starting-after' '--type'
        case 'events resend'
            printf '%s\n' '--profile' '--webhook-endpoint'
        case 'events tail'
            printf '%s\n' '--events' '--from' '--profile'
        case 'intents cancel'
            printf '%s\n' '--cancellation-reason' '--profile'
        case 'intents capture'
            printf '%s\n' '--amount-to-capture' '--profile'
        case 'intents confirm'
            printf '%s\n' '--payment-method' '--profile'
        case 'intents create'
            printf '%s\n' '--amount' '--capture-method' '--currency' '--customer' '--description' '--metadata' '--payment-method' '--payment-method-types' '--profile'
        case 'intents list'
            printf '%s\n' '--customer' '--limit' '--profile' '--starting-after' '--status' '--subscription'
        case 'intents update'
            printf '%s\n' '--amount' '--description' '--metadata' '--profile'
        case 'payment-links create'
            printf '%s\n' '--amount' '--cancel-url' '--currency' '--description' '--merchant-name' '--metadata' '--profile' '--success-url'
        case 'payment-links list' 'webhooks endpoints list'
            printf '%s\n' '--limit' '--profile' '--starting-after'
        case 'payment-methods attach'
            printf '%s\n' '--customer' '--profile'
        case 'payment-methods create'
            printf '%s\n' '--card' '--card-number' '--customer' '--cvc' '--exp' '--exp-month' '--exp-year' '--metadata' '--profile' '--reader' '--type' '--zip'
        case 'payment-methods list'
            printf '%s\n' '--customer' '--limit' '--profile' '--starting-after' '--type'
        case 'profiles add'
            printf '%s\n' '--account' '--api-key' '--base-url' '--header-prefix' '--profile'
        case 'readers activate'
            printf '%s\n' '--activation-code' '--label' '--model' '--processor' '--profile' '--serial' '--serial-number'
        case 'readers list'
            printf '%s\n' '--limit' '--processor' '--profile' '--starting-after'
        case 'readers present'
            printf '%s\n' '--available-amount' '--card' '--card-number' '--method' '--outcome' '--profile' '--tip-amount'
        case 'refunds create'
            printf '%s\n' '--amount' '--metadata' '--payment-intent' '--profile' '--reason'
        case 'sandbox accounts add'
            printf '%s\n' '--account' '--name' '--profile'
        case 'sandbox clock advance'
            printf '%s\n' '--days' '--profile' '--to'
        case 'sandbox start'
            printf '%s\n' '--clock' '--db' '--host' '--port' '--profile' '--rate-limit'
        case 'subscriptions create'
            printf '%s\n' '--billing-cycle-anchor' '--cancel-at' '--currency' '--customer' '--interval-count' '--interval-unit' '--metadata' '--payment-method' '--platform-fee-amount' '--price' '--profile'
        case 'subscriptions list'
            printf '%s\n' '--customer' '--limit' '--profile' '--starting-after' '--status'
        case 'subscriptions past-due'
            printf '%s\n' '--customer' '--limit' '--profile'
        case 'subscriptions retry-past-due'
            printf '%s\n' '--concurrency' '--customer' '--journal' '--only' '--profile' '--report'
        case 'subscriptions schedule'
            printf '%s\n' '--count' '--profile'
        case 'subscriptions update'
            printf '%s\n' '--cancel-at' '--metadata' '--payment-method' '--platform-fee-amount' '--profile'
        case 'terminal simulate'
            printf '%s\n' '--activation-code' '--available-amount' '--card' '--card-number' '--label' '--method' '--model' '--outcome' '--processor' '--profile' '--serial' '--serial-number' '--tip-amount'
        case 'trigger'
            printf '%s\n' '--file' '--override' '--profile'
        case 'webhooks endpoints create'
            printf '%s\n' '--description' '--enabled-events' '--profile' '--subscription-group' '--url'
        case 'webhooks listen'
            printf '%s\n' '--events' '--exit-after-idle' '--forward-header' '--forward-to' '--from' '--give-up-after' '--max-events' '--profile' '--route' '--timeout'
    end
end

# The command typed so far: '' for pay itself, 'customers create'.
function __pay_command
    set -l command
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
        else if string match -q -- '-*' $word
            contains -- $word (__pay_value_flags "$command") && set skip 1
        else if contains -- $word (__pay_commands "$command")
            set command (string join ' ' -- $command $word)
        end
    end
    echo $command
end

function __pay_at
    set -l command (__pay_command)
    test "$command" = "$argv[1]"
end

complete -c pay -l json -d 'Print data as JSON on stdout (messages stay on stderr); with fields (id,status) only those'
complete -c pay -l no-color -d 'Disable colour (NO_COLOR is honoured too)'
complete -c pay -l no-input -d 'Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)'
complete -c pay -l profile -x -a '(pay profiles list 2>/dev/null | cut -f2)' -d 'Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)'
complete -c pay -l verbose -d 'Trace HTTP requests on stderr, API keys masked'
complete -c pay -n '__pay_at \'\'' -f
complete -c pay -n '__pay_at \'\'' -a 'api' -d 'Send a raw request to the service with your profile\'s auth'
complete -c pay -n '__pay_at \'\'' -a 'charges' -d 'Get and list charges (one per payment attempt)'
complete -c pay -n '__pay_at \'\'' -a 'checkout' -d 'Checkout sessions: a hosted payment page'
complete -c pay -n '__pay_at \'\'' -a 'completion' -d 'Print the shell completion script for bash, zsh or fish'
complete -c pay -n '__pay_at \'\'' -a 'customers' -d 'Create, get and list customers'
complete -c pay -n '__pay_at \'\'' -a 'events' -d 'List, inspect, resend and tail events'
complete -c pay -n '__pay_at \'\'' -a 'help' -d 'Show help for a command (pay help intents create)'
complete -c pay -n '__pay_at \'\'' -a 'intents' -d 'Payment intents: create, confirm, capture, cancel, update, get, list'
complete -c pay -n '__pay_at \'\'' -a 'payment-links' -d 'Payment links: a reusable URL to the hosted payment page'
complete -c pay -n '__pay_at \'\'' -a 'payment-methods' -d 'Create, attach, get and list payment methods (cards, cards on a reader)'
complete -c pay -n '__pay_at \'\'' -a 'profiles' -d 'Manage profiles: service URL, account and API key'
complete -c pay -n '__pay_at \'\'' -a 'readers' -d 'Terminal readers: list, get, activate; present a card in the sandbox'
complete -c pay -n '__pay_at \'\'' -a 'refunds' -d 'Create, get and list refunds'
complete -c pay -n '__pay_at \'\'' -a 'sandbox' -d 'Run the local sandbox service and its test clock'
complete -c pay -n '__pay_at \'\'' -a 'subscriptions' -d 'Recurring payments: create, update, pause, resume, cancel, retry, see the schedule; list and batch-retry past_due ones'
complete -c pay -n '__pay_at \'\'' -a 'terminal' -d 'Simulate a terminal reader: receive in-person payments and answer as the customer'
complete -c pay -n '__pay_at \'\'' -a 'trigger' -d 'Run a named flow (a payment, a refund, a subscription…) to cause its events'
complete -c pay -n '__pay_at \'\'' -a 'webhooks' -d 'Forward events to a local app (listen) and manage webhook endpoints'
complete -c pay -n '__pay_at \'\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'\'' -l version -s V -d 'Print the version'
complete -c pay -n '__pay_at \'api\'' -f
complete -c pay -n '__pay_at \'api\'' -l data-json -x -d 'The whole body as JSON'
complete -c pay -n '__pay_at \'api\'' -l field -s F -x -d 'A typed field: true, false, null and whole numbers as JSON, @file a file\'s contents, @- stdin, else a string; repeatable'
complete -c pay -n '__pay_at \'api\'' -l header -s H -x -d 'Add a request header, as gh api takes it (repeatable); -H \'Idempotency-Key: k\' is --idempotency-key k'
complete -c pay -n '__pay_at \'api\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'api\'' -l idempotency-key -x -d 'Send this Idempotency-Key (to replay a write deliberately)'
complete -c pay -n '__pay_at \'api\'' -l method -s X -x -d 'HTTP method, as gh api takes it: GET, POST, PUT, DELETE (default: GET, or POST when fields are given)'
complete -c pay -n '__pay_at \'api\'' -l raw-field -s f -x -d 'A string field (a query parameter for GET); repeatable; key.sub=v and key[sub]=v nest, key[]=v appends'
complete -c pay -n '__pay_at \'charges\'' -f
complete -c pay -n '__pay_at \'charges\'' -a 'get' -d 'Show a charge (amount_captured below amount means a partial authorization)'
complete -c pay -n '__pay_at \'charges\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'charges\'' -a 'list' -d 'List charges, newest first: one per payment attempt'
complete -c pay -n '__pay_at \'charges\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'charges get\'' -f
complete -c pay -n '__pay_at \'charges get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'charges help\'' -f
complete -c pay -n '__pay_at \'charges help\'' -a 'get list'
complete -c pay -n '__pay_at \'charges list\'' -f
complete -c pay -n '__pay_at \'charges list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'charges list\'' -l customer -x -d 'Only this customer\'s'
complete -c pay -n '__pay_at \'charges list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'charges list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'charges list\'' -l payment-intent -x -d 'Only the charges of this payment intent'
complete -c pay -n '__pay_at \'charges list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'checkout\'' -f
complete -c pay -n '__pay_at \'checkout\'' -a 'create' -d 'Create a checkout session: a hosted payment page at checkout_session_url'
complete -c pay -n '__pay_at \'checkout\'' -a 'get' -d 'Show a checkout session (status open, complete or expired)'
complete -c pay -n '__pay_at \'checkout\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'checkout\'' -a 'list' -d 'List checkout sessions, newest first'
complete -c pay -n '__pay_at \'checkout\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'checkout create\'' -f
complete -c pay -n '__pay_at \'checkout create\'' -l amount -x -d 'Amount in the currency\'s minor unit, e.g. 1099 for 10.99 (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'checkout create\'' -l cancel-url -x -d 'Where the page\'s cancel link goes (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'checkout create\'' -l currency -x -d 'Lowercase ISO 4217 currency code, e.g. usd, eur, jpy (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'checkout create\'' -l customer -x -d 'Customer paying'
complete -c pay -n '__pay_at \'checkout create\'' -l description -x -d 'What is being paid for, shown on the page'
complete -c pay -n '__pay_at \'checkout create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'checkout create\'' -l merchant-name -x -d 'Your name as the customer knows it, shown on the page'
complete -c pay -n '__pay_at \'checkout create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'checkout create\'' -l open -d 'Open the page in your browser'
complete -c pay -n '__pay_at \'checkout create\'' -l success-url -x -d 'Where the customer goes after paying (gets ?session_id=cs_…) (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'checkout get\'' -f
complete -c pay -n '__pay_at \'checkout get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'checkout get\'' -l open -d 'Open its page in your browser'
complete -c pay -n '__pay_at \'checkout help\'' -f
complete -c pay -n '__pay_at \'checkout help\'' -a 'create get list'
complete -c pay -n '__pay_at \'checkout list\'' -f
complete -c pay -n '__pay_at \'checkout list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'checkout list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'checkout list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'checkout list\'' -l payment-intent -x -d 'Only the session of this payment intent'
complete -c pay -n '__pay_at \'checkout list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'checkout list\'' -l status -x -a 'open complete expired' -d 'Only sessions in this status'
complete -c pay -n '__pay_at \'completion\'' -f
complete -c pay -n '__pay_at \'completion\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'completion\'' -l write -d 'Write the script (every shell\'s without [shell]) to the package\'s completions/'
complete -c pay -n '__pay_at \'completion\'' -a 'bash zsh fish'
complete -c pay -n '__pay_at \'customers\'' -f
complete -c pay -n '__pay_at \'customers\'' -a 'create' -d 'Create a customer'
complete -c pay -n '__pay_at \'customers\'' -a 'get' -d 'Show a customer'
complete -c pay -n '__pay_at \'customers\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'customers\'' -a 'list' -d 'List customers, newest first'
complete -c pay -n '__pay_at \'customers\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'customers create\'' -f
complete -c pay -n '__pay_at \'customers create\'' -l email -x -d 'Email address'
complete -c pay -n '__pay_at \'customers create\'' -l first-name -x -d 'First name'
complete -c pay -n '__pay_at \'customers create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'customers create\'' -l last-name -x -d 'Last name'
complete -c pay -n '__pay_at \'customers create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'customers create\'' -l middle-name -x -d 'Middle name'
complete -c pay -n '__pay_at \'customers create\'' -l phone -x -d 'Phone number, digits only'
complete -c pay -n '__pay_at \'customers get\'' -f
complete -c pay -n '__pay_at \'customers get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'customers help\'' -f
complete -c pay -n '__pay_at \'customers help\'' -a 'create get list'
complete -c pay -n '__pay_at \'customers list\'' -f
complete -c pay -n '__pay_at \'customers list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'customers list\'' -l email -x -d 'Only customers with this email'
complete -c pay -n '__pay_at \'customers list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'customers list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'customers list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'events\'' -f
complete -c pay -n '__pay_at \'events\'' -a 'get' -d 'Show an event and its delivery attempts at each webhook endpoint'
complete -c pay -n '__pay_at \'events\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'events\'' -a 'list' -d 'List the account\'s events, newest first'
complete -c pay -n '__pay_at \'events\'' -a 'resend' -d 'Send an event again: to its webhook endpoints and to running pay webhooks listen processes'
complete -c pay -n '__pay_at \'events\'' -a 'tail' -d 'Stream the account\'s events to the terminal as they happen (nothing is forwarded or acknowledged)'
complete -c pay -n '__pay_at \'events\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'events get\'' -f
complete -c pay -n '__pay_at \'events get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'events help\'' -f
complete -c pay -n '__pay_at \'events help\'' -a 'get list resend tail'
complete -c pay -n '__pay_at \'events list\'' -f
complete -c pay -n '__pay_at \'events list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'events list\'' -l created-gt -x -d 'Created after this date or date-time'
complete -c pay -n '__pay_at \'events list\'' -l created-gte -x -d 'Created at or after this date or date-time'
complete -c pay -n '__pay_at \'events list\'' -l created-lt -x -d 'Created before this date or date-time'
complete -c pay -n '__pay_at \'events list\'' -l created-lte -x -d 'Created at or before this date or date-time'
complete -c pay -n '__pay_at \'events list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'events list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'events list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'events list\'' -l type -x -d 'Only this type, or a family: payment_intent.*'
complete -c pay -n '__pay_at \'events resend\'' -f
complete -c pay -n '__pay_at \'events resend\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'events resend\'' -l webhook-endpoint -x -d 'Only to this webhook endpoint (even if it does not subscribe to the type)'
complete -c pay -n '__pay_at \'events tail\'' -f
complete -c pay -n '__pay_at \'events tail\'' -l events -x -d 'Only these event types, comma-separated; family.* allowed'
complete -c pay -n '__pay_at \'events tail\'' -l from -x -d 'Start with this event, then keep streaming'
complete -c pay -n '__pay_at \'events tail\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'help\'' -f
complete -c pay -n '__pay_at \'help\'' -a 'api charges checkout completion customers events intents payment-links payment-methods profiles readers refunds sandbox subscriptions terminal trigger webhooks'
complete -c pay -n '__pay_at \'intents\'' -f
complete -c pay -n '__pay_at \'intents\'' -a 'cancel' -d 'Cancel a payment intent before it is processing or succeeded (held funds are released); irreversible'
complete -c pay -n '__pay_at \'intents\'' -a 'capture' -d 'Capture an authorized payment intent (capture_method manual), once, up to the authorized amount'
complete -c pay -n '__pay_at \'intents\'' -a 'confirm' -d 'Confirm a payment intent: a card is charged at once (exit 6 when declined); a card_present intent goes to its reader'
complete -c pay -n '__pay_at \'intents\'' -a 'create' -d 'Create a payment intent once the total is known; --confirm pays it at once. Missing values are prompted for at a TTY'
complete -c pay -n '__pay_at \'intents\'' -a 'get' -d 'Show a payment intent'
complete -c pay -n '__pay_at \'intents\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'intents\'' -a 'list' -d 'List payment intents, newest first'
complete -c pay -n '__pay_at \'intents\'' -a 'update' -d 'Change a payment intent\'s amount (or description, metadata); only before it is confirmed'
complete -c pay -n '__pay_at \'intents\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents cancel\'' -f
complete -c pay -n '__pay_at \'intents cancel\'' -l cancellation-reason -x -a 'duplicate fraudulent requested_by_customer abandoned' -d 'Why'
complete -c pay -n '__pay_at \'intents cancel\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents cancel\'' -l yes -s y -d 'Do not ask for confirmation (required where no one can be asked: scripts, --no-input)'
complete -c pay -n '__pay_at \'intents capture\'' -f
complete -c pay -n '__pay_at \'intents capture\'' -l amount-to-capture -x -d 'Amount to capture (default: all that was authorized)'
complete -c pay -n '__pay_at \'intents capture\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents confirm\'' -f
complete -c pay -n '__pay_at \'intents confirm\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents confirm\'' -l payment-method -x -d 'Payment method to pay with (required unless the intent has one)'
complete -c pay -n '__pay_at \'intents create\'' -f
complete -c pay -n '__pay_at \'intents create\'' -l amount -x -d 'Amount in the currency\'s minor unit, e.g. 1099 for 10.99 (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'intents create\'' -l capture-method -x -a 'automatic manual' -d 'automatic (default), or manual to capture later with pay intents capture'
complete -c pay -n '__pay_at \'intents create\'' -l confirm -d 'Confirm at once with --payment-method'
complete -c pay -n '__pay_at \'intents create\'' -l currency -x -d 'Lowercase ISO 4217 currency code, e.g. usd, eur, jpy (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'intents create\'' -l customer -x -d 'Customer paying'
complete -c pay -n '__pay_at \'intents create\'' -l description -x -d 'Description'
complete -c pay -n '__pay_at \'intents create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'intents create\'' -l payment-method -x -d 'Payment method to pay with (picked from a list at a TTY when --confirm is given without it)'
complete -c pay -n '__pay_at \'intents create\'' -l payment-method-types -x -d 'card and/or card_present, comma-separated or repeated (default: card)'
complete -c pay -n '__pay_at \'intents get\'' -f
complete -c pay -n '__pay_at \'intents get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents help\'' -f
complete -c pay -n '__pay_at \'intents help\'' -a 'cancel capture confirm create get list update'
complete -c pay -n '__pay_at \'intents list\'' -f
complete -c pay -n '__pay_at \'intents list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'intents list\'' -l customer -x -d 'Only this customer\'s'
complete -c pay -n '__pay_at \'intents list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'intents list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'intents list\'' -l status -x -a 'requires_payment_method requires_confirmation requires_capture requires_action processing succeeded canceled' -d 'Only intents in this status'
complete -c pay -n '__pay_at \'intents list\'' -l subscription -x -d 'Only the payment attempts of this subscription, every one unless --limit is given'
complete -c pay -n '__pay_at \'intents update\'' -f
complete -c pay -n '__pay_at \'intents update\'' -l amount -x -d 'New amount in the currency\'s minor unit'
complete -c pay -n '__pay_at \'intents update\'' -l description -x -d 'Description'
complete -c pay -n '__pay_at \'intents update\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'intents update\'' -l metadata -x -d 'Metadata pair, merged into the existing ones; key= removes a key (repeatable)'
complete -c pay -n '__pay_at \'payment-links\'' -f
complete -c pay -n '__pay_at \'payment-links\'' -a 'create' -d 'Create a payment link: a reusable URL to the hosted payment page, each visit its own checkout session'
complete -c pay -n '__pay_at \'payment-links\'' -a 'get' -d 'Show a payment link'
complete -c pay -n '__pay_at \'payment-links\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'payment-links\'' -a 'list' -d 'List payment links, newest first'
complete -c pay -n '__pay_at \'payment-links\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-links create\'' -f
complete -c pay -n '__pay_at \'payment-links create\'' -l amount -x -d 'Amount in the currency\'s minor unit, e.g. 1099 for 10.99 (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'payment-links create\'' -l cancel-url -x -d 'Where the page\'s cancel link goes (default: none)'
complete -c pay -n '__pay_at \'payment-links create\'' -l currency -x -d 'Lowercase ISO 4217 currency code, e.g. usd, eur, jpy (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'payment-links create\'' -l description -x -d 'What is being paid for, shown on the page'
complete -c pay -n '__pay_at \'payment-links create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-links create\'' -l merchant-name -x -d 'Your name as the customer knows it, shown on the page'
complete -c pay -n '__pay_at \'payment-links create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'payment-links create\'' -l success-url -x -d 'Where customers go after paying (default: a receipt page)'
complete -c pay -n '__pay_at \'payment-links get\'' -f
complete -c pay -n '__pay_at \'payment-links get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-links help\'' -f
complete -c pay -n '__pay_at \'payment-links help\'' -a 'create get list'
complete -c pay -n '__pay_at \'payment-links list\'' -f
complete -c pay -n '__pay_at \'payment-links list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'payment-links list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-links list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'payment-links list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'payment-methods\'' -f
complete -c pay -n '__pay_at \'payment-methods\'' -a 'attach' -d 'Attach a payment method to a customer (emits payment_method.attached)'
complete -c pay -n '__pay_at \'payment-methods\'' -a 'create' -d 'Create a payment method: a card, or a card presented on a terminal reader (the number and CVC are sent, never stored or shown)'
complete -c pay -n '__pay_at \'payment-methods\'' -a 'get' -d 'Show a payment method (brand, last 4 digits, expiry; never the number)'
complete -c pay -n '__pay_at \'payment-methods\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'payment-methods\'' -a 'list' -d 'List payment methods, newest first'
complete -c pay -n '__pay_at \'payment-methods\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-methods attach\'' -f
complete -c pay -n '__pay_at \'payment-methods attach\'' -l customer -x -d 'Customer to attach it to (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'payment-methods attach\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-methods create\'' -f
complete -c pay -n '__pay_at \'payment-methods create\'' -l card -x -d 'Card number (test cards: pay sandbox cards); prompted, hidden, at a TTY'
complete -c pay -n '__pay_at \'payment-methods create\'' -l card-number -x -d 'Same as --card'
complete -c pay -n '__pay_at \'payment-methods create\'' -l customer -x -d 'Attach to this customer once created (emits payment_method.attached)'
complete -c pay -n '__pay_at \'payment-methods create\'' -l cvc -x -d 'Security code (3 digits; 3 or 4 for amex); prompted, hidden, at a TTY'
complete -c pay -n '__pay_at \'payment-methods create\'' -l exp -x -d 'Expiry month and year, e.g. 12/34'
complete -c pay -n '__pay_at \'payment-methods create\'' -l exp-month -x -d 'Expiry month, 1-12 (instead of --exp)'
complete -c pay -n '__pay_at \'payment-methods create\'' -l exp-year -x -d 'Expiry year, four digits (instead of --exp)'
complete -c pay -n '__pay_at \'payment-methods create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-methods create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'payment-methods create\'' -l reader -x -d 'Terminal reader for a card_present method (see pay readers list; picked from a list at a TTY)'
complete -c pay -n '__pay_at \'payment-methods create\'' -l type -x -a 'card card_present' -d 'card, or card_present with --reader'
complete -c pay -n '__pay_at \'payment-methods create\'' -l zip -x -d 'Billing postal code'
complete -c pay -n '__pay_at \'payment-methods get\'' -f
complete -c pay -n '__pay_at \'payment-methods get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-methods help\'' -f
complete -c pay -n '__pay_at \'payment-methods help\'' -a 'attach create get list'
complete -c pay -n '__pay_at \'payment-methods list\'' -f
complete -c pay -n '__pay_at \'payment-methods list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'payment-methods list\'' -l customer -x -d 'Only those attached to this customer'
complete -c pay -n '__pay_at \'payment-methods list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'payment-methods list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'payment-methods list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'payment-methods list\'' -l type -x -a 'card card_present' -d 'Only this type'
complete -c pay -n '__pay_at \'profiles\'' -f
complete -c pay -n '__pay_at \'profiles\'' -a 'add' -d 'Add or replace a profile (prompts at a TTY for what is missing)'
complete -c pay -n '__pay_at \'profiles\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'profiles\'' -a 'list' -d 'List profiles (keys masked)'
complete -c pay -n '__pay_at \'profiles\'' -a 'remove' -d 'Remove a profile, with its listen secret and spooled events'
complete -c pay -n '__pay_at \'profiles\'' -a 'show' -d 'Show the profile in force (flag > env > config), key masked'
complete -c pay -n '__pay_at \'profiles\'' -a 'use' -d 'Make a profile the default'
complete -c pay -n '__pay_at \'profiles\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'profiles add\'' -f
complete -c pay -n '__pay_at \'profiles add\'' -l account -x -d 'Merchant account id (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'profiles add\'' -l api-key -x -d 'API key (prefer --api-key-stdin: flags end up in shell history)'
complete -c pay -n '__pay_at \'profiles add\'' -l api-key-stdin -d 'Read the API key from stdin'
complete -c pay -n '__pay_at \'profiles add\'' -l base-url -x -d 'Base URL of the service, e.g. https://api.example.com (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'profiles add\'' -l default -d 'Make it the default profile'
complete -c pay -n '__pay_at \'profiles add\'' -l header-prefix -x -d 'The service\'s auth header prefix'
complete -c pay -n '__pay_at \'profiles add\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'profiles help\'' -f
complete -c pay -n '__pay_at \'profiles help\'' -a 'add list remove show use'
complete -c pay -n '__pay_at \'profiles list\'' -f
complete -c pay -n '__pay_at \'profiles list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'profiles remove\'' -f
complete -c pay -n '__pay_at \'profiles remove\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'profiles remove\'' -l yes -s y -d 'Do not ask for confirmation (required where no one can be asked: scripts, --no-input)'
complete -c pay -n '__pay_at \'profiles remove\'' -a '(pay profiles list 2>/dev/null | cut -f2)'
complete -c pay -n '__pay_at \'profiles show\'' -f
complete -c pay -n '__pay_at \'profiles show\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'profiles use\'' -f
complete -c pay -n '__pay_at \'profiles use\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'profiles use\'' -a '(pay profiles list 2>/dev/null | cut -f2)'
complete -c pay -n '__pay_at \'readers\'' -f
complete -c pay -n '__pay_at \'readers\'' -a 'activate' -d 'Activate a self-owned developer reader (a processor A model) on this account with an activation code'
complete -c pay -n '__pay_at \'readers\'' -a 'activation-code' -d 'Get an activation code for a self-owned processor A developer reader (what support hands out)'
complete -c pay -n '__pay_at \'readers\'' -a 'get' -d 'Show a terminal reader (status online while it is connected)'
complete -c pay -n '__pay_at \'readers\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'readers\'' -a 'list' -d 'List the account\'s terminal readers (to learn a terminal_reader_id)'
complete -c pay -n '__pay_at \'readers\'' -a 'present' -d 'Sandbox only: present a card on a reader that waits for one (a requires_action intent, or a same-day processor B refund); a declined card exits 6, for a payment or a refund'
complete -c pay -n '__pay_at \'readers\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'readers activate\'' -f
complete -c pay -n '__pay_at \'readers activate\'' -l activation-code -x -d 'Activation code from pay readers activation-code (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'readers activate\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'readers activate\'' -l label -x -d 'A name for the reader'
complete -c pay -n '__pay_at \'readers activate\'' -l model -x -a 'a-countertop a-handheld b-countertop b-handheld b-mobile' -d 'Reader model'
complete -c pay -n '__pay_at \'readers activate\'' -l processor -x -a 'A B' -d 'Processor of the reader (self-owned readers are processor A)'
complete -c pay -n '__pay_at \'readers activate\'' -l serial -x -d 'Serial number printed on the reader'
complete -c pay -n '__pay_at \'readers activate\'' -l serial-number -x -d 'Same as --serial'
complete -c pay -n '__pay_at \'readers activation-code\'' -f
complete -c pay -n '__pay_at \'readers activation-code\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'readers get\'' -f
complete -c pay -n '__pay_at \'readers get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'readers help\'' -f
complete -c pay -n '__pay_at \'readers help\'' -a 'activate activation-code get list present'
complete -c pay -n '__pay_at \'readers list\'' -f
complete -c pay -n '__pay_at \'readers list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'readers list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'readers list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'readers list\'' -l processor -x -a 'A B' -d 'Only readers of this processor'
complete -c pay -n '__pay_at \'readers list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'readers present\'' -f
complete -c pay -n '__pay_at \'readers present\'' -l available-amount -x -d 'What the card can cover: below the total, only this is captured (partial authorization)'
complete -c pay -n '__pay_at \'readers present\'' -l card -x -d 'Present this test card instead: its outcome applies (e.g. 3566002020360505, jcb: processor B only)'
complete -c pay -n '__pay_at \'readers present\'' -l card-number -x -d 'Same as --card'
complete -c pay -n '__pay_at \'readers present\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'readers present\'' -l method -x -a 'tap insert swipe wallet' -d 'How the card is read (default tap)'
complete -c pay -n '__pay_at \'readers present\'' -l outcome -x -a 'approved declined insufficient_funds expired_card incorrect_cvc hsa_fsa partial' -d 'What the card does: approved, declined, insufficient_funds, expired_card, incorrect_cvc, hsa_fsa, partial (default approved)'
complete -c pay -n '__pay_at \'readers present\'' -l tip-amount -x -d 'Tip the customer adds on the reader, in minor units (amount_received = amount + tip)'
complete -c pay -n '__pay_at \'refunds\'' -f
complete -c pay -n '__pay_at \'refunds\'' -a 'create' -d 'Refund a succeeded payment intent, fully or in part (refunds never exceed what was captured)'
complete -c pay -n '__pay_at \'refunds\'' -a 'get' -d 'Show a refund'
complete -c pay -n '__pay_at \'refunds\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'refunds\'' -a 'list' -d 'List refunds, newest first'
complete -c pay -n '__pay_at \'refunds\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'refunds create\'' -f
complete -c pay -n '__pay_at \'refunds create\'' -l amount -x -d 'Amount to refund (default: all that is left)'
complete -c pay -n '__pay_at \'refunds create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'refunds create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'refunds create\'' -l payment-intent -x -d 'Payment intent to refund (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'refunds create\'' -l reason -x -a 'duplicate fraudulent requested_by_customer' -d 'Why'
complete -c pay -n '__pay_at \'refunds get\'' -f
complete -c pay -n '__pay_at \'refunds get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'refunds help\'' -f
complete -c pay -n '__pay_at \'refunds help\'' -a 'create get list'
complete -c pay -n '__pay_at \'refunds list\'' -f
complete -c pay -n '__pay_at \'refunds list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'refunds list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'refunds list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'refunds list\'' -l payment-intent -x -d 'Only the refunds of this payment intent'
complete -c pay -n '__pay_at \'refunds list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'refunds list\'' -l status -x -a 'pending succeeded failed' -d 'Only refunds in this status'
complete -c pay -n '__pay_at \'sandbox\'' -f
complete -c pay -n '__pay_at \'sandbox\'' -a 'accounts' -d 'Accounts of the sandbox'
complete -c pay -n '__pay_at \'sandbox\'' -a 'cards' -d 'Show the test cards and the outcome each one gets (any other valid card of an online brand succeeds)'
complete -c pay -n '__pay_at \'sandbox\'' -a 'clock' -d 'Show or advance the test clock of the profile\'s sandbox account'
complete -c pay -n '__pay_at \'sandbox\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'sandbox\'' -a 'reset' -d 'Erase every object and event of the profile\'s sandbox account (keys and profile stay)'
complete -c pay -n '__pay_at \'sandbox\'' -a 'start' -d 'Start the local sandbox service (it becomes the `sandbox` profile)'
complete -c pay -n '__pay_at \'sandbox\'' -a 'status' -d 'Show whether the sandbox is running (exit 7 when it is not)'
complete -c pay -n '__pay_at \'sandbox\'' -a 'stop' -d 'Stop the background sandbox of this config dir'
complete -c pay -n '__pay_at \'sandbox\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox accounts\'' -f
complete -c pay -n '__pay_at \'sandbox accounts\'' -a 'add' -d 'Add another sandbox account and a profile for it'
complete -c pay -n '__pay_at \'sandbox accounts\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'sandbox accounts\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -f
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l account -x -d 'Account id (acct_…); generated when omitted'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l api-key-stdin -d 'Read the new account\'s API key from stdin; generated when omitted'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l name -x -d 'Name of the profile to write (default: the account id)'
complete -c pay -n '__pay_at \'sandbox accounts help\'' -f
complete -c pay -n '__pay_at \'sandbox accounts help\'' -a 'add'
complete -c pay -n '__pay_at \'sandbox cards\'' -f
complete -c pay -n '__pay_at \'sandbox cards\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox clock\'' -f
complete -c pay -n '__pay_at \'sandbox clock\'' -a 'advance' -d 'Move the clock forward, running every payment and cancellation due on the way, in date order'
complete -c pay -n '__pay_at \'sandbox clock\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'sandbox clock\'' -a 'show' -d 'Show the clock\'s current instant'
complete -c pay -n '__pay_at \'sandbox clock\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox clock advance\'' -f
complete -c pay -n '__pay_at \'sandbox clock advance\'' -l days -x -d 'Number of days to move forward'
complete -c pay -n '__pay_at \'sandbox clock advance\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox clock advance\'' -l to -x -d 'Target date (YYYY-MM-DD, meaning 00:00:00Z) or date-time with Z or an offset'
complete -c pay -n '__pay_at \'sandbox clock help\'' -f
complete -c pay -n '__pay_at \'sandbox clock help\'' -a 'advance show'
complete -c pay -n '__pay_at \'sandbox clock show\'' -f
complete -c pay -n '__pay_at \'sandbox clock show\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox help\'' -f
complete -c pay -n '__pay_at \'sandbox help\'' -a 'accounts cards clock reset start status stop'
complete -c pay -n '__pay_at \'sandbox reset\'' -f
complete -c pay -n '__pay_at \'sandbox reset\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox reset\'' -l yes -s y -d 'Do not ask for confirmation (required where no one can be asked: scripts, --no-input)'
complete -c pay -n '__pay_at \'sandbox start\'' -f
complete -c pay -n '__pay_at \'sandbox start\'' -l clock -x -d 'Start new accounts\' test clocks at this date (YYYY-MM-DD) or date-time, for reproducible runs'
complete -c pay -n '__pay_at \'sandbox start\'' -l db -r -F -d 'SQLite database file (default: sandbox.db in the config dir)'
complete -c pay -n '__pay_at \'sandbox start\'' -l detach -d 'Run in the background and return once it accepts requests'
complete -c pay -n '__pay_at \'sandbox start\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox start\'' -l host -x -d 'Address to listen on; anything but loopback exposes every account (a warning says what)'
complete -c pay -n '__pay_at \'sandbox start\'' -l memory -d 'Keep everything in memory; nothing survives a stop'
complete -c pay -n '__pay_at \'sandbox start\'' -l port -x -d 'Port to listen on; 0 picks a free one'
complete -c pay -n '__pay_at \'sandbox start\'' -l rate-limit -x -d 'Answer 429 with Retry-After beyond N API requests a second per account (default: no limit)'
complete -c pay -n '__pay_at \'sandbox status\'' -f
complete -c pay -n '__pay_at \'sandbox status\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'sandbox stop\'' -f
complete -c pay -n '__pay_at \'sandbox stop\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions\'' -f
complete -c pay -n '__pay_at \'subscriptions\'' -a 'cancel' -d 'Cancel a subscription now, permanently: no payment is attempted after this (asks first at a TTY; --yes in scripts)'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'create' -d 'Create a subscription: a stored card charged on a schedule from billing_cycle_anchor (asks for what is missing at a TTY)'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'get' -d 'Show a subscription'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'list' -d 'List subscriptions, newest first'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'past-due' -d 'List past_due subscriptions, newest first, with the decline (soft or hard), whether the payment method changed since, and whether a batch retry would retry it (for support)'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'pause' -d 'Pause an active subscription: no payment is attempted until it is resumed'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'resume' -d 'Resume a paused subscription; due dates missed while paused are skipped, not charged'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'retry' -d 'Retry the payment of a past_due subscription with its current payment method (exit 6 if declined; exit 5 if its failed payment was since paid directly)'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'retry-past-due' -d 'Retry past_due subscriptions whose payment method changed since the failure, once each, as one crash-safe batch: journaled, resumable, never charged twice'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'schedule' -d 'Print the upcoming due dates of a subscription, computed from its anchor (none once canceled)'
complete -c pay -n '__pay_at \'subscriptions\'' -a 'update' -d 'Change a subscription\'s payment method, metadata, platform fee or cancel_at (customer and billing cycle are fixed)'
complete -c pay -n '__pay_at \'subscriptions\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions cancel\'' -f
complete -c pay -n '__pay_at \'subscriptions cancel\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions cancel\'' -l yes -s y -d 'Do not ask for confirmation (required where no one can be asked: scripts, --no-input)'
complete -c pay -n '__pay_at \'subscriptions create\'' -f
complete -c pay -n '__pay_at \'subscriptions create\'' -l billing-cycle-anchor -x -d 'Date of the first payment, YYYY-MM-DD (today or later); fixes the schedule (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l cancel-at -x -d 'Cancel on this date (YYYY-MM-DD), after the anchor; the anchor\'s next day makes a single future payment'
complete -c pay -n '__pay_at \'subscriptions create\'' -l currency -x -d 'Three-letter currency code (default usd)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l customer -x -d 'Customer to charge (cus_…); fixed for the subscription\'s life (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions create\'' -l interval-count -x -d 'Number of interval units between payments (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l interval-unit -x -d 'week, month or year (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l payment-method -x -d 'Card payment method attached to that customer (pm_…) (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l platform-fee-amount -x -d 'Platform fee in minor units, at most the price'
complete -c pay -n '__pay_at \'subscriptions create\'' -l price -x -d 'Amount charged each cycle, in minor units (1500 = 15.00) (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'subscriptions create\'' -l yes -s y -d 'Create without showing the schedule and asking for confirmation'
complete -c pay -n '__pay_at \'subscriptions get\'' -f
complete -c pay -n '__pay_at \'subscriptions get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions help\'' -f
complete -c pay -n '__pay_at \'subscriptions help\'' -a 'cancel create get list past-due pause resume retry retry-past-due schedule update'
complete -c pay -n '__pay_at \'subscriptions list\'' -f
complete -c pay -n '__pay_at \'subscriptions list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'subscriptions list\'' -l customer -x -d 'Only this customer\'s (cus_…)'
complete -c pay -n '__pay_at \'subscriptions list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'subscriptions list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'subscriptions list\'' -l status -x -d 'Only this status: pending, active, past_due, paused or canceled'
complete -c pay -n '__pay_at \'subscriptions past-due\'' -f
complete -c pay -n '__pay_at \'subscriptions past-due\'' -l all -d 'Show every past_due subscription, page after page'
complete -c pay -n '__pay_at \'subscriptions past-due\'' -l customer -x -d 'Only this customer\'s (cus_…)'
complete -c pay -n '__pay_at \'subscriptions past-due\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions past-due\'' -l limit -x -d 'How many to show, from 1 (default 10)'
complete -c pay -n '__pay_at \'subscriptions pause\'' -f
complete -c pay -n '__pay_at \'subscriptions pause\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions resume\'' -f
complete -c pay -n '__pay_at \'subscriptions resume\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions retry\'' -f
complete -c pay -n '__pay_at \'subscriptions retry\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -f
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l concurrency -x -d 'Retries at once, 1 to 16 (fewer while the service answers 429)'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l customer -x -d 'Only this customer\'s past_due subscriptions (cus_…)'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l dry-run -d 'Show the batch, with why each skipped subscription is skipped, and charge nothing'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l include-unchanged -d 'Also retry an unchanged payment method whose last decline was soft (insufficient_funds, card_declined…); hard declines are never retried on an unchanged card'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l journal -r -F -d 'Journal file of the batch (default: a new file under the config dir\'s batches/)'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l only -x -d 'Exactly these subscriptions (sub_…, comma-separated or repeated); those not past_due are skipped'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l report -r -F -d 'Write the batch\'s outcome as CSV: subscription_id, customer_id, amount, currency, outcome, decline_code, payment_intent_id, skip_reason, amount_received, partial'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l resume -d 'Continue an interrupted batch (default: this account\'s latest unfinished one): started items are replayed with their original idempotency keys; a finished one is only reported'
complete -c pay -n '__pay_at \'subscriptions retry-past-due\'' -l yes -s y -d 'Do not ask for confirmation (required where no one can be asked: scripts, --no-input)'
complete -c pay -n '__pay_at \'subscriptions schedule\'' -f
complete -c pay -n '__pay_at \'subscriptions schedule\'' -l count -x -d 'How many dates, 1 to 1000'
complete -c pay -n '__pay_at \'subscriptions schedule\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions update\'' -f
complete -c pay -n '__pay_at \'subscriptions update\'' -l cancel-at -x -d 'Cancel on this date (YYYY-MM-DD)'
complete -c pay -n '__pay_at \'subscriptions update\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'subscriptions update\'' -l metadata -x -d 'Metadata pair, merged into the existing ones; key= removes a key (repeatable)'
complete -c pay -n '__pay_at \'subscriptions update\'' -l no-cancel-at -d 'Remove cancel_at'
complete -c pay -n '__pay_at \'subscriptions update\'' -l no-platform-fee-amount -d 'Remove the platform fee'
complete -c pay -n '__pay_at \'subscriptions update\'' -l payment-method -x -d 'Payment method attached to the subscription\'s customer (pm_…)'
complete -c pay -n '__pay_at \'subscriptions update\'' -l platform-fee-amount -x -d 'Platform fee in minor units'
complete -c pay -n '__pay_at \'terminal\'' -f
complete -c pay -n '__pay_at \'terminal\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'terminal\'' -a 'simulate' -d 'Be a terminal reader: connect to the service, receive the payments and refunds sent to it, and answer as the customer would'
complete -c pay -n '__pay_at \'terminal\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'terminal help\'' -f
complete -c pay -n '__pay_at \'terminal help\'' -a 'simulate'
complete -c pay -n '__pay_at \'terminal simulate\'' -f
complete -c pay -n '__pay_at \'terminal simulate\'' -l activation-code -x -d 'Activate this self-owned processor A reader with a code from: pay readers activation-code'
complete -c pay -n '__pay_at \'terminal simulate\'' -l available-amount -x -d 'What the card can cover: below the total, only this is captured (partial authorization)'
complete -c pay -n '__pay_at \'terminal simulate\'' -l card -x -d 'Present this test card (see pay sandbox cards): its outcome applies, e.g. 3566002020360505 (jcb, processor B only)'
complete -c pay -n '__pay_at \'terminal simulate\'' -l card-number -x -d 'Same as --card'
complete -c pay -n '__pay_at \'terminal simulate\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'terminal simulate\'' -l label -x -d 'A name for the reader'
complete -c pay -n '__pay_at \'terminal simulate\'' -l method -x -a 'tap insert swipe wallet' -d 'How the card is read (default tap)'
complete -c pay -n '__pay_at \'terminal simulate\'' -l model -x -a 'a-countertop a-handheld b-countertop b-handheld b-mobile' -d 'Reader model: a-countertop, a-handheld (processor A); b-countertop, b-handheld, b-mobile (processor B) (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'terminal simulate\'' -l once -d 'Exit after the first action ends (answered or canceled): handy in CI'
complete -c pay -n '__pay_at \'terminal simulate\'' -l outcome -x -a 'approved declined insufficient_funds expired_card incorrect_cvc hsa_fsa partial' -d 'What the customer\'s card does, without prompts (default approved)'
complete -c pay -n '__pay_at \'terminal simulate\'' -l processor -x -a 'A B' -d 'Processor of the reader (default: the --model\'s, or A with --activation-code: self-owned readers are processor A; else asked for at a terminal)'
complete -c pay -n '__pay_at \'terminal simulate\'' -l serial -x -d 'Be the reader with this serial number (default: a new developer reader with a generated serial)'
complete -c pay -n '__pay_at \'terminal simulate\'' -l serial-number -x -d 'Same as --serial'
complete -c pay -n '__pay_at \'terminal simulate\'' -l tip-amount -x -d 'Tip the customer adds, in minor units (amount_received = amount + tip)'
complete -c pay -n '__pay_at \'trigger\'' -f
complete -c pay -n '__pay_at \'trigger\'' -l file -x -d 'Run the flow in this file: named steps (requests, clock advances, reader presents, checkout payments) whose values may refer to earlier results, e.g. "${customer.id}"'
complete -c pay -n '__pay_at \'trigger\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'trigger\'' -l list -d 'List the built-in flows and the events each causes'
complete -c pay -n '__pay_at \'trigger\'' -l override -x -d 'Set a field of a step, e.g. payment_intent.amount=5000 or payment_method.card.number=4000000000009995; a bare field is the main step\'s (repeatable)'
complete -c pay -n '__pay_at \'trigger\'' -l show -d 'Print the named built-in flow\'s file, to copy and change'
complete -c pay -n '__pay_at \'trigger\'' -a 'customer.created payment_intent.succeeded payment_intent.payment_failed charge.refunded subscription.active subscription.past_due checkout.completed'
complete -c pay -n '__pay_at \'webhooks\'' -f
complete -c pay -n '__pay_at \'webhooks\'' -a 'endpoints' -d 'Webhook endpoints: URLs the service POSTs events to'
complete -c pay -n '__pay_at \'webhooks\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'webhooks\'' -a 'listen' -d 'Forward the account\'s events to a local app, signed, never losing one (spooled while the app restarts)'
complete -c pay -n '__pay_at \'webhooks\'' -a 'rotate-secret' -d 'Replace the profile\'s listen signing secret (listen keeps it otherwise, run after run)'
complete -c pay -n '__pay_at \'webhooks\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'webhooks endpoints\'' -f
complete -c pay -n '__pay_at \'webhooks endpoints\'' -a 'create' -d 'Create a webhook endpoint; its signing secret is shown this once'
complete -c pay -n '__pay_at \'webhooks endpoints\'' -a 'delete' -d 'Delete a webhook endpoint; deliveries still due to it are canceled'
complete -c pay -n '__pay_at \'webhooks endpoints\'' -a 'get' -d 'Show a webhook endpoint (its secret is only ever shown at creation)'
complete -c pay -n '__pay_at \'webhooks endpoints\'' -a 'help' -d 'Show help for a command'
complete -c pay -n '__pay_at \'webhooks endpoints\'' -a 'list' -d 'List webhook endpoints, newest first'
complete -c pay -n '__pay_at \'webhooks endpoints\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'webhooks endpoints create\'' -f
complete -c pay -n '__pay_at \'webhooks endpoints create\'' -l description -x -d 'What the endpoint is for'
complete -c pay -n '__pay_at \'webhooks endpoints create\'' -l enabled-events -x -d 'Event types, comma-separated or repeated; family.* and * allowed'
complete -c pay -n '__pay_at \'webhooks endpoints create\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'webhooks endpoints create\'' -l subscription-group -x -d 'A named set of events: payment_intent_events (every payment_intent.* and charge.* event)'
complete -c pay -n '__pay_at \'webhooks endpoints create\'' -l url -x -d 'Where events are POSTed (http or https) (required; asked for at a terminal)'
complete -c pay -n '__pay_at \'webhooks endpoints delete\'' -f
complete -c pay -n '__pay_at \'webhooks endpoints delete\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'webhooks endpoints delete\'' -l yes -s y -d 'Do not ask for confirmation (required where no one can be asked: scripts, --no-input)'
complete -c pay -n '__pay_at \'webhooks endpoints get\'' -f
complete -c pay -n '__pay_at \'webhooks endpoints get\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'webhooks endpoints help\'' -f
complete -c pay -n '__pay_at \'webhooks endpoints help\'' -a 'create delete get list'
complete -c pay -n '__pay_at \'webhooks endpoints list\'' -f
complete -c pay -n '__pay_at \'webhooks endpoints list\'' -l all -d 'Show every page, newest first (fetched 100 at a time)'
complete -c pay -n '__pay_at \'webhooks endpoints list\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'webhooks endpoints list\'' -l limit -x -d 'How many to show, 1 to 100 (default 10)'
complete -c pay -n '__pay_at \'webhooks endpoints list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'webhooks help\'' -f
complete -c pay -n '__pay_at \'webhooks help\'' -a 'endpoints listen rotate-secret'
complete -c pay -n '__pay_at \'webhooks listen\'' -f
complete -c pay -n '__pay_at \'webhooks listen\'' -l events -x -d 'Only these event types, comma-separated; family.* allowed'
complete -c pay -n '__pay_at \'webhooks listen\'' -l exit-after-idle -x -d 'Exit once ready and no event has come or been settled for this long (CI)'
complete -c pay -n '__pay_at \'webhooks listen\'' -l fail-on-error -d 'Exit 1 if the app answered any event with a non-2xx (after the retries made before exiting), naming them'
complete -c pay -n '__pay_at \'webhooks listen\'' -l forward-header -x -d 'Add a header to forwarded requests, \'Name: value\' (repeatable)'
complete -c pay -n '__pay_at \'webhooks listen\'' -l forward-to -x -d 'Send events to this URL (repeatable; its query string is kept)'
complete -c pay -n '__pay_at \'webhooks listen\'' -l from -x -d 'Replay from this event (included), instead of resuming after the last one received'
complete -c pay -n '__pay_at \'webhooks listen\'' -l give-up-after -x -d 'Exit 7 once the service has been unreachable this long, instead of reconnecting forever'
complete -c pay -n '__pay_at \'webhooks listen\'' -l help -s h -d 'Show help for the command'
complete -c pay -n '__pay_at \'webhooks listen\'' -l max-events -x -d 'Exit once this many events were forwarded and acknowledged (CI)'
complete -c pay -n '__pay_at \'webhooks listen\'' -l print-secret -d 'Show the signing secret whole in the Ready line; alone (no --forward-to), print it and exit'
complete -c pay -n '__pay_at \'webhooks listen\'' -l route -x -d 'Send events of a type or family to a URL instead, e.g. \'subscription.*=http://localhost:3000/subs\' (repeatable)'
complete -c pay -n '__pay_at \'webhooks listen\'' -l skip-verify -d 'Do not verify TLS certificates of https targets (self-signed local apps)'
complete -c pay -n '__pay_at \'webhooks listen\'' -l timeout -x -d 'How long the app may take to answer before the event is retried (e.g. 30s, 10m for a debugger)'
complete -c pay -n '__pay_at \'webhooks rotate-secret\'' -f
complete -c pay -n '__pay_at \'webhooks rotate-secret\'' -l help -s h -d 'Show help for the command'
