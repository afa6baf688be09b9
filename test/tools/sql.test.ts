import { expect } from '@open-wc/testing';
import { createSqlOperations } from '../../tools/sql/operations.js';
import type { SqlRunOutcome } from '../../tools/sql/adapter.js';
import { caller } from '../helpers/tools-call.js';
import { FakeSqlPage } from '../helpers/tools-fakes.js';

function setup() {
  const page = new FakeSqlPage();
  return { page, call: caller(createSqlOperations(page)) };
}

// The fake page runs no SQL: a run's outcome is what the test hands it. This text only names a
// query that would take a while on a real engine.
const LONG_QUERY = 'select count(*) from events cross join events as again';

// Rows as the engine gives them (SQL-7): arrays aligned with `fields`.
const rows = (n: number) => Array.from({ length: n }, (_, i) => [i + 1]);

describe('tools/sql', () => {
  it('[SQL-1] both operations answer not_ready until the project and saved SQL are loaded', async () => {
    const { page, call } = setup();
    page.loaded = false;
    expect((await call('sql_read_query')).result.error?.code).to.equal('not_ready');
    expect((await call('sql_run_query', { sql: 'select 1' })).result.error?.code).to.equal('not_ready');
    expect(page.runs).to.have.length(0);
  });

  it('[SQL-1] sql_read_query answers the editor SQL; neither operation changes it', async () => {
    const { page, call } = setup();
    page.editorSql = 'select * from users;\n';
    expect((await call('sql_read_query')).result).to.deep.equal({ ok: true, sql: 'select * from users;\n' });
    await call('sql_run_query', { sql: 'drop table users' });
    expect(page.editorSql).to.equal('select * from users;\n');
    expect(page.runs[0].sql).to.equal('drop table users');
  });

  it('[SQL-2] sql_run_query runs through the page run function without confirmation', async () => {
    const { page, call } = setup();
    const { result, confirmations } = await call('sql_run_query', { sql: 'delete from t' });
    expect(result.ok).to.equal(true);
    expect(confirmations).to.have.length(0);
    expect(page.runs).to.deep.equal([{ sql: 'delete from t', timeoutMs: 30_000 }]);
  });

  it('[SQL-3] while the engine loads or SQL runs (agent or user): not_ready; a load failure: failed', async () => {
    const { page, call } = setup();
    page.state = 'loading';
    expect((await call('sql_run_query', { sql: 'select 1' })).result.error?.code).to.equal('not_ready');
    page.state = 'running';
    expect((await call('sql_run_query', { sql: 'select 1' })).result.error?.code).to.equal('not_ready');
    expect(page.runs).to.have.length(0);
    // sql_read_query does not need the engine.
    expect((await call('sql_read_query')).result.ok).to.equal(true);
    page.state = 'unloaded';
    page.loadFails = true;
    const failed = (await call('sql_run_query', { sql: 'select 1' })).result;
    expect(failed.error?.code).to.equal('failed');
    expect(failed.error?.message).to.include('pglite.wasm');
  });

  it('[SQL-3] a second call while an agent call runs answers not_ready', async () => {
    const { page, call } = setup();
    let finish!: (outcome: SqlRunOutcome) => void;
    page.outcomes.push(() => new Promise((resolve) => (finish = resolve)));
    const first = call('sql_run_query', { sql: LONG_QUERY });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.state).to.equal('running');
    expect((await call('sql_run_query', { sql: 'select 2' })).result.error?.code).to.equal('not_ready');
    finish({ kind: 'exited', ended: 'committed', results: [], ms: 1000 });
    expect((await first).result).to.deep.equal({ ok: true, results: [], ms: 1000 });
    // The engine's own busy answer (a run that started between check and execute) is not_ready too.
    page.outcomes.push(() => ({ kind: 'busy' }));
    expect((await call('sql_run_query', { sql: 'select 3' })).result.error?.code).to.equal('not_ready');
  });

  it('[SQL-4] one results entry per statement, rows cut to 200 with totalRows and truncated, and ms', async () => {
    const { page, call } = setup();
    page.outcomes.push(() => ({
      kind: 'exited',
      ended: 'committed',
      ms: 12,
      results: [
        { fields: [], rows: [], affectedRows: 0 },
        { fields: [{ name: 'id', dataTypeID: 23 }], rows: [], affectedRows: 250 },
        { fields: [{ name: 'id', dataTypeID: 23 }], rows: rows(250), affectedRows: 0 },
        { fields: [{ name: 'id', dataTypeID: 23 }], rows: rows(200), affectedRows: 0 },
      ],
    }));
    const { result } = await call('sql_run_query', { sql: 'create table t(id int); insert …; select * from t; select * from t limit 200' });
    expect(result.ms).to.equal(12);
    expect(result.results).to.have.length(4);
    expect(result.results[1]).to.deep.equal({ fields: [{ name: 'id', dataTypeID: 23 }], rows: [], affectedRows: 250, totalRows: 0, truncated: false });
    expect(result.results[2].rows).to.deep.equal(rows(200));
    expect(result.results[2]).to.deep.include({ totalRows: 250, truncated: true, affectedRows: 0 });
    expect(result.results[3]).to.deep.include({ totalRows: 200, truncated: false });
  });

  it('[SQL-4] values JSON cannot write as they are come back readable (bigint, bytea, dates)', async () => {
    const { page, call } = setup();
    page.outcomes.push(() => ({
      kind: 'exited',
      ended: 'committed',
      ms: 1,
      results: [{ fields: [{ name: 'n' }, { name: 'b' }, { name: 'd' }], rows: [[2n ** 70n, new Uint8Array([0, 255]), new Date(Date.UTC(2026, 0, 2))]], affectedRows: 0 }],
    }));
    const { result } = await call('sql_run_query', { sql: 'select …' });
    expect(result.results[0].rows).to.deep.equal([['1180591620717411303424', '\\x00ff', '2026-01-02T00:00:00.000Z']]);
  });

  it('[SQL-5] a failure answers failed with sqlState and position beside error, each only when the engine gave it', async () => {
    const { page, call } = setup();
    page.outcomes.push(
      () => ({ kind: 'exited', ended: 'rolled-back', error: { message: 'relation "nope" does not exist', sqlState: '42P01', position: 15 } }),
      () => ({ kind: 'exited', ended: 'rolled-back', error: { message: 'syntax error', sqlState: '42601' } }),
      () => ({ kind: 'exited', ended: 'rolled-back', error: { message: 'The SQL engine crashed' } }),
    );
    expect((await call('sql_run_query', { sql: 'select * from nope' })).json).to.equal(
      JSON.stringify({ sqlState: '42P01', position: 15, ok: false, error: { code: 'failed', message: 'relation "nope" does not exist' } }),
    );
    const second = (await call('sql_run_query', { sql: 'selec' })).result;
    expect(Object.keys(second).sort()).to.deep.equal(['error', 'ok', 'sqlState']);
    const third = (await call('sql_run_query', { sql: 'x' })).result;
    expect(Object.keys(third).sort()).to.deep.equal(['error', 'ok']);
  });

  it('[SQL-6] a timeout answers timeout and says the DB was reset', async () => {
    const { page, call } = setup();
    page.outcomes.push(() => ({ kind: 'timeout' }));
    const { result } = await call('sql_run_query', { sql: LONG_QUERY, timeoutMs: 1000 });
    expect(result.error?.code).to.equal('timeout');
    expect(result.error?.message).to.match(/reset to its initial state/);
    expect(page.runs[0].timeoutMs).to.equal(1000);
  });

  it('[NAT-6] a caller\'s cancel answers declined; the user\'s reset during the run declined saying so; a timeout keeps timeout', async () => {
    const { page, call } = setup();
    // The page's run function resolves to `cancelled` once the call's signal aborts (NAT-2).
    page.outcomes.push((_sql, { signal }) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ kind: 'cancelled' }))));
    const controller = new AbortController();
    const pending = call('sql_run_query', { sql: LONG_QUERY }, 'accept', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.state).to.equal('running');
    controller.abort();
    const cancelled = (await pending).result;
    expect(cancelled.ok).to.equal(false);
    expect(cancelled.error?.code).to.equal('declined');
    expect(cancelled.error?.message).to.match(/caller cancelled/);
    page.outcomes.push(() => ({ kind: 'stopped' }));
    const stopped = (await call('sql_run_query', { sql: LONG_QUERY })).result;
    expect(stopped.error?.code).to.equal('declined');
    expect(stopped.error?.message).to.match(/the user reset the DB/);
    page.outcomes.push(() => ({ kind: 'timeout' }));
    expect((await call('sql_run_query', { sql: LONG_QUERY, timeoutMs: 1000 })).result.error?.code).to.equal('timeout');
  });
});
