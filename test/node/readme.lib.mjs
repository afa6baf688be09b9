// The README and docs/ as the tests read them: the recipes (each file of a recipe is a fenced
// block right under a `<!-- recipe: <name>/<path> -->` line, invisible when the README is shown)
// and a document's section by its heading.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The README's recipes: `{ plain: { 'public/index.html': '…' }, react: {…}, … }`, each file's text
 * exactly as the README shows it.
 * @returns {Promise<Record<string, Record<string, string>>>}
 */
export async function readmeRecipes() {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const recipes = {};
  for (const [, name, path, text] of readme.matchAll(/^<!-- recipe: ([\w-]+)\/([\w./-]+) -->\n```\w*\n([\s\S]*?)^```$/gm)) {
    (recipes[name] ??= {})[path] = text;
  }
  return recipes;
}

/**
 * The section of `file` (relative to the root) that starts at the heading line `heading`, up to
 * the next heading of the same or a higher level.
 */
export async function section(file, heading) {
  const text = await readFile(join(root, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}" section`);
  const level = heading.match(/^#+/)[0].length;
  const rest = text.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return `${heading}\n${next < 0 ? rest : rest.slice(0, next)}`;
}
