// Rooms a newcomer can live in (issue 37): no module of src/ or elements/ over 300 lines, each
// element a folder of its own (its element, styles, templates and controllers beside it, Web Awesome's
// layout), and one shape for a stateful piece of an element: a ReactiveController that registers
// itself with its host (`host.addController(this)`), as Lit's Task and ContextConsumer do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const LINE_LIMIT = 300;

async function tsFiles(folder) {
  const entries = await readdir(join(root, folder), { recursive: true });
  return entries.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => join(folder, f));
}

test(`[SHAPE-1] [SHAPE-2] no module of src/ or elements/ is longer than ${LINE_LIMIT} lines`, async () => {
  const files = [...(await tsFiles('src')), ...(await tsFiles('elements'))];
  assert.ok(files.length > 50, `${files.length} modules read`);
  const long = [];
  for (const file of files) {
    const lines = (await readFile(join(root, file), 'utf8')).split('\n').length - 1;
    if (lines > LINE_LIMIT) long.push(`${file} ${lines}`);
  }
  assert.deepEqual(long, []);
});

test('[SHAPE-2] each element is a folder with its element in it; the package entries stay at the top', async () => {
  for (const name of ['switch', 'confirm', 'log']) {
    const files = await readdir(join(root, 'elements', name));
    assert.ok(files.includes(`ai-ops-${name}.ts`), `elements/${name}/ai-ops-${name}.ts`);
  }
  const top = (await readdir(join(root, 'elements'))).filter((f) => f.endsWith('.ts')).sort();
  assert.deepEqual(top, ['bundle.ts', 'define.ts', 'index.ts', 'jsx.ts', 'react.ts', 'strings-en.ts']);
});

test('[SHAPE-2] every class an element builds with its host is a ReactiveController that registers itself', async () => {
  const classes = [];
  for (const file of await tsFiles('elements')) {
    const text = await readFile(join(root, file), 'utf8');
    for (const [body, name] of [...text.matchAll(/export class (\w+)[^{]*\{[\s\S]*?\n\}/g)]) {
      // A piece that holds its host: the host is its constructor's first parameter.
      if (!/constructor\(\s*(?:private readonly )?host: ReactiveControllerHost/.test(body)) continue;
      classes.push(name);
      assert.match(body, new RegExp(`^export class ${name}(<[^{]*>)? implements ReactiveController\\b`), `${file}: ${name} implements ReactiveController`);
      assert.match(body, /host\.addController\(this\)/, `${file}: ${name} registers itself with its host`);
    }
  }
  for (const name of ['StoreController', 'RowUndo', 'LogRecord', 'RelayConnect', 'LogAnnouncer', 'PointerGuardController', 'BatchSeenController', 'CountdownController', 'DismissController']) {
    assert.ok(classes.includes(name), `${name} was read`);
  }
});
