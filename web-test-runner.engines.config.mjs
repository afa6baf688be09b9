// The element suites in the two other engines a visitor's browser runs (issue 36): Firefox ESR and
// WebKitGTK, both from Debian (never a downloaded browser; PLATFORM-NOTES "Firefox and WebKit").
// Run one engine with `node scripts/wtr-engine.mjs firefox|webkit` (it starts Xvfb and
// WebKitWebDriver for WebKit and stops them); `AI_OPS_ENGINE` picks the engine here.
//
// - Firefox: puppeteer-core over WebDriver BiDi through @web/test-runner-chrome's launcher. Its
//   virtual authenticator (the user's device for `consent: 'verified'`) is reached over
//   Marionette on the same browser, with the softtoken pref on (without it WebAuthn hangs).
// - WebKitGTK: MiniBrowser through WebKitWebDriver (@web/test-runner-webdriver), whose port
//   scripts/wtr-engine.mjs passes in AI_OPS_WEBKIT_DRIVER_PORT. WebKitGTK has no WebAuthn.
//
// What stays Chromium's (web-test-runner.config.mjs runs every file, these included):
// `*.chromium.test.ts` files, which read Chromium's accessibility tree (a11ySnapshot, CDP), its JS
// heap (CDP) or hold a WebAuthn prompt open (CDP's presence simulation; Firefox's absent user is an
// immediate refusal). Coverage is Chromium's too (V8).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import * as puppeteerCore from 'puppeteer-core';
import { reactEsmPlugin } from './test/wtr-react-plugin.mjs';
import { aiOpsEntriesPlugin } from './test/wtr-ai-ops-plugin.mjs';
import { webauthnPlugin } from './test/wtr-webauthn-plugin.mjs';
import { firefoxLaunchOptions, freeLocalPort } from './test/marionette.mjs';

/** The engines this config runs, and what each needs. */
export const ENGINES = ['firefox', 'webkit'];
const engine = process.env.AI_OPS_ENGINE;
if (!ENGINES.includes(engine)) throw new Error(`AI_OPS_ENGINE must be one of ${ENGINES.join(', ')} (run: node scripts/wtr-engine.mjs <engine>)`);

/**
 * The element suites every engine runs: switch, dialog (batch and verification included), log,
 * undo, the React wrappers, axe. Chromium-only files are named `*.chromium.test.ts`.
 */
export const ELEMENT_FILES = ['test/elements/**/*.test.ts', '!test/elements/**/*.chromium.test.ts'];

/**
 * The suites that need the user's device (a WebAuthn authenticator): not in WebKitGTK, which has
 * none; what the switch does there instead is asserted by the `*.webkit.test.ts` files.
 */
export const NEEDS_WEBAUTHN = ['test/elements/ai-ops-confirm-uv.test.ts', 'test/elements/ai-ops-confirm-batch.test.ts', 'test/elements/default-runtime-uv.test.ts', 'test/elements/verified-engines.test.ts', 'test/elements/ai-ops-log-footer.test.ts'];

/** What runs only in WebKitGTK (where there is no WebAuthn): `*.webkit.test.ts`. */
export const WEBKIT_FILES = ['test/elements/**/*.webkit.test.ts'];

const marionettePort = engine === 'firefox' ? await freeLocalPort() : undefined;

const firefox = () => chromeLauncher({
  // puppeteer-core as the launcher's puppeteer, with `browser: 'firefox'`: WebDriver BiDi; the
  // launcher then names the browser "Firefox" (what the webauthn command dispatches on).
  puppeteer: puppeteerCore,
  launchOptions: firefoxLaunchOptions(marionettePort),
});

const webkit = () => {
  const port = Number(process.env.AI_OPS_WEBKIT_DRIVER_PORT);
  if (!port) throw new Error('AI_OPS_WEBKIT_DRIVER_PORT is not set: run WebKit through node scripts/wtr-engine.mjs webkit');
  return webdriverLauncher({
    automationProtocol: 'webdriver',
    hostname: '127.0.0.1',
    port,
    path: '/',
    logLevel: 'error',
    capabilities: {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: process.env.WEBKIT_MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
        args: ['--automation'],
      },
      'wdio:enforceWebDriverClassic': true,
    },
  });
};

export default {
  rootDir: '.',
  nodeResolve: { exportConditions: ['production', 'browser'] },
  files: engine === 'webkit'
    ? [...ELEMENT_FILES, ...NEEDS_WEBAUTHN.map((file) => `!${file}`)]
    : [...ELEMENT_FILES, ...WEBKIT_FILES.map((file) => `!${file}`)],
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 20 * 60 * 1000,
  browserStartTimeout: 60000,
  testFramework: { config: { timeout: 20000 } },
  // The test pages as a page author is told to serve them (README, "Browser engines"): keyed by
  // origin. Firefox keys by site without the header, and the runtime then refuses to load the
  // WebMCP polyfill, which would refuse every call (src/model-context.ts).
  middleware: [(context, next) => {
    context.set('Origin-Agent-Cluster', '?1');
    return next();
  }],
  plugins: [webauthnPlugin({ marionettePort }), reactEsmPlugin(), aiOpsEntriesPlugin(), esbuildPlugin({ ts: true, tsx: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  browsers: [engine === 'firefox' ? firefox() : webkit()],
};
