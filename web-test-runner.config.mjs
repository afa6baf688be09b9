// Real Chromium from Debian (never a downloaded browser). CHROME_PATH overrides the binary.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { a11ySnapshotPlugin } from '@web/test-runner-commands/plugins';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heapPlugin } from './test/elements/heap-plugin.mjs';
import { reactEsmPlugin } from './test/wtr-react-plugin.mjs';
import { assertLaunchedBrowserMode } from './test/webmcp-check.mjs';
import { aiOpsEntriesPlugin } from './test/wtr-ai-ops-plugin.mjs';
import { webauthnPlugin } from './test/wtr-webauthn-plugin.mjs';

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

export const chromeArgs = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

// NAT-3: `WEBMCP=1` runs in a browser with its own WebMCP (Chromium 156: off by default, on with
// this flag), where document.modelContext is the browser's: by default the runtime tests and
// test/webmcp/ (which needs that browser); with files on the command line, those files.
export const webmcpArgs = ['--enable-features=WebMCP'];
const webmcp = process.env.WEBMCP === '1';

// Before any test: the browser must be in the mode this run is named for, or the run fails here
// (a "WebMCP on" run in a browser without its own document.modelContext would be plain mode again).
await assertLaunchedBrowserMode({ executablePath, args: [...chromeArgs, ...(webmcp ? webmcpArgs : [])], mode: webmcp ? 'webmcp' : 'plain' });

export default {
  rootDir: '.',
  nodeResolve: { exportConditions: ['production', 'browser'] },
  files: webmcp
    ? ['test/runtime/**/*.test.ts', 'test/webmcp/**/*.test.ts']
    // `*.webkit.test.ts`: what WebKitGTK (no WebAuthn) does instead, web-test-runner.engines.config.mjs.
    : ['test/**/*.test.ts', '!test/e2e/**', '!test/node/**', '!test/webmcp/**', '!test/**/*.webkit.test.ts'],
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 20 * 60 * 1000,
  browserStartTimeout: 60000,
  testFramework: { config: { timeout: 20000 } },
  // React 19 ships CommonJS only; the plugin serves it as ES modules for the React wrapper tests.
  // a11ySnapshot: tests read Chromium's accessibility tree (SAFE-9); heap: the JS heap after GC (SAFE-8);
  // webauthn: a CDP virtual authenticator playing the user's device (UV-1..UV-4).
  plugins: [a11ySnapshotPlugin(), heapPlugin(), webauthnPlugin(), reactEsmPlugin(), aiOpsEntriesPlugin(), esbuildPlugin({ ts: true, tsx: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        args: [...chromeArgs, ...(webmcp ? webmcpArgs : []), `--user-data-dir=${mkdtempSync(join(tmpdir(), 'ai-ops-wtr-'))}`],
      },
    }),
  ],
  // AGENT-3: the dialog as a person's browser shows it. Without this flag a launched Chromium
  // reports navigator.webdriver = true. The `*.person.ts` files (not `*.test.ts`, so no file list
  // given on the command line picks them up for the default browser) run only here.
  groups: [
    {
      name: 'person',
      files: 'test/**/*.person.ts',
      browsers: [
        chromeLauncher({
          launchOptions: {
            executablePath,
            args: [...chromeArgs, '--disable-blink-features=AutomationControlled', `--user-data-dir=${mkdtempSync(join(tmpdir(), 'ai-ops-wtr-person-'))}`],
          },
        }),
      ],
    },
  ],
  coverageConfig: {
    include: ['src/**/*.ts', 'elements/**/*.ts'],
    exclude: ['**/node_modules/**', 'test/**', 'elements/bundle.ts'],
    threshold: { lines: 90, statements: 90, functions: 80, branches: 75 },
    reportDir: 'coverage',
  },
};
