// The README's picture (docs/screenshots/overview.png): the playground's slides page as a user sees
// it with an agent at work — the switch on (the user's device, a virtual authenticator here), the
// log open with two calls, and the confirmation of a third waiting. Build first (`npm run build &&
// node esbuild.config.mjs`), then `node scripts/screenshots.mjs`.
import { join } from 'node:path';
import { root, startDemo, launchBrowser, openToolPage, clickSwitch, callInPage, showLog, confirmDialog } from '../test/e2e/harness.mjs';

const server = await startDemo();
const browser = await launchBrowser();
try {
  const page = await openToolPage(browser.context, server.origin, 'slides');
  await page.setViewportSize({ width: 1280, height: 800 });
  await clickSwitch(page, 'slides');
  await callInPage(page, 'slides_read');
  await callInPage(page, 'slides_set_theme', { theme: 'gaia' });
  await showLog(page, 'slides');
  void callInPage(page, 'slides_write', { markdown: '# ai-ops\n\n- 安全に\n- 速く\n' }).catch(() => {});
  await confirmDialog(page).locator('dialog[open]').waitFor();
  await page.screenshot({ path: join(root, 'docs/screenshots/overview.png') });
} finally {
  await browser.close();
  await server.close();
}
