// SAFE-8 measured: the JS heap a page keeps for 200 logged calls with 1 MB results, read after
// forced garbage collection over the DevTools protocol (test/elements/heap-plugin.mjs). The
// runtime's own test counts the characters the log keeps; this one weighs what the page retains,
// the rendered <ai-ops-log> included.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { cleanupRuntimes, createTestRuntime, turnOn } from './helpers.js';

const MB = 1024 * 1024;

await loadAiOpsElements();

/**
 * A fresh string of `size` characters on the JS heap, as a read of a file gives: `padEnd` alone
 * gives a rope whose pieces the strings share, and strings Blink makes (TextDecoder) live outside
 * the JS heap; JSON.parse copies the characters into one new string of V8's own.
 */
const freshString = (size: number, seed: number): string => JSON.parse(JSON.stringify(`${seed}:`.padEnd(size, 'x')));

/** The page's JS heap in use after garbage collection, in bytes. */
async function heapAfterGc(): Promise<number> {
  const { usedSize } = await executeServerCommand<{ usedSize: number }, undefined>('heap-used-after-gc');
  expect(usedSize, 'the heap measure answers a size').to.be.a('number').greaterThan(0);
  return usedSize;
}

describe('<ai-ops-log> memory', () => {
  afterEach(() => cleanupRuntimes());

  it('[SAFE-8] 200 rows of 1 MB results retain at most 10 MB of JS heap, rendered log included', async function () {
    this.timeout(120_000);
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('mem', [defineOperation({
      name: 'mem_read',
      description: 'returns `size` characters, as a file read would',
      inputSchema: {
        type: 'object',
        properties: { size: { type: 'integer' }, seed: { type: 'integer' } },
        required: ['size', 'seed'],
        additionalProperties: false,
      },
      // A new string per call, as each read of a file gives.
      execute: async ({ size, seed }) => succeed({ contents: freshString(size, seed) }),
    })]);
    const log = await fixture<AiOpsLog>(html`<ai-ops-log tool="mem" mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    await turnOn(session);
    const calls = async (size: number) => {
      for (let seed = 0; seed < 200; seed++) await session.call('mem_read', { size, seed });
      await log.updateComplete;
    };
    // The log is full (200 rows) of small ones first, so what follows replaces rows instead of adding them.
    await calls(100);
    const before = await heapAfterGc();

    // The measure sees what a page keeps: 20 MB held on purpose shows as about 20 MB.
    const held = Array.from({ length: 20 }, (_, i) => freshString(MB, i));
    const holding = await heapAfterGc();
    expect(holding - before, 'the measure sees 20 MB held').to.be.within(19 * MB, 24 * MB);
    held.length = 0;
    const released = await heapAfterGc();

    await calls(MB);
    expect(log.shadowRoot!.querySelectorAll('[role="log"] > [part~="row"]').length).to.equal(200);
    const after = await heapAfterGc();
    const retained = after - released;
    expect(retained, `200 rows of 1 MB results retain ${(retained / MB).toFixed(2)} MB`).to.be.at.most(10 * MB);
  });
});
