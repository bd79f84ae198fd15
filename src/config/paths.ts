import { homedir } from 'node:os';
import { join } from 'node:path';

/** `PAY_CONFIG_DIR`, else `$XDG_CONFIG_HOME/pay`, else `~/.config/pay`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PAY_CONFIG_DIR) return env.PAY_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'pay');
}

export const sandboxStateFile = (dir: string) => join(dir, 'sandbox.json');
export const sandboxDbFile = (dir: string) => join(dir, 'sandbox.db');
export const sandboxLogFile = (dir: string) => join(dir, 'sandbox.log');
/** Held while a command starts the background sandbox: of commands finding it down at once, one starts it. */
export const sandboxStartLock = (dir: string) => join(dir, 'sandbox.start.lock');
/** Journals of past_due retry batches, one file a batch. */
export const batchJournalDir = (dir: string) => join(dir, 'batches');
