// REACT-2, the Node half: `ai-ops` and `ai-ops/react` (the built package, as a Node consumer imports
// it) load without a DOM, and React's server renderer gives the three wrappers' tags. The browser
// half (hydration) is test/e2e/app-ssr.test.mjs.
// Run: node --test test/node/ssr.test.mjs
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLibBuilt } from './ssr.lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

before(() => ensureLibBuilt(root));

/** Runs `code` as an ES module in a fresh Node process inside the package; answers its JSON output. */
function inFreshNode(code) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout.trim().split('\n').at(-1));
}

test('[REACT-2] ai-ops and ai-ops/react import in Node with no DOM, and leave none behind', () => {
  const seen = inFreshNode(`
    const before = { document: typeof document, window: typeof window, localStorage: typeof localStorage };
    const core = await import('ai-ops');
    const react = await import('ai-ops/react');
    console.log(JSON.stringify({
      before,
      after: { document: typeof document, window: typeof window, localStorage: typeof localStorage },
      core: ['provideOperations', 'getAiOps'].filter((name) => typeof core[name] === 'function'),
      react: Object.keys(react).sort(),
    }));`);
  assert.deepEqual(seen.before, { document: 'undefined', window: 'undefined', localStorage: 'undefined' });
  assert.deepEqual(seen.after, seen.before);
  assert.deepEqual(seen.core, ['provideOperations', 'getAiOps']);
  assert.deepEqual(seen.react, ['AiOpsConfirm', 'AiOpsLog', 'AiOpsSwitch', 'useAiOpsStore']);
});

test('[REACT-2] renderToString of a tree with the three wrappers gives their tags, in place', async () => {
  const { renderToString } = await import('react-dom/server');
  const React = await import('react');
  const { SsrPage } = await import('./ssr-page.lib.mjs');
  const html = renderToString(React.createElement(SsrPage));
  assert.match(html, /<header><h1>Notes<\/h1><ai-ops-switch[^>]*><\/ai-ops-switch><\/header>/);
  assert.match(html, /<footer><ai-ops-log[^>]*><\/ai-ops-log><\/footer>/);
  assert.match(html, /<ai-ops-confirm[^>]*><\/ai-ops-confirm><\/div>$/);
  // Nothing of the elements' shadow content or their runtime is rendered on the server.
  assert.doesNotMatch(html, /role="switch"|<dialog|<template/);
});
