// REACT-3: the README's React recipe shows a routed app (one operations module per tool, each page
// a lazy chunk, one dialog for the app) and docs/pages.md says what navigation does to operations,
// dialogs and the log. Read as a page author reads it: the section's code and its list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readmeRecipes, section } from './readme.lib.mjs';

test('[REACT-3] the React section shows a routed app: an operations module per tool, lazy pages, one dialog', async () => {
  const files = (await readmeRecipes()).react;
  const names = Object.keys(files);
  const operations = names.filter((name) => /provideOperations\(/.test(files[name]));
  assert.deepEqual(operations.map((name) => name.endsWith('operations.ts')), [true], `one operations module hands the tool over (${names})`);
  assert.doesNotMatch(files[operations[0]], /from 'react'/, 'the operations module is a plain module, not a component');
  const page = names.find((name) => /<AiOpsSwitch tool=/.test(files[name]));
  assert.ok(page && /<AiOpsLog tool=/.test(files[page]), 'the page renders its switch and its log');
  assert.match(files[page], /useSyncExternalStore/, 'the page reads its state with useSyncExternalStore');
  const app = names.find((name) => /createRoot\(/.test(files[name]));
  assert.ok(app, 'the app file is shown');
  assert.match(files[app], /lazy\(\(\) => import\(/, 'each page is its own chunk');
  assert.match(files[app], /<StrictMode>/);
  assert.equal((files[app].match(/<AiOpsConfirm \/>/g) ?? []).length, 1, 'one dialog, in the app');
  for (const file of names.filter((name) => name !== app)) assert.doesNotMatch(files[file], /<AiOpsConfirm/, `${file}: no dialog per page`);
});

test('[REACT-3] the React section says what navigation does to operations, dialogs and the log', async () => {
  const react = await section('docs/pages.md', '## React');
  const list = react.slice(react.indexOf('What navigation does'));
  assert.ok(list.length < react.length, 'the section has its "What navigation does" list');
  for (const [item, says] of [
    ['Operations', /withdraws them[\s\S]*stored switch[\s\S]*registers them again with no click/],
    ['Dialogs', /declined/],
    ['The log', /still there when you come\s+back/],
  ]) {
    const at = list.indexOf(`- **${item}.**`);
    assert.ok(at >= 0, `an item on ${item}`);
    const next = list.indexOf('\n- **', at + 1);
    assert.match(list.slice(at, next < 0 ? undefined : next), says, `${item}: what happens`);
  }
});
