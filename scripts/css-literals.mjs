// An esbuild plugin for production builds: the CSS in our elements' `css` template literals is sent
// as written, indentation and line breaks included, and esbuild's minifier leaves template text
// alone. Collapsing that whitespace takes bytes off what every page loads with the switch (PKG-4).
// Only literals without `${…}` are touched; the CSS is otherwise unchanged (whitespace runs become
// one space, and the spaces next to `{`, `}`, `;` and after `,` and `:` go — none of which a selector or a
// value needs).
import { readFile } from 'node:fs/promises';

/** Collapses the whitespace of one CSS text. */
export function collapseCss(text) {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .replace(/,\s+/g, ',')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
}

/** The plugin: applies {@link collapseCss} to every `css\`…\`` literal of `elements/*.ts` and `elements/<component>/*.ts`. */
export function cssLiteralsPlugin() {
  return {
    name: 'ai-ops-css-literals',
    setup(build) {
      build.onLoad({ filter: /[\\/]elements[\\/](?:[^\\/]+[\\/])?[^\\/]+\.ts$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        const contents = source.replace(/\bcss`([^`$]*)`/g, (_, body) => `css\`${collapseCss(body)}\``);
        return { contents, loader: 'ts' };
      });
    },
  };
}
