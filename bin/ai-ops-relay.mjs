#!/usr/bin/env node
// The relay command agents run (RELAY-2): webmcp-local-relay 2.2.0 with the same flags, but a bridge
// timeout long enough for a 50 s confirmation or a 120 s run plus engine load. The stock CLI has no
// flag for it and cuts every call at 25 s (PLATFORM-NOTES). Its door (DOOR-1..DOOR-4,
// bin/relay-door.mjs) lets in only the pages of --widget-origin and other guarded relays.
//   npx ai-ops-relay --widget-origin http://localhost:8000 [--port 9333]
import * as relayPackage from '@mcp-b/webmcp-local-relay';
import { guardRelayBridge, missingRelayParts, probeDoor, relayHandshake, ORIGIN_FLAGS } from './relay-door.mjs';
import { PairingBook, runtimeDir, writeRelaySecret, readRelaySecret, pairingWords } from './relay-pairing.mjs';

/** Bridge timeout: above the served widget's host limit of 300 s would be pointless; 295 s leaves the widget's error unused. */
export const INVOKE_TIMEOUT_MS = 295_000;

const say = (line) => process.stderr.write(`[ai-ops-relay] ${line}\n`);
const fail = (line) => {
  say(`error: ${line}`);
  process.exit(1);
};
const { LocalRelayMcpServer, RelayBridgeServer, parseCliOptions, printHelp } = relayPackage;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  printHelp();
  process.exit(0);
}

// DOOR-3: every part of the package the door leans on is there, or no relay at all.
const missing = missingRelayParts(relayPackage);
if (missing.length) {
  fail(`refusing to start: @mcp-b/webmcp-local-relay lacks what the relay's door needs (ai-ops pins 2.2.0):\n  - ${missing.join('\n  - ')}`);
}

let options;
try {
  options = parseCliOptions(argv);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
// DOOR-1: `*` only when given. 2.2.0 assumes it when no origin flag (or an empty one) is passed.
const starGiven = argv.some((token, i) => ORIGIN_FLAGS.includes(argv[i - 1]) && token.split(',').map((s) => s.trim()).includes('*'));
if (options.allowedOrigins.includes('*') && !starGiven) {
  fail('pass --widget-origin <your page origin> (e.g. --widget-origin http://localhost:8000): the relay serves only the pages it names. (--widget-origin \'*\' accepts every page origin, and says so.)');
}
if (options.allowedOrigins.includes('*')) {
  say('WARNING: accepting every page origin; pass --widget-origin <your page origin>.');
}
// A browser sends the origin without a path or trailing slash: `http://localhost:8000/` means that.
const allowedOrigins = options.allowedOrigins.map((origin) => {
  if (origin === '*') return origin;
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
});

// DOOR-6, DOOR-7: the per-start secret and the pairings live in the user's runtime directory, in
// files only the user can read (bin/relay-pairing.mjs says where and why).
let dir;
try {
  dir = runtimeDir();
} catch (error) {
  fail(`refusing to start: the relay's runtime directory is not private: ${error instanceof Error ? error.message : String(error)} (AI_OPS_RELAY_RUNTIME_DIR names another)`);
}
const book = new PairingBook(dir);
/** The MCP client's clientInfo from its initialize (DOOR-10), once it connected. */
let relay;
const clientInfo = () => {
  const info = relay?.mcpServer?.server?.getClientVersion?.();
  return info && typeof info.name === 'string' ? { name: info.name, version: String(info.version ?? '') } : null;
};
const GuardedRelayBridge = guardRelayBridge(RelayBridgeServer, {
  log: say, runtimeDir: dir, book, client: clientInfo, writeSecret: (port) => writeRelaySecret(dir, port),
});
const bridge = new GuardedRelayBridge({
  host: options.host,
  port: options.port,
  portExplicitlySet: options.portExplicitlySet,
  allowedOrigins,
  ...(options.label ? { label: options.label } : {}),
  ...(options.relayId ? { relayId: options.relayId } : {}),
  ...(options.workspace ? { workspace: options.workspace } : {}),
  invokeTimeoutMs: INVOKE_TIMEOUT_MS,
});
relay = new LocalRelayMcpServer({ bridge });

relay.registerStaticTool({
  name: 'ai_ops_pair',
  description: 'Pairs an ai-ops page with this relay: returns a one-time code (2 minutes, single use) and the exact words to tell the user, who enters it in the page. Call it when the user asks to connect a page, or when no page tools are listed.',
  inputShape: {},
  handler: async () => {
    const { code } = book.issueCode(clientInfo());
    say(`pairing code for the user: ${code} (2 minutes, once)`);
    return { content: [{ type: 'text', text: pairingWords(code) }] };
  },
});

try {
  await relay.start();
  // DOOR-3: the door as a page or a relay meets it, not only its parts: a relay that let either
  // probe through would be running unguarded.
  if (relay.bridge.mode === 'server' && ((await probeDoor(options.host, relay.bridge.port)) !== 'guarded'
    || !(await relayHandshake(options.host, relay.bridge.port, readRelaySecret(dir, relay.bridge.port) ?? Buffer.alloc(0)).then((ws) => {
      ws?.close();
      return ws !== null;
    })))) {
    await relay.stop().catch(() => {});
    fail(`refusing to run: the door on port ${relay.bridge.port} did not hold (the relay package no longer takes its hooks)`);
  }
  await relay.startStdio();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  // 2.2.0's own words for a fixed port held by something else name the port, not the way out.
  fail(/already in use/.test(message) ? `${message} Run the relay on another port: --port <n>.` : message);
}
say(`${relay.bridge.mode} mode on ws://${options.host}:${relay.bridge.port} (origins: ${allowedOrigins.join(', ')})`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  try {
    await relay.stop();
  } finally {
    process.exit(0);
  }
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
// The stock relay keeps running when its client goes away; an agent's relay should not.
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
