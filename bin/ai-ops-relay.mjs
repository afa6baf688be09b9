#!/usr/bin/env node
// The relay command agents run (RELAY-2): webmcp-local-relay 2.2.0 with the same flags, but a bridge
// timeout long enough for a 50 s confirmation or a 120 s run plus engine load. The stock CLI has no
// flag for it and cuts every call at 25 s (PLATFORM-NOTES).
//   npx ai-ops-relay --widget-origin http://localhost:8000 [--port 9333]
import { LocalRelayMcpServer, parseCliOptions, printHelp } from '@mcp-b/webmcp-local-relay';

/** Bridge timeout: above the served widget's host limit of 300 s would be pointless; 295 s leaves the widget's error unused. */
export const INVOKE_TIMEOUT_MS = 295_000;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  printHelp();
  process.exit(0);
}

let options;
try {
  options = parseCliOptions(argv);
} catch (error) {
  process.stderr.write(`[ai-ops-relay] error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
if (options.allowedOrigins.includes('*')) {
  process.stderr.write('[ai-ops-relay] WARNING: accepting every page origin; pass --widget-origin <your page origin>.\n');
}

const relay = new LocalRelayMcpServer({
  bridgeOptions: {
    host: options.host,
    port: options.port,
    portExplicitlySet: options.portExplicitlySet,
    allowedOrigins: options.allowedOrigins,
    ...(options.label ? { label: options.label } : {}),
    ...(options.relayId ? { relayId: options.relayId } : {}),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    invokeTimeoutMs: INVOKE_TIMEOUT_MS,
  },
});

try {
  await relay.start();
  await relay.startStdio();
} catch (error) {
  process.stderr.write(`[ai-ops-relay] error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
process.stderr.write(`[ai-ops-relay] ${relay.bridge.mode} mode on ws://${options.host}:${relay.bridge.port} (origins: ${options.allowedOrigins.join(', ')})\n`);

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
