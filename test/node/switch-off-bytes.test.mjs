// PKG-4: while every switch is off, a page loads at most 12 KB (min+gzip) of ai-ops and Lit. Not
// met yet: today's build loads 12.1 KB (README, Development). This test holds the line there —
// no log or dialog code, and no growth past SWITCH_OFF_CEILING — and prints how far from the budget
// the build is and where the bytes come from. The in-browser view of the same (no vendor file, no log or dialog code before the click) is in
// test/consumers/package.test.mjs and test/elements/define-on-demand.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SWITCH_OFF_BUDGET, SWITCH_OFF_CEILING, measureSwitchOff, sourceTable } from './switch-off-bytes.lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

test('[PKG-4] while every switch is off a page loads no log or dialog code, and no more ai-ops and Lit than today\'s ceiling (the 12 KB budget itself is not met yet)', async (t) => {
  const measured = await measureSwitchOff(root);
  const table = sourceTable(measured);
  t.diagnostic(`switch off: ${measured.total} B in ${measured.files.length} files (${measured.files.map((f) => `${f.file} ${f.gzip}`).join(', ')})`);
  const distance = measured.total - SWITCH_OFF_BUDGET;
  t.diagnostic(distance > 0 ? `PKG-4 NOT MET: ${distance} B over the ${SWITCH_OFF_BUDGET / 1024} KB budget; by source (gzip share):\n${table.join('\n')}` : `PKG-4 met, ${-distance} B to spare: lower or remove SWITCH_OFF_CEILING`);
  assert.ok(measured.files.every((f) => !/ai-ops-(log|confirm)-/.test(f.file)), 'the log and the dialog are not in what loads while off');
  assert.ok(measured.total <= SWITCH_OFF_CEILING,
    `${measured.total} B loads while every switch is off, more than today's ceiling of ${SWITCH_OFF_CEILING} B (and ${distance} B over PKG-4's ${SWITCH_OFF_BUDGET / 1024} KB). Where the bytes come from (gzip share):\n${table.join('\n')}`);
});
