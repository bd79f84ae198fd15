import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_FLOWS, parseFlow } from './index.js';

const FLOWS_DIR = new URL('../../../../flows/', import.meta.url);

describe('the built-in flows', () => {
  it('are the flow files of flows/, one per name, each valid and named after its file', async () => {
    expect(readdirSync(FLOWS_DIR).sort()).toEqual(BUILT_IN_FLOWS.map((name) => `${name}.json`).sort());
    for (const name of BUILT_IN_FLOWS) {
      const flow = await parseFlow(readFileSync(new URL(`${name}.json`, FLOWS_DIR), 'utf8'), `${name}.json`);
      expect(flow.name).toBe(name);
      expect(flow.events?.length).toBeGreaterThan(0);
    }
  });
});
