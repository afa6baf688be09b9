// Issue 19, sql_run_query's undo end to end (UNDO-1..UNDO-4): the /sql/ page with the real PGlite
// worker, an MCP SDK client calling through the real relay (bin/ai-ops-relay.mjs) like an agent,
// and the user's trusted clicks on the log row's 「元に戻す」 (Playwright's click). The database is
// read back through the relay before and after: every table's rows, the columns, the indexes
// and the constraints. Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, openToolPage,
  confirmDialog, logRows, showLog, renderedTwice, ensurePaired
} from './harness.mjs';

let demo, relay, browser, page;

const TEN_THOUSAND = `create table items (id int primary key, name text not null, price int);
  insert into items select g, 'item ' || g, g % 1000 from generate_series(1, 10000) g;
  create table tags (item int references items (id), tag text);
  insert into tags select g, 't' || (g % 7) from generate_series(1, 10000, 3) g`;

/** Everything of the database one read-only call sees: columns, indexes, constraints, every table's rows. */
const DESCRIBE = `select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = 'public' order by 1, ordinal_position;
  select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1;
  select conname, pg_get_constraintdef(oid) from pg_constraint where connamespace = 'public'::regnamespace order by 1;
  select table_name, md5(query_to_xml(format('select * from %I order by 1, 2', table_name), false, false, '')::text)
    from information_schema.tables where table_schema = 'public' order by 1`;

/** Calls until the engine is idle (not_ready while an undo swaps it). */
async function agent(args) {
  let last;
  await waitFor(async () => {
    last = await callRelay(relay.client, 'sql_run_query', args);
    return last.env?.error?.code !== 'not_ready';
  }, 30_000, 'sql_run_query to stop answering not_ready');
  return last;
}

/** The database as the agent reads it (a read: it hands no step). */
async function readDatabase() {
  const { env } = await agent({ sql: DESCRIBE });
  assert.equal(env?.ok, true, JSON.stringify(env));
  return JSON.stringify(env.results.map((r) => r.rows));
}

/** The log row of the newest call, once it shows `text` (the log renders a row after its call's answer). */
async function newestRow(text = '') {
  await showLog(page, 'sql');
  const rows = logRows(page, 'sql');
  await waitFor(async () => {
    const count = await rows.count();
    return count > 0 && (await rows.nth(count - 1).textContent()).includes(text);
  }, 10_000, `the newest log row to show ${text}`);
  return rows.nth((await rows.count()) - 1);
}

/** The user's trusted click on a row's 「元に戻す」. */
async function clickUndo(row) {
  const button = row.locator('[part="undo-button"]');
  assert.match((await button.getAttribute('aria-label')) ?? (await button.textContent()), /^元に戻す/);
  await button.click();
}

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  page = await openToolPage(browser.context, demo.origin, 'sql', '?id=e2e-undo');
  await clickSwitch(page, 'sql');
  // DOOR-6: the user pairs the page with their agent.
  await ensurePaired(page, relay.client, 'sql');
  await waitFor(async () => (await relayedNames(relay.client)).includes('sql_run_query'), 20_000, 'the sql operations through the relay');
  const { env } = await agent({ sql: TEN_THOUSAND, timeoutMs: 60_000 });
  assert.equal(env?.ok, true, JSON.stringify(env));
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[UNDO-4] a read-only query through the relay: its row has no 「元に戻す」', async () => {
  const { env } = await agent({ sql: 'select count(*) from items where price < 500' });
  assert.equal(env?.ok, true);
  const row = await newestRow('price < 500');
  assert.equal(await row.getAttribute('data-undo'), null);
  assert.equal(await row.locator('[part="undo-button"]').count(), 0);
});

test('[UNDO-1] [UNDO-3] an update, a delete and a drop table through the relay, each undone by the user\'s click on its row: the database reads back identical', { timeout: 180_000 }, async () => {
  for (const sql of ['update items set price = price * 2 where id <= 5000', 'delete from tags where tag = \'t3\'', 'drop table tags']) {
    const before = await readDatabase();
    const { env } = await agent({ sql });
    assert.equal(env?.ok, true, JSON.stringify(env));
    const row = await newestRow(sql.slice(0, 20));
    assert.equal(await row.getAttribute('data-undo'), 'available', sql);
    // The read is logged after it (a row of its own, with no step).
    assert.notEqual(await readDatabase(), before, `${sql} changed the database`);
    await clickUndo(row);
    await waitFor(async () => (await row.getAttribute('data-undo')) === 'undone', 15_000, `the row of ${sql} to read undone`);
    // The undo is the user's own row.
    assert.equal(await (await newestRow('"undo"')).getAttribute('data-by'), 'user');
    assert.equal(await readDatabase(), before, `the database after undoing ${sql}`);
  }
});

test('[UNDO-3] a script\'s click() on the button does nothing', async () => {
  const { env } = await agent({ sql: "insert into items values (-1, 'script', 1)" });
  assert.equal(env?.ok, true);
  const row = await newestRow("'script'");
  await row.locator('[part="undo-button"]').evaluate((button) => button.click());
  await renderedTwice(page);
  assert.equal(await row.getAttribute('data-undo'), 'available');
  const { env: read } = await agent({ sql: 'select name from items where id = -1' });
  assert.deepEqual(read.results[0].rows, [['script']]);
  await clickUndo(row);
  await waitFor(async () => (await row.getAttribute('data-undo')) === 'undone', 15_000, 'the row to read undone');
});

test('[UNDO-2] a later change of the database: the dialog says it goes too; やめる changes nothing; 元に戻す undoes both, newest first', { timeout: 120_000 }, async () => {
  const atFirst = await readDatabase();
  const deleted = await agent({ sql: 'delete from tags where item > 9000' });
  assert.equal(deleted.env?.ok, true, JSON.stringify(deleted.result));
  const firstRow = await newestRow('item > 9000');
  assert.equal((await agent({ sql: "create table notes (id serial primary key, body text); insert into notes (body) values ('a')" })).env?.ok, true);
  const secondRow = await newestRow('create table notes');
  const atSecond = await readDatabase();

  await clickUndo(firstRow);
  const dialog = confirmDialog(page);
  const approve = dialog.getByRole('button', { name: '元に戻す', exact: true });
  await approve.waitFor({ timeout: 15_000 });
  // The dialog says the later change goes too, naming it.
  assert.match(await dialog.locator('[part~="body"]').textContent(), /あとの変更も元に戻ります: sql_run_query \(\d\d:\d\d(:\d\d)?\)/);
  await dialog.getByRole('button', { name: 'やめる' }).click();
  await waitFor(async () => (await page.locator('ai-ops-confirm dialog[open]').count()) === 0, 5000, 'the dialog to close');
  assert.equal(await firstRow.getAttribute('data-undo'), 'available');
  assert.equal(await readDatabase(), atSecond, 'declining changed nothing');

  await clickUndo(firstRow);
  await approve.waitFor({ timeout: 15_000 });
  // SAFE-7: the action button takes pointer input once it stops being aria-disabled.
  await waitFor(async () => (await approve.getAttribute('aria-disabled')) !== 'true', 5000, 'the approve button to take input');
  await approve.click();
  await waitFor(async () => (await firstRow.getAttribute('data-undo')) === 'undone', 20_000, 'the first row to read undone');
  assert.equal(await secondRow.getAttribute('data-undo'), 'undone');
  assert.equal(await readDatabase(), atFirst);
});
