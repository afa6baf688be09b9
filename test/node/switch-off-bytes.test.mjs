// PKG-4: while every switch is off, a page loads at most 12 KB (min+gzip) of ai-ops and Lit; a
// failure prints where the bytes come from, file by file. The same budget asserted on what a real page fetches is
// test/e2e/switch-off-page.test.mjs; the in-browser view (no vendor file, no log or dialog code before the click) is also in
// test/consumers/package.test.mjs and test/elements/define-on-demand.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SWITCH_OFF_BUDGET, measureSwitchOff, sourceTable } from './switch-off-bytes.lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

test('[PKG-4] [UV-7] a page whose switches are all off loads at most 12 KB (min+gzip) of ai-ops and Lit, and no log, dialog or verification code', async (t) => {
  const measured = await measureSwitchOff(root);
  const table = sourceTable(measured);
  t.diagnostic(`switch off: ${measured.total} B in ${measured.files.length} files (${measured.files.map((f) => `${f.file} ${f.gzip}`).join(', ')}); budget ${SWITCH_OFF_BUDGET} B`);
  assert.ok(measured.files.every((f) => !/ai-ops-(log|confirm)-/.test(f.file)), 'the log and the dialog are not in what loads while off');
  // UV-7: the WebAuthn verifier, the consent gate and the proofs load with the call path, on demand.
  const verification = measured.sources.filter((s) => /src\/(user-verifier|consent-gate|consent-proof|verify)\.ts$/.test(s.source));
  assert.deepEqual(verification, [], 'no verification code loads while every switch is off');
  assert.ok(measured.sources.some((s) => s.source === 'src/tool-session.ts'), 'the measure reads the sources (a check that cannot pass empty)');
  assert.ok(measured.total <= SWITCH_OFF_BUDGET,
    `${(measured.total / 1024).toFixed(1)} KB loads while every switch is off, over the ${SWITCH_OFF_BUDGET / 1024} KB budget by ${measured.total - SWITCH_OFF_BUDGET} B. Where the bytes come from (gzip share):\n${table.join('\n')}`);
});
