// A quiet install (issue 37): `npm ci` resolves the lockfile without overriding a single peer
// dependency. Excalidraw 0.18's Radix parts declare React 16–18 peers; the package's `overrides`
// say the playground's React 19 is the one they get, which is what `npm ci` installed anyway.
// Run on a copy of package.json and the lockfile, dry (nothing installed), from npm's cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = new URL('../../', import.meta.url).pathname;

test('[PKG-1] npm ci on the lockfile prints no ERESOLVE (no peer dependency overridden)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ai-ops-install-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) await copyFile(join(root, file), join(dir, file));
    const { stdout, stderr } = await promisify(execFile)('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, maxBuffer: 1 << 24 });
    const output = `${stdout}\n${stderr}`;
    assert.match(output, /up to date|added \d+ packages/, `npm ci ran: ${output.slice(-400)}`);
    assert.deepEqual(output.split('\n').filter((line) => line.includes('ERESOLVE')), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
