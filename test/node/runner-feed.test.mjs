// The runner's change feed (change-feed.mjs, issue 24 item 1): with it, the look after a command
// reads what the command touched and stats nothing else — and answers exactly what a full walk of
// the workspace answers, whatever the command did. Each answer here is compared with a fresh walk.
// Run: node --test test/node/runner-feed.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { link, mkdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TRUST_MARGIN_MS, createKeptFiles } from '../../playground/node/server/kept.mjs';
import { MAX_FILE_BYTES, createWorkspace, removeWorkspace } from '../../playground/node/server/workspace.mjs';

const later = () => Date.now() + 10 * TRUST_MARGIN_MS;

/** What a fresh full walk answers now: the tree and every kept text. */
function walked(workspace) {
  const fresh = createKeptFiles(workspace, { now: later });
  const { files, truncated } = fresh.snapshot({ contents: true });
  return { tree: fresh.tree(), files, truncated };
}

/** What `kept` (with its feed) answers after hearing everything so far. */
async function heard(kept) {
  await kept.settle();
  const { files, truncated } = kept.snapshot({ contents: true });
  await kept.settle();
  return { tree: kept.tree(), files, truncated };
}

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('runner: the change feed', () => {
  let big;
  before(async () => {
    big = await createWorkspace();
    for (let i = 0; i < 2000; i++) {
      await mkdir(join(big.workspace, `d${i % 40}`), { recursive: true });
      await writeFile(join(big.workspace, `d${i % 40}/f${i}.js`), `// ${i}\n`.padEnd(10_000, 'x'));
    }
    await mkdir(join(big.workspace, 'node_modules/dep'), { recursive: true });
    await writeFile(join(big.workspace, 'node_modules/dep/index.js'), 'dep');
  });
  after(() => removeWorkspace(big.base));

  it('[UNDO-1] in 2,000 files / 20 MB, the look after a one-file change reads that file and walks nothing; its changes are the full walk\'s', async () => {
    const kept = createKeptFiles(big.workspace, { now: later, watch: true });
    try {
      await kept.settle();
      const { mark } = kept.mark();
      const { walks, reads } = kept.stats;
      assert.equal(walks, 1, 'the first look walks');
      await writeFile(join(big.workspace, 'd7/f7.js'), 'changed');
      await kept.settle();
      const { files, tree } = kept.changes(mark);
      assert.deepEqual(files.map((f) => [f.path, f.before.slice(0, 5)]), [['d7/f7.js', '// 7\n']]);
      assert.deepEqual(kept.stats, { ...kept.stats, walks, reads: reads + 1 }, 'no walk, one file read');
      assert.equal(kept.stats.updates, 1);
      assert.deepEqual(tree.entries, walked(big.workspace).tree.entries);
      await kept.settle();
      kept.tree();
      assert.equal(kept.stats.reads, reads + 1, 'nothing heard since: nothing read');
    } finally {
      kept.close();
    }
  });

  for (const seed of [24, 7, 99]) it(`[UNDO-1] 300 random changes (writes, creations, deletions, renames, directories made, moved, replaced and removed, binary and over-1-MiB files, node_modules/; seed ${seed}): after each, the feed answers what a full walk answers, without walking`, async () => {
    const ws = await createWorkspace({ files: { 'a.js': 'a', 'src/b.js': 'b', 'src/deep/c.js': 'c' } });
    const kept = createKeptFiles(ws.workspace, { now: later, watch: true });
    const next = random(seed);
    const pick = (xs) => xs[Math.floor(next() * xs.length)];
    const at = (p) => join(ws.workspace, p);
    const dirs = ['', 'src', 'src/deep'];
    const files = new Set(['a.js', 'src/b.js', 'src/deep/c.js']);
    let n = 0;
    const fresh = (dir) => `${dir ? `${dir}/` : ''}n${n++}.js`;
    const steps = {
      async write() {
        const file = pick([...files]);
        if (file) await writeFile(at(file), `rewritten ${n++}`);
      },
      async create() {
        const file = fresh(pick(dirs));
        await writeFile(at(file), `new ${n}`);
        files.add(file);
      },
      async remove() {
        const file = pick([...files]);
        if (!file) return;
        await unlink(at(file));
        files.delete(file);
      },
      async renameFile() {
        const file = pick([...files]);
        if (!file) return;
        const to = fresh(pick(dirs));
        await rename(at(file), at(to));
        files.delete(file);
        files.add(to);
      },
      async makeDir() {
        const dir = `${pick(dirs) ? `${pick(dirs)}/` : ''}m${n++}`.replace(/^\//, '');
        await mkdir(at(dir), { recursive: true });
        await writeFile(at(`${dir}/inside.js`), 'inside');
        dirs.push(dir);
        files.add(`${dir}/inside.js`);
      },
      async moveDir() {
        const dir = pick(dirs.filter((d) => d.includes('m')));
        if (!dir) return;
        const to = `r${n++}`;
        await rename(at(dir), at(to));
        for (const d of [...dirs]) if (d === dir || d.startsWith(`${dir}/`)) dirs.splice(dirs.indexOf(d), 1, to + d.slice(dir.length));
        for (const f of [...files]) if (f.startsWith(`${dir}/`)) {
          files.delete(f);
          files.add(to + f.slice(dir.length));
        }
      },
      async replaceDir() {
        // Another directory put in a watched one's place: the same name, another inode.
        const dir = pick(dirs.filter((d) => d !== '' && !dirs.some((o) => o.startsWith(`${d}/`))));
        if (!dir) return;
        await rm(at(dir), { recursive: true });
        for (const f of [...files]) if (f.startsWith(`${dir}/`)) files.delete(f);
        await mkdir(at(`${dir}.tmp`));
        await writeFile(at(`${dir}.tmp/swapped.js`), 'swapped');
        await rename(at(`${dir}.tmp`), at(dir));
        files.add(`${dir}/swapped.js`);
      },
      async removeDir() {
        const dir = pick(dirs.filter((d) => d !== '' && d !== 'src'));
        if (!dir) return;
        await rm(at(dir), { recursive: true });
        for (const d of [...dirs]) if (d === dir || d.startsWith(`${dir}/`)) dirs.splice(dirs.indexOf(d), 1);
        for (const f of [...files]) if (f.startsWith(`${dir}/`)) files.delete(f);
      },
      async binary() {
        const file = pick([...files]);
        if (file) await writeFile(at(file), Buffer.from([0, 1, 2, n++ & 255]));
      },
      async tooLarge() {
        const file = pick([...files]);
        if (file) await writeFile(at(file), 'y'.repeat(MAX_FILE_BYTES + 1));
      },
      async fileForDir() {
        const file = pick([...files]);
        if (!file) return;
        await unlink(at(file));
        files.delete(file);
        await mkdir(at(file));
        await writeFile(at(`${file}/now-a-dir.js`), 'dir');
        dirs.push(file);
        files.add(`${file}/now-a-dir.js`);
      },
      async dependency() {
        await mkdir(at('node_modules/x'), { recursive: true });
        await writeFile(at(`node_modules/x/i${n++}.js`), 'dep');
      },
    };
    try {
      await kept.settle();
      kept.mark();
      const names = Object.keys(steps);
      for (let i = 0; i < 300; i++) {
        const done = [];
        for (let k = 1 + Math.floor(next() * 3); k > 0; k--) {
          const name = pick(names);
          done.push(name);
          await steps[name]();
        }
        assert.deepEqual(await heard(kept), walked(ws.workspace), `after step ${i}: ${done.join(', ')}`);
      }
      assert.equal(kept.stats.walks, 1, 'every look after the first came from the feed');
    } finally {
      kept.close();
      await removeWorkspace(ws.base);
    }
  });

  it('[UNDO-1] what the feed cannot follow — a symlink, a second hard link, a burst of events the kernel may have dropped — makes every look a full walk, still right', async () => {
    const ws = await createWorkspace({ files: { 'a.js': 'a', 'src/b.js': 'b' } });
    const kept = createKeptFiles(ws.workspace, { now: later, watch: true });
    try {
      await kept.settle();
      kept.mark();
      await symlink('src/b.js', join(ws.workspace, 'link.js'));
      assert.deepEqual(await heard(kept), walked(ws.workspace));
      const walks = kept.stats.walks;
      await writeFile(join(ws.workspace, 'src/b.js'), 'through the target');
      assert.deepEqual(await heard(kept), walked(ws.workspace), 'the link lists the target\'s new text');
      assert.ok(kept.stats.walks > walks, 'with a link, a look walks');
      await unlink(join(ws.workspace, 'link.js'));
      await link(join(ws.workspace, 'src/b.js'), join(ws.workspace, 'hard.js'));
      await heard(kept);
      await writeFile(join(ws.workspace, 'hard.js'), 'through the other name');
      assert.deepEqual(await heard(kept), walked(ws.workspace), 'src/b.js has the text written through hard.js');
      await unlink(join(ws.workspace, 'hard.js'));
      await heard(kept);
      // Half the kernel's queue (16,384 here) in one window: events may have been lost.
      await mkdir(join(ws.workspace, 'burst'));
      await heard(kept);
      const before = kept.stats.walks;
      await Promise.all(Array.from({ length: 4200 }, (_, i) => writeFile(join(ws.workspace, `burst/${i}.js`), String(i))));
      assert.deepEqual(await heard(kept), walked(ws.workspace));
      assert.ok(kept.stats.walks > before, 'a burst past the bound walks');
      // A directory removed and made again within a window that ends in a full walk (its inode
      // number reused at once): what is written in it afterwards is still heard.
      await rm(join(ws.workspace, 'burst'), { recursive: true });
      await mkdir(join(ws.workspace, 'burst'));
      const walksBefore = kept.stats.walks;
      await Promise.all(Array.from({ length: 9000 }, (_, i) => writeFile(join(ws.workspace, `n${i}.js`), String(i))));
      assert.deepEqual(await heard(kept), walked(ws.workspace));
      const walksNow = kept.stats.walks;
      assert.ok(walksNow > walksBefore, 'the window ended in a full walk');
      await writeFile(join(ws.workspace, 'burst/after.js'), 'written after the walk');
      assert.deepEqual(await heard(kept), walked(ws.workspace), 'the new burst/ is watched');
      assert.equal(kept.stats.walks, walksNow, 'and heard from the feed, not by walking');
    } finally {
      kept.close();
      await removeWorkspace(ws.base);
    }
  });
});
