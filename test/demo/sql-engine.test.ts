// SqlEngine against the real engine: PGlite in the worker built by playground/sql/build.mjs into
// dist/site/sql/engine/ (build first: `node esbuild.config.mjs sql`).
import { expect } from '@open-wc/testing';
import { AI_CANCEL_NOTICE, createSqlPage } from '../../playground/sql/sql-page.js';
import type { SavedSql } from '../../playground/sql/storage.js';
import { createSqlOperations } from '../../tools/sql/operations.js';
import { caller } from '../helpers/tools-call.js';
import { storeReaches } from '../runtime/helpers.js';
import {
  SqlEngine,
  SqlEngineBusyError,
  type SqlEngineEvent,
  type SqlEngineState,
  type SqlRunResult,
  type StatementResult,
} from '../../playground/sql/engine/sql-engine.js';

const engineUrl = '/dist/site/sql/engine/';

function results(result: SqlRunResult): StatementResult[] {
  if (result.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(result)}`);
  return result.results;
}

/**
 * A query that never ends by itself (a count over a series as long as bigint allows, streamed row
 * by row, so its memory stays flat): only a timeout, an abort or a reset can end its run. Where a
 * test only needs the engine busy until it stops it, this says so; a query that sleeps for some
 * seconds would also end by itself if the test were slow enough.
 */
const ENDLESS = 'select count(*) from (select generate_series(1, 9223372036854775807)) as endless';


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
    expect(results(result)[0].rows).to.deep.equal([[1]]);
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
    expect(statements[3].rows).to.deep.equal([[1], [12], [13]]);
    expect(statements[1].rows).to.deep.equal([]);
    expect(result.kind === 'results' && result.ms).to.be.a('number');
  });

  it('[SQL-4] 1,000 rows from generate_series come back whole', async () => {
    const [statement] = results(await engine.run('select g from generate_series(1, 1000) as g'));
    expect(statement.rows).to.have.length(1000);
    expect(statement.rows[0]).to.deep.equal([1]);
    expect(statement.rows[999]).to.deep.equal([1000]);
    expect(statement.totalRows).to.equal(1000);
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
    expect(check.rows).to.deep.equal([[true]]);
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
    // Not before its timeoutMs, and long before pg_sleep's 10 s (how late: bench 30).
    expect(timedOutAfter).to.be.within(950, 9000);
    expect(events.some((e) => e.type === 'reset' && e.reason === 'timeout')).to.equal(true);
    expect(engine.getState().resets).to.equal(resetsBefore + 1);
    expect(engine.getState().lastReset?.reason).to.equal('timeout');
    expect(engine.state).to.equal('loading');

    await waitForState(engine, 'ready');
    const restartMs = performance.now() - started - timedOutAfter;
    console.log(`[sql] timeout after ${Math.round(timedOutAfter)} ms, restart ${Math.round(restartMs)} ms`);
    // The restart's budget (3 s) is bench 30's; a worker that never comes back misses this.
    expect(restartMs).to.be.below(20_000);

    const [check] = results(await engine.run("select to_regclass('marker') is null as fresh"));
    expect(check.rows).to.deep.equal([[true]]);
  });

  it('[SQL-6] a run issued during the restart waits for the fresh engine', async () => {
    const timedOut = await engine.run(ENDLESS, { timeoutMs: 1000 });
    expect(timedOut.kind).to.equal('timeout');
    expect(engine.state).to.equal('loading');
    const [statement] = results(await engine.run('select 2 as two', { timeoutMs: 1000 }));
    expect(statement.rows).to.deep.equal([[2]]);
  });

  it('[SQL-6] reset() cancels a running query and empties the database', async () => {
    results(await engine.run('create table kept(a int)'));
    const run = engine.run(ENDLESS);
    expect(engine.state).to.equal('running');
    const reset = engine.reset();
    expect(await run).to.deep.equal({ ok: false, kind: 'cancelled' });
    await reset;
    expect(engine.state).to.equal('ready');
    expect(engine.getState().lastReset?.reason).to.equal('explicit');
    const [check] = results(await engine.run("select to_regclass('kept') is null as fresh"));
    expect(check.rows).to.deep.equal([[true]]);
  });

  const tableGone = async (name: string) => {
    const [check] = results(await engine.run(`select to_regclass('${name}') is null as gone`));
    return check.rows[0][0];
  };

  // Each text makes a table, then ends the call's transaction its own way, then fails.
  const escapes: [string, string][] = [
    ['COMMIT', 'create table t8(a int); insert into t8 values(1); commit; select 1/0;'],
    ['END', 'create table t8(a int); END; select 1/0'],
    ['ROLLBACK, then COMMIT', 'select 1; rollback; create table t8(a int); commit; select 1/0'],
    ['BEGIN … COMMIT', 'begin; create table t8(a int); commit; select 1/0'],
    ['SAVEPOINT and RELEASE', 'create table t8(a int); savepoint s; release savepoint s; commit; select 1/0'],
    ['START TRANSACTION', 'start transaction; create table t8(a int); commit; select 1/0'],
    ['ABORT, then END', 'select 1; abort; create table t8(a int); end; select 1/0'],
    ['PREPARE TRANSACTION', "create table t8(a int); prepare transaction 'p8'; select 1/0"],
    ['mixed case after comments', 'create table t8(a int); /* a comment */ -- another\n  CoMmIt ; select 1/0'],
    ['after a doubled quote', "create table t8(a int); select 'it''s'; commit; select 1/0"],
    ['after a dollar-quoted ;', 'create table t8(a int); select $q$ ; $q$; commit; select 1/0'],
    ['after a function named begin', 'create table t8(a int); create function begin() returns int language sql return 1; commit; select 1/0'],
    ['after a column named begin aliased atomic', 'create table t8(begin int); select begin atomic from t8; commit; select 1/0'],
    ['after a BEGIN ATOMIC function body', 'create table t8(a int); create function f8() returns int language sql begin atomic select case when true then 1 end; end; commit; select 1/0'],
  ];
  for (const [label, sql] of escapes) {
    it(`[SQL-8] transaction control (${label}) cannot make part of a failing run stick`, async () => {
      const result = await engine.run(sql);
      expect(result.ok, JSON.stringify(result)).to.equal(false);
      expect(await tableGone('t8')).to.equal(true);
    });
  }

  it('[SQL-8] with standard_conforming_strings off (set by an earlier run), a COMMIT after a backslash-quoted string is still caught', async () => {
    results(await engine.run('set standard_conforming_strings = off'));
    try {
      const result = await engine.run("create table t8(a int); select 'a\\''; commit; select 1/0");
      expect(result.ok, JSON.stringify(result)).to.equal(false);
      expect(await tableGone('t8')).to.equal(true);
    } finally {
      results(await engine.run('set standard_conforming_strings = on'));
    }
  });

  it('[SQL-8] a refused run names the statement and its 1-based position, and runs nothing', async () => {
    const sql = 'create table t8(a int);\n  commit';
    const result = await engine.run(sql);
    if (result.kind !== 'refused') throw new Error(`expected refused, got ${JSON.stringify(result)}`);
    expect(result.error.statement).to.equal('COMMIT');
    expect(result.error.position).to.equal(sql.indexOf('commit') + 1);
    expect(result.error?.message).to.contain('COMMIT');
    expect(await tableGone('t8')).to.equal(true);
  });

  it('[SQL-8] the words inside strings, comments, dollar quotes, quoted names and function bodies are not refused', async () => {
    const [first, , , , , , , , , last] = results(
      await engine.run(
        `select 'commit; rollback' as s, E'it\\'s; commit' as e, $$ begin; end $$ as d, $tag$ commit; $tag$ as t, 1 as "commit";
         -- commit;
         /* outer /* rollback; */ commit; */
         select case when true then 'end' end as c;
         do $$ begin perform 1; end $$;
         create function f8ok() returns int language sql begin atomic select case when true then 1 end; end;
         select f8ok() as f;
         prepare p8 as select 1 as p; execute p8; deallocate p8;
         select a$b from (select 2 as a$b) as x; drop function f8ok()`,
      ),
    );
    expect(first.rows).to.deep.equal([['commit; rollback', "it's; commit", ' begin; end ', ' commit; ', 1]]);
    expect(last.command).to.equal('DROP');
  });

  it('[SQL-7] a join with id in both tables keeps every value: rows are arrays in the order of fields', async () => {
    const statements = results(
      await engine.run(
        `create table a7(id int, name text); create table b7(id int, a_id int);
         insert into a7 values (1, 'one'); insert into b7 values (10, 1);
         select * from a7 join b7 on b7.a_id = a7.id;
         drop table a7, b7`,
      ),
    );
    expect(statements[4].fields.map((f) => f.name)).to.deep.equal(['id', 'name', 'id', 'a_id']);
    expect(statements[4].rows).to.deep.equal([[1, 'one', 10, 1]]);
  });

  it('[SQL-9] with maxRows 200 the worker sends 200 rows of 100,000 and the full count', async () => {
    const [statement] = results(await engine.run('select generate_series(1, 100000)', { maxRows: 200 }));
    expect(statement.rows).to.have.length(200);
    expect(statement.rows[199]).to.deep.equal([200]);
    expect(statement.totalRows).to.equal(100000);
  });

  it('[SQL-9] [SQL-4] each statement is cut on its own: its first maxRows rows parsed by their types, its full count, empty statements skipped', async () => {
    const statements = results(
      await engine.run(
        `create table cut9(a int8, d date, b bytea, arr int[], j jsonb, t text);
         insert into cut9 select 9000000000000000000 + g, date '2024-01-01' + g, '\\xdead'::bytea, array[g, g + 1], jsonb_build_object('g', g), null from generate_series(1, 5) g;;
         select * from cut9 order by a;
         select g from generate_series(1, 300) g;
         ;
         select 1 as one where false;
         drop table cut9`,
        { maxRows: 3 },
      ),
    );
    expect(statements.map((s) => s.command)).to.deep.equal(['CREATE', 'INSERT', 'SELECT', 'SELECT', 'SELECT', 'DROP']);
    expect(statements.map((s) => s.totalRows)).to.deep.equal([0, 0, 5, 300, 0, 0]);
    expect(statements.map((s) => s.affectedRows)).to.deep.equal([0, 5, 0, 0, 0, 0]);
    expect(statements[2].fields.map((f) => f.name)).to.deep.equal(['a', 'd', 'b', 'arr', 'j', 't']);
    expect(statements[2].rows).to.deep.equal([
      ['9000000000000000001', '2024-01-02T00:00:00.000Z', '\\xdead', [1, 2], { g: 1 }, null],
      ['9000000000000000002', '2024-01-03T00:00:00.000Z', '\\xdead', [2, 3], { g: 2 }, null],
      ['9000000000000000003', '2024-01-04T00:00:00.000Z', '\\xdead', [3, 4], { g: 3 }, null],
    ]);
    expect(statements[3].rows).to.deep.equal([[1], [2], [3]]);
    expect(statements[4].rows).to.deep.equal([]);
    expect(statements[4].fields).to.deep.equal([{ name: 'one', dataTypeID: 23 }]);
  });

  it('[SQL-9] [SQL-5] an error after rows past the cut still rolls the run back with its sqlState and position', async () => {
    const sql = 'create table cut5(a int); select g from generate_series(1, 1000) g; select 1/0';
    const result = await engine.run(sql, { maxRows: 10 });
    expect(result.kind, JSON.stringify(result)).to.equal('error');
    if (result.kind !== 'error') return;
    expect(result.error.sqlState).to.equal('22012');
    const [missing] = results(await engine.run("select count(*)::int as n from pg_class where relname = 'cut5'"));
    expect(missing.rows).to.deep.equal([[0]]);
  });

  it('[NAT-2] aborting the signal during pg_sleep(10) stops the run, resets the DB and reports a reset', async () => {
    results(await engine.run('create table marker2(a int)'));
    events.length = 0;
    const controller = new AbortController();
    const started = performance.now();
    const run = engine.run('select pg_sleep(10)', { signal: controller.signal });
    // During the run: the engine has handed it to its worker.
    await waitForState(engine, 'running');
    controller.abort();
    const result = await run;
    expect(result).to.deep.equal({ ok: false, kind: 'aborted', reset: true });
    expect(performance.now() - started).to.be.below(2000);
    expect(events.some((e) => e.type === 'reset' && e.reason === 'aborted')).to.equal(true);
    expect(engine.getState().lastReset?.reason).to.equal('aborted');
    expect(await tableGone('marker2')).to.equal(true);
  });

  it('[NAT-2] an already aborted signal runs nothing and resets nothing', async () => {
    results(await engine.run('create table kept2(a int)'));
    const resets = engine.getState().resets;
    const controller = new AbortController();
    controller.abort();
    expect(await engine.run('drop table kept2', { signal: controller.signal })).to.deep.equal({ ok: false, kind: 'aborted', reset: false });
    expect(engine.getState().resets).to.equal(resets);
    expect(engine.state).to.equal('ready');
    expect(await tableGone('kept2')).to.equal(false);
    results(await engine.run('drop table kept2'));
  });

  it('[NAT-2] a signal aborted while the engine loads answers at once, runs nothing, and the load goes on for the next run', async () => {
    const cold = new SqlEngine({ engineUrl });
    try {
      const controller = new AbortController();
      const run = cold.run('create table never(a int)', { signal: controller.signal });
      expect(cold.state).to.equal('loading');
      controller.abort();
      expect(await run).to.deep.equal({ ok: false, kind: 'aborted', reset: false });
      expect(cold.state).to.equal('loading');
      await cold.load();
      const [check] = results(await cold.run("select to_regclass('never') is null as gone"));
      expect(check.rows).to.deep.equal([[true]]);
      expect(cold.getState().resets).to.equal(0);
    } finally {
      cold.dispose();
    }
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

describe('the SQL page over the real engine (sql_run_query and the page run function)', function () {
  this.timeout(120000);

  const engine = new SqlEngine({ engineUrl });
  const saved = new Map<string, SavedSql>();
  // In-memory storage: IndexedDB is the storage module's own concern; here the runs matter.
  const page = createSqlPage({
    embedId: 'engine-test',
    engine,
    storage: { load: async (id) => saved.get(id), save: async (record) => void saved.set(record.id, record) },
  });
  const call = caller(createSqlOperations(page.adapter));
  /** Resolves once the agent's run holds the engine; fails at once when the call answered without running. */
  const untilAgentRuns = async (running: Promise<unknown>) => {
    let answered = false;
    // The page marks the agent's run before it hands the SQL to the engine; a call that answers
    // without running never does, and its answer ends the wait instead.
    await Promise.race([storeReaches(page.store, (state) => state.runningBy === 'agent'), running.then(() => void (answered = true))]);
    expect(answered, 'the call answered before its SQL ran').to.equal(false);
  };

  before(async () => {
    await storeReaches(page.store, (state) => state.loaded);
    await engine.load();
  });
  after(() => engine.dispose());

  it('[SQL-7] sql_run_query answers a join with id in both tables as arrays aligned with fields, both ids kept', async () => {
    const { result } = await call('sql_run_query', {
      sql: "select * from (values (1, 'one')) as a(id, name) join (values (10, 1)) as b(id, a_id) on b.a_id = a.id",
    });
    expect(result.ok, JSON.stringify(result)).to.equal(true);
    expect(result.results[0].fields.map((f: { name: string }) => f.name)).to.deep.equal(['id', 'name', 'id', 'a_id']);
    expect(result.results[0].rows).to.deep.equal([[1, 'one', 10, 1]]);
  });

  it('[SQL-9] sql_run_query over generate_series(1, 3000000): 200 rows, totalRows and truncated, in time, the page never blocked 100 ms', async () => {
    const entries: PerformanceEntry[] = [];
    // A deliberate 150 ms task after the call: the observer must report it, which proves it sees
    // long tasks here at all, and since entries arrive in order, every earlier one has arrived too.
    let probeAt = Infinity;
    let probeSeen!: () => void;
    const probeReported = new Promise<void>((resolve) => (probeSeen = resolve));
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        entries.push(entry);
        // The entry that covers the probe (its times are coarsened: its start can read a few tenths
        // of a millisecond after the probe's own clock reading).
        const overlap = Math.min(entry.startTime + entry.duration, probeAt + 150) - Math.max(entry.startTime, probeAt);
        if (overlap >= 140) probeSeen();
      }
    });
    observer.observe({ type: 'longtask' });
    const started = performance.now();
    const { result } = await call('sql_run_query', { sql: 'select generate_series(1, 3000000)', timeoutMs: 30000 });
    const ms = performance.now() - started;
    await new Promise<void>((resolve) => setTimeout(() => {
      probeAt = performance.now();
      while (performance.now() < probeAt + 150) { /* the deliberate long task */ }
      resolve();
    }, 0));
    await probeReported;
    observer.disconnect();
    const during = entries.filter((entry) => entry.startTime + entry.duration <= probeAt);
    const longest = Math.max(0, ...during.map((entry) => entry.duration));
    console.log(`[sql] sql_run_query of 3,000,000 rows: ${Math.round(ms)} ms; longest main-thread task ${Math.round(longest)} ms (the 150 ms probe was seen)`);
    expect(result.ok, JSON.stringify(result).slice(0, 300)).to.equal(true);
    const [statement] = result.results;
    expect(statement.rows).to.have.length(200);
    expect(statement.rows[0]).to.deep.equal([1]);
    expect(statement.totalRows).to.equal(3000000);
    expect(statement.truncated).to.equal(true);
    expect(ms).to.be.below(30000);
    // Responsive: bench 30 holds the 100 ms budget of the longest task (on shared cores a test's
    // time budget fails on load); rows crossing into the page would block it for seconds.
    expect(longest).to.be.below(1000);
  });

  it('[SQL-8] sql_run_query refuses a COMMIT with invalid_input and its position; the page\'s Run of it shows the refusal', async () => {
    const sql = 'create table p8(a int);\ncommit;\nselect 1/0';
    const { result } = await call('sql_run_query', { sql });
    expect(result).to.deep.include({ ok: false });
    expect(result.error?.code).to.equal('invalid_input');
    expect(result.error?.message).to.contain('COMMIT');
    expect(result.position).to.equal(sql.indexOf('commit') + 1);

    page.setSql(sql);
    const outcome = await page.runEditor();
    expect(outcome.kind).to.equal('refused');
    expect(page.store.getState().userRun?.outcome.kind).to.equal('refused');
    const { result: check } = await call('sql_run_query', { sql: "select to_regclass('p8') is null as gone" });
    expect(check.results[0].rows).to.deep.equal([[true]]);
  });

  it('[NAT-6] the user\'s reset during an agent run stops it and answers declined saying the user reset the DB', async () => {
    const running = call('sql_run_query', { sql: ENDLESS, timeoutMs: 30000 });
    await untilAgentRuns(running);
    await storeReaches(page.store, (state) => state.engine.state === 'running');
    await page.resetDatabase();
    const answer = (await running).result;
    expect(answer.ok).to.equal(false);
    expect(answer.error?.code).to.equal('declined');
    expect(answer.error?.message).to.contain('the user reset the DB');
    expect(engine.getState().lastReset?.reason).to.equal('explicit');
  });

  it('[NAT-6] [NAT-2] an agent run whose call is cancelled stops, answers declined, and the page says an AI operation reset the DB', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const running = call('sql_run_query', { sql: ENDLESS, timeoutMs: 30000 }, 'accept', { signal: controller.signal });
    await untilAgentRuns(running);
    await storeReaches(page.store, (state) => state.engine.state === 'running');
    controller.abort();
    const answer = (await running).result;
    expect(performance.now() - started).to.be.below(2000);
    expect(answer.ok).to.equal(false);
    expect(answer.error?.code).to.equal('declined');
    expect(answer.error?.message).to.contain('cancelled');
    expect(page.store.getState().notice).to.equal(AI_CANCEL_NOTICE);
    expect(page.store.getState().runningBy).to.equal(null);
    expect(engine.getState().lastReset?.reason).to.equal('aborted');
  });
});
