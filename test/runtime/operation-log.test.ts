import { expect } from '@open-wc/testing';
import { createOperationLog, LOG_LIMIT, statusOf } from '../../src/operation-log.js';
import { fail, succeed } from '../../src/result.js';

describe('operation log', () => {
  it('[LOG-7] keeps 200 entries in memory, dropping the oldest, and writes no storage', () => {
    const before = { local: localStorage.length, session: sessionStorage.length };
    const log = createOperationLog();
    for (let i = 0; i < 205; i++) log.add({ time: i, tool: 't', name: `t_${i}`, args: { i }, result: succeed(), resultJson: '{"ok":true}' });
    const { entries } = log.getState();
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
    const before = log.getState();
    log.add({ time: 1, tool: 't', name: 't_a', args: {}, result: succeed(), resultJson: '{}' });
    expect(log.getState()).not.to.equal(before);
    log.add({ time: 2, tool: 't', name: 't_b', args: {}, result: succeed(), resultJson: '{}' });
    expect(log.getState().entries.map((e) => e.name)).to.deep.equal(['t_a', 't_b']);
    log.clear();
    expect(log.getState().entries).to.have.length(0);
  });
});
