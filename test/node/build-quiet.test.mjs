// FIRST-3: `npm start` (node esbuild.config.mjs) prints no build warning. Every esbuild build it runs
// — the bundle, the React app, each page's engine build — is run again here with the same options
// into a folder of its own (dist/, which other suites serve, is left alone), and each must end with
// no warning: esbuild printed an `ignored-bare-import` warning for elements/jsx.ts on every start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { browserOptions, buildApp, TOOL_NAMES } from '../../esbuild.config.mjs';
import { root } from '../e2e/harness.mjs';

/** "file:line: text [id]" for each of esbuild's messages. */
const describe = (messages) => messages.map((m) => `${m.location?.file}:${m.location?.line}: ${m.text} [${m.id}]`);

test('[FIRST-3] the build `npm start` runs (bundle, app, every page\'s engines) ends with no esbuild warning', { timeout: 600_000 }, async () => {
  const out = await mkdtemp(join(tmpdir(), 'ai-ops-build-quiet-'));
  const warnings = [];
  // The page scripts get an esbuild whose builds are silent and report their warnings here.
  const quietEsbuild = {
    ...esbuild,
    async build(options) {
      const result = await esbuild.build({ ...options, logLevel: 'silent' });
      warnings.push(...describe(result.warnings));
      return result;
    },
  };
  try {
    const bundle = await quietEsbuild.build({
      ...browserOptions,
      entryPoints: { 'ai-ops': join(root, 'elements/bundle.ts') },
      outdir: join(out, 'lib'),
      splitting: true,
      chunkNames: 'ai-ops-chunks/[name]-[hash]',
      legalComments: 'external',
      write: false,
    });
    assert.ok(bundle.outputFiles.length > 0, 'the bundle was built');
    const app = await buildApp({ outdir: join(out, 'app') });
    warnings.push(...describe(app.warnings));
    assert.ok(Object.keys(app.metafile.outputs).length > 1, 'the app was built');
    for (const name of [...TOOL_NAMES, 'sample']) {
      const script = join(root, 'playground', name, 'build.mjs');
      if (!existsSync(script)) continue;
      const page = await import(pathToFileURL(script).href);
      await page.build({ esbuild: quietEsbuild, browserOptions: { ...browserOptions, logLevel: 'silent' }, outdir: join(out, name), root, production: true });
    }
    assert.deepEqual(warnings, []);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
