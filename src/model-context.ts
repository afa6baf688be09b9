/**
 * Which model context the page's operations are registered in, and how (REG-1, SW-6, NAT-1,
 * NAT-3, NAT-5, RELAY-3, RELAY-4). The relay widget itself is {@link RelayConnection}
 * (`relay-connection.ts`).
 *
 * Two kinds of browser, measured in Debian Chromium 156 (PLATFORM-NOTES):
 * - **Without WebMCP of its own** (the default): `@mcp-b/global` 5.1.0 provides
 *   `document.modelContext` and `navigator.modelContextTesting`; tools are registered there. It
 *   lacks `registerToolsChangedCallback`, which relay 2.2.0's embed.js subscribes with, so a shim
 *   adds it (RELAY-4). The polyfill keeps `readOnlyHint` and `untrustedContentHint` but drops
 *   `consequentialHint`; nothing in that browser reads the hints anyway.
 * - **With its own WebMCP** (`--enable-features=WebMCP`): `document.modelContext` is the browser's
 *   `ModelContext` (`registerTool`, `getTools`, `executeTool(tool, input, {signal})`, `toolchange`),
 *   with no `navigator.modelContextTesting`. The polyfill still loads (SW-6). Its job there is
 *   its tab bridge (the MCP server the MCP-B extension talks to over `postMessage`), which follows
 *   the browser's own list through its `toolchange` and calls tools through its `executeTool`. It
 *   also puts a wrapper at `document.modelContext` and `navigator.modelContext` that mirrors what
 *   is registered through it into the browser's list — dropping `consequentialHint` and the call's
 *   `{signal}`, swallowing `toolactivated`/`toolcancel`, and adding ticks to `executeTool` — and it
 *   installs no `modelContextTesting`, so embed.js would find none of the page's tools. ai-ops needs
 *   none of the wrapper: every operation is registered in the browser's own API directly (all
 *   hints, the registration's signal, `execute(args, {signal})`), and ai-ops installs the
 *   `navigator.modelContextTesting` surface embed.js reads from its own registry of those tools
 *   (NAT-3). So once the polyfill ran, the page's own `modelContext` properties are put back as they
 *   were (NAT-7): every other script of the page keeps the browser's object, and the bridge keeps
 *   working, since it never goes through `document.modelContext`.
 * @module
 */
import { systemClock, type Clock } from './clock.js';
import { DEFAULT_ASSETS_BASE } from './defaults.js';
import type { CallVia } from './operation-log.js';
import { SCRIPT_LOAD_TIMEOUT_MS, within, type ScriptLoader } from './script-loader.js';

/** A CallToolResult as the relay and MCP clients expect it. */
export interface CallToolResult {
  content: [{ type: 'text'; text: string }];
  isError?: true;
}

/** What the browser (or the polyfill) passes as `execute`'s second argument. */
export interface ToolCallOptions {
  /** Aborted when the agent cancels the call (NAT-2); the polyfill passes none. */
  signal?: AbortSignal;
}

/** The tool shape `registerTool` takes. */
export interface ModelContextTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, boolean>;
  /** `via` is the path of the call (AUDIT-1), passed by ai-ops's own registrar; the polyfill passes none. */
  execute: (args: unknown, options?: ToolCallOptions, via?: CallVia) => Promise<CallToolResult>;
}

/** The part of `document.modelContext` ai-ops uses. */
export interface ModelContextLike {
  registerTool(tool: ModelContextTool, options?: { signal?: AbortSignal }): Promise<void> | void;
}

/** `navigator.modelContextTesting`, as the polyfill installs it and relay 2.2.0's embed.js reads it. */
export interface ModelContextTestingLike extends EventTarget {
  listTools(): { name: string; description: string; inputSchema?: string }[];
  executeTool(name: string, inputArgsJson: string, options?: ToolCallOptions): Promise<string | null>;
  registerToolsChangedCallback?: (callback: () => void) => void;
}

/** Where the vendor files are. */
export interface ModelContextOptions {
  /** URL of the folder holding `mcp-b-global.js` and `relay/embed.js`; default `/ai-ops/vendor/`. */
  assetsBase?: string;
}

/** Options of {@link createModelContextProvider}. */
export interface ModelContextProviderOptions extends ModelContextOptions {
  loader: ScriptLoader;
  window?: Window;
  clock?: Clock;
  /**
   * The browser's own model context; default: detected ({@link findBrowserModelContext}). Null
   * forces the polyfill's path. Tests pass a stand-in shaped like a newer browser's API (NAT-5).
   */
  browserModelContext?: ModelContextLike | null;
}

/** Provides the model context the operations are registered in. */
export interface ModelContextProvider {
  /**
   * Loads the polyfill (once, even over the browser's own API: SW-6; bounded by 15 s: SAFE-6) and
   * resolves to where tools are registered: the browser's own API when it has one, else the
   * polyfill's.
   */
  ensure(): Promise<ModelContextLike>;
  /** True when tools go to the browser's own API; null until {@link ensure} decided. */
  readonly native: boolean | null;
}

type ModelContextWindow = Window & { __webModelContextOptions?: unknown };

/** Why the polyfill cannot run in this page (SW-4's reason under the switch), and the fix. */
export const NOT_ORIGIN_KEYED =
  'the WebMCP polyfill does not run in a page keyed by site (window.originAgentCluster is false): serve the page with the header Origin-Agent-Cluster: ?1';
type WithModelContext = Document & { modelContext?: unknown };

/**
 * The browser's own `document.modelContext`, or null. Feature detection, not version sniffing
 * (NAT-5): a `registerTool` implemented by the platform. Over the polyfill's wrapper, the wrapper
 * keeps the browser's context as `native` (when the browser has none, the polyfill's own stand-in
 * is there instead, whose `registerTool` is script).
 * @example const own = findBrowserModelContext(window); // null in a browser without WebMCP
 */
export function findBrowserModelContext(win: Window): ModelContextLike | null {
  const current = (win.document as WithModelContext).modelContext as { registerTool?: unknown; native?: unknown; __isBrowserMcpServer?: unknown } | undefined;
  const candidate = (current?.__isBrowserMcpServer ? current.native : current) as { registerTool?: unknown } | undefined;
  if (!candidate || typeof candidate.registerTool !== 'function') return null;
  return isPlatformFunction(candidate.registerTool) ? (candidate as ModelContextLike) : null;
}

/**
 * NAT-7: remembers the page's own `modelContext` properties of `document` and `navigator` (none, on
 * a page with the browser's WebMCP: the browser's object comes from `Document.prototype`) and
 * returns what puts them back. Whatever the polyfill defined over them goes: the page's other
 * scripts read the browser's object again. `Reflect` so a property the polyfill made
 * non-configurable stays as it is rather than failing the switch.
 */
function keepModelContextProperties(win: Window): () => void {
  const targets: object[] = [win.document, win.navigator];
  const saved = targets.map((target) => Object.getOwnPropertyDescriptor(target, 'modelContext'));
  return () => targets.forEach((target, i) => {
    const descriptor = saved[i];
    if (descriptor) Reflect.defineProperty(target, 'modelContext', descriptor);
    else Reflect.deleteProperty(target, 'modelContext');
  });
}

function isPlatformFunction(fn: unknown): boolean {
  try {
    return /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(fn));
  } catch {
    return false;
  }
}

/**
 * Creates the provider. Nothing is loaded until `ensure` is called.
 * @example
 * const provider = createModelContextProvider({ loader: createDomScriptLoader() });
 * const modelContext = await provider.ensure();
 */
export function createModelContextProvider(options: ModelContextProviderOptions): ModelContextProvider {
  const win = (options.window ?? window) as ModelContextWindow;
  const doc = win.document as WithModelContext;
  const clock = options.clock ?? systemClock;
  const base = new URL(options.assetsBase ?? DEFAULT_ASSETS_BASE, doc.baseURI);
  let native: boolean | null = null;
  let loading: Promise<ModelContextLike> | null = null;

  const loadPolyfill = async () => {
    // The polyfill's tab transport accepts postMessage from any origin unless told otherwise;
    // only this page's own origin (e.g. a browser extension's content script) may talk to it.
    win.__webModelContextOptions ??= { transport: { tabServer: { allowedOrigins: [win.location.origin] } } };
    // Loaded once per document, even by several runtimes (or copies of this library): running the
    // polyfill twice would replace the registry that holds the tools already registered.
    const src = new URL('mcp-b-global.js', base).href;
    const existing = doc.querySelector<HTMLScriptElement>('script[data-ai-ops-polyfill]');
    if (existing?.dataset.aiOpsPolyfill === 'loaded') return;
    const loaded = existing
      ? new Promise<void>((resolve, reject) => {
          existing.addEventListener('load', () => resolve(), { once: true });
          existing.addEventListener('error', () => reject(new Error(`could not load ${existing.src}`)), { once: true });
        })
      : options.loader.load(src, { 'data-ai-ops-polyfill': '' }).then((script) => {
          script.dataset.aiOpsPolyfill = 'loaded';
        });
    await within(loaded, clock, SCRIPT_LOAD_TIMEOUT_MS, src);
  };

  const load = async (): Promise<ModelContextLike> => {
    // Decided before the polyfill runs, and whatever it does to the properties: what the page had.
    const platform = findBrowserModelContext(win);
    // (`browserModelContext: null` registers through the polyfill's wrapper, so it stays.)
    const putBack = platform && options.browserModelContext !== null ? keepModelContextProperties(win) : null;
    // The polyfill refuses every call with a bare SecurityError in a page whose agent cluster is
    // keyed by site (`originAgentCluster` false: Firefox's default without the header, measured):
    // say so and what fixes it, before anything is loaded (issue 36).
    if (!platform && win.originAgentCluster === false) throw new Error(NOT_ORIGIN_KEYED);
    await loadPolyfill();
    putBack?.();
    const own = options.browserModelContext === undefined ? platform : options.browserModelContext;
    if (own) {
      native = true;
      return createNativeRegistrar(own, installTestingSurface(win));
    }
    const polyfilled = doc.modelContext as ModelContextLike | undefined;
    if (!polyfilled || typeof polyfilled.registerTool !== 'function') {
      throw new Error('the WebMCP polyfill loaded but document.modelContext.registerTool is missing');
    }
    native = false;
    installToolsChangedShim(win);
    return createPolyfillRegistrar(polyfilled, routeRelayCalls(win));
  };

  return {
    ensure() {
      loading ??= load().catch((error: unknown) => {
        loading = null;
        throw error;
      });
      return loading;
    },
    get native() {
      return native;
    },
  };
}

/**
 * Registers in the browser's own API (NAT-1: every annotation as written, the registration's
 * signal; `execute` gets the browser's `{signal}`) and in ai-ops's own registry, which serves the
 * `modelContextTesting` surface the relay's embed reads (NAT-3).
 */
function createNativeRegistrar(own: ModelContextLike, surface: TestingSurface): ModelContextLike {
  return {
    async registerTool(tool, registration = {}) {
      const { signal } = registration;
      // Chrome 160's registerTool may return nothing instead of a promise (NAT-5): await either.
      // AUDIT-1: a call through the browser's own API says so; the surface's calls say `relay`.
      const browserTool: ModelContextTool = { ...tool, execute: (args, options) => tool.execute(args, options, 'webmcp') };
      await own.registerTool(browserTool, signal ? { signal } : {});
      if (signal?.aborted) return;
      surface.add(tool, signal);
    },
  };
}

/**
 * Registers in the polyfill's registry, each `execute` told the path (AUDIT-1). A call through the
 * polyfill's `navigator.modelContextTesting` (what the relay's embed reads) is answered by ai-ops
 * itself, as over the browser's own API, and says `relay`; any other call reaches the registry
 * (`document.modelContext.executeTool`, the polyfill's tab transport) and says `polyfill`: the
 * polyfill does not say who called, a page script or an extension.
 */
function createPolyfillRegistrar(polyfilled: ModelContextLike, relayPath: RelayPath): ModelContextLike {
  return {
    async registerTool(tool, registration = {}) {
      const { signal } = registration;
      relayPath.add(tool, signal);
      try {
        await polyfilled.registerTool({ ...tool, execute: (args, options) => tool.execute(args, options, 'polyfill') }, registration);
      } catch (error) {
        relayPath.remove(tool);
        throw error;
      }
    },
  };
}

/** ai-ops's own tools, answered on the polyfill's `modelContextTesting` (see {@link routeRelayCalls}). */
interface RelayPath {
  add(tool: ModelContextTool, signal?: AbortSignal): void;
  remove(tool: ModelContextTool): void;
}

const RELAY_PATH = Symbol.for('ai-ops.polyfillTestingTools');

/**
 * Wraps the polyfill's `modelContextTesting.executeTool` (once per document, shared by every copy
 * of ai-ops): a call of one of ai-ops's tools is answered here, its `execute` told `relay` and given
 * the caller's signal; any other name goes on to the polyfill. The polyfill cannot carry the path
 * itself: its `document.modelContext` wrapper calls `execute` a microtask later, with the input alone.
 */
function routeRelayCalls(win: Window): RelayPath {
  type Routed = ModelContextTestingLike & { [RELAY_PATH]?: Map<string, ModelContextTool> };
  const testing = (win.navigator as Navigator & { modelContextTesting?: Routed }).modelContextTesting;
  if (!testing || typeof testing.executeTool !== 'function') return { add() {}, remove() {} };
  let tools = testing[RELAY_PATH];
  if (!tools) {
    const own = (tools = new Map());
    const executeTool = testing.executeTool;
    testing.executeTool = async function (this: unknown, name: string, inputArgsJson: string, options: ToolCallOptions = {}) {
      const tool = own.get(name);
      if (!tool) return executeTool.call(this, name, inputArgsJson, options);
      return JSON.stringify(await tool.execute(parseToolInput(inputArgsJson), options, 'relay'));
    };
    testing[RELAY_PATH] = own;
  }
  const routed = tools;
  return {
    add(tool, signal) {
      if (!signal?.aborted) holdUntilAborted(routed, tool, signal);
    },
    remove: (tool) => forget(routed, tool),
  };
}

/** Removes `tool` from `tools` unless a later registration of its name replaced it. */
function forget(tools: Map<string, ModelContextTool>, tool: ModelContextTool): void {
  if (tools.get(tool.name) === tool) tools.delete(tool.name);
}

/** Holds `tool` in `tools` by name until `signal` aborts; `gone` runs then. */
function holdUntilAborted(tools: Map<string, ModelContextTool>, tool: ModelContextTool, signal?: AbortSignal, gone?: () => void): void {
  tools.set(tool.name, tool);
  signal?.addEventListener('abort', () => {
    forget(tools, tool);
    gone?.();
  }, { once: true });
}

/** The input of a `modelContextTesting.executeTool`: JSON text, as the relay's embed sends it. */
function parseToolInput(inputArgsJson: string): unknown {
  try {
    return JSON.parse(inputArgsJson);
  } catch {
    throw new DOMException('the input is not JSON', 'SyntaxError');
  }
}

/** The `navigator.modelContextTesting` ai-ops installs over the browser's own API. */
interface TestingSurface extends ModelContextTestingLike {
  add(tool: ModelContextTool, signal?: AbortSignal): void;
}

const SURFACE = Symbol.for('ai-ops.modelContextTesting');

/**
 * Installs (once per document, shared by every copy of ai-ops on the page) the
 * `navigator.modelContextTesting` surface relay 2.2.0's embed.js needs — `listTools` (schemas as
 * JSON text), `executeTool(name, json)` answering the CallToolResult as JSON text,
 * `registerToolsChangedCallback` and `toolchange` — over the tools ai-ops registered natively.
 */
function installTestingSurface(win: Window): TestingSurface {
  const nav = win.navigator as Navigator & { modelContextTesting?: ModelContextTestingLike & { [SURFACE]?: TestingSurface } };
  const present = nav.modelContextTesting?.[SURFACE];
  if (present) return present;
  const tools = new Map<string, ModelContextTool>();
  const events = new EventTarget();
  const changed = () => events.dispatchEvent(new Event('toolchange'));
  const surface: TestingSurface = Object.assign(events, {
    listTools: () =>
      [...tools.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: JSON.stringify(t.inputSchema) })),
    async executeTool(name: string, inputArgsJson: string, options: ToolCallOptions = {}) {
      const tool = tools.get(name);
      if (!tool) throw new DOMException(`Tool not found: ${name}`, 'NotFoundError');
      return JSON.stringify(await tool.execute(parseToolInput(inputArgsJson), options, 'relay'));
    },
    registerToolsChangedCallback(callback: () => void) {
      events.addEventListener('toolchange', () => callback());
    },
    add(tool: ModelContextTool, signal?: AbortSignal) {
      holdUntilAborted(tools, tool, signal, changed);
      changed();
    },
  });
  (surface as unknown as Record<symbol, TestingSurface>)[SURFACE] = surface;
  Object.defineProperty(nav, 'modelContextTesting', { value: surface, configurable: true, writable: true });
  return surface;
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

/**
 * Wraps an envelope for every caller (RELAY-3, NAT-4): the envelope's JSON as the single text item,
 * `isError: true` when `ok` is false. The same value is returned to the browser's own API: there a
 * returned result always reports "Completed" to CDP (only a thrown error is a failure, and it would
 * reach the agent as `UnknownError: …` without the envelope), while Playwright MCP shows the text
 * and reports the nested `isError` as an error — so the agent sees `code` and `message` either way.
 */
export function toCallToolResult(json: string, ok: boolean): CallToolResult {
  return ok ? { content: [{ type: 'text', text: json }] } : { content: [{ type: 'text', text: json }], isError: true };
}
