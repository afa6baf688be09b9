// Runs the element suites in one other engine (web-test-runner.engines.config.mjs):
//   node scripts/wtr-engine.mjs firefox [web-test-runner arguments…]
//   node scripts/wtr-engine.mjs webkit  [web-test-runner arguments…]
// For WebKitGTK it starts what MiniBrowser needs and stops it afterwards: an X server (Xvfb, on a
// display it picks itself) and WebKitWebDriver on a free port. A browser, server or driver that does
// not start ends the run with a non-zero exit: never a skip.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Where Debian's packages put what each engine needs (scripts/setup.sh installs them). */
export const ENGINE_NEEDS = {
  firefox: { apt: ['firefox-esr'] },
  webkit: { apt: ['webkit2gtk-driver', 'xvfb'] },
};

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

/**
 * Starts Xvfb on a free display (`-displayfd`: the server writes the number it took once it listens).
 * @returns {Promise<{display: string, stop: () => void}>}
 */
export function startXvfb({ timeoutMs = 20_000 } = {}) {
  return new Promise((resolve, reject) => {
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let err = '';
    let number = '';
    const timer = setTimeout(() => { xvfb.kill('SIGKILL'); reject(new Error(`Xvfb did not start within ${timeoutMs} ms: ${err}`)); }, timeoutMs);
    xvfb.stderr.on('data', (chunk) => { err += chunk; });
    xvfb.once('error', (error) => { clearTimeout(timer); reject(new Error(`Xvfb could not start (apt: xvfb): ${error.message}`)); });
    xvfb.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Xvfb exited (${code}) before it listened: ${err}`)); });
    xvfb.stdio[3].on('data', (chunk) => {
      number += chunk;
      if (!number.includes('\n')) return;
      clearTimeout(timer);
      xvfb.removeAllListeners('exit');
      resolve({ display: `:${number.trim()}`, stop: () => xvfb.kill('SIGTERM') });
    });
  });
}

/**
 * Starts WebKitWebDriver on a free port with `display`, and waits until it answers `/status`.
 * @returns {Promise<{port: number, stop: () => void}>}
 */
export async function startWebKitDriver({ display, timeoutMs = 20_000 }) {
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DISPLAY: display } });
  let err = '';
  driver.stderr.on('data', (chunk) => { err += chunk; });
  const exited = new Promise((_, reject) => {
    driver.once('error', (error) => reject(new Error(`WebKitWebDriver could not start (apt: webkit2gtk-driver): ${error.message}`)));
    driver.once('exit', (code) => reject(new Error(`WebKitWebDriver exited (${code}): ${err}`)));
  });
  const ready = (async () => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/status`);
        if (answer.ok) return;
      } catch { /* not listening yet */ }
      if (Date.now() > end) throw new Error(`WebKitWebDriver did not answer on port ${port} within ${timeoutMs} ms: ${err}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    driver.kill('SIGKILL');
    throw error;
  }
  exited.catch(() => {});
  return { port, stop: () => driver.kill('SIGTERM') };
}

/**
 * Runs web-test-runner in `engine` with `args`; resolves with its exit code.
 * @param {'firefox' | 'webkit'} engine
 * @param {string[]} args
 */
export async function runEngine(engine, args = []) {
  if (!Object.hasOwn(ENGINE_NEEDS, engine)) throw new Error(`engine must be one of ${Object.keys(ENGINE_NEEDS).join(', ')}, not ${engine}`);
  const stops = [];
  const env = { ...process.env, AI_OPS_ENGINE: engine };
  const stopAll = () => { for (const stop of stops.splice(0).reverse()) stop(); };
  try {
    if (engine === 'webkit') {
      const xvfb = await startXvfb();
      stops.push(xvfb.stop);
      const driver = await startWebKitDriver({ display: xvfb.display });
      stops.push(driver.stop);
      Object.assign(env, { DISPLAY: xvfb.display, AI_OPS_WEBKIT_DRIVER_PORT: String(driver.port) });
    }
    const wtr = spawn('npx', ['web-test-runner', '--config', 'web-test-runner.engines.config.mjs', ...args], { stdio: 'inherit', env });
    const onSignal = (signal) => wtr.kill(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const code = await new Promise((resolve) => {
      wtr.once('error', () => resolve(127));
      wtr.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    return code;
  } finally {
    stopAll();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [engine, ...args] = process.argv.slice(2);
  try {
    process.exitCode = await runEngine(engine, args);
  } catch (error) {
    console.error(`${engine}: ${error.message}`);
    process.exitCode = 1;
  }
}
