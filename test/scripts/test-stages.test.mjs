// How `npm test` counts the end-to-end suites (NAT-3, UV-6): every test/e2e suite runs in the
// plain run (the `node` stage takes the folder), and again in the WebMCP-on run — except the
// agents' suites, whose browser always has its own WebMCP, and the relay's real-time proofs
// (issue 36), which run once and must exist.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { stages, AGENT_SUITES, RELAY_TIME_SUITES } from '../../scripts/test.mjs';

const suites = readdirSync(new URL('../e2e', import.meta.url)).filter((f) => f.endsWith('.test.mjs')).sort();

test('[NAT-3] [UV-6] the WebMCP-on stage runs every e2e suite but the agents\' ones and the relay\'s real-time proofs; the node stage runs the whole folder; each of those exists', () => {
  const node = stages.find((s) => s.name === 'node');
  assert.ok(node.cmd.includes('test/e2e/'));
  const webmcp = stages.find((s) => s.name === 'e2e, WebMCP on');
  assert.equal(webmcp.env.AI_OPS_BROWSER_MODE, 'webmcp');
  const listed = webmcp.cmd.filter((c) => c.startsWith('test/e2e/')).map((c) => c.slice('test/e2e/'.length));
  assert.deepEqual(listed, suites.filter((f) => !AGENT_SUITES.includes(f) && !RELAY_TIME_SUITES.includes(f)));
  for (const f of [...AGENT_SUITES, ...RELAY_TIME_SUITES]) assert.ok(existsSync(new URL(`../e2e/${f}`, import.meta.url)), `${f} exists`);
  assert.deepEqual([...RELAY_TIME_SUITES].sort(), ['relay-confirm.test.mjs', 'sample-relay.test.mjs']);
  assert.deepEqual([...AGENT_SUITES].sort(), ['attack-agents.test.mjs', 'attack-person.test.mjs', 'attack-storage.test.mjs', 'batch-playwright-mcp.test.mjs', 'devtools-mcp.test.mjs', 'playwright-mcp.test.mjs']);
});
