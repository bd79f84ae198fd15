import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, unknownTypeMessage } from './events.js';

const SERVICES = new URL('../sandbox/services/', import.meta.url);

describe('the event catalogue', () => {
  it('names only types the sandbox emits: an endpoint or listen asking for one would wait for nothing', () => {
    const emitted = new Set<string>();
    for (const file of readdirSync(SERVICES).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      for (const match of readFileSync(new URL(file, SERVICES), 'utf8').matchAll(/\.emit\('([a-z_.]+)'/g)) emitted.add(match[1]!);
    }
    expect([...EVENT_TYPES].sort()).toEqual([...emitted].sort());
    expect(unknownTypeMessage('terminal_reader.updated')).toMatch(/^unknown event type 'terminal_reader\.updated'/);
  });
});
