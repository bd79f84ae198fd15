import type { Command, Option } from 'commander';

/** Where a value comes from at completion time, as a shell pipeline printing one per line. */
export const PROFILE_NAMES = 'pay profiles list 2>/dev/null | cut -f2';

export interface FlagSpec {
  /** `--email`, and `-d` when there is a short form. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** Fixed values (commander `.choices()`). */
  choices?: string[];
  /** A pipeline listing the values when they are only known at completion time. */
  dynamic?: string;
  /** The value is a file path (`<file>`). */
  file?: boolean;
}

export interface CommandSpec {
  /** Words after the program name: `[]` is the program itself, `['customers', 'create']`. */
  path: string[];
  subcommands: Array<{ name: string; description: string }>;
  /** Its own flags and those of its ancestors (commander reads them anywhere on the line). */
  flags: FlagSpec[];
  /** Values for the next positional argument, when known. */
  argument?: { choices?: string[]; dynamic?: string };
}

/** Values known only at run time: `--profile` anywhere, and the profile argument of these commands. */
const DYNAMIC_FLAGS: Record<string, string> = { '--profile': PROFILE_NAMES };
const DYNAMIC_ARGUMENTS: Record<string, string> = { 'profiles use': PROFILE_NAMES, 'profiles remove': PROFILE_NAMES };

const sortFlags = (flags: FlagSpec[]) => [...flags].sort((a, b) => a.names[0]!.localeCompare(b.names[0]!));
const firstLine = (text: string) => text.split('\n')[0]!.trim();

function flagSpec(option: Option): FlagSpec {
  const names = [option.long, option.short].filter((n): n is string => n !== undefined);
  // An optional value (`--json [fields]`) is as often left out: the word after it is then a
  // command, an argument or a flag, so it is completed as one, never swallowed as the value.
  const takesValue = option.required;
  const spec: FlagSpec = { names, description: firstLine(option.description), takesValue };
  if (option.argChoices?.length) spec.choices = [...option.argChoices];
  const dynamic = option.long === undefined ? undefined : DYNAMIC_FLAGS[option.long];
  if (dynamic) spec.dynamic = dynamic;
  if (/<file>|\[file\]/.test(option.flags)) spec.file = true;
  return spec;
}

/**
 * Every command of the tree with its subcommands, flags and argument values: what the
 * completion scripts embed, so they are generated from the same commander program that
 * parses the line. Sorted, so the scripts change only when the tree does.
 */
export function completionTree(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string[], inherited: FlagSpec[]) => {
    const help = command.createHelp();
    const own = help.visibleOptions(command).map(flagSpec);
    const children = help.visibleCommands(command).sort((a, b) => a.name().localeCompare(b.name()));
    const spec: CommandSpec = {
      path,
      subcommands: children.map((c) => ({ name: c.name(), description: firstLine(c.description()) })),
      flags: sortFlags([...own, ...inherited]),
    };
    const first = command.registeredArguments[0];
    const dynamic = DYNAMIC_ARGUMENTS[path.join(' ')];
    if (dynamic) spec.argument = { dynamic };
    else if (first?.argChoices?.length && children.length === 0) spec.argument = { choices: [...first.argChoices] };
    specs.push(spec);
    // A parent's options are read after its subcommands too; the version flag only at the top.
    const passed = [...inherited, ...command.options.filter((o) => !o.hidden && o.long !== '--version').map(flagSpec)];
    for (const child of children) {
      if (command.commands.includes(child)) visit(child, [...path, child.name()], passed);
      else {
        // Commander's implicit `help` placeholder: `help <command>` names a sibling.
        const siblings = children.filter((c) => c !== child).map((c) => c.name());
        specs.push({ path: [...path, child.name()], subcommands: [], flags: sortFlags(passed), argument: { choices: siblings } });
      }
    }
  };
  visit(program, [], []);
  return specs;
}
