// SqlEngine against the real engine: PGlite in the worker built by demo/sql/build.mjs into
// dist/site/sql/engine/ (build first: `node esbuild.config.mjs sql`).
import { expect } from '@open-wc/testing';
import {
  SqlEngine,
  SqlEngineBusyError,
  type SqlEngineEvent,
  type SqlEngineState,
  type SqlRunResult,
  type StatementResult,
} from '../../demo/sql/engine/sql-engine.js';

const engineUrl = '/dist/site/sql/engine/';

function results(result: SqlRunResult): StatementResult[] {
  if (result.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(result)}`);
  return result.results;
}

function waitForState(engine: SqlEngine, state: SqlEngineState): Promise<void> {
  if (engine.state === state) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = engine.subscribe((snapshot) => {
      if (snapshot.state !== state) return;
      stop();
      resolve();
    });
  });
}

describe('SqlEngine (PGlite in a Web Worker)', function () {
  // The first load fetches 20 MB and compiles a 9 MB wasm.
  this.timeout(120000);

  const engine = new SqlEngine({ engineUrl });
  const events: SqlEngineEvent[] = [];
  engine.subscribe((_snapshot, event) => events.push(event));

  after(() => engine.dispose());

  it('[SQL-3] loads lazily and does not count the load in timeoutMs: a cold `select 1` with timeoutMs 1000 succeeds', async () => {
    expect(engine.state).to.equal('unloaded');
    const started = performance.now();
    const run = engine.run('select 1 as one', { timeoutMs: 1000 });
    expect(engine.state).to.equal('loading');
    const result = await run;
    const ms = performance.now() - started;
    console.log(`[sql] cold start + first query: ${Math.round(ms)} ms`);
    expect(results(result)[0].rows).to.deep.equal([{ one: 1 }]);
    expect(engine.state).to.equal('ready');
    expect(events.filter((e) => e.type === 'state').map((e) => e.type === 'state' && e.state)).to.deep.equal([
      'loading',
      'ready',
      'running',
      'ready',
    ]);
    await engine.load();
    expect(engine.state).to.equal('ready');
  });

  it('[SQL-3] state is running during a run, and a second run meanwhile is refused', async () => {
    const run = engine.run('select pg_sleep(0.3)');
    expect(engine.state).to.equal('running');
    expect(engine.getState().state).to.equal('running');
    let refused: unknown;
    await engine.run('select 1').catch((e: unknown) => (refused = e));
    expect(refused).to.be.instanceOf(SqlEngineBusyError);
    expect(results(await run)).to.have.length(1);
    expect(engine.state).to.equal('ready');
  });

  it('[SQL-4] several statements give one result each with per-statement affectedRows', async () => {
    const result = await engine.run(
      `create table four(a int);
       insert into four values (1), (2), (3);
       update four set a = a + 10 where a > 1;
       select a from four order by a;
       delete from four;
       drop table four`,
    );
    const statements = results(result);
    expect(statements.map((s) => s.command)).to.deep.equal(['CREATE', 'INSERT', 'UPDATE', 'SELECT', 'DELETE', 'DROP']);
    expect(statements.map((s) => s.affectedRows)).to.deep.equal([0, 3, 2, 0, 3, 0]);
    expect(statements[3].fields).to.deep.equal([{ name: 'a', dataTypeID: 23 }]);
    expect(statements[3].rows).to.deep.equal([{ a: 1 }, { a: 12 }, { a: 13 }]);
    expect(statements[1].rows).to.deep.equal([]);
    expect(result.kind === 'results' && result.ms).to.be.a('number');
  });

  it('[SQL-4] 1,000 rows from generate_series come back whole', async () => {
    const [statement] = results(await engine.run('select g from generate_series(1, 1000) as g'));
    expect(statement.rows).to.have.length(1000);
    expect(statement.rows[0]).to.deep.equal({ g: 1 });
    expect(statement.rows[999]).to.deep.equal({ g: 1000 });
    expect(statement.affectedRows).to.equal(0);
  });

  it('[SQL-5] a failing last statement rolls back the earlier ones and gives sqlState and a numeric position', async () => {
    const sql = 'create table five(a int);\ninsert into five values (1);\nselect * from missing_table';
    const result = await engine.run(sql);
    expect(result.ok).to.equal(false);
    if (result.kind !== 'error') throw new Error(`expected an error, got ${result.kind}`);
    expect(result.error.sqlState).to.equal('42P01');
    expect(result.error.message).to.contain('missing_table');
    expect(result.error.position).to.equal(sql.indexOf('missing_table') + 1);
    const [check] = results(await engine.run("select to_regclass('five') is null as gone"));
    expect(check.rows).to.deep.equal([{ gone: true }]);
  });

  it('[SQL-5] an error without a position has no position key', async () => {
    const result = await engine.run("select 1/0 as x");
    if (result.kind !== 'error') throw new Error(`expected an error, got ${result.kind}`);
    expect(result.error.sqlState).to.equal('22012');
    expect(result.error).not.to.have.property('position');
  });

  it('[SQL-6] a timeout stops pg_sleep(10) after ~1 s, resets the DB and reports a reset', async () => {
    results(await engine.run('create table marker(a int)'));
    events.length = 0;
    const resetsBefore = engine.getState().resets;
    const started = performance.now();
    const result = await engine.run('select pg_sleep(10)', { timeoutMs: 1000 });
    const timedOutAfter = performance.now() - started;
    expect(result).to.deep.equal({ ok: false, kind: 'timeout', timeoutMs: 1000 });
    expect(timedOutAfter).to.be.within(950, 2000);
    expect(events.some((e) => e.type === 'reset' && e.reason === 'timeout')).to.equal(true);
    expect(engine.getState().resets).to.equal(resetsBefore + 1);
    expect(engine.getState().lastReset?.reason).to.equal('timeout');
    expect(engine.state).to.equal('loading');

    await waitForState(engine, 'ready');
    const restartMs = performance.now() - started - timedOutAfter;
    console.log(`[sql] timeout after ${Math.round(timedOutAfter)} ms, restart ${Math.round(restartMs)} ms`);
    expect(restartMs).to.be.below(3000);

    const [check] = results(await engine.run("select to_regclass('marker') is null as fresh"));
    expect(check.rows).to.deep.equal([{ fresh: true }]);
  });

  it('[SQL-6] a run issued during the restart waits for the fresh engine', async () => {
    const timedOut = await engine.run('select pg_sleep(10)', { timeoutMs: 1000 });
    expect(timedOut.kind).to.equal('timeout');
    expect(engine.state).to.equal('loading');
    const [statement] = results(await engine.run('select 2 as two', { timeoutMs: 1000 }));
    expect(statement.rows).to.deep.equal([{ two: 2 }]);
  });

  it('[SQL-6] reset() cancels a running query and empties the database', async () => {
    results(await engine.run('create table kept(a int)'));
    const run = engine.run('select pg_sleep(10)');
    const reset = engine.reset();
    expect(await run).to.deep.equal({ ok: false, kind: 'cancelled' });
    await reset;
    expect(engine.state).to.equal('ready');
    expect(engine.getState().lastReset?.reason).to.equal('explicit');
    const [check] = results(await engine.run("select to_regclass('kept') is null as fresh"));
    expect(check.rows).to.deep.equal([{ fresh: true }]);
  });

  it('[SQL-3] a load failure rejects load() and run(), state failed with the reason', async () => {
    const broken = new SqlEngine({ engineUrl: '/dist/site/sql/missing/' });
    let error: unknown;
    await broken.load().catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('/dist/site/sql/missing/');
    expect(broken.state).to.equal('failed');
    expect(broken.getState().loadError).to.contain('HTTP 404');
    error = undefined;
    await broken.run('select 1').catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect(broken.state).to.equal('failed');
    broken.dispose();
  });
});
