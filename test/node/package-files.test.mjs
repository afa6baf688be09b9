// FIRST-7: every path package.json's `files` names exists once the library is built (`npm run
// build`, which `npm test` and `npm pack` run first): it named dist/ai-ops.js.LEGAL.txt, which the
// build never writes (esbuild puts Lit's notices beside the chunk that holds Lit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../e2e/harness.mjs';

test('[FIRST-7] every path package.json `files` names exists after the build', () => {
  const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const missing = files.filter((path) => !existsSync(join(root, path)));
  assert.deepEqual(missing, []);
});
