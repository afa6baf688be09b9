// Bytes a page loads while every switch is off, and what switching on adds. PKG-4: ai-ops + Lit
// ≤ 12 KB min+gzip while off; 0 bytes of polyfill/relay while off (SW-7); the log and the dialog
// load with the first switch-on. Over budget, the rows below it say file by file where it goes.
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { SWITCH_OFF_BUDGET, measureSwitchOff, sourceTable } from '../../test/node/switch-off-bytes.lib.mjs';

export const name = 'bytes: switch off vs on (min+gzip -9)';

const gz = async (path) => gzipSync(await readFile(path), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

export async function run({ root, demo, browser }) {
  const site = join(root, 'dist/site');
  const off = await measureSwitchOff(root);
  const onFiles = ['ai-ops/vendor/mcp-b-global.js', 'ai-ops/vendor/relay/embed.js', 'ai-ops/vendor/relay/widget.html'];
  const onBytes = (await Promise.all(onFiles.map((f) => gz(join(site, f))))).reduce((a, b) => a + b, 0);

  // Measured in the browser too: what the sample page actually requests before and after the click.
  const page = await browser.context.newPage();
  const responses = [];
  page.on('response', async (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/ai-ops/')) responses.push({ path, gzip: gzipSync(await response.body().catch(() => Buffer.alloc(0)), { level: 9 }).length });
  });
  await page.goto(`${demo.origin}/sample/`);
  await page.locator('ai-ops-switch input[role="switch"]').waitFor();
  await page.waitForLoadState('networkidle');
  const offRequested = [...responses];
  const offRequestedBytes = offRequested.reduce((sum, r) => sum + r.gzip, 0);
  const offVendor = offRequested.filter((r) => r.path.includes('/vendor/'));
  const offLazy = offRequested.filter((r) => /ai-ops-(log|confirm)-/.test(r.path));
  await page.locator('ai-ops-switch input[role="switch"]').click();
  await page.waitForFunction(() => 'modelContextTesting' in navigator && customElements.get('ai-ops-log') !== undefined);
  await page.waitForLoadState('networkidle');
  const onRequested = responses.slice(offRequested.length);
  await page.locator('ai-ops-switch input[role="switch"]').click();
  await page.close();

  const rows = [
    { label: `ai-ops + Lit while every switch is off (${off.files.length} files, PKG-4)`, value: kb(off.total), budget: `≤ ${SWITCH_OFF_BUDGET / 1024} KB`, ok: off.total <= SWITCH_OFF_BUDGET },
    { label: 'the same, requested by /sample/ in Chromium', value: `${kb(offRequestedBytes)} (${offRequested.length} files)` },
    { label: 'polyfill/relay requested while off (browser)', value: `${offVendor.length} files`, budget: '0', ok: offVendor.length === 0 },
    { label: 'log/dialog code requested while off (browser)', value: `${offLazy.length} files`, budget: '0', ok: offLazy.length === 0 },
    { label: 'added by switching on: polyfill + embed + widget', value: kb(onBytes) },
    { label: 'added by switching on: all requested (browser)', value: `${kb(onRequested.reduce((s, r) => s + r.gzip, 0))}: ${onRequested.map((r) => r.path.split('/').pop().replace(/-[A-Z0-9]{8}\.js$/, '.js')).join(', ')}` },
  ];
  if (off.total > SWITCH_OFF_BUDGET) {
    rows.push({ label: `  over by ${off.total - SWITCH_OFF_BUDGET} B; where the switch-off bytes go (gzip share):`, value: '' });
    for (const line of sourceTable(off)) {
      const [, label, bytes] = /^(.*?)\s+(\d+ B)$/.exec(line);
      rows.push({ label: `  ${label}`, value: bytes });
    }
  }
  return rows;
}
