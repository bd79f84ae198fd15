import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

export const CHROMIUM = '/usr/bin/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of Debian's chromium for the browser tests, or null when it could not be installed. */
    chromium: string | null;
  }
}

/**
 * The hosted checkout page is tested in a real browser: Debian's chromium, installed
 * here when missing and we are root. Where it cannot be installed the browser tests
 * are skipped, and say so.
 */
export default function setup(project: TestProject): void {
  if (!existsSync(CHROMIUM) && process.getuid?.() === 0) {
    console.log('Installing chromium for the browser tests (apt-get install -y chromium)…');
    const options = { stdio: 'inherit', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } } as const;
    const update = spawnSync('apt-get', ['update'], options);
    if (update.status === 0) spawnSync('apt-get', ['install', '-y', 'chromium'], options);
  }
  const available = existsSync(CHROMIUM);
  if (!available) console.warn(`\n!!! ${CHROMIUM} is missing and could not be installed: the browser tests of the hosted checkout page will be SKIPPED.\n`);
  project.provide('chromium', available ? CHROMIUM : null);
}
