// The custom-elements manifest (dist/custom-elements.json, `npm run build`) is how tools and
// readers learn an element's styling surface: every part an element's templates render, and every
// `ai-ops-*` event it dispatches, is listed for its tag (issue 37: five parts were missing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const elements = join(root, 'elements');

/** The source files whose templates render into each tag's shadow root: its component folder. */
const SOURCES = {
  'ai-ops-switch': (file) => file.startsWith('switch/'),
  'ai-ops-confirm': (file) => file.startsWith('confirm/'),
  'ai-ops-log': (file) => file.startsWith('log/'),
};

/** Every part name a template writes literally (`part="a b"`; `badge-${…}` counts as its stem's own entry). */
function partsIn(text) {
  const names = new Set();
  for (const [, value] of text.matchAll(/\bpart="([^"]*)"/g)) {
    for (const name of value.split(/\s+/)) if (name && !name.includes('$')) names.add(name);
  }
  return names;
}

test('[SHAPE-2] the manifest lists every part each element renders, and every ai-ops-* event it dispatches', async () => {
  const manifest = JSON.parse(await readFile(join(root, 'dist/custom-elements.json'), 'utf8'));
  const declared = new Map();
  for (const mod of manifest.modules) for (const d of mod.declarations ?? []) if (d.tagName) declared.set(d.tagName, d);
  const files = (await readdir(elements, { recursive: true })).filter((f) => f.endsWith('.ts'));
  for (const [tag, owns] of Object.entries(SOURCES)) {
    const declaration = declared.get(tag);
    assert.ok(declaration, `${tag} is in the manifest`);
    const listed = new Set((declaration.cssParts ?? []).map((p) => p.name));
    const texts = await Promise.all(files.filter(owns).map((f) => readFile(join(elements, f), 'utf8')));
    const rendered = new Set(texts.flatMap((t) => [...partsIn(t)]));
    assert.ok(rendered.size > 3, `${tag}'s templates were read`);
    assert.deepEqual([...rendered].filter((name) => !listed.has(name)).sort(), [], `${tag}: rendered parts missing from the manifest`);
    const events = new Set((declaration.events ?? []).map((e) => e.name));
    const dispatched = new Set(texts.flatMap((t) => [...t.matchAll(/@event \{\w+\} (ai-ops-[a-z-]+)/g)].map((m) => m[1])));
    for (const name of dispatched) assert.ok(events.has(name), `${tag}: ${name} in the manifest`);
  }
});
