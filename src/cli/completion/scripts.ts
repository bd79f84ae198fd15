import type { CommandSpec, FlagSpec } from './tree.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const HEADER = (shell: Shell, install: string) => `# ${shell} completion for pay, generated from its commander tree by \`pay completion ${shell}\`.
# Do not edit: regenerate with \`npm run completions\` (a test fails while this file is stale).
# Install: ${install}
`;

/** A single-quoted word for bash and zsh. */
const sh = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** A single-quoted word for fish. */
const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const key = (spec: CommandSpec) => spec.path.join(' ');
const flagNames = (flags: FlagSpec[]) => flags.flatMap((f) => f.names);
const valueFlagNames = (spec: CommandSpec) => flagNames(spec.flags.filter((f) => f.takesValue));

/** Groups commands (or command|flag pairs) by what they complete to, for `case` arms. */
function grouped<T>(entries: Array<{ pattern: string; body: T | undefined }>): Array<{ patterns: string[]; body: T }> {
  const groups = new Map<string, { patterns: string[]; body: T }>();
  for (const { pattern, body } of entries) {
    if (body === undefined) continue;
    const id = JSON.stringify(body);
    const group = groups.get(id) ?? { patterns: [], body };
    group.patterns.push(pattern);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/** bash/zsh `case` arms: one per distinct list, naming every command that has it. */
function arms(specs: CommandSpec[], list: (spec: CommandSpec) => string | undefined): string {
  return grouped(specs.map((spec) => ({ pattern: sh(key(spec)), body: list(spec) })))
    .map(({ patterns, body }) => `    ${patterns.join('|')}) ${body} ;;`)
    .join('\n');
}

/** How a flag's value, or the command's positional argument, is completed. */
type ValueSource = { kind: 'dynamic'; pipeline: string } | { kind: 'choices'; values: string[] } | { kind: 'file' };

function flagSource(flag: FlagSpec): ValueSource | undefined {
  if (flag.dynamic) return { kind: 'dynamic', pipeline: flag.dynamic };
  if (flag.choices) return { kind: 'choices', values: flag.choices };
  return flag.file ? { kind: 'file' } : undefined;
}

function argumentSource(argument: CommandSpec['argument']): ValueSource | undefined {
  if (argument?.dynamic) return { kind: 'dynamic', pipeline: argument.dynamic };
  return argument?.choices ? { kind: 'choices', values: argument.choices } : undefined;
}

/**
 * `case "$command|$flag"` arms for values ('' as the flag: the positional argument). A
 * flag with the same values under every command (`--profile`) is one `*|--flag` pattern.
 */
function valueArms(specs: CommandSpec[], render: (source: ValueSource) => string): string {
  const entries = specs.flatMap((spec) => [
    ...spec.flags.flatMap((flag) => flag.names.map((name) => ({ command: key(spec), name, source: flagSource(flag) }))),
    { command: key(spec), name: '', source: argumentSource(spec.argument) },
  ]);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const everywhere = (name: string, source: ValueSource | undefined) =>
    name !== '' && specs.every((spec) => entries.some((e) => e.command === key(spec) && e.name === name && same(e.source, source)));
  const local = entries.filter((e) => !everywhere(e.name, e.source)).map((e) => ({ pattern: sh(`${e.command}|${e.name}`), body: e.source }));
  const global = [...new Set(entries.filter((e) => everywhere(e.name, e.source)).map((e) => e.name))].map((name) => ({
    pattern: `*${sh(`|${name}`)}`,
    body: entries.find((e) => e.name === name)!.source,
  }));
  return grouped<ValueSource>([...local, ...global])
    .map(({ patterns, body }) => `    ${patterns.join('|')}) ${render(body)} ;;`)
    .join('\n');
}

function bash(specs: CommandSpec[]): string {
  const words = (list: string[]) => (list.length ? `printf '%s\\n' ${list.map(sh).join(' ')}` : undefined);
  const values = valueArms(specs, (source) =>
    source.kind === 'dynamic' ? source.pipeline : source.kind === 'choices' ? `printf '%s\\n' ${source.values.map(sh).join(' ')}` : 'compgen -f -- "$3"',
  );
  return `${HEADER('bash', 'source it from ~/.bashrc, or copy it to ~/.local/share/bash-completion/completions/pay')}
# Each function takes the command typed so far ('' for pay itself, 'customers create')
# and prints one word a line.
_pay_commands() {
  case $1 in
${arms(specs, (s) => words(s.subcommands.map((c) => c.name)))}
  esac
}

_pay_flags() {
  case $1 in
${arms(specs, (s) => words(flagNames(s.flags)))}
  esac
}

_pay_value_flags() {
  case $1 in
${arms(specs, (s) => words(valueFlagNames(s)))}
  esac
}

# The values of flag $2 of command $1 ('' for its positional argument); $3 is the word typed.
_pay_values() {
  case "$1|$2" in
${values}
  esac
}

_pay_contains() {
  local word=$1 item
  shift
  for item; do [[ $item == "$word" ]] && return 0; done
  return 1
}

_pay() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} command='' word i IFS=$'\\n'
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      _pay_contains "$word" $(_pay_value_flags "$command") && ((i++))
    elif _pay_contains "$word" $(_pay_commands "$command"); then
      command=\${command:+$command }$word
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
`;
}

function zsh(specs: CommandSpec[]): string {
  const described = (entries: Array<{ name: string; description: string }>) =>
    entries.length ? `reply=(${entries.map((e) => sh(`${e.name.replace(/:/g, '\\:')}:${e.description}`)).join(' ')})` : undefined;
  const flagEntries = (flags: FlagSpec[]) => flags.flatMap((f) => f.names.map((name) => ({ name, description: f.description })));
  const values = valueArms(specs, (source) =>
    source.kind === 'dynamic'
      ? `compadd -- \${(f)"$(${source.pipeline})"}`
      : source.kind === 'choices'
        ? `compadd -- ${source.values.map(sh).join(' ')}`
        : '_files',
  );
  return `#compdef pay
${HEADER('zsh', 'copy it as _pay into a directory of $fpath, or source it after compinit')}
# Each function takes the command typed so far ('' for pay itself, 'customers create')
# and sets $reply to name:description entries.
_pay_commands() {
  reply=()
  case $1 in
${arms(specs, (s) => described(s.subcommands))}
  esac
}

_pay_flags() {
  reply=()
  case $1 in
${arms(specs, (s) => described(flagEntries(s.flags)))}
  esac
}

_pay_value_flags() {
  reply=()
  case $1 in
${arms(specs, (s) => described(flagEntries(s.flags.filter((f) => f.takesValue))))}
  esac
}

# Completes the values of flag $2 of command $1 ('' for its positional argument).
_pay_values() {
  case "$1|$2" in
${values}
  esac
}

_pay() {
  local command='' word i cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
  local -a reply
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    if [[ $word == -* ]]; then
      _pay_value_flags "$command"
      (( \${\${(@)reply%%:*}[(Ie)$word]} )) && ((i++))
    else
      _pay_commands "$command"
      (( \${\${(@)reply%%:*}[(Ie)$word]} )) && command=\${command:+$command }$word
    fi
  done
  _pay_value_flags "$command"
  if [[ $prev == -* ]] && (( \${\${(@)reply%%:*}[(Ie)$prev]} )); then
    _pay_values "$command" "$prev"
  elif [[ $cur == -* ]]; then
    _pay_flags "$command"
    _describe -t options flag reply
  else
    _pay_commands "$command"
    (( \${#reply} )) && _describe -t commands command reply
    _pay_values "$command" ''
  fi
}

if [[ $funcstack[1] == _pay ]]; then
  _pay "$@"
else
  compdef _pay pay
fi
`;
}

function fish(specs: CommandSpec[]): string {
  const flagLine = (condition: string, flag: FlagSpec) => {
    const names = flag.names.map((n) => (n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`)).join(' ');
    let value = '';
    if (flag.takesValue) {
      if (flag.dynamic) value = ` -x -a ${fishQuote(`(${flag.dynamic})`)}`;
      else if (flag.choices) value = ` -x -a ${fishQuote(flag.choices.join(' '))}`;
      else value = flag.file ? ' -r -F' : ' -x';
    }
    return `complete -c pay${condition} ${names}${value} -d ${fishQuote(flag.description)}`;
  };
  // Flags every command has (`--json`, `--profile`) need no condition.
  const same = (a: FlagSpec, b: FlagSpec) => JSON.stringify(a) === JSON.stringify(b);
  const everywhere = specs[0]!.flags.filter((flag) => specs.every((spec) => spec.flags.some((f) => same(f, flag))));
  const lines = everywhere.map((flag) => flagLine('', flag));
  for (const spec of specs) {
    const at = ` -n ${fishQuote(`__pay_at ${sh(key(spec))}`)}`;
    lines.push(`complete -c pay${at} -f`);
    for (const sub of spec.subcommands) lines.push(`complete -c pay${at} -a ${fishQuote(sub.name)} -d ${fishQuote(sub.description)}`);
    for (const flag of spec.flags) if (!everywhere.some((g) => same(g, flag))) lines.push(flagLine(at, flag));
    const arg = spec.argument;
    if (arg?.dynamic) lines.push(`complete -c pay${at} -a ${fishQuote(`(${arg.dynamic})`)}`);
    else if (arg?.choices) lines.push(`complete -c pay${at} -a ${fishQuote(arg.choices.join(' '))}`);
  }
  const cases = (list: (spec: CommandSpec) => string[]) =>
    grouped(specs.map((spec) => ({ pattern: fishQuote(key(spec)), body: list(spec).length ? list(spec) : undefined })))
      .map(({ patterns, body }) => `        case ${patterns.join(' ')}\n            printf '%s\\n' ${body.map(fishQuote).join(' ')}`)
      .join('\n');
  return `${HEADER('fish', 'copy it to ~/.config/fish/completions/pay.fish')}
function __pay_commands
    switch $argv[1]
${cases((s) => s.subcommands.map((c) => c.name))}
    end
end

function __pay_value_flags
    switch $argv[1]
${cases(valueFlagNames)}
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

${lines.join('\n')}
`;
}

export function completionScript(shell: Shell, specs: CommandSpec[]): string {
  switch (shell) {
    case 'bash':
      return bash(specs);
    case 'zsh':
      return zsh(specs);
    case 'fish':
      return fish(specs);
  }
}
