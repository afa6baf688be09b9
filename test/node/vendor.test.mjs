import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyVendor, patchOnce, WIDGET_PATCHES } from '../../scripts/vendor.mjs';
import pkg from '../../package.json' with { type: 'json' };

test('[RELAY-2] the served widget copies have the 10 s host timeout and the 1.2 s connect limit raised', async () => {
  const out = await mkdtemp(join(tmpdir(), 'ai-ops-vendor-'));
  await copyVendor(out);
  for (const file of ['widget.js', 'widget.html']) {
    const text = await readFile(join(out, 'relay', file), 'utf8');
    assert.ok(text.includes('},3e5)'), `${file}: host timeout raised`);
    assert.ok(!text.includes('},1e4)'), `${file}: 10 s literal gone`);
    assert.ok(text.includes('a(null)},6e3)'), `${file}: connect limit raised`);
  }
  assert.ok((await readFile(join(out, 'mcp-b-global.js'), 'utf8')).length > 100_000);
  assert.ok((await readFile(join(out, 'relay/embed.js'), 'utf8')).includes('data-relay-port'));
});

test('[RELAY-2] the build fails when a patched pattern is not found exactly once', () => {
  const [from, to] = WIDGET_PATCHES[0];
  assert.equal(patchOnce(`x${from}y`, from, to, 'f'), `x${to}y`);
  assert.throws(() => patchOnce('nothing here', from, to, 'widget.js'), /exactly once, found 0/);
  assert.throws(() => patchOnce(`${from}${from}`, from, to, 'widget.js'), /exactly once, found 2/);
});

test('[SHAPE-7] @mcp-b/global and @mcp-b/webmcp-local-relay are pinned to one exact version each', () => {
  assert.equal(pkg.dependencies['@mcp-b/global'], '5.1.0');
  assert.equal(pkg.dependencies['@mcp-b/webmcp-local-relay'], '2.2.0');
});

test('[RELAY-2] the package ships the relay command with a bridge timeout of at least 125 s', async () => {
  assert.equal(pkg.bin['ai-ops-relay'], 'bin/ai-ops-relay.mjs');
  const text = await readFile(new URL('../../bin/ai-ops-relay.mjs', import.meta.url), 'utf8');
  const timeout = Number(/INVOKE_TIMEOUT_MS = ([\d_]+)/.exec(text)[1].replaceAll('_', ''));
  assert.ok(timeout >= 125_000 && timeout <= 300_000, String(timeout));
  assert.match(text, /parseCliOptions\(argv\)/);
});
