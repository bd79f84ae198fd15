import { afterEach } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../src/sandbox/testing.js';

/**
 * In-process sandboxes for the tests of a describe block, closed after each test with
 * whatever else was handed to `later` (in reverse order).
 */
export function testSandboxes() {
  const steps: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  const later = (step: () => Promise<void> | void) => void steps.push(step);
  async function sandbox(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
    const sb = await startTestSandbox(options);
    later(() => sb.close());
    return sb;
  }
  return { sandbox, later };
}
