import { type Command, CommanderError, type Help, type Option } from 'commander';
import { maskCardNumbers } from '../domain/cards.js';
import { flagsByField } from './command.js';
import type { IO } from './io/io.js';

/*
 * Help and usage errors as gh writes them: commands in groups, required flags marked,
 * a "Learn more" line, built-in lines worded like ours, and a usage error that is one
 * `✗ …` line like every other error, with commander's suggestion and where to look next.
 */

/** The built-in `--help` and `help` lines, worded as the others are. */
export const HELP_OPTION = ['-h, --help', 'Show help for the command'] as const;
export const HELP_COMMAND = ['help [command]', 'Show help for a command (pay help intents create)'] as const;

/**
 * Settings for every command's help (inherited: set on the program before its
 * commands). A boolean flag is off unless given, which "(default: false)" only repeats.
 */
export function helpSettings(base: typeof Help.prototype): Partial<Help> {
  return {
    showGlobalOptions: true,
    optionDescription(this: Help, option: Option) {
      const text = base.optionDescription.call(this, option);
      return option.isBoolean() ? text.replace(/ \(default: (true|false)\)$/, '') : text;
    },
  };
}

/** `pay help intents create` is `pay intents create --help`: help of the command named, however deep. */
export function helpArgs(args: string[], at: number): string[] {
  const named = args.slice(at + 1).filter((arg) => !arg.startsWith('-'));
  if (args[at] !== 'help' || named.length === 0) return args;
  return [...args.slice(0, at), ...named, '--help'];
}

const pathOf = (command: Command): string => (command.parent ? `${pathOf(command.parent)} ${command.name()}` : command.name());

/** Commander's error text as one of ours: `error: unknown option '--amout'\n(Did you mean --amount?)` → `Unknown option '--amout'. Did you mean --amount?` */
export function usageMessage(text: string): string {
  let message = text.replace(/^error: /, '').trim().replace(/\s*\n\((Did you mean [^)]*\?)\)$/, '. $1');
  message = message.replace(/Allowed choices are ([^\n]*)\.$/, 'choose from $1.');
  const invalid = /^option '([^']*)' argument '(.*)' is invalid\. ?([\s\S]*)$/.exec(message);
  if (invalid) message = `Invalid ${/--[\w-]+/.exec(invalid[1]!)?.[0] ?? invalid[1]} '${invalid[2]}': ${invalid[3]}`;
  const choice = /^command-argument value '(.*)' is invalid for argument '(.*)'\. ?([\s\S]*)$/.exec(message);
  if (choice) message = `Unknown ${choice[2]} '${choice[1]}': ${choice[3]}`;
  const argument = /^missing required argument '(.*)'$/.exec(message);
  if (argument) message = `Missing <${argument[1]}>: it is required.`;
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
}

/**
 * The flag carrying the request field an unknown flag spells: the spec's field name in
 * kebab or snake case, with or without its `_id` (`--terminal-reader-id`,
 * `--terminal_reader`, `--payment-method-id`), as a user who read the spec types it.
 */
function fieldFlagOf(unknown: string, byField: ReadonlyMap<string, string>): string | undefined {
  const spelled = unknown.replace(/^-+/, '').replace(/=.*$/, '').toLowerCase().replace(/-/g, '_');
  for (const [field, flag] of byField) {
    const name = field.replace(/\./g, '_');
    if (spelled === name || spelled === name.replace(/_id$/, '')) return flag;
  }
  return undefined;
}

/**
 * Once the tree is built: each command with subcommands ends its help with where to
 * learn more and has a help command of its own (not the program's, which is grouped);
 * each command reports usage errors in the house style, pointing at its own --help.
 */
export function finishHelp(program: Command, io: IO, json: () => boolean): void {
  const visit = (command: Command) => {
    const path = pathOf(command);
    if (command.commands.length > 0) {
      if (command !== program) command.helpCommand(HELP_COMMAND[0], 'Show help for a command');
      command.addHelpText('after', `Learn more:\n  Use "${path} <command> --help" for more about a command.`);
      // Commander answers a group given no command with its help, as an error; with --json
      // the error is the one JSON object every other usage error is.
      const help = command.help.bind(command);
      command.help = ((context?: { error: boolean }) => {
        if (!context?.error || !json()) return help(context);
        const names = command.commands.map((sub) => sub.name()).filter((name) => name !== 'help');
        io.errorJSON({ code: 'usage_error', message: `Missing <command>: ${path} needs one of ${names.join(', ')} (${path} --help).`, exit_code: 2 });
        throw new CommanderError(2, 'commander.help', '(outputHelp)');
      }) as Command['help'];
    }
    command.configureOutput({
      outputError: (text) => {
        // Commander suggests by spelling only; a flag named after its field is found by the field.
        const unknown = /^error: unknown option '([^']*)'\s*$/.exec(text);
        const field = unknown && fieldFlagOf(unknown[1]!, flagsByField.get(command) ?? new Map());
        // Commander quotes what was typed: a card number put in the wrong place shows as its last 4 digits, as the service's errors do.
        const message = maskCardNumbers(usageMessage(field ? `${text.trim()}\n(Did you mean ${field}?)` : text));
        if (json()) return io.errorJSON({ code: 'usage_error', message, exit_code: 2 });
        io.error(message);
        io.info(`  Run '${path} --help' for usage.`);
      },
    });
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}
