// The SQL undo journal (playground/sql/engine/journal.ts) over a small in-memory file system of
// the shape of Emscripten's MEMFS: every kind of change it wraps, then a rewind, and the files
// read back byte for byte (UNDO-1); windows merged, released and trimmed (UNDO-4).
import { expect } from '@open-wc/testing';
import { BLOCK, Journal, normalise, type EmscriptenFs, type FsNode, type FsStream } from '../../playground/sql/engine/journal.js';

const DIR = 0o040000;
const FILE = 0o100000;
const O_APPEND = 1024;

interface Node extends FsNode {
  name: string;
  parent: Node | null;
  children?: Map<string, Node>;
}

/** Enough of MEMFS for the journal: nodes with `contents`/`usedBytes`, paths, the wrapped calls. */
function memfs(cwd = '/data'): EmscriptenFs & { files(): Map<string, string>; open(path: string, flags?: number): FsStream } {
  const root: Node = { name: '', parent: null, mode: DIR, children: new Map() };
  const lookup = (path: string): Node | null => {
    let node: Node | null = root;
    for (const part of normalise(path, cwd).split('/').filter(Boolean)) node = node?.children?.get(part) ?? null;
    return node;
  };
  const parentOf = (path: string) => {
    const full = normalise(path, cwd);
    const at = full.lastIndexOf('/');
    const parent = lookup(full.slice(0, at) || '/');
    if (!parent?.children) throw new Error(`no directory for ${path}`);
    return { parent, name: full.slice(at + 1) };
  };
  const fs = {
    write(stream: FsStream, buffer: Uint8Array, offset: number, length: number, position?: number) {
      const node = stream.node as Node;
      const at = stream.flags & O_APPEND ? (node.usedBytes ?? 0) : (position ?? stream.position);
      const used = Math.max(node.usedBytes ?? 0, at + length);
      const next = new Uint8Array(used);
      next.set((node.contents ?? new Uint8Array(0)).subarray(0, node.usedBytes ?? 0));
      next.set(buffer.subarray(offset, offset + length), at);
      node.contents = next;
      node.usedBytes = used;
      if (position === undefined) stream.position = at + length;
      return length;
    },
    doSetAttr(_stream: FsStream | null, node: FsNode, attr: { size?: number }) {
      if (attr.size === undefined) return;
      const next = new Uint8Array(attr.size);
      next.set((node.contents ?? new Uint8Array(0)).subarray(0, Math.min(attr.size, node.usedBytes ?? 0)));
      node.contents = next;
      node.usedBytes = attr.size;
    },
    unlink(path: string) {
      const { parent, name } = parentOf(path);
      parent.children!.delete(name);
    },
    rmdir(path: string) {
      const { parent, name } = parentOf(path);
      if (parent.children!.get(name)?.children?.size) throw new Error('not empty');
      parent.children!.delete(name);
    },
    rename(from: string, to: string) {
      const source = parentOf(from);
      const node = source.parent.children!.get(source.name)!;
      source.parent.children!.delete(source.name);
      const target = parentOf(to);
      node.name = target.name;
      node.parent = target.parent;
      target.parent.children!.set(target.name, node);
    },
    mknod(path: string, mode: number, _dev = 0) {
      const { parent, name } = parentOf(path);
      const node: Node = { name, parent, mode, ...(mode & DIR ? { children: new Map() } : { contents: new Uint8Array(0), usedBytes: 0 }) };
      parent.children!.set(name, node);
      return node;
    },
    getPath(node: FsNode) {
      const parts: string[] = [];
      for (let n: Node | null = node as Node; n && n.parent; n = n.parent) parts.unshift(n.name);
      return `/${parts.join('/')}`;
    },
    cwd: () => cwd,
    analyzePath(path: string) {
      const node = lookup(path);
      return { exists: node !== null, object: node };
    },
    readdir(path: string) {
      return ['.', '..', ...lookup(path)!.children!.keys()];
    },
    /** As Emscripten's: open (creating), truncate, write, all through the calls the journal wraps. */
    writeFile(path: string, data: Uint8Array) {
      const node = lookup(path) ?? fs.mknod(path, FILE);
      fs.doSetAttr(null, node, { size: 0 });
      fs.write({ node, flags: 0, position: 0 }, data, 0, data.length, 0);
    },
    mkdirTree(path: string) {
      let at = '';
      for (const part of normalise(path, cwd).split('/').filter(Boolean)) {
        at += `/${part}`;
        if (!lookup(at)) fs.mknod(at, DIR);
      }
    },
    isDir: (mode: number) => (mode & DIR) !== 0 && (mode & FILE) === 0,
    isFile: (mode: number) => (mode & FILE) !== 0,
    /** Every path with its bytes as text, or `dir`. */
    files() {
      const out = new Map<string, string>();
      const walk = (node: Node, path: string) => {
        for (const [name, child] of node.children ?? []) {
          const at = `${path}/${name}`;
          out.set(at, child.children ? 'dir' : Array.from((child.contents ?? new Uint8Array(0)).subarray(0, child.usedBytes)).join(','));
          walk(child, at);
        }
      };
      walk(root, '');
      return out;
    },
    open(path: string, flags = 0): FsStream {
      return { node: lookup(path) ?? fs.mknod(path, FILE), flags, position: 0 };
    },
  };
  return fs;
}

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

/** A fresh FS with a data directory of a few files, and a journal attached to it. */
function setup() {
  const fs = memfs();
  fs.mkdirTree('/data/base/5');
  fs.mkdirTree('/outside');
  fs.writeFile('/data/base/5/100', bytes(3 * BLOCK + 100, 1));
  fs.writeFile('/data/base/5/200', bytes(BLOCK, 2));
  fs.writeFile('/data/pg_control', bytes(512, 3));
  fs.writeFile('/outside/log', bytes(10, 4));
  const journal = new Journal('/data');
  journal.attach(fs);
  return { fs, journal };
}

describe('the SQL undo journal (copy-on-write under MEMFS)', () => {
  it('[UNDO-1] writes, a truncation and an append, relative paths included: the rewind gives every file back byte for byte, keeping only the blocks touched', () => {
    const { fs, journal } = setup();
    const before = fs.files();
    journal.open(1);
    const heap = fs.open('base/5/100');
    fs.write(heap, bytes(10, 9), 0, 10, BLOCK + 5);
    fs.write(heap, bytes(BLOCK, 8), 0, BLOCK, 3 * BLOCK);
    fs.doSetAttr(null, heap.node, { size: BLOCK / 2 });
    fs.write(heap, bytes(BLOCK * 4, 7), 0, BLOCK * 4, BLOCK);
    const log = fs.open('/data/pg_control', O_APPEND);
    fs.write(log, bytes(100, 6), 0, 100, 0);
    expect(fs.files()).to.not.deep.equal(before);
    // The blocks of [BLOCK/2, size) at the truncation, and pg_control's tail was appended (nothing to keep).
    expect(journal.segments[0].bytes).to.equal(3 * BLOCK + 100);
    journal.rewindTo(1);
    expect(fs.files()).to.deep.equal(before);
  });

  it('[UNDO-1] files created, unlinked and renamed, directories made and removed: all back as they were; outside the data directory nothing is kept', () => {
    const { fs, journal } = setup();
    const before = fs.files();
    journal.open(1);
    fs.mknod('/data/base/5/300', FILE, 0);
    fs.write(fs.open('/data/base/5/300'), bytes(50, 5), 0, 50, 0);
    fs.unlink('base/5/200');
    fs.writeFile('/data/base/5/200', bytes(4, 4));
    fs.rename('/data/pg_control', '/data/pg_control.old');
    fs.rename('/data/base/5/100', '/data/base/5/300');
    fs.mkdirTree('/data/base/6/7');
    fs.writeFile('/data/base/6/7/1', bytes(3, 3));
    fs.rename('/data/base/5', '/data/base/9');
    fs.writeFile('/outside/log', bytes(20, 4));
    journal.rewindTo(1);
    const after = fs.files();
    // The file outside the data directory stays as it was changed.
    expect(after.get('/outside/log')).to.not.equal(before.get('/outside/log'));
    after.set('/outside/log', before.get('/outside/log')!);
    expect(after).to.deep.equal(before);
  });

  it('[UNDO-2] windows apply newest first: rewinding to the older one goes through the newer; the older windows come back for the restored files', () => {
    const { fs, journal } = setup();
    const atOne = fs.files();
    journal.open(1);
    fs.write(fs.open('/data/base/5/200'), bytes(10, 1), 0, 10, 0);
    const atTwo = fs.files();
    journal.open(2);
    fs.write(fs.open('/data/base/5/200'), bytes(10, 2), 0, 10, 5);
    fs.unlink('/data/base/5/100');
    const older = journal.rewindTo(2);
    expect(older.map((s) => s.id)).to.deep.equal([1]);
    expect(fs.files()).to.deep.equal(atTwo);
    // The restored engine's journal: the older window carried over, its start-up's own window after it.
    const next = new Journal('/data', older);
    next.attach(fs);
    next.open(0);
    fs.writeFile('/data/base/5/200', bytes(1, 1));
    next.rewindTo(1);
    expect(fs.files()).to.deep.equal(atOne);
  });

  it('[UNDO-4] a window that changed nothing joins the one before; released and anonymous leading windows go; trim drops the oldest over the budget', () => {
    const { fs, journal } = setup();
    journal.open(0);
    journal.open(1);
    expect(journal.segments.map((s) => s.id)).to.deep.equal([1]);
    fs.write(fs.open('/data/base/5/200'), bytes(10, 1), 0, 10, 0);
    journal.open(2);
    fs.write(fs.open('/data/base/5/100'), bytes(10, 1), 0, 10, 0);
    fs.write(fs.open('/data/base/5/200'), bytes(10, 1), 0, 10, BLOCK - 10);
    journal.mergeLast();
    // 100's block joined window 1; 200's was kept there already (the older record wins).
    expect(journal.segments.map((s) => [s.id, s.bytes])).to.deep.equal([[1, 2 * BLOCK]]);
    journal.open(3);
    fs.write(fs.open('/data/base/5/100'), bytes(10, 1), 0, 10, BLOCK);
    journal.open(4);
    journal.release(1);
    expect(journal.segments.map((s) => s.id)).to.deep.equal([3, 4]);
    expect(journal.has(1)).to.equal(false);
    fs.write(fs.open('/data/base/5/100'), bytes(10, 1), 0, 10, 2 * BLOCK);
    expect(journal.trim(BLOCK)).to.deep.equal([3]);
    expect(journal.segments.map((s) => s.id)).to.deep.equal([4]);
    expect(() => journal.rewindTo(3)).to.throw('no longer kept');
  });
});
