import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { packageFile } from '../../../infra/package-files.js';
import { completionScript, SHELLS, type Shell } from '../../completion/scripts.js';
import { completionTree } from '../../completion/tree.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export interface CompletionOptions {
  /** Checked by commander against SHELLS. */
  shell?: Shell | undefined;
  write: boolean;
}

/** The checked-in scripts, kept current by a test (`npm run completions` rewrites them). */
export const COMPLETIONS_DIR = fileURLToPath(packageFile('completions/'));

/*
 * The scripts embed the command tree (commands, subcommands, flags, fixed values), read
 * from the same commander program that parses the line: completing costs no process
 * start, and a checked-in script shows in review what changed in the CLI. Values known
 * only at run time (profile names) come from `pay profiles list` when asked for.
 * @bomb.sh/tab was the plan, but its scripts are the same text for any program and
 * start `pay` on every keypress; there would be nothing to keep current.
 */
export function register(command: Command, f: Factory): void {
  command
    .addArgument(command.createArgument('[shell]', 'The shell to print the script of').choices(SHELLS))
    .option('--write', 'Write the script (every shell\'s without [shell]) to the package\'s completions/', false)
    .action(async (shell: Shell | undefined, flags: { write: boolean }) => run({ shell, write: flags.write }, command, f));
  withExamples(
    command,
    'pay completion bash > ~/.local/share/bash-completion/completions/pay',
    'pay completion zsh > "${fpath[1]}/_pay"',
    'pay completion fish > ~/.config/fish/completions/pay.fish',
    'npm run completions                  # after changing commands: regenerate the checked-in scripts',
  );
}

export async function run(options: CompletionOptions, command: Command, f: Factory): Promise<void> {
  let program = command;
  while (program.parent) program = program.parent;
  const tree = completionTree(program);
  if (options.write) {
    const shells = options.shell === undefined ? SHELLS : [options.shell];
    for (const shell of shells) writeFileSync(`${COMPLETIONS_DIR}pay.${shell}`, completionScript(shell, tree));
    if (f.io.json) return f.io.printJSON({ written: shells.map((s) => `completions/pay.${s}`) });
    return f.io.success(`Wrote ${shells.map((s) => `completions/pay.${s}`).join(', ')}.`);
  }
  if (options.shell === undefined) throw new UsageError(`Missing [shell]: one of ${SHELLS.join(', ')} (or --write).`);
  const script = completionScript(options.shell, tree);
  // --json keeps its promise here too: data as one JSON object, the script a field of it.
  if (f.io.json) return f.io.printJSON({ shell: options.shell, script });
  f.io.out(script);
}
