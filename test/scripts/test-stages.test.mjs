// How `npm test` runs the end-to-end suites (NAT-3, UV-6, issue 36): every test/e2e suite once in
// the plain run, and again with the browser's own WebMCP on — except the agents' suites, whose
// browser always has its own WebMCP, and the relay's real-time proofs, which run once and must
// exist; the Firefox end to end once. The runs are dealt over lanes that run side by side, each
// e2e lane in a network namespace of its own (a page's relay widget would find another lane's relay).
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { stages, AGENT_SUITES, RELAY_TIME_SUITES, isolated } from '../../scripts/test.mjs';
import { deal, inOwnNetwork } from '../../scripts/test-shards.mjs';

const suites = readdirSync(new URL('../e2e', import.meta.url)).filter((f) => f.endsWith('.test.mjs')).sort();
const firefox = readdirSync(new URL('../e2e-firefox', import.meta.url)).filter((f) => f.endsWith('.test.mjs')).sort();

/** The suites the stages whose name starts `prefix` run, each as often as it is listed. */
const runBy = (prefix) => stages.filter((s) => s.name.startsWith(`${prefix} (`)).flatMap((s) => s.cmd.filter((c) => c.startsWith('test/e2e')).map((c) => c.split('/').pop())).sort();

test('[NAT-3] [UV-6] every e2e suite runs exactly once plain, once with WebMCP on but the agents\' ones and the relay\'s real-time proofs, the Firefox end to end once', () => {
  assert.deepEqual(runBy('e2e'), suites);
  assert.deepEqual(runBy('e2e, WebMCP on'), suites.filter((f) => !AGENT_SUITES.includes(f) && !RELAY_TIME_SUITES.includes(f)));
  assert.deepEqual(runBy('e2e, Firefox'), firefox);
  for (const stage of stages.filter((s) => s.name.startsWith('e2e, WebMCP on'))) assert.equal(stage.env.AI_OPS_BROWSER_MODE, 'webmcp');
  for (const f of [...AGENT_SUITES, ...RELAY_TIME_SUITES]) assert.ok(existsSync(new URL(`../e2e/${f}`, import.meta.url)), `${f} exists`);
  assert.deepEqual([...RELAY_TIME_SUITES].sort(), ['relay-confirm.test.mjs', 'sample-relay.test.mjs']);
  assert.deepEqual([...AGENT_SUITES].sort(), ['attack-agents.test.mjs', 'attack-person.test.mjs', 'attack-restore.test.mjs', 'attack-storage.test.mjs', 'batch-playwright-mcp.test.mjs', 'devtools-mcp.test.mjs', 'playwright-mcp.test.mjs']);
});

test('[issue-36 lanes] e2e stages outside the Node lane each run in a network namespace of their own; the Node lane keeps the machine\'s network', () => {
  const e2e = stages.filter((s) => s.name.startsWith('e2e'));
  assert.ok(e2e.length > 0);
  for (const stage of e2e) {
    const own = stage.cmd[0] === 'unshare';
    assert.equal(own, stage.lane !== 'node', `${stage.name} runs ${own ? 'in its own network' : 'on the machine\'s'}`);
  }
  assert.ok(isolated || e2e.every((s) => s.lane === 'node'), 'without namespaces every e2e stage runs in the Node lane');
});

test('[issue-36 lanes] deal: every unit in exactly one lane, longest first to the lane that ends soonest', () => {
  const units = [3, 9, 1, 4, 4, 7].map((seconds, i) => ({ id: i, seconds }));
  const lanes = deal(units, 2, [5]);
  assert.deepEqual(lanes.flat().map((u) => u.id).sort(), [0, 1, 2, 3, 4, 5]);
  // 9 → lane 1 (0 < 5); 7 → lane 0 (5 < 9); 4 → lane 1 (9 < 12); 4 → lane 0 (12 < 13); 3 → lane 1; 1 → lane 0.
  assert.deepEqual(lanes.map((l) => l.map((u) => u.seconds)), [[7, 4, 1], [9, 4, 3]]);
});

test('[issue-36 lanes] a command in its own network namespace cannot reach a port listening outside it', async () => {
  assert.ok(isolated, 'this machine cannot make a network namespace (unshare --net as root, ip from iproute2): npm test runs every e2e suite in one lane');
  const server = createServer((socket) => socket.end()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  const probe = [process.execPath, '-e', `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('reached'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })`];
  const run = ([cmd, ...args]) => spawnSync(cmd, args, { encoding: 'utf8' }).stdout.trim();
  try {
    // On the machine's network the probe reaches the port (the kernel completes the connection
    // while this process waits); in the namespace it is refused: the refusal is the namespace's.
    assert.equal(run(probe), 'reached');
    assert.equal(run(inOwnNetwork(probe)), 'ECONNREFUSED');
  } finally {
    server.close();
  }
});
