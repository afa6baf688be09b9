// The run contract (tools/run.ts) as the four run operations answer it: one outcome answers one
// code whichever tool ran, the output so far travels with an interrupted run, and an outcome no
// page should give still answers an envelope.
import { expect } from '@open-wc/testing';
import { MAX_OUTPUT_CHARS } from '../../src/limits.js';
import { createGoOperations } from '../../tools/go/operations.js';
import { createNodeOperations } from '../../tools/node/operations.js';
import { createSqlOperations } from '../../tools/sql/operations.js';
import type { GoRunOutcome } from '../../tools/go/adapter.js';
import type { NodeRunOutcome } from '../../tools/node/adapter.js';
import type { SqlRunOutcome } from '../../tools/sql/adapter.js';
import { caller } from '../helpers/tools-call.js';
import { FakeGoPage, FakeNodeRuntime, FakeSqlPage, nodeAdapter } from '../helpers/tools-fakes.js';

/** One run operation whose page run function resolves to whatever the test hands it. */
function runTool(name: 'sql_run_query' | 'go_run' | 'go_test' | 'node_run_command') {
  if (name === 'sql_run_query') {
    const page = new FakeSqlPage();
    const call = caller(createSqlOperations(page));
    return {
      withOutput: false,
      run: async (outcome: object) => {
        page.outcomes.push(() => outcome as SqlRunOutcome);
        return (await call(name, { sql: 'select 1' })).result;
      },
    };
  }
  if (name === 'node_run_command') {
    const runtime = new FakeNodeRuntime();
    const call = caller(createNodeOperations(nodeAdapter(runtime)));
    return {
      withOutput: true,
      run: async (outcome: object) => {
        runtime.run = async () => outcome as NodeRunOutcome;
        return (await call(name, { command: 'node' })).result;
      },
    };
  }
  const page = new FakeGoPage({ 'main.go': 'package main\n' });
  const call = caller(createGoOperations(page));
  return {
    withOutput: true,
    run: async (outcome: object) => {
      page.outcomes.push(() => outcome as GoRunOutcome);
      return (await call(name)).result;
    },
  };
}

const TOOLS = ['sql_run_query', 'go_run', 'go_test', 'node_run_command'] as const;

describe('tools/run: one run contract for sql, go and node', () => {
  for (const name of TOOLS) {
    it(`[NAT-6] ${name}: timeout answers timeout, the user's stop and the caller's cancel declined, busy not_ready, each with the output so far`, async () => {
      const tool = runTool(name);
      const soFar = { output: '\u001b[1mtick\u001b[0m\n', killConfirmed: true };
      const codes: Record<string, string> = { timeout: 'timeout', stopped: 'declined', cancelled: 'declined', busy: 'not_ready' };
      for (const [kind, code] of Object.entries(codes)) {
        // The SQL page has no output to hand over; go and node do.
        const result = await tool.run(kind === 'busy' || !tool.withOutput ? { kind } : { kind, ...soFar });
        expect(result.ok, `${kind}`).to.equal(false);
        expect(result.error?.code, `${kind}`).to.equal(code);
        if (kind === 'busy' || !tool.withOutput) {
          expect(result, kind).to.not.have.property('output');
        } else {
          // node removes the terminal controls (NODE-5); go returns the output raw (GO-5).
          expect(result.output, kind).to.equal(name === 'node_run_command' ? 'tick\n' : soFar.output);
          expect(result.truncated, kind).to.equal(false);
        }
      }
    });

    it(`[NAT-6] ${name}: an outcome no page should give answers failed, not a crash`, async () => {
      const tool = runTool(name);
      for (const outcome of [{ kind: 'finished' }, {}]) {
        const result = await tool.run(outcome);
        expect(result.ok).to.equal(false);
        expect(result.error?.code).to.equal('failed');
      }
    });
  }

  it('[GO-6] [NODE-4] an interrupted run keeps the last 100,000 characters, truncated also when the page dropped the beginning', async () => {
    for (const name of ['go_run', 'node_run_command'] as const) {
      const tool = runTool(name);
      const long = `${'a'.repeat(10)}${'b'.repeat(MAX_OUTPUT_CHARS)}`;
      const cut = await tool.run({ kind: 'timeout', output: long, killConfirmed: true });
      expect(cut.output, name).to.equal('b'.repeat(MAX_OUTPUT_CHARS));
      expect(cut.truncated, name).to.equal(true);
      const dropped = await tool.run({ kind: 'cancelled', output: 'end\n', truncated: true, killConfirmed: true });
      expect(dropped).to.deep.include({ output: 'end\n', truncated: true });
    }
  });
});
