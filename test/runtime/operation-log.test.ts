import { expect } from '@open-wc/testing';
import { createOperationLog, LOG_LIMIT } from '../../src/operation-log.js';
import { describeCall } from '../../src/log-entry.js';
import { formatValue, statusOf } from '../../src/log-format.js';
import { fail, succeed } from '../../src/result.js';
import { createAiOps } from '../../src/runtime.js';
import { MemoryStorage } from './helpers.js';

describe('operation log', () => {
  it('[LOG-7] keeps 200 entries in memory, dropping the oldest, and writes no storage', () => {
    const before = { local: localStorage.length, session: sessionStorage.length };
    const log = createOperationLog();
    for (let i = 0; i < 205; i++) log.add(describeCall({ time: i, tool: 't', name: `t_${i}`, args: { i }, result: succeed() }));
    const { entries } = log.reader.getState();
    expect(LOG_LIMIT).to.equal(200);
    expect(entries).to.have.length(200);
    expect(entries[0].name).to.equal('t_5');
    expect(entries[199].name).to.equal('t_204');
    expect({ local: localStorage.length, session: sessionStorage.length }).to.deep.equal(before);
  });

  it('[LOG-3] the status is success when ok, declined for declined, failure for any other code', () => {
    expect(statusOf(succeed())).to.equal('success');
    expect(statusOf(fail('declined', 'no'))).to.equal('declined');
    for (const code of ['invalid_input', 'not_found', 'too_large', 'not_ready', 'timeout', 'failed'] as const) {
      expect(statusOf(fail(code, 'x'))).to.equal('failure');
    }
  });

  it('[LOG-5] new entries are added at the end with a new snapshot', () => {
    const log = createOperationLog();
    const before = log.reader.getState();
    log.add(describeCall({ time: 1, tool: 't', name: 't_a', args: {}, result: succeed() }));
    expect(log.reader.getState()).not.to.equal(before);
    log.add(describeCall({ time: 2, tool: 't', name: 't_b', args: {}, result: succeed() }));
    expect(log.reader.getState().entries.map((e) => e.name)).to.deep.equal(['t_a', 't_b']);
  });

  it('[UNDO-2] [UNDO-4] setUndo writes one row\'s undo state: a new snapshot, a new frozen row, the others as they were', () => {
    const log = createOperationLog();
    const [a, b] = ['t_a', 't_b'].map((name, i) => log.add(describeCall({ time: i, tool: 't', name, args: {}, result: succeed(), undo: 'available' })));
    let notified = 0;
    log.reader.subscribe(() => notified++);
    const before = log.reader.getState();
    log.setUndo(b.id, 'dropped');
    const { entries } = log.reader.getState();
    expect(log.reader.getState()).not.to.equal(before);
    expect(notified).to.equal(1);
    expect(entries[0]).to.equal(a);
    expect(entries[1]).to.include({ id: b.id, name: 't_b', undo: 'dropped' });
    expect(Object.isFrozen(entries[1])).to.equal(true);
  });

  it('[LOG-7] the runtime\'s log is read-only: the store contract, no way to add, change or drop a row', () => {
    const aiOps = createAiOps({ storage: new MemoryStorage(), embedded: false, autoReconnect: false });
    expect(Object.keys(aiOps.log).sort()).to.deep.equal(['getSnapshot', 'getState', 'subscribe']);
    expect(aiOps.log.getSnapshot).to.equal(aiOps.log.getState);
    aiOps.dispose();
  });
});

/** Every string and object reachable from `root` (own enumerable properties, arrays, maps of state). */
function reachable(root: unknown) {
  const objects = new Set<object>();
  let chars = 0;
  const walk = (value: unknown) => {
    if (typeof value === 'string') chars += value.length;
    if (typeof value !== 'object' || value === null || objects.has(value)) return;
    objects.add(value);
    for (const item of Object.values(value)) walk(item);
  };
  walk(root);
  return { objects, chars };
}

describe('operation log memory', () => {
  it('[SAFE-8] keeps arguments and results cut at 10,000 characters, no second copy: 200 rows of 1 MB hold ≤ 4.1 M characters', () => {
    const log = createOperationLog();
    const kept: object[] = [];
    for (let i = 0; i < 200; i++) {
      const args = { path: `file-${i}.txt`, text: 'a'.repeat(1 << 20) };
      const result = succeed({ contents: `${i}`.padEnd(1 << 20, 'b') });
      kept.push(args, result);
      log.add(describeCall({ time: i, tool: 't', name: 't_read', args, result }));
    }
    const { objects, chars } = reachable(log.reader.getState());
    // Per row at most: arguments and result (10,000 each), their summaries (80 each), the names.
    expect(chars).to.be.at.most(200 * (2 * 10_000 + 2 * 80 + 100));
    expect(kept.some((value) => objects.has(value)), 'no caller object is kept').to.equal(false);
    const last = log.reader.getState().entries.at(-1)!;
    expect(last.args.text.length).to.equal(10_000);
    expect(last.args.truncated).to.equal(true);
    expect(last.result.text.startsWith('{\n  "contents": "199bbb')).to.equal(true);
    expect(last.argsSummary.text).to.equal(`{"path":"file-199.txt","text":"${'a'.repeat(80 - 31)}`);
    expect(last).to.include({ status: 'success', code: null });
  });

  it('[LOG-3] [LOG-4] an agent\'s call, whose texts are written after it answered, shows the same row as a page call', () => {
    const calls = [
      { time: 1, tool: 't', name: 't_read', args: { path: 'a.md', text: '# A\n"b"' }, result: succeed({ contents: 'x'.repeat(20_000) }), via: 'webmcp' as const },
      { time: 2, tool: 't', name: 't_read', args: { get path(): string { throw new Error('no access'); } }, result: fail('invalid_input', 'bad path'), via: 'relay' as const },
    ];
    for (const call of calls) {
      const now = describeCall(call);
      const later = describeCall(call, true);
      expect(JSON.stringify(later)).to.equal(JSON.stringify(now));
      for (const field of ['args', 'result', 'argsSummary', 'resultSummary'] as const) {
        expect({ text: later[field].text, truncated: later[field].truncated }, field).to.deep.equal({ ...now[field] });
      }
    }
  });

  it('[SAFE-8] the texts of an agent\'s calls are written without being read once 16 rows wait, so their values go', () => {
    let reads = 0;
    const args = { get path(): string { reads++; return 'a.txt'; } };
    const log = createOperationLog();
    for (let i = 0; i < 32; i++) log.add(describeCall({ time: i, tool: 't', name: 't_read', args, result: succeed(), via: 'webmcp' }, true));
    // Of 128 texts at most 63 still wait (other rows' too): at least 16 rows were written, each
    // reading `path` twice (its full text and its summary), with no text read here.
    expect(reads).to.be.at.least(32);
    expect(log.reader.getState().entries[0].argsSummary.text).to.equal('{"path":"a.txt"}');
  });

  it('[SAFE-8] [LOG-4] an agent\'s row written later shows the result as the agent received it, not what the tool changed in its object since', () => {
    const result = succeed({ count: 1, items: ['a'] });
    const json = JSON.stringify(result);
    const row = describeCall({ time: 0, tool: 't', name: 't_write', args: {}, result, resultJson: json, via: 'relay' }, true);
    // The tool kept its envelope and changes it after the agent had its answer.
    (result as unknown as { count: number }).count = 99;
    (result as unknown as { items: string[] }).items.push('late');
    expect(row.result.text).to.equal(formatValue(JSON.parse(json)).text);
    expect(row.resultSummary.text).to.equal('{"count":1,"items":["a"]}');
  });

  it('[SAFE-8] a value that cannot be read (a throwing getter) is logged as such; the call is not broken', () => {
    const log = createOperationLog();
    const args = { get path(): string { throw new Error('no access'); } };
    const entry = log.add(describeCall({ time: 1, tool: 't', name: 't_read', args, result: fail('invalid_input', 'bad path') }));
    expect(entry.args.text).to.contain('no access');
    expect(entry).to.include({ status: 'failure', code: 'invalid_input' });
    expect(entry.resultSummary.text).to.equal('invalid_input: bad path');
  });
});
