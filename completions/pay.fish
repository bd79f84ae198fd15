# fish completion for pay, generated from its commander tree by `pay completion fish`.
# Do not edit: regenerate with `npm run completions` (a test fails while this file is stale).
# Install: copy it to ~/.config/fish/completions/pay.fish

function __pay_commands
    switch $argv[1]
        case ''
            printf '%s\n' 'api' 'completion' 'customers' 'help' 'profiles' 'sandbox'
        case 'customers'
            printf '%s\n' 'create' 'get' 'help' 'list'
        case 'profiles'
            printf '%s\n' 'add' 'help' 'list' 'remove' 'show' 'use'
        case 'sandbox'
            printf '%s\n' 'accounts' 'help' 'reset' 'start' 'status' 'stop'
        case 'sandbox accounts'
            printf '%s\n' 'add' 'help'
    end
end

function __pay_value_flags
    switch $argv[1]
        case '' 'completion' 'customers' 'customers get' 'customers help' 'help' 'profiles' 'profiles help' 'profiles list' 'profiles remove' 'profiles show' 'profiles use' 'sandbox' 'sandbox accounts' 'sandbox accounts help' 'sandbox help' 'sandbox reset' 'sandbox status' 'sandbox stop'
            printf '%s\n' '--profile'
        case 'api'
            printf '%s\n' '--data' '-d' '--data-json' '--idempotency-key' '--profile'
        case 'customers create'
            printf '%s\n' '--email' '--first-name' '--last-name' '--metadata' '--middle-name' '--phone' '--profile'
        case 'customers list'
            printf '%s\n' '--email' '--limit' '--profile' '--starting-after'
        case 'profiles add'
            printf '%s\n' '--account' '--api-key' '--base-url' '--header-prefix' '--profile'
        case 'sandbox accounts add'
            printf '%s\n' '--account' '--name' '--profile'
        case 'sandbox start'
            printf '%s\n' '--clock' '--db' '--host' '--port' '--profile'
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

complete -c pay -l json -d 'Print data as JSON on stdout (messages stay on stderr)'
complete -c pay -l no-color -d 'Disable colour (NO_COLOR is honoured too)'
complete -c pay -l no-input -d 'Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)'
complete -c pay -l profile -x -a '(pay profiles list 2>/dev/null | cut -f2)' -d 'Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)'
complete -c pay -l verbose -d 'Trace HTTP requests on stderr, API keys masked'
complete -c pay -n '__pay_at \'\'' -f
complete -c pay -n '__pay_at \'\'' -a 'api' -d 'Send a raw request to the service with your profile\'s auth'
complete -c pay -n '__pay_at \'\'' -a 'completion' -d 'Print the shell completion script for bash, zsh or fish'
complete -c pay -n '__pay_at \'\'' -a 'customers' -d 'Create, get and list customers'
complete -c pay -n '__pay_at \'\'' -a 'help' -d 'display help for command'
complete -c pay -n '__pay_at \'\'' -a 'profiles' -d 'Manage profiles: service URL, account and API key'
complete -c pay -n '__pay_at \'\'' -a 'sandbox' -d 'Run the local sandbox service and its test clock'
complete -c pay -n '__pay_at \'\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'\'' -l version -s V -d 'Print the version'
complete -c pay -n '__pay_at \'api\'' -f
complete -c pay -n '__pay_at \'api\'' -l data -s d -x -d 'A body field (query parameter for GET); repeatable; dotted keys nest, key[]=v appends'
complete -c pay -n '__pay_at \'api\'' -l data-json -x -d 'The whole body as JSON'
complete -c pay -n '__pay_at \'api\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'api\'' -l idempotency-key -x -d 'Send this Idempotency-Key (to replay a write deliberately)'
complete -c pay -n '__pay_at \'completion\'' -f
complete -c pay -n '__pay_at \'completion\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'completion\'' -l write -d 'Write the script (every shell\'s without [shell]) to the package\'s completions/'
complete -c pay -n '__pay_at \'completion\'' -a 'bash zsh fish'
complete -c pay -n '__pay_at \'customers\'' -f
complete -c pay -n '__pay_at \'customers\'' -a 'create' -d 'Create a customer'
complete -c pay -n '__pay_at \'customers\'' -a 'get' -d 'Show a customer'
complete -c pay -n '__pay_at \'customers\'' -a 'help' -d 'display help for command'
complete -c pay -n '__pay_at \'customers\'' -a 'list' -d 'List customers, newest first'
complete -c pay -n '__pay_at \'customers\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'customers create\'' -f
complete -c pay -n '__pay_at \'customers create\'' -l email -x -d 'Email address'
complete -c pay -n '__pay_at \'customers create\'' -l first-name -x -d 'First name'
complete -c pay -n '__pay_at \'customers create\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'customers create\'' -l last-name -x -d 'Last name'
complete -c pay -n '__pay_at \'customers create\'' -l metadata -x -d 'Metadata pair (repeatable)'
complete -c pay -n '__pay_at \'customers create\'' -l middle-name -x -d 'Middle name'
complete -c pay -n '__pay_at \'customers create\'' -l phone -x -d 'Phone number, digits only'
complete -c pay -n '__pay_at \'customers get\'' -f
complete -c pay -n '__pay_at \'customers get\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'customers help\'' -f
complete -c pay -n '__pay_at \'customers help\'' -a 'create get list'
complete -c pay -n '__pay_at \'customers list\'' -f
complete -c pay -n '__pay_at \'customers list\'' -l email -x -d 'Only customers with this email'
complete -c pay -n '__pay_at \'customers list\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'customers list\'' -l limit -x -d 'How many to show, 1 to 100'
complete -c pay -n '__pay_at \'customers list\'' -l starting-after -x -d 'Show the page after this id (cursor from a previous page)'
complete -c pay -n '__pay_at \'help\'' -f
complete -c pay -n '__pay_at \'help\'' -a 'api completion customers profiles sandbox'
complete -c pay -n '__pay_at \'profiles\'' -f
complete -c pay -n '__pay_at \'profiles\'' -a 'add' -d 'Add or replace a profile (prompts at a TTY for what is missing)'
complete -c pay -n '__pay_at \'profiles\'' -a 'help' -d 'display help for command'
complete -c pay -n '__pay_at \'profiles\'' -a 'list' -d 'List profiles (keys masked)'
complete -c pay -n '__pay_at \'profiles\'' -a 'remove' -d 'Remove a profile'
complete -c pay -n '__pay_at \'profiles\'' -a 'show' -d 'Show the profile in force (flag > env > config), key masked'
complete -c pay -n '__pay_at \'profiles\'' -a 'use' -d 'Make a profile the default'
complete -c pay -n '__pay_at \'profiles\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'profiles add\'' -f
complete -c pay -n '__pay_at \'profiles add\'' -l account -x -d 'Merchant account id'
complete -c pay -n '__pay_at \'profiles add\'' -l api-key -x -d 'API key (prefer --api-key-stdin: flags end up in shell history)'
complete -c pay -n '__pay_at \'profiles add\'' -l api-key-stdin -d 'Read the API key from stdin'
complete -c pay -n '__pay_at \'profiles add\'' -l base-url -x -d 'Base URL of the service, e.g. https://api.example.com'
complete -c pay -n '__pay_at \'profiles add\'' -l default -d 'Make it the default profile'
complete -c pay -n '__pay_at \'profiles add\'' -l header-prefix -x -d 'The service\'s auth header prefix'
complete -c pay -n '__pay_at \'profiles add\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'profiles help\'' -f
complete -c pay -n '__pay_at \'profiles help\'' -a 'add list remove show use'
complete -c pay -n '__pay_at \'profiles list\'' -f
complete -c pay -n '__pay_at \'profiles list\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'profiles remove\'' -f
complete -c pay -n '__pay_at \'profiles remove\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'profiles remove\'' -a '(pay profiles list 2>/dev/null | cut -f2)'
complete -c pay -n '__pay_at \'profiles show\'' -f
complete -c pay -n '__pay_at \'profiles show\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'profiles use\'' -f
complete -c pay -n '__pay_at \'profiles use\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'profiles use\'' -a '(pay profiles list 2>/dev/null | cut -f2)'
complete -c pay -n '__pay_at \'sandbox\'' -f
complete -c pay -n '__pay_at \'sandbox\'' -a 'accounts' -d 'Accounts of the sandbox'
complete -c pay -n '__pay_at \'sandbox\'' -a 'help' -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox\'' -a 'reset' -d 'Erase every object and event of the profile\'s sandbox account (keys and profile stay)'
complete -c pay -n '__pay_at \'sandbox\'' -a 'start' -d 'Start the local sandbox service (it becomes the `sandbox` profile)'
complete -c pay -n '__pay_at \'sandbox\'' -a 'status' -d 'Show whether the sandbox is running (exit 7 when it is not)'
complete -c pay -n '__pay_at \'sandbox\'' -a 'stop' -d 'Stop the background sandbox of this config dir'
complete -c pay -n '__pay_at \'sandbox\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox accounts\'' -f
complete -c pay -n '__pay_at \'sandbox accounts\'' -a 'add' -d 'Add another sandbox account and a profile for it'
complete -c pay -n '__pay_at \'sandbox accounts\'' -a 'help' -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox accounts\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -f
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l account -x -d 'Account id (acct_…); generated when omitted'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l api-key-stdin -d 'Read the new account\'s API key from stdin; generated when omitted'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox accounts add\'' -l name -x -d 'Name of the profile to write (default: the account id)'
complete -c pay -n '__pay_at \'sandbox accounts help\'' -f
complete -c pay -n '__pay_at \'sandbox accounts help\'' -a 'add'
complete -c pay -n '__pay_at \'sandbox help\'' -f
complete -c pay -n '__pay_at \'sandbox help\'' -a 'accounts reset start status stop'
complete -c pay -n '__pay_at \'sandbox reset\'' -f
complete -c pay -n '__pay_at \'sandbox reset\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox reset\'' -l yes -s y -d 'Do not ask for confirmation'
complete -c pay -n '__pay_at \'sandbox start\'' -f
complete -c pay -n '__pay_at \'sandbox start\'' -l clock -x -d 'Start new accounts\' test clocks at this date (YYYY-MM-DD) or date-time, for reproducible runs'
complete -c pay -n '__pay_at \'sandbox start\'' -l db -r -F -d 'SQLite database file (default: sandbox.db in the config dir)'
complete -c pay -n '__pay_at \'sandbox start\'' -l detach -d 'Run in the background and return once it accepts requests'
complete -c pay -n '__pay_at \'sandbox start\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox start\'' -l host -x -d 'Address to listen on'
complete -c pay -n '__pay_at \'sandbox start\'' -l memory -d 'Keep everything in memory; nothing survives a stop'
complete -c pay -n '__pay_at \'sandbox start\'' -l port -x -d 'Port to listen on; 0 picks a free one'
complete -c pay -n '__pay_at \'sandbox status\'' -f
complete -c pay -n '__pay_at \'sandbox status\'' -l help -s h -d 'display help for command'
complete -c pay -n '__pay_at \'sandbox stop\'' -f
complete -c pay -n '__pay_at \'sandbox stop\'' -l help -s h -d 'display help for command'
