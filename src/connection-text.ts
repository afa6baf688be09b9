/**
 * How an agent reaches this page (LOG-2): the relay command and the MCP client configuration, as
 * the text the log shows. Pure, so the words a user copies are tested without an element.
 * @module
 */

import { DEFAULT_RELAY_PORT } from './defaults.js';

// The relay's default port: the widget tries it first, and the command leaves it unsaid.
export { DEFAULT_RELAY_PORT };

/** What {@link relayConnectionText} returns. */
export interface RelayConnectionText {
  /** The relay's arguments after `npx`. */
  readonly args: readonly string[];
  /** The command to start the relay, e.g. `npx --offline --no-install ai-ops-relay --widget-origin https://…`. */
  readonly command: string;
  /** An MCP client configuration that starts the same relay, as indented JSON. */
  readonly config: string;
}

/**
 * The relay command and MCP configuration for a page at `origin` whose widget uses `port`.
 * `--no-install`: npx runs the installed package and never fetches one of that name (PKG-2);
 * `--offline`: where none is installed it fails at once instead of asking the registry first (FIRST-7).
 * @example
 * relayConnectionText('http://localhost:5173', 9400).command
 * // 'npx --offline --no-install ai-ops-relay --widget-origin http://localhost:5173 --port 9400'
 */
export function relayConnectionText(origin: string, port: number = DEFAULT_RELAY_PORT): RelayConnectionText {
  const args = ['--offline', '--no-install', 'ai-ops-relay', '--widget-origin', origin, ...(port === DEFAULT_RELAY_PORT ? [] : ['--port', String(port)])];
  return {
    args,
    command: `npx ${args.join(' ')}`,
    config: JSON.stringify({ mcpServers: { 'ai-ops': { command: 'npx', args } } }, null, 2),
  };
}
