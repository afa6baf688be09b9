/**
 * The WebMCP side: the polyfill, the relay embed, and registration (REG-1, RELAY-3, RELAY-4,
 * RELAY-5, SW-6, SW-7). Relay 2.2.0 facts this module answers (PLATFORM-NOTES):
 * - `execute` must return a CallToolResult whose single text item is the envelope's JSON string,
 *   with `isError: true` when `ok` is false (RELAY-3);
 * - embed.js subscribes with `registerToolsChangedCallback`, which polyfill 5.1.0 lacks, so a shim
 *   is installed before embed.js (RELAY-4);
 * - a relay started after the page is only found when the widget is re-created (RELAY-5);
 * - Chromium delays every new WebSocket of a page by 1–5 s once that page's process has seen about
 *   16 failed ones in the last 2–4 minutes, and the widget's scan fails 33 per round while no relay
 *   runs. So in `probe` discovery the widget is added idle and told to connect only once something
 *   answers HTTP on the relay port: no failed WebSocket, and a relay started later is reached at once
 *   (RELAY-5).
 * @module
 */
import type { ScriptLoader } from './script-loader.js';

/** A CallToolResult as the relay and MCP clients expect it. */
export interface CallToolResult {
  content: [{ type: 'text'; text: string }];
  isError?: true;
}

/** The tool shape `registerTool` takes. */
export interface ModelContextTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, boolean>;
  execute: (args: unknown) => Promise<CallToolResult>;
}

/** The part of `document.modelContext` ai-ops uses. */
export interface ModelContextLike {
  registerTool(tool: ModelContextTool, options?: { signal?: AbortSignal }): Promise<void> | void;
}

/** `navigator.modelContextTesting`, as the polyfill installs it. */
export interface ModelContextTestingLike extends EventTarget {
  listTools(): { name: string; description: string; inputSchema?: string }[];
  executeTool(name: string, inputArgsJson: string): Promise<string | null>;
  registerToolsChangedCallback?: (callback: () => void) => void;
}

/** Where the vendor files are and which relay port the widget tries first. */
export interface RelayOptions {
  /** URL of the folder holding `mcp-b-global.js` and `relay/embed.js`; default `/ai-ops/vendor/`. */
  assetsBase?: string;
  /** The relay's port (`data-relay-port`); default 9333. */
  relayPort?: number;
}

/** Connection to the polyfill and the relay widget, shared by the tools of one page. */
export interface RelayConnector {
  /** Loads the polyfill (once, even when the browser has `document.modelContext`: SW-6). */
  ensureModelContext(): Promise<ModelContextLike>;
  /** Adds the relay widget if it is not there. */
  connect(): Promise<void>;
  /** Removes the widget (its WebSocket closes) and adds a new one (RELAY-5). */
  reconnect(): Promise<void>;
  /** Removes the widget: no connection to the relay while every switch is off (SW-7). */
  disconnect(): void;
  /** True once the widget asked for the tool list since it was last (re)created: it reached a relay. */
  isConnected(): boolean;
  /**
   * `probe` discovery: when no relay answered yet and something answers HTTP on the relay port,
   * tells the widget to connect (a widget told before that reached nothing is re-created). Resolves
   * true when it told it. Does nothing in `widget` discovery.
   */
  discover(): Promise<boolean>;
}

const WIDGET_SELECTOR = '[data-webmcp-relay]';

/** Options of {@link createRelayConnector}. */
export interface RelayConnectorOptions extends RelayOptions {
  loader: ScriptLoader;
  window?: Window;
  /**
   * `widget` (default): the widget searches for a relay as soon as it is added, and keeps searching.
   * `probe`: the widget is added idle; {@link RelayConnector.discover} starts it once the relay port answers.
   */
  discovery?: 'widget' | 'probe';
}

type ModelContextWindow = Window & {
  __webModelContextOptions?: unknown;
};

/**
 * Creates the connector. Nothing is loaded until `ensureModelContext` or `connect` is called.
 * @example
 * const relay = createRelayConnector({ loader: createDomScriptLoader(), relayPort: 9333 });
 * const modelContext = await relay.ensureModelContext();
 */
export function createRelayConnector(options: RelayConnectorOptions): RelayConnector {
  const win = (options.window ?? window) as ModelContextWindow;
  const doc = win.document;
  const base = new URL(options.assetsBase ?? '/ai-ops/vendor/', doc.baseURI);
  const port = String(options.relayPort ?? 9333);
  let polyfill: Promise<ModelContextLike> | null = null;
  let connected = false;
  let embedding: Promise<void> | null = null;
  const probing = options.discovery === 'probe';
  // The widget last told to connect, and when: once told, it ignores another request.
  let told: Element | null = null;
  let toldAt = 0;
  // The widget a discovery is running for.
  let discovering: Element | null = null;

  // The widget asks the page for its tools right after it reached a relay; seeing that request is
  // the only sign of a live connection the relay scripts give the page.
  win.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown } | null;
    if (event.origin === win.location.origin && data?.type === 'webmcp.tools.list.request') connected = true;
  });

  const load = async (): Promise<ModelContextLike> => {
    // The polyfill's tab transport accepts postMessage from any origin unless told otherwise;
    // only this page's own origin (e.g. a browser extension's content script) may talk to it.
    win.__webModelContextOptions ??= { transport: { tabServer: { allowedOrigins: [win.location.origin] } } };
    // Loaded once per document, even by several runtimes (or copies of this library): running the
    // polyfill twice would replace the registry that holds the tools already registered.
    const existing = doc.querySelector<HTMLScriptElement>('script[data-ai-ops-polyfill]');
    if (existing?.dataset.aiOpsPolyfill === 'loaded') {
      // loaded by another runtime of this page
    } else if (existing) {
      await new Promise<void>((resolve, reject) => {
        existing.addEventListener('load', () => resolve(), { once: true });
        existing.addEventListener('error', () => reject(new Error(`could not load ${existing.src}`)), { once: true });
      });
    } else {
      const script = await options.loader.load(new URL('mcp-b-global.js', base).href, { 'data-ai-ops-polyfill': '' });
      script.dataset.aiOpsPolyfill = 'loaded';
    }
    const modelContext = (doc as Document & { modelContext?: ModelContextLike }).modelContext;
    if (!modelContext || typeof modelContext.registerTool !== 'function') {
      throw new Error('the WebMCP polyfill loaded but document.modelContext.registerTool is missing');
    }
    installToolsChangedShim(win);
    return modelContext;
  };

  const addWidget = async () => {
    const attributes: Record<string, string> = { 'data-relay-port': port, 'data-ai-ops-relay': '' };
    if (probing) attributes['data-auto-connect'] = 'false';
    await options.loader.load(new URL('relay/embed.js', base).href, attributes);
  };

  /** Resolves once the widget's document ran (its message listener is there), or after 10 s. */
  const loaded = (frame: HTMLIFrameElement) =>
    new Promise<void>((resolve) => {
      let ready = false;
      try {
        ready = frame.contentDocument?.readyState === 'complete' && frame.contentWindow?.location.href !== 'about:blank';
      } catch {
        // another origin: wait for its load event
      }
      if (ready) return resolve();
      frame.addEventListener('load', () => resolve(), { once: true });
      win.setTimeout(resolve, 10_000);
    });

  // Anything listening answers (the relay's WebSocket server says 426); a closed port rejects. A
  // failed fetch does not count towards the WebSocket throttle. Sent from the widget's document:
  // the page's CSP may allow only ws: to the relay, and the widget frame carries the local-network
  // permissions the page delegates to it.
  const probe = (frame: HTMLIFrameElement) => {
    let context: Window = win;
    try {
      if (frame.contentWindow?.fetch) context = frame.contentWindow;
    } catch {
      // another origin: probe from the page
    }
    return context
      .fetch(`http://127.0.0.1:${port}/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(3000) })
      .then(() => true, () => false);
  };

  /** The widget once loaded, unless it went away or a relay answered meanwhile. */
  const ready = async (frame: HTMLIFrameElement | null) => {
    if (frame) await loaded(frame);
    return frame?.isConnected && !connected ? frame : null;
  };

  const discover = async (): Promise<boolean> => {
    const current = doc.querySelector<HTMLIFrameElement>(WIDGET_SELECTOR);
    if (!probing || connected || !current || current === discovering || (current === told && Date.now() - toldAt < 10_000)) return false;
    discovering = current;
    try {
      let frame = await ready(current);
      if (!frame || !(await probe(frame)) || !frame.isConnected || connected) return false;
      if (frame === told) {
        removeWidget();
        await addWidget();
        frame = await ready(doc.querySelector(WIDGET_SELECTOR));
        if (!frame) return false;
      }
      frame.contentWindow?.postMessage({ type: 'webmcp.connect' }, new URL(frame.src).origin);
      told = frame;
      toldAt = Date.now();
      return true;
    } finally {
      if (discovering === current) discovering = null;
    }
  };

  const removeWidget = () => {
    for (const element of doc.querySelectorAll(`${WIDGET_SELECTOR}, script[data-ai-ops-relay]`)) element.remove();
    connected = false;
  };

  return {
    ensureModelContext() {
      polyfill ??= load().catch((error) => {
        polyfill = null;
        throw error;
      });
      return polyfill;
    },
    async connect() {
      if (!doc.querySelector(WIDGET_SELECTOR)) {
        embedding ??= addWidget().finally(() => (embedding = null));
        await embedding;
      }
      void discover();
    },
    async reconnect() {
      removeWidget();
      await this.connect();
    },
    disconnect: removeWidget,
    isConnected: () => connected,
    discover,
  };
}

/**
 * RELAY-4: embed.js relays tool changes through `registerToolsChangedCallback`, which polyfill
 * 5.1.0 lacks; without it, tools registered after the widget connected, and tools unregistered,
 * never reach the relay. The polyfill fires `toolchange` instead.
 */
export function installToolsChangedShim(win: Window): void {
  const testing = (win.navigator as Navigator & { modelContextTesting?: ModelContextTestingLike }).modelContextTesting;
  if (!testing || typeof testing.registerToolsChangedCallback === 'function') return;
  testing.registerToolsChangedCallback = (callback) => testing.addEventListener('toolchange', () => callback());
}

/** Wraps an envelope for the relay and MCP clients (RELAY-3). */
export function toCallToolResult(json: string, ok: boolean): CallToolResult {
  return ok ? { content: [{ type: 'text', text: json }] } : { content: [{ type: 'text', text: json }], isError: true };
}
