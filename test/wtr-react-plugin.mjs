// A web-test-runner plugin that serves React 19 (CommonJS only) as ES modules, so browser tests can
// `import * as React from 'react'` and `import { createRoot } from 'react-dom/client'`. One esbuild
// bundle holds both, so there is one copy of React.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';

const BASE = '/__react-esm/';
const modules = {
  react: { file: 'react.js', from: 'React' },
  'react-dom': { file: 'react-dom.js', from: 'ReactDOM' },
  'react-dom/client': { file: 'react-dom-client.js', from: 'ReactDOMClient' },
  // What TSX compiled with the automatic runtime imports (the playground's components).
  'react/jsx-runtime': { file: 'react-jsx-runtime.js', from: 'ReactJsxRuntime' },
  'react/jsx-dev-runtime': { file: 'react-jsx-dev-runtime.js', from: 'ReactJsxDevRuntime' },
};
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** @returns {import('@web/dev-server-core').Plugin} */
export function reactEsmPlugin() {
  /** @type {Promise<string> | undefined} */
  let bundle;
  const buildBundle = async () => {
    const result = await build({
      stdin: {
        contents: Object.entries(modules).map(([id, { from }]) => `export * as ${from} from '${id}';`).join('\n'),
        resolveDir: process.cwd(),
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      write: false,
      define: { 'process.env.NODE_ENV': '"development"' },
      logLevel: 'silent',
    });
    return result.outputFiles[0].text;
  };
  return {
    name: 'react-esm',
    resolveImport({ source }) {
      const module = modules[source];
      return module ? BASE + module.file : undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(BASE)) return undefined;
      if (context.path === `${BASE}bundle.js`) {
        bundle ??= buildBundle();
        return { body: await bundle, type: 'js' };
      }
      const entry = Object.entries(modules).find(([, m]) => context.path === BASE + m.file);
      if (!entry) return undefined;
      const [id, { from }] = entry;
      // The export names, read in a child process: React's development build writes to the console
      // on load, and the test runner's console is patched.
      const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(id)}))))`;
      const names = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: process.cwd(), encoding: 'utf8' }))
        .filter((name) => name !== 'default' && IDENTIFIER.test(name));
      const body = [
        `import { ${from} as ns } from './bundle.js';`,
        'const m = ns.default ?? ns;',
        'export default m;',
        names.length ? `export const { ${names.join(', ')} } = m;` : '',
      ].join('\n');
      return { body, type: 'js' };
    },
  };
}
