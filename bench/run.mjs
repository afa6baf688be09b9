// `npm run bench`: measurements printed side by side from one run (this machine is noisy, so every
// comparison is measured in the same run, interleaved where it can be). Builds first if needed.
// Each file in bench/sections/ exports `name` and `run(ctx)` returning rows to print.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { execSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startDemo, launchBrowser } from '../test/e2e/harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'dist/site/ai-ops/ai-ops.js')) || process.argv.includes('--build')) {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const demo = await startDemo();
const browser = await launchBrowser();
const ctx = { root, demo, browser };
let failures = 0;
try {
  const files = (await readdir(join(root, 'bench/sections'))).filter((f) => f.endsWith('.mjs')).sort();
  for (const file of files) {
    const section = await import(pathToFileURL(join(root, 'bench/sections', file)).href);
    if (only.length && !only.some((o) => file.includes(o))) continue;
    console.log(`\n## ${section.name}`);
    try {
      for (const row of await section.run(ctx)) {
        const verdict = row.budget === undefined ? '' : row.ok ? `  ✓ budget ${row.budget}` : `  ✗ over budget ${row.budget}`;
        if (row.ok === false) failures++;
        console.log(`${row.label.padEnd(58)} ${row.value}${verdict}`);
      }
    } catch (error) {
      failures++;
      console.log(`  failed: ${error instanceof Error ? error.stack : error}`);
    } finally {
      // A page left open would keep its switch on and reach the next section's relay as a second tab.
      for (const page of browser.context.pages()) await page.close().catch(() => {});
    }
  }
} finally {
  await browser.close();
  await demo.close();
}
process.exit(failures ? 1 : 0);
