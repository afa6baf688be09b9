// The /node/ page: the round trip of node_run_command `node -e "1"` — the call through ai-ops, the
// runner's spawn of a real Node process (permission model flags included), its output stream and
// exit, the file-tree refresh after it. Real Chromium, real demo server and runner, calls through
// navigator.modelContextTesting.executeTool (the path the relay widget uses).
export const name = 'node page: node_run_command round trip';

const RUNS = 10;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const ms = (x) => `${Math.round(x).toLocaleString('en-US')} ms`;

export async function run({ demo, browser }) {
  const page = await browser.context.newPage();
  await page.goto(`${demo.origin}/node/?id=bench`);
  const input = page.locator('ai-ops-switch[tool="node"] input[role="switch"]');
  if (!(await input.isChecked())) await input.click();
  await page.waitForFunction(() => navigator.modelContextTesting?.listTools().some((tool) => tool.name === 'node_run_command'), null, { timeout: 30_000 });
  const times = await page.evaluate(async (runs) => {
    const t = navigator.modelContextTesting;
    const args = JSON.stringify({ command: 'node', args: ['-e', '1'] });
    const call = async () => JSON.parse(JSON.parse(await t.executeTool('node_run_command', args)).content[0].text);
    // The runtime boots at page load: not_ready until it has.
    for (;;) {
      const first = await call();
      if (first.ok) break;
      if (first.error?.code !== 'not_ready') throw new Error(JSON.stringify(first));
      await new Promise((r) => setTimeout(r, 20));
    }
    const out = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const envelope = await call();
      if (envelope.exitCode !== 0) throw new Error(JSON.stringify(envelope));
      out.push(performance.now() - started);
    }
    return out;
  }, RUNS);
  await page.close();
  return [
    { label: `node_run_command \`node -e "1"\`, p50 (n=${RUNS})`, value: ms(pct(times, 0.5)) },
    { label: `node_run_command \`node -e "1"\`, p95 / max`, value: `${ms(pct(times, 0.95))} / ${ms(Math.max(...times))}` },
  ];
}
