// The runner's part of the node page's undo (UNDO-1, UNDO-2): the kept files of the workspace, with
// their texts and version tokens, as the page takes them before an agent's command and compares
// after it; and the runner's kept-files cache (kept.mjs) that lets a command's undo cost what the
// command changed (issue 24). Run: node --test test/node/runner-undo.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rename, stat, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_MARKS, TRUST_MARGIN_MS, createKeptFiles } from '../../playground/node/server/kept.mjs';
import { MAX_FILE_BYTES, createWorkspace, listTree, fileVersions, previousText, removeEmptyDirectory, removeWorkspace, snapshotKept, textVersion } from '../../playground/node/server/workspace.mjs';

let ws;

before(async () => {
  ws = await createWorkspace({ files: { 'index.js': 'a\n', 'src/b.js': '\uFEFFb\r\n', 'node_modules/dep/index.js': 'dep', '.git/HEAD': 'ref' } });
  await writeFile(join(ws.workspace, 'bin.dat'), Buffer.from([0, 1, 2, 255]));
  await writeFile(join(ws.workspace, 'big.txt'), 'x'.repeat(MAX_FILE_BYTES + 1));
  await mkdir(join(ws.workspace, 'empty'));
});

after(() => removeWorkspace(ws.base));

describe('runner: the kept files for an undo', () => {
  it('[UNDO-1] snapshotKept lists the kept files only (no node_modules/, .git/, binary or over 1 MiB), with their exact texts and SHA-256 versions', async () => {
    const { files, truncated } = await snapshotKept(ws.workspace, { contents: true });
    assert.equal(truncated, false);
    assert.deepEqual(files.map((f) => f.path), ['index.js', 'src/b.js']);
    assert.equal(files[1].contents, '\uFEFFb\r\n', 'a leading BOM and CRLF survive');
    assert.equal(files[1].version, textVersion('\uFEFFb\r\n'));
    const bare = await snapshotKept(ws.workspace, { contents: false });
    assert.deepEqual(bare.files, files.map(({ path, version }) => ({ path, version })));
  });

  it('[UNDO-4] a snapshot past its byte bound says truncated (the page then keeps no step)', async () => {
    const { truncated } = await snapshotKept(ws.workspace, { contents: true, maxBytes: 3 });
    assert.equal(truncated, true);
  });

  it('[UNDO-2] fileVersions: the same token as the snapshot, a new one after a change, null for no kept file', async () => {
    const [index, missing, binary, dir] = await fileVersions(ws.workspace, ['index.js', 'nope.js', 'bin.dat', 'empty']);
    assert.equal(index, textVersion('a\n'));
    assert.deepEqual([missing, binary, dir], [null, null, null]);
    await writeFile(join(ws.workspace, 'index.js'), 'b\n');
    assert.notEqual((await fileVersions(ws.workspace, ['index.js']))[0], index);
    await assert.rejects(fileVersions(ws.workspace, ['../outside']), (error) => error.code === 'invalid_path');
  });

  it('[UNDO-1] removeEmptyDirectory removes an empty directory only: one with a file, a file, a missing path are left (false)', async () => {
    await mkdir(join(ws.workspace, 'made/deep'), { recursive: true });
    assert.equal(await removeEmptyDirectory(ws.workspace, 'made'), false, 'not empty');
    assert.equal(await removeEmptyDirectory(ws.workspace, 'made/deep'), true);
    assert.equal(await removeEmptyDirectory(ws.workspace, 'made'), true);
    assert.equal(existsSync(join(ws.workspace, 'made')), false);
    assert.equal(await removeEmptyDirectory(ws.workspace, 'index.js'), false);
    assert.equal(await removeEmptyDirectory(ws.workspace, 'nope/deeper'), false);
    assert.equal(existsSync(join(ws.workspace, 'index.js')), true);
    await assert.rejects(removeEmptyDirectory(ws.workspace, '../x'), (error) => error.code === 'invalid_path');
  });

  it('[UNDO-1] previousText: a kept file\'s exact text, absent, or unkept (binary, over 1 MiB)', async () => {
    await writeFile(join(ws.workspace, 'prev.txt'), '\uFEFFp\r\n');
    assert.deepEqual(await previousText(ws.workspace, 'prev.txt'), { contents: '\uFEFFp\r\n' });
    assert.deepEqual(await previousText(ws.workspace, 'none/prev.txt'), { absent: true });
    assert.deepEqual(await previousText(ws.workspace, 'bin.dat'), { unkept: true });
    assert.deepEqual(await previousText(ws.workspace, 'big.txt'), { unkept: true });
    await assert.rejects(previousText(ws.workspace, '/etc/passwd'), (error) => error.code === 'invalid_path');
  });
});

/** A clock far past every file's ctime: every token is trusted (what a scan a while after the last change sees). */
const later = () => Date.now() + 10 * TRUST_MARGIN_MS;

describe('runner: the kept-files cache (a command pays for what it changes)', () => {
  let big;
  before(async () => {
    big = await createWorkspace({ files: {} });
    for (let i = 0; i < 2000; i++) {
      await mkdir(join(big.workspace, `d${i % 40}`), { recursive: true });
      await writeFile(join(big.workspace, `d${i % 40}/f${i}.js`), `// ${i}\n`.padEnd(10_000, 'x'));
    }
    await mkdir(join(big.workspace, 'node_modules/dep'), { recursive: true });
    await writeFile(join(big.workspace, 'node_modules/dep/index.js'), 'dep');
    await writeFile(join(big.workspace, 'bin.dat'), Buffer.from([0, 1, 2]));
  });
  after(() => removeWorkspace(big.base));

  it('[UNDO-1] in 2,000 files / 20 MB, a change of one file is read back alone: the changes give its text before, the scans after the first read only it', async () => {
    const kept = createKeptFiles(big.workspace, { now: later });
    const { mark } = kept.mark();
    assert.equal(kept.stats.reads, 2001, 'the first look reads every file once (2,000 texts and the binary; node_modules/ not entered)');
    const second = kept.mark();
    assert.equal(kept.stats.reads, 2001, 'nothing changed: nothing read');
    await writeFile(join(big.workspace, 'd7/f7.js'), 'changed');
    const { files, truncated, tree } = kept.changes(second.mark);
    assert.equal(truncated, false);
    assert.deepEqual(files.map(({ path, before: was, version }) => ({ path, was, version: version?.length })), [
      { path: 'd7/f7.js', was: '// 7\n'.padEnd(10_000, 'x'), version: 64 },
    ]);
    assert.equal(kept.stats.reads, 2002, 'only the changed file was read');
    assert.deepEqual({ entries: tree.entries, truncated: tree.truncated }, await listTree(big.workspace), 'the same walk lists the tree');
    assert.deepEqual(kept.changes(mark).files.map((f) => f.path), ['d7/f7.js'], 'the older mark still holds the text from before');
  });

  it('[UNDO-1] creations, deletions and a rename are told; node_modules/, binary and over-1-MiB files are not kept', async () => {
    const kept = createKeptFiles(big.workspace, { now: later });
    await writeFile(join(big.workspace, 'd1/f1.js'), 'one');
    const { mark } = kept.mark();
    await writeFile(join(big.workspace, 'new.js'), 'new');
    await unlink(join(big.workspace, 'd2/f2.js'));
    await rename(join(big.workspace, 'd3/f3.js'), join(big.workspace, 'd3/moved.js'));
    await writeFile(join(big.workspace, 'node_modules/dep/index.js'), 'changed');
    await writeFile(join(big.workspace, 'bin.dat'), Buffer.from([0, 9]));
    await writeFile(join(big.workspace, 'd1/f1.js'), 'x'.repeat(MAX_FILE_BYTES + 1));
    const { files } = kept.changes(mark);
    assert.deepEqual(files.map((f) => [f.path, f.before === null ? null : f.before.slice(0, 5), f.version === null]), [
      ['d1/f1.js', 'one', true],
      ['d2/f2.js', '// 2\n', true],
      ['d3/f3.js', '// 3\n', true],
      ['d3/moved.js', null, false],
      ['new.js', null, false],
    ]);
  });

  it('[UNDO-1] a rewrite of the same size with its mtime put back (utimes) is still seen: the token has the ctime', async () => {
    const kept = createKeptFiles(big.workspace, { now: later });
    const path = join(big.workspace, 'd5/f5.js');
    const fixed = new Date('2026-01-01T00:00:00Z');
    await utimes(path, fixed, fixed);
    const was = await stat(path, { bigint: true });
    const { mark } = kept.mark();
    await writeFile(path, '// 5\n'.padEnd(10_000, 'y'));
    await utimes(path, fixed, fixed);
    const is = await stat(path, { bigint: true });
    assert.deepEqual([is.size, is.mtimeNs, is.ino], [was.size, was.mtimeNs, was.ino], 'size, mtime and inode are as they were');
    assert.deepEqual(kept.changes(mark).files.map((f) => [f.path, f.before.slice(0, 8)]), [['d5/f5.js', '// 5\nxxx']]);
  });

  it('[UNDO-1] a file changed within the trust margin of the look is read again at every scan (a same-tick, same-size write cannot hide)', async () => {
    const small = await createWorkspace({ files: { 'a.js': 'a', 'b.js': 'b' } });
    try {
      const ctime = Math.max(...(await Promise.all(['a.js', 'b.js'].map(async (name) => (await stat(join(small.workspace, name))).ctimeMs))));
      let clock = ctime; // the look in the same tick as the file's last change
      const kept = createKeptFiles(small.workspace, { now: () => clock });
      kept.mark();
      const reads = kept.stats.reads;
      kept.mark();
      assert.equal(kept.stats.reads - reads, 2, 'not trusted yet: both read again');
      clock = ctime + TRUST_MARGIN_MS + 1;
      kept.mark(); // read again, now trusted
      const trusted = kept.stats.reads;
      kept.mark();
      assert.equal(kept.stats.reads - trusted, 0, 'trusted once older than the margin: not read');
    } finally {
      await removeWorkspace(small.base);
    }
  });

  it('[UNDO-1] while nothing can have written (quiet, the same activity stamp) the last walk is answered again; a moved stamp or a running process walks', async () => {
    let activity = { stamp: 'a', quiet: true };
    const kept = createKeptFiles(big.workspace, { now: later, activity: () => activity });
    kept.mark();
    kept.mark();
    kept.tree();
    assert.equal(kept.stats.walks, 1, 'one walk for the three');
    activity = { stamp: 'b', quiet: true }; // a process ran and ended
    const { mark } = kept.mark();
    assert.equal(kept.stats.walks, 2);
    await writeFile(join(big.workspace, 'd9/f9.js'), 'nine');
    activity = { stamp: 'c', quiet: false }; // one is running
    assert.deepEqual(kept.changes(mark).files.map((f) => f.path), ['d9/f9.js']);
    kept.tree();
    assert.equal(kept.stats.walks, 4, 'not quiet: every scan walks');
    activity = { stamp: 'd', quiet: true };
    const fresh = createKeptFiles(big.workspace, { now: later, activity: () => activity });
    fresh.tree();
    const waiting = fresh.mark().mark;
    assert.equal(fresh.stats.walks, 2, 'a walk for the tree alone (no mark waiting) holds no texts: the mark walks again');
    await writeFile(join(big.workspace, 'd9/f9.js'), 'nine again');
    activity = { stamp: 'e', quiet: true }; // the command ended; the page asks for the tree, then the changes
    fresh.tree();
    assert.deepEqual(fresh.changes(waiting).files.map((f) => [f.path, f.before]), [['d9/f9.js', 'nine']]);
    assert.equal(fresh.stats.walks, 3, 'while a mark waits, the tree\'s walk reads the texts: the changes answer from it');
  });

  it('[UNDO-1] [NODE-6] warm() at a command\'s end is the walk its tree and changes then answer from; while a process runs it walks nothing', async () => {
    let activity = { stamp: 'a', quiet: true };
    const kept = createKeptFiles(big.workspace, { now: later, activity: () => activity });
    const { mark } = kept.mark();
    activity = { stamp: 'b', quiet: false }; // the command runs
    kept.warm();
    assert.equal(kept.stats.walks, 1, 'not quiet: warm() does not walk (its walk could not be answered again)');
    await writeFile(join(big.workspace, 'd8/f8.js'), 'eight, changed');
    activity = { stamp: 'c', quiet: true }; // it ended: the runner warms before the page asks
    kept.warm();
    assert.equal(kept.stats.walks, 2);
    const tree = kept.tree();
    const { files } = kept.changes(mark);
    assert.equal(kept.stats.walks, 2, 'the tree and the changes asked after the end walk no more');
    assert.ok(tree.entries.some((e) => e.path === 'd8/f8.js'));
    assert.deepEqual(files.map((f) => f.path), ['d8/f8.js'], 'the warm walk saw what the command wrote');
  });

  it('[UNDO-4] bounds: past its bytes a workspace gives no mark (no step); at most MAX_MARKS marks are held, the oldest is gone', async () => {
    assert.deepEqual(createKeptFiles(big.workspace, { maxBytes: 1000 }).mark(), { mark: null, truncated: true });
    const kept = createKeptFiles(big.workspace, { now: later });
    const marks = Array.from({ length: MAX_MARKS + 1 }, () => kept.mark().mark);
    assert.equal(kept.marks, MAX_MARKS);
    assert.equal(kept.changes(marks[0]).gone, true);
    assert.equal(kept.changes(marks[1]).gone, undefined);
    assert.equal(kept.changes(marks[1]).gone, true, 'a mark is used up by its changes');
  });

  it('[BOX-4] a link to a file inside is kept by its path; a link out, or a directory link, is neither listed as kept nor entered', async () => {
    const small = await createWorkspace({ files: { 'a.js': 'a' } });
    try {
      await symlink(join(small.workspace, 'a.js'), join(small.workspace, 'in.js'));
      await symlink('/etc/hostname', join(small.workspace, 'out.js'));
      await symlink('/etc', join(small.workspace, 'etc'));
      const { files } = createKeptFiles(small.workspace).snapshot({ contents: true });
      assert.deepEqual(files.map((f) => [f.path, f.contents]), [['a.js', 'a'], ['in.js', 'a']]);
    } finally {
      await removeWorkspace(small.base);
    }
  });
});
