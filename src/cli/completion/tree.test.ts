import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from './scripts.js';
import { completionTree, PROFILE_NAMES } from './tree.js';

function program(): Command {
  const root = new Command('pay').version('1.0.0', '-V, --version').option('--json', 'JSON').option('--profile <name>', 'Profile').helpCommand(true);
  const things = root.command('things').description('Things');
  things.command('make').description('Make one').option('--size <n>', 'Size').option('--db <file>', 'Database').option('--kind <kind>', 'Kind').option('--fields [list]', 'Fields').addOption(things.createOption('--color <c>', 'Colour').choices(['red', 'blue']));
  things.command('hidden-one', { hidden: true });
  root.command('shell').addArgument(root.createArgument('[shell]', 'Shell').choices(['bash', 'zsh']));
  return root;
}

describe('completionTree', () => {
  const tree = completionTree(program());
  const at = (path: string) => tree.find((spec) => spec.path.join(' ') === path)!;

  it('lists every visible command with its subcommands, sorted', () => {
    expect(tree.map((s) => s.path.join(' '))).toEqual(['', 'help', 'shell', 'things', 'things help', 'things make']);
    expect(at('things').subcommands.map((c) => c.name)).toEqual(['help', 'make']);
  });

  it('gives each command its own flags and its ancestors\', the version flag only at the top', () => {
    const names = (path: string) => at(path).flags.flatMap((f) => f.names);
    expect(names('')).toEqual(expect.arrayContaining(['--version', '-V', '--json', '--profile', '--help']));
    expect(names('things make')).toEqual(expect.arrayContaining(['--size', '--json', '--profile', '--help']));
    expect(names('things make')).not.toContain('--version');
  });

  it('knows which flags take values, their choices, files and profile names', () => {
    const flag = (name: string) => at('things make').flags.find((f) => f.names.includes(name))!;
    expect(flag('--size')).toMatchObject({ takesValue: true });
    expect(flag('--json')).toMatchObject({ takesValue: false });
    // An optional value (`--json [fields]`) may be left out: the next word is then a command or a flag.
    expect(flag('--fields')).toMatchObject({ takesValue: false });
    expect(flag('--color').choices).toEqual(['red', 'blue']);
    expect(flag('--db').file).toBe(true);
    expect(flag('--profile').dynamic).toBe(PROFILE_NAMES);
  });

  it('completes argument choices, and command names after help', () => {
    expect(at('shell').argument).toEqual({ choices: ['bash', 'zsh'] });
    expect(at('help').argument).toEqual({ choices: ['shell', 'things'] });
  });

  it.each(SHELLS)('renders a %s script naming every command and flag', (shell) => {
    const script = completionScript(shell, tree);
    for (const word of ['things', 'make', 'size', 'color', 'red', 'blue', 'profile', PROFILE_NAMES]) expect(script).toContain(word);
    expect(script).not.toContain('hidden-one');
  });
});
