// The runner's part of the node page's undo (UNDO-1, UNDO-2): the kept files of the workspace, with
// their texts and version tokens, as the page takes them before an agent's command and compares
// after it. The page keeps them; the runner keeps nothing. Run: node --test test/node/runner-undo.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_FILE_BYTES, createWorkspace, fileVersions, previousText, removeEmptyDirectory, removeWorkspace, snapshotKept, textVersion } from '../../playground/node/server/workspace.mjs';

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
