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
import {
  createNativeRegistrar, createPolyfillRegistrar, installTestingSurface, installToolsChangedShim, routeRelayCalls, type ModelContextLike,
} from './model-registry.js';
import { SCRIPT_LOAD_TIMEOUT_MS, within, type ScriptLoader } from './script-loader.js';

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

export { installToolsChangedShim, toCallToolResult } from './model-registry.js';
export type { CallToolResult, ModelContextLike, ModelContextTestingLike, ModelContextTool, ToolCallOptions } from './model-registry.js';
