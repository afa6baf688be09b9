// UV-13: the README states the threat model as a table — who reaches the page how (L0 tool calls,
// L1 trusted input, L1s storage-only writes, L2 script in the page, L3 raw CDP, L4 the OS, and the
// relay's port) and what consent holds against each — and, for each agent it configures, the
// setting that keeps it at L0–L1. (That DevTools MCP still serves the page with the README's flags
// is proven in test/e2e/devtools-mcp.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

// The README and the docs it links to, read as one text (the threat table is in docs/security.md,
// the agents' configs in docs/agents.md).
const readme = (await Promise.all(['README.md', 'docs/security.md', 'docs/agents.md'].map((f) => readFile(new URL(`../../${f}`, import.meta.url), 'utf8')))).join('\n');

test('[UV-13] the README\'s threat-model table has a row for each level and says what consent holds there', () => {
  const rows = readme.split('\n').filter((line) => /^\| (L[0-4]s?|relay) \|/.test(line));
  const levels = rows.map((line) => line.split('|')[1].trim());
  assert.deepEqual(levels, ['L0', 'L1', 'L1s', 'L2', 'L3', 'L4', 'relay']);
  for (const row of rows) assert.equal(row.split('|').filter((cell) => cell.trim()).length, 4, row);
  const cell = (level) => rows.find((r) => r.startsWith(`| ${level} |`)).split('|')[4];
  for (const level of ['L0', 'L1', 'L1s']) assert.match(cell(level), /^\s*Everything/, `${level}: consent holds`);
  for (const level of ['L2', 'L3', 'L4']) assert.match(cell(level), /^\s*Nothing/, `${level}: said plainly that it does not`);
  assert.match(rows.find((r) => r.startsWith('| L2 |')), /browser_evaluate.*browser_run_code_unsafe.*evaluate_script/);
  assert.match(cell('relay'), /forge an `Origin` header/);
  // The two sentences issue 34 found untrue are gone.
  assert.doesNotMatch(readme, /a program that writes localStorage over CDP turns\s+nothing on/);
  assert.doesNotMatch(readme, /A browser they\s+drive says so \(`navigator\.webdriver`\)/);
});

test('[UV-13] each agent the README configures carries the setting that keeps it at L0–L1', () => {
  const devtools = JSON.parse(/^(\{ "mcpServers": \{ "chrome-devtools".*\})$/m.exec(readme)[1]).mcpServers['chrome-devtools'];
  assert.ok(devtools.args.includes('--no-javascript-evaluation'), 'DevTools MCP without evaluate_script');
  const deny = JSON.parse(/^(\{ "permissions": \{ "deny".*\})$/m.exec(readme)[1]).permissions.deny;
  // AGENT-4: and every capability tool that reaches L2 or L3.
  assert.deepEqual(deny, ['mcp__playwright__browser_evaluate', 'mcp__playwright__browser_run_code_unsafe', 'mcp__playwright__browser_set_storage_state', 'mcp__playwright__browser_route']);
  assert.match(readme, /do not give it `--caps=devtools`/);
});

test('[AGENT-4] the threat table names Playwright MCP\'s capabilities with their levels, and no sentence says IndexedDB is out of a storage writer\'s reach or that no config offers L3', () => {
  const row = (level) => readme.split('\n').find((line) => line.startsWith(`| ${level} |`));
  assert.match(row('L1s'), /--caps=storage.*browser_set_storage_state/);
  assert.match(row('L2'), /--caps=network.*browser_route/);
  assert.match(row('L3'), /--caps=storage.*browser_set_storage_state.*credentials/);
  assert.match(row('L1'), /--caps=devtools/);
  assert.match(row('L3'), /raised bar, not a guarantee/);
  assert.doesNotMatch(readme, /IndexedDB, which such a program cannot write/);
  assert.doesNotMatch(readme, /No agent config here offers it/);
});
