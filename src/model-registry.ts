/**
 * What is registered, and where (REG-1, NAT-1, NAT-3, RELAY-3, RELAY-4): the tool shapes of
 * `registerTool`, the two registrars — the browser's own API, or the polyfill's with the relay's
 * calls routed back to ai-ops — and the `navigator.modelContextTesting` surface relay 2.2.0's
 * embed reads. Which of the two a page gets is decided in `model-context.ts`.
 * @module
 */
import type { CallVia } from './operation-log.js';

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

/**
 * Registers in the browser's own API (NAT-1: every annotation as written, the registration's
 * signal; `execute` gets the browser's `{signal}`) and in ai-ops's own registry, which serves the
 * `modelContextTesting` surface the relay's embed reads (NAT-3).
 */
export function createNativeRegistrar(own: ModelContextLike, surface: TestingSurface): ModelContextLike {
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
export function createPolyfillRegistrar(polyfilled: ModelContextLike, relayPath: RelayPath): ModelContextLike {
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
export interface RelayPath {
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
export function routeRelayCalls(win: Window): RelayPath {
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
export interface TestingSurface extends ModelContextTestingLike {
  add(tool: ModelContextTool, signal?: AbortSignal): void;
}

const SURFACE = Symbol.for('ai-ops.modelContextTesting');

/**
 * Installs (once per document, shared by every copy of ai-ops on the page) the
 * `navigator.modelContextTesting` surface relay 2.2.0's embed.js needs — `listTools` (schemas as
 * JSON text), `executeTool(name, json)` answering the CallToolResult as JSON text,
 * `registerToolsChangedCallback` and `toolchange` — over the tools ai-ops registered natively.
 */
export function installTestingSurface(win: Window): TestingSurface {
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
