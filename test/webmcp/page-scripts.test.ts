// NAT-7: switching ai-ops on changes nothing for the page's other scripts in a browser with its own
// WebMCP (Chromium 156 with --enable-features=WebMCP; runs only with WEBMCP=1). The same checks —
// what the web-platform-tests of webmcp/ check for cancellation, events and exposure, written here
// afresh — run first on the bare page, then with ai-ops switched on (the real polyfill and relay
// embed from the build: `node esbuild.config.mjs` first), and must come out the same.
import { expect } from '@open-wc/testing';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { MemoryStorage, startEnded } from '../runtime/helpers.js';

/** A tool as the browser lists it. */
interface ListedTool {
  name: string;
  description: string;
  inputSchema?: string;
  annotations?: Record<string, boolean> | null;
  origin?: string;
}
/** The browser's own API as the page's scripts use it. */
interface BrowserModelContext extends EventTarget {
  registerTool(tool: Record<string, unknown>, options?: { signal?: AbortSignal; exposedTo?: string[] }): Promise<void>;
  getTools(options?: { fromOrigins?: string[] }): Promise<ListedTool[]>;
  executeTool(tool: ListedTool, input?: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
}
type ToolEvent = Event & { toolName: string };

// Read before anything of ai-ops ran. Every check reads document.modelContext afresh, as a script
// of the page does when it runs.
const browserOwn = (document as Document & { modelContext: BrowserModelContext }).modelContext;
const mc = () => (document as Document & { modelContext: BrowserModelContext }).modelContext;
const navigatorModelContext = () => (navigator as Navigator & { modelContext?: unknown }).modelContext;
// Compared as booleans: a failing assertion on the objects themselves makes the runner serialise
// the polyfill's wrapper, which ends the browser session instead of reporting the failure.
const expectBrowserOwn = () => {
  expect(mc() === browserOwn, 'document.modelContext is the browser\'s own object').to.equal(true);
  expect(navigatorModelContext() === undefined, 'navigator.modelContext is absent, as on a bare page').to.equal(true);
};

/** What a check leaves to undo when it ends, passed or not. */
const leftovers: (() => void)[] = [];
/** Registers a page tool until the returned controller aborts (at the latest when the check ends). */
async function register(tool: Record<string, unknown>, options: { exposedTo?: string[] } = {}) {
  const controller = new AbortController();
  leftovers.push(() => controller.abort());
  await mc().registerTool({ description: `${String(tool.name)} of the page`, ...tool }, { signal: controller.signal, ...options });
  return controller;
}
const listed = async (name: string) => (await mc().getTools()).find((t) => t.name === name);
/** How a call ended: `{ value }` or `{ reason }`. */
type Outcome = { value?: unknown; reason?: unknown };
const settled = (promise: Promise<unknown>): Promise<Outcome> => promise.then((value) => ({ value }), (reason: unknown) => ({ reason }));
const reasonName = (outcome: Outcome) => (outcome.reason as DOMException | undefined)?.name;
/** The next `type` event for the tool `name` at `target`. */
const toolEvent = (target: EventTarget, type: string, name: string) => new Promise<ToolEvent>((resolve) => {
  const listener = (event: Event) => {
    if ((event as ToolEvent).toolName !== name) return;
    target.removeEventListener(type, listener);
    resolve(event as ToolEvent);
  };
  target.addEventListener(type, listener);
});

/** Loads test/webmcp/frame.html from `origin` (default this page's) and drives it by postMessage. */
async function openFrame(origin = location.origin, allow?: string) {
  const frame = document.createElement('iframe');
  leftovers.push(() => frame.remove());
  if (allow) frame.allow = allow;
  frame.src = new URL('/test/webmcp/frame.html', origin).href;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  let nextId = 1;
  const reply = (id: number) => new Promise<Record<string, unknown>>((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.data?.id !== id) return;
      removeEventListener('message', onMessage);
      resolve(event.data);
    };
    addEventListener('message', onMessage);
  });
  const ask = (command: Record<string, unknown>) => {
    const id = nextId++;
    const answer = reply(id);
    frame.contentWindow!.postMessage({ id, ...command }, origin);
    return answer;
  };
  return {
    frame,
    ask,
    /**
     * Resolves once the frame listens for its next toolchange; `heard` then resolves to `fired`, or
     * to `none` when none came within `ms`.
     */
    async listenForToolchange(ms: number) {
      const resultId = nextId++;
      const heard = reply(resultId).then((r) => r.toolchange as string);
      await ask({ command: 'next-toolchange', ms, resultId });
      return { heard };
    },
  };
}
/** The other loopback name of this server: another origin, still a secure context. */
const otherOrigin = () => {
  const url = new URL(location.href);
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return url.origin;
};
const nextToolchange = () => new Promise<Event>((resolve) => mc().addEventListener('toolchange', resolve, { once: true }));

/**
 * The checks. Each names what a page script observes; run once per page state, they assert the
 * same outcome both times. Tools are found by name: with ai-ops on, its own operations are listed too.
 */
function pageScriptChecks(this: { timeout(ms: number): void }) {
  this.timeout(8000);
  // A check that fails must not hold its tool name or frame for the next one.
  afterEach(() => leftovers.splice(0).forEach((undo) => undo()));

  it('[NAT-7] execute receives { signal } as its second argument, not aborted, when executeTool is called without options', async () => {
    let received: unknown[] = [];
    const registration = await register({ name: 'page_default_signal', execute: async (...args: unknown[]) => { received = args; return 'ran'; } });
    try {
      expect(await mc().executeTool((await listed('page_default_signal'))!)).to.equal('ran');
      expect(received).to.have.length(2);
      const { signal } = received[1] as { signal: AbortSignal };
      expect(signal).to.be.an.instanceOf(AbortSignal);
      expect(signal.aborted).to.equal(false);
    } finally {
      registration.abort();
    }
  });

  it('[NAT-7] a caller\'s abort: the call rejects with the caller\'s reason, then execute\'s signal aborts with AbortError, then toolcancel', async () => {
    const order: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => { started = resolve; });
    let signalReason: unknown = null;
    const registration = await register({
      name: 'page_abort',
      execute: (_input: unknown, options: { signal: AbortSignal }) => new Promise(() => {
        options.signal.addEventListener('abort', () => { signalReason = options.signal.reason; order.push('signal aborted'); });
        order.push('execute started');
        started();
      }),
    });
    // Chromium 156 dispatches these at document.modelContext only (not yet also at window).
    const context = mc();
    const onActivated = (e: Event) => (e as ToolEvent).toolName === 'page_abort' && order.push('toolactivated');
    const onCancel = (e: Event) => (e as ToolEvent).toolName === 'page_abort' && order.push('toolcancel');
    context.addEventListener('toolactivated', onActivated);
    context.addEventListener('toolcancel', onCancel);
    try {
      const controller = new AbortController();
      const activated = toolEvent(context, 'toolactivated', 'page_abort');
      const call = settled(mc().executeTool((await listed('page_abort'))!, {}, { signal: controller.signal }).finally(() => order.push('call rejected')));
      await Promise.all([running, activated]);
      const cancelled = toolEvent(context, 'toolcancel', 'page_abort');
      controller.abort('the caller gave up');
      expect(await call).to.deep.equal({ reason: 'the caller gave up' });
      await cancelled;
      expect((signalReason as DOMException).name).to.equal('AbortError');
      expect(order).to.deep.equal([
        'execute started', 'toolactivated', 'call rejected', 'signal aborted', 'toolcancel',
      ]);
    } finally {
      context.removeEventListener('toolactivated', onActivated);
      context.removeEventListener('toolcancel', onCancel);
      registration.abort();
    }
  });

  it('[NAT-7] an already-aborted executeTool rejects with its reason within the same microtask turn, and execute never runs', async () => {
    let ran = false;
    const registration = await register({ name: 'page_already_aborted', execute: async () => { ran = true; return 'ran'; } });
    try {
      const tool = (await listed('page_already_aborted'))!;
      let outcome: unknown = 'still pending';
      mc().executeTool(tool, {}, { signal: AbortSignal.abort('aborted before the call') }).then(
        () => { outcome = 'resolved'; },
        (reason: unknown) => { outcome = reason; },
      );
      await Promise.resolve();
      expect(outcome).to.equal('aborted before the call');
      expect(ran).to.equal(false);
    } finally {
      registration.abort();
    }
  });

  it('[NAT-7] a tool that resolves after its caller aborted leaves the call rejected with AbortError', async () => {
    let resolveLate!: (value: string) => void;
    const late = new Promise<string>((resolve) => { resolveLate = resolve; });
    const registration = await register({
      name: 'page_late',
      execute: (_input: unknown, options: { signal: AbortSignal }) => {
        options.signal.addEventListener('abort', () => resolveLate('too late'));
        return late;
      },
    });
    try {
      const controller = new AbortController();
      const call = settled(mc().executeTool((await listed('page_late'))!, {}, { signal: controller.signal }));
      controller.abort();
      expect(reasonName(await call)).to.equal('AbortError');
      expect(await late).to.equal('too late');
    } finally {
      registration.abort();
    }
  });

  it('[NAT-7] two calls of one tool have their own signals: aborting one leaves the other to answer', async () => {
    const signals: AbortSignal[] = [];
    let finishSecond!: (value: string) => void;
    let bothStarted!: () => void;
    const started = new Promise<void>((resolve) => { bothStarted = resolve; });
    const registration = await register({
      name: 'page_concurrent',
      execute: (_input: unknown, options: { signal: AbortSignal }) => {
        signals.push(options.signal);
        if (signals.length === 2) bothStarted();
        return signals.length === 1 ? new Promise(() => {}) : new Promise((resolve) => { finishSecond = resolve; });
      },
    });
    try {
      const tool = (await listed('page_concurrent'))!;
      const first = new AbortController();
      const one = settled(mc().executeTool(tool, {}, { signal: first.signal }));
      const two = settled(mc().executeTool(tool, {}, { signal: new AbortController().signal }));
      await started;
      const firstSignalAborted = new Promise((resolve) => signals[0].addEventListener('abort', resolve, { once: true }));
      first.abort('only the first');
      expect(await one).to.deep.equal({ reason: 'only the first' });
      await firstSignalAborted;
      expect(signals.map((s) => s.aborted)).to.deep.equal([true, false]);
      finishSecond('second answered');
      expect(await two).to.deep.equal({ value: 'second answered' });
    } finally {
      registration.abort();
    }
  });

  it('[NAT-7] toolactivated and toolcancel reach document.modelContext: trusted ToolActivatedEvents aimed at it, once per call', async () => {
    const seen: Event[] = [];
    // Only this check's tool: a cancel of an earlier check's call may still be on its way.
    const onEvent = (e: Event) => (e as ToolEvent).toolName === 'page_events' && seen.push(e);
    const context = mc();
    context.addEventListener('toolactivated', onEvent);
    context.addEventListener('toolcancel', onEvent);
    const registration = await register({ name: 'page_events', execute: () => new Promise(() => {}) });
    try {
      const controller = new AbortController();
      const activated = toolEvent(context, 'toolactivated', 'page_events');
      const call = settled(mc().executeTool((await listed('page_events'))!, {}, { signal: controller.signal }));
      await activated;
      const cancelled = toolEvent(context, 'toolcancel', 'page_events');
      controller.abort();
      expect(reasonName(await call)).to.equal('AbortError');
      await cancelled;
      expect(seen.map((e) => [e.type, (e as ToolEvent).toolName])).to.deep.equal([['toolactivated', 'page_events'], ['toolcancel', 'page_events']]);
      const [event] = seen;
      expect(event.constructor.name).to.equal('ToolActivatedEvent');
      expect(event.target === mc(), 'the event is aimed at document.modelContext').to.equal(true);
      expect([event.isTrusted, event.bubbles, event.cancelable, event.composed]).to.deep.equal([true, false, false, false]);
    } finally {
      context.removeEventListener('toolactivated', onEvent);
      context.removeEventListener('toolcancel', onEvent);
      registration.abort();
    }
  });

  it('[NAT-7] a same-origin frame\'s tool called from the page fires toolactivated at the frame\'s context, not the page\'s', async () => {
    const { frame, ask } = await openFrame();
    const onPage: string[] = [];
    const onPageEvent = (e: Event) => onPage.push((e as ToolEvent).toolName);
    mc().addEventListener('toolactivated', onPageEvent);
    try {
      const frameContext = (frame.contentDocument as Document & { modelContext: BrowserModelContext }).modelContext;
      const inFrame: string[] = [];
      frameContext.addEventListener('toolactivated', (e) => inFrame.push((e as ToolEvent).toolName));
      const changed = nextToolchange();
      await ask({ command: 'register', name: 'frame_tool', description: 'a tool of the frame' });
      await changed;
      expect(await mc().executeTool((await listed('frame_tool'))!, {})).to.equal('frame_tool ran in the frame');
      expect(inFrame).to.deep.equal(['frame_tool']);
      expect(onPage).to.deep.equal([]);
    } finally {
      mc().removeEventListener('toolactivated', onPageEvent);
      frame.remove();
    }
  });

  it('[NAT-7] a page tool keeps every annotation as registered: readOnlyHint, untrustedContentHint, consequentialHint', async () => {
    const registrations = [
      await register({ name: 'page_hints_consequential', annotations: { consequentialHint: true }, execute: async () => 'ran' }),
      await register({ name: 'page_hints_read', annotations: { readOnlyHint: true, untrustedContentHint: true }, execute: async () => 'ran' }),
    ];
    try {
      expect((await listed('page_hints_consequential'))!.annotations).to.include({ consequentialHint: true, readOnlyHint: false, untrustedContentHint: false });
      expect((await listed('page_hints_read'))!.annotations).to.include({ consequentialHint: false, readOnlyHint: true, untrustedContentHint: true });
    } finally {
      registrations.forEach((r) => r.abort());
    }
  });

  for (const exposedTo of [undefined, []]) {
    const how = exposedTo ? 'an empty exposedTo' : 'no exposedTo';
    it(`[NAT-7] a page tool with ${how} is listed in a same-origin frame, runs from there, and its unregistration fires toolchange in both`, async () => {
      const name = exposedTo ? 'page_exposed_empty' : 'page_exposed_default';
      const registration = await register({ name, annotations: { readOnlyHint: true }, execute: async () => 'ran for the frame' }, exposedTo ? { exposedTo } : {});
      const { frame, ask, listenForToolchange } = await openFrame();
      try {
        const { tools } = await ask({ command: 'tools' }) as { tools: ListedTool[] };
        expect(tools.find((t) => t.name === name)).to.deep.include({ origin: location.origin });
        expect(tools.find((t) => t.name === name)!.annotations).to.include({ readOnlyHint: true });
        expect(await ask({ command: 'execute', name })).to.include({ result: 'ran for the frame' });
        const inFrame = await listenForToolchange(5000);
        const onPage = nextToolchange();
        registration.abort();
        await onPage;
        expect(await inFrame.heard).to.equal('fired');
        const after = await ask({ command: 'tools' }) as { tools: ListedTool[] };
        expect(after.tools.map((t) => t.name)).to.not.include(name);
      } finally {
        registration.abort();
        frame.remove();
      }
    });
  }

  it('[NAT-7] a same-origin frame\'s tool (no or an empty exposedTo) is listed in the page with the frame\'s origin, runs, and leaves with a toolchange', async () => {
    const { frame, ask } = await openFrame();
    try {
      for (const [name, exposedTo] of [['frame_default', undefined], ['frame_empty', []]] as const) {
        const registered = nextToolchange();
        await ask({ command: 'register', name, description: name, ...(exposedTo ? { exposedTo } : {}) });
        await registered;
        const tool = (await listed(name))!;
        expect(tool.origin).to.equal(location.origin);
        expect(await mc().executeTool(tool, {})).to.equal(`${name} ran in the frame`);
        const unregistered = nextToolchange();
        await ask({ command: 'unregister', name });
        await unregistered;
        expect(await listed(name)).to.equal(undefined);
      }
    } finally {
      frame.remove();
    }
  });

  it('[NAT-7] exposedTo: a tool exposed to a cross-origin frame (allow="tools") is listed and runs there; one exposed elsewhere is not, nor its toolchange', async () => {
    const other = otherOrigin();
    const { frame, ask, listenForToolchange } = await openFrame(other, 'tools *');
    const exposed = await register({ name: 'page_for_the_frame', execute: async () => 'ran across origins' }, { exposedTo: [other] });
    const elsewhere = await register({ name: 'page_for_nobody_here', execute: async () => 'ran' }, { exposedTo: ['https://elsewhere.example'] });
    try {
      const { tools } = await ask({ command: 'tools', fromOrigins: [location.origin] }) as { tools: ListedTool[] };
      expect(tools.map((t) => [t.name, t.origin])).to.deep.equal([['page_for_the_frame', location.origin]]);
      expect(await ask({ command: 'execute', name: 'page_for_the_frame', fromOrigins: [location.origin] })).to.include({ result: 'ran across origins' });
      // Unregistering the tool exposed elsewhere is not news to the frame; the one exposed to it is.
      const quiet = await listenForToolchange(1000);
      elsewhere.abort();
      expect(await quiet.heard).to.equal('none');
      const told = await listenForToolchange(5000);
      exposed.abort();
      expect(await told.heard).to.equal('fired');
    } finally {
      exposed.abort();
      elsewhere.abort();
      frame.remove();
    }
  });

  it('[NAT-7] exposedTo: a cross-origin frame\'s tool exposed to the page is listed with fromOrigins and runs; exposedTo ["*"] is refused', async () => {
    const other = otherOrigin();
    const { frame, ask } = await openFrame(other, 'tools *');
    try {
      const registered = nextToolchange();
      await ask({ command: 'register', name: 'frame_for_the_page', description: 'exposed to the page', exposedTo: [location.origin] });
      await registered;
      const tools = await mc().getTools({ fromOrigins: [other] });
      const tool = tools.find((t) => t.name === 'frame_for_the_page')!;
      expect(tool.origin).to.equal(other);
      expect(await mc().executeTool(tool, {})).to.equal('frame_for_the_page ran in the frame');
      const outcome = await settled(mc().registerTool({ name: 'page_everyone', description: 'd', execute: async () => 'ran' }, { exposedTo: ['*'] }));
      expect(reasonName(outcome)).to.equal('SecurityError');
    } finally {
      frame.remove();
    }
  });
}

const operations = [
  defineOperation({
    name: 'aiops_read', description: '読む', inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true }, execute: async () => succeed({ text: 'hello' }),
  }),
];

describe('[NAT-7] the page\'s other scripts and the browser\'s own WebMCP', function () {
  this.timeout(30000);
  // The relay port points at a closed port so the widget's scan stays on this machine.
  const aiOps = createAiOps({ consent: 'click', storage: new MemoryStorage(), assetsBase: '/dist/site/ai-ops/vendor/', relayPort: 9, embedded: false, autoReconnect: false });
  const session = aiOps.provideOperations('aiops', operations);
  const switchedOn = async () => {
    await session.turnOn();
    await startEnded(session);
    expect(session.getState()).to.include({ status: 'on', error: null });
  };
  after(() => aiOps.dispose());

  // Mocha runs a suite's own tests before its nested suites: every step is a suite, in order.
  describe('before ai-ops is switched on', () => {
    it('[NAT-7] document.modelContext is the browser\'s ModelContext and navigator has none', () => {
      expect(Object.prototype.toString.call(mc())).to.equal('[object ModelContext]');
      expectBrowserOwn();
    });
  });

  describe('on the bare page', pageScriptChecks);

  describe('with ai-ops switched on', () => {
    before(switchedOn);

    it('[NAT-7] [SW-6] switched on: the polyfill loaded, ai-ops\'s operations are in the browser\'s list, and document.modelContext is still the browser\'s', async () => {
      expect(document.querySelectorAll('script[src$="mcp-b-global.js"]')).to.have.length(1);
      expectBrowserOwn();
      expect((await browserOwn.getTools()).map((t) => t.name)).to.include('aiops_read');
    });

    describe('what the page\'s scripts see', pageScriptChecks);
  });

  describe('switched off and on again', () => {
    it('[NAT-7] document.modelContext stays the browser\'s, the polyfill loaded once', async () => {
      session.turnOff();
      expectBrowserOwn();
      await switchedOn();
      expectBrowserOwn();
      expect(document.querySelectorAll('script[src$="mcp-b-global.js"]')).to.have.length(1);
      session.turnOff();
      expectBrowserOwn();
    });
  });
});
