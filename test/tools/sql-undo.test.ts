// The undo step of sql_run_query (UNDO-1, UNDO-2, UNDO-4) over the real PGlite: the journal of
// the engine's worker (playground/sql/engine/journal.ts) and the page's engine swap. Build the
// engine first: `node esbuild.config.mjs sql` (dist/site/sql/engine/).
import { expect } from '@open-wc/testing';
import { compileOperation, runCall } from '../../src/pipeline.js';
import type { UndoStep } from '../../src/definition.js';
import type { DataFiles, FilesReply, FromWorker, InitMessage, RestoreReply, RunReply } from '../../playground/sql/engine/protocol.js';
import { SqlEngine } from '../../playground/sql/engine/sql-engine.js';
import { createSqlPage, SQL_UNDO_TARGET } from '../../playground/sql/sql-page.js';
import type { SavedSql } from '../../playground/sql/storage.js';
import { createSqlOperations } from '../../tools/sql/operations.js';

const engineUrl = '/dist/site/sql/engine/';
const TEN_THOUSAND = `create table items (id int primary key, name text not null, price int);
  insert into items select g, 'item ' || g, g % 1000 from generate_series(1, 10000) g;`;

// ---------------------------------------------------------------------------------------------
// The engine's worker (dist/site/sql/engine/worker.js) driven through its protocol: the files
// of the data directory, byte for byte.

/** The assets SqlEngine hands a worker, fetched the same way. */
async function workerAssets() {
  const fetchBytes = async (name: string) => new Uint8Array(await (await fetch(`${engineUrl}${name}`)).arrayBuffer());
  const gunzip = async (bytes: Uint8Array<ArrayBuffer>) => new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).blob();
  const [pgliteWasmModule, initdbWasmModule, fsBundle, dataDir] = await Promise.all([
    fetchBytes('pglite.wasm').then((b) => WebAssembly.compile(b)),
    fetchBytes('initdb.wasm').then((b) => WebAssembly.compile(b)),
    fetchBytes('pglite.data.gz').then(gunzip),
    fetchBytes('pgdata.tar.gz').then((b) => new Blob([b], { type: 'application/x-gzip' })),
  ]);
  return { pgliteWasmModule, initdbWasmModule, fsBundle, dataDir };
}

/** Resolves once the page has read its saved SQL (or found none): at once, or at the change that says so. */
function pageLoaded(page: ReturnType<typeof createSqlPage>): Promise<void> {
  return new Promise((resolve) => {
    if (page.store.getState().loaded) return resolve();
    const stop = page.store.subscribe(() => {
      if (!page.store.getState().loaded) return;
      stop();
      resolve();
    });
  });
}

type Files = Map<string, Uint8Array | null>;

/** A worker of the engine and a request/answer function over its protocol. */
async function startWorker(init: Omit<InitMessage, 'type'>) {
  const worker = new Worker(`${engineUrl}worker.js`, { type: 'module' });
  let nextId = 1;
  const waiting = new Map<number, (message: FromWorker) => void>();
  let ready!: (message: FromWorker) => void;
  const started = new Promise<FromWorker>((resolve) => (ready = resolve));
  worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
    const message = event.data;
    if (message.type === 'ready' || message.type === 'init-failed') ready(message);
    else waiting.get(message.id)?.(message);
  });
  worker.postMessage({ type: 'init', ...init } satisfies InitMessage);
  const up = await started;
  if (up.type !== 'ready') throw new Error(`the worker did not start: ${JSON.stringify(up)}`);
  const ask = <T extends FromWorker>(message: Record<string, unknown>) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      waiting.set(id, (answer) => resolve(answer as T));
      worker.postMessage({ ...message, id });
    });
  return {
    worker,
    run: async (sql: string) => {
      const reply = await ask<RunReply>({ type: 'run', sql });
      if (!reply.ok) throw new Error(`run failed: ${JSON.stringify(reply)}`);
      return reply;
    },
    files: async (): Promise<Files> => entriesOf((await ask<FilesReply>({ type: 'files' })).files),
    restore: async (segment: number) => {
      const reply = await ask<RestoreReply>({ type: 'restore', segment });
      if (!reply.ok) throw new Error(reply.message);
      return reply;
    },
  };
}

/** The entries of a worker's files answer, by path. */
const entriesOf = (files: DataFiles): Files => new Map(Object.entries(files.entries));

/** The paths whose kind or bytes differ. */
function differences(before: Files, after: Files): string[] {
  const out: string[] = [];
  for (const [path, bytes] of before) {
    const now = after.get(path);
    if (now === undefined) out.push(`missing ${path}`);
    else if (bytes === null || now === null) {
      if (bytes !== now) out.push(`kind ${path}`);
    } else if (bytes.length !== now.length || bytes.some((b, i) => b !== now[i])) out.push(`bytes ${path}`);
  }
  for (const path of after.keys()) if (!before.has(path)) out.push(`extra ${path}`);
  return out;
}

describe('the SQL undo journal in the engine worker (the data directory, byte for byte)', function () {
  this.timeout(120000);

  it('[UNDO-1] update, delete, drop, create, index, truncate, checkpoint, then restore: the files handed to the new engine are byte-identical to the data directory just before the call', async () => {
    const assets = await workerAssets();
    const first = await startWorker(assets);
    try {
      await first.run(TEN_THOUSAND);
      const before = await first.files();
      const call = await first.run(`update items set price = price + 1; delete from items where id < 100; drop table items;
        create table other (a serial primary key, b text); insert into other (b) select 'x' from generate_series(1, 500);
        create index on other (b); truncate other; checkpoint;`);
      // A call that failed or handed no step fails here, never returns early as if it passed.
      if (!call.ok || !call.undo) throw new Error(`the call handed no undo step: ${JSON.stringify(call)}`);
      expect(differences(before, await first.files()).length, 'the call changed files').to.be.greaterThan(0);
      const restored = await first.restore(call.undo.segment);
      expect(differences(before, entriesOf(restored.files))).to.deep.equal([]);
    } finally {
      first.worker.terminate();
    }
  });

  it('[UNDO-4] a read that writes files (a sort spilled to temporary files) hands no step; a write with synchronous_commit off still hands one', async () => {
    const worker = await startWorker(await workerAssets());
    try {
      await worker.run(TEN_THOUSAND);
      // The run's own plan says its sort went to disk: the window saw files made and removed.
      const spilled = await worker.run("set work_mem = '64kB'; explain (analyze, costs off, timing off) select g from generate_series(1, 200000) g order by g desc");
      expect(JSON.stringify(spilled.results.at(-1)!.rows)).to.match(/external (merge|sort)/);
      expect([spilled.changed, spilled.undo]).to.deep.equal([false, null]);
      // Asynchronous commit: the commit record stays in memory, the files as they were; the id still tells.
      const off = await worker.run('set synchronous_commit = off');
      expect([off.changed, off.undo]).to.deep.equal([false, null]);
      const write = await worker.run('update items set price = 0 where id = 1');
      expect(write.changed).to.equal(true);
      expect(write.undo).to.not.equal(null);
      const read = await worker.run('select count(*) from items');
      expect([read.changed, read.undo]).to.deep.equal([false, null]);
    } finally {
      worker.worker.terminate();
    }
  });

  it('[UNDO-1] windows carried into the restored engine stay exact: going back past a restore gives the older files byte for byte', async () => {
    const assets = await workerAssets();
    const first = await startWorker(assets);
    await first.run(TEN_THOUSAND);
    const atSecond = await first.files();
    const second = await first.run('update items set price = 0 where id % 2 = 0');
    const third = await first.run('drop table items');
    if (!second.ok || !second.undo || !third.ok || !third.undo) throw new Error('no undo kept');
    const restored = await first.restore(third.undo.segment);
    first.worker.terminate();
    expect(restored.segments.map((s) => s.id)).to.include(second.undo.segment);
    // The restored engine starts (its recovery writes files) with the older windows carried over.
    const next = await startWorker({ ...assets, files: restored.files, segments: restored.segments });
    try {
      const zeros = await next.run('select count(*)::int from items where price = 0');
      expect(zeros.ok && zeros.results[0].rows[0][0]).to.equal(5000);
      await next.run("insert into items values (-1, 'later', 1)");
      const back = await next.restore(second.undo.segment);
      expect(differences(atSecond, entriesOf(back.files))).to.deep.equal([]);
    } finally {
      next.worker.terminate();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The step sql_run_query hands to the log, over the page's real engine (PGlite in its worker).

/** Everything a user can see of the database: schema, indexes, constraints, sequences, every table's rows. */
async function describeDatabase(run: (sql: string) => Promise<unknown[][]>): Promise<string> {
  const tables = (await run("select table_name from information_schema.tables where table_schema = 'public' order by 1")).map((row) => String(row[0]));
  const parts: unknown[] = [
    await run("select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = 'public' order by 1, ordinal_position"),
    await run("select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1"),
    await run("select conname, pg_get_constraintdef(oid) from pg_constraint where connamespace = 'public'::regnamespace order by 1"),
    await run("select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1"),
  ];
  for (const table of tables) parts.push(table, await run(`select count(*), md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from "${table}" t`));
  return JSON.stringify(parts);
}

describe('sql_run_query undo steps (the SQL page over the real engine)', function () {
  this.timeout(120000);

  const engine = new SqlEngine({ engineUrl });
  const saved = new Map<string, SavedSql>();
  const page = createSqlPage({
    embedId: 'undo-test',
    engine,
    storage: { load: async (id) => saved.get(id), save: async (record) => void saved.set(record.id, record) },
  });
  const operation = compileOperation(createSqlOperations(page.adapter).find((d) => d.name === 'sql_run_query')!);
  const hooks = { isEnabled: () => true, skipsConfirmation: () => true, confirm: async () => null };
  /** One agent call through the runtime's call path: its envelope and its step. */
  const agent = async (sql: string) => {
    const { json, undo } = await runCall(operation, { sql }, hooks);
    return { result: JSON.parse(json) as { ok: boolean; error?: { code: string; message: string } }, undo };
  };
  /** The user's own run (the Run button's function): rows of the last statement. */
  const user = async (sql: string): Promise<unknown[][]> => {
    const outcome = await page.run(sql, { by: 'user' });
    if (outcome.kind !== 'results') throw new Error(`the user's run failed: ${JSON.stringify(outcome)}`);
    return outcome.results.at(-1)!.rows;
  };
  const describe_ = () => describeDatabase(user);

  before(async () => {
    await pageLoaded(page);
    await engine.load();
    await user(TEN_THOUSAND);
  });
  after(() => engine.dispose());

  it('[UNDO-1] an insert, an update and a drop table each hand a sql:database step; undoing it puts every table\'s rows and the schema back as they were', async () => {
    for (const sql of [
      "insert into items select g, 'new ' || g, 1 from generate_series(10001, 10500) g",
      'update items set price = price * 2 where id <= 5000',
      'drop table items',
    ]) {
      const before = await describe_();
      const { result, undo } = await agent(sql);
      expect(result.ok, sql).to.equal(true);
      expect(undo, sql).to.not.equal(null);
      expect(undo!.targets).to.deep.equal([SQL_UNDO_TARGET]);
      expect(undo!.bytes).to.be.greaterThan(0);
      expect(await describe_(), `${sql} changed the database`).to.not.equal(before);
      expect(await undo!.changedSince!()).to.equal(false);
      const started = performance.now();
      await undo!.undo();
      console.log(`[sql undo] ${sql.split(' ').slice(0, 2).join(' ')}: step ${(undo!.bytes / 1024).toFixed(0)} KB, undo ${Math.round(performance.now() - started)} ms`);
      expect(await describe_(), `undo of ${sql}`).to.equal(before);
    }
  });

  it('[UNDO-1] a step is a fraction of the 41 MB dumpDataDir: an update of 10,000 rows keeps under 8 MB', async () => {
    const { undo } = await agent('update items set name = name || \'!\'');
    expect(undo!.bytes).to.be.below(8 * 1024 * 1024);
    await undo!.undo();
  });

  it('[UNDO-2] two steps undone newest first each give the database of their own call; the older stays undoable after the newer was undone', async () => {
    const atFirst = await describe_();
    const first = (await agent('delete from items where id > 9000')).undo!;
    const atSecond = await describe_();
    const second = (await agent("create table notes (id serial primary key, body text); insert into notes (body) values ('a'), ('b')")).undo!;
    expect(await first.changedSince!()).to.equal(true);
    expect(await second.changedSince!()).to.equal(false);
    await second.undo();
    expect(await describe_()).to.equal(atSecond);
    // The database is again what the first call left: nothing changed since it, as far as it knows.
    expect(await first.changedSince!()).to.equal(false);
    // The swap replaced the worker; the older window came along.
    await first.undo();
    expect(await describe_()).to.equal(atFirst);
  });

  it("[UNDO-2] changedSince is true after the user's own run changed the database, false after one that only read", async () => {
    const { undo } = await agent('update items set price = 1 where id = 1');
    await user('select count(*) from items');
    expect(await undo!.changedSince!()).to.equal(false);
    await user('update items set price = 2 where id = 2');
    expect(await undo!.changedSince!()).to.equal(true);
    await undo!.undo();
    expect((await user('select price from items where id in (1, 2) order by id')).map((r) => r[0])).to.deep.equal([1, 2]);
  });

  it('[UNDO-4] a select, a query failing halfway, one failing at COMMIT, a refused BEGIN and a delete that matched nothing hand no step, and change nothing', async () => {
    await user('create table if not exists deferred (a int unique deferrable initially deferred)');
    const cases: [string, boolean][] = [
      ['select count(*) from items', true],
      ["insert into items values (-5, 'x', 1); select 1/0", false],
      // The unique check waits for COMMIT, which fails: rolled back there.
      ['insert into deferred values (1), (1)', false],
      ['begin; delete from items', false],
      ['delete from items where false', true],
    ];
    const before = await describe_();
    for (const [sql, ok] of cases) {
      const { result, undo } = await agent(sql);
      expect(result.ok, sql).to.equal(ok);
      expect(undo, sql).to.equal(null);
    }
    expect(await describe_()).to.equal(before);
  });

  it('[UNDO-4] after the DB was reset to its initial state the step says its before-state is gone, and changes nothing', async () => {
    const { undo } = await agent("insert into items values (-7, 'x', 1)");
    await page.resetDatabase();
    expect(await undo!.changedSince!()).to.equal(true);
    let error: unknown;
    await (undo as UndoStep).undo().catch((e: unknown) => (error = e));
    expect(String(error)).to.include('reset to its initial state');
    expect(await user("select count(*) from information_schema.tables where table_schema = 'public'")).to.deep.equal([[0]]);
  });
});

describe('sql_run_query undo within the budget (UNDO-4)', function () {
  this.timeout(120000);

  // A budget of 512 KB: an update of 10,000 rows replaces more than that.
  const engine = new SqlEngine({ engineUrl, undoLimitBytes: 512 * 1024 });
  const page = createSqlPage({ embedId: 'undo-budget', engine, storage: { load: async () => undefined, save: async () => {} } });
  const operation = compileOperation(createSqlOperations(page.adapter).find((d) => d.name === 'sql_run_query')!);
  const hooks = { isEnabled: () => true, skipsConfirmation: () => true, confirm: async () => null };
  const agent = async (sql: string) => {
    const { json, undo } = await runCall(operation, { sql }, hooks);
    return { result: JSON.parse(json) as { ok: boolean; undoNote?: string }, undo };
  };

  before(async () => {
    await pageLoaded(page);
    await page.run(TEN_THOUSAND, { by: 'user' });
  });
  after(() => engine.dispose());

  it('[UNDO-4] a change larger than the budget by itself hands no step and says so in its answer; an earlier step then says its before-state is gone', async () => {
    const small = await agent("insert into items values (-1, 'small', 1)");
    expect(small.undo).to.not.equal(null);
    expect(small.result.undoNote).to.equal(undefined);
    const large = await agent("update items set name = name || ' and more'");
    expect(large.result.ok).to.equal(true);
    expect(large.undo).to.equal(null);
    expect(large.result.undoNote).to.match(/^this change replaced [\d.]+ MB of the database, more than the 0\.5 MB kept to undo changes: it cannot be undone/);
    let error: unknown;
    await small.undo!.undo().catch((e: unknown) => (error = e));
    expect(String(error)).to.include('no longer kept');
    const rows = await page.run("select name from items where id in (-1, 1) order by id", { by: 'user' });
    expect(rows.kind === 'results' && rows.results[0].rows).to.deep.equal([['small and more'], ['item 1 and more']]);
  });
});
