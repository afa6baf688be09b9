/**
 * Fakes for the element tests only: a memory Storage, a fake clock, and a script loader whose
 * "polyfill" installs a minimal `document.modelContext`. The real polyfill and relay are tested
 * elsewhere; here the runtime's own pipeline (sessions, queue, log) runs for real.
 */
import { waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendMouse } from '@web/test-runner-commands';
import { createAiOps, type AiOps, type AiOpsOptions } from '../../src/runtime.js';
import type { Clock } from '../../src/clock.js';
import type { ScriptLoader } from '../../src/script-loader.js';
import type { ModelContextTool } from '../../src/model-context.js';
import type { ToolSession } from '../../src/tool-session.js';
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { fail, succeed } from '../../src/result.js';
import { createMemoryConsentStore, type ConsentStore } from '../../src/consent-store.js';

export { decide } from '../runtime/helpers.js';

/** A Storage kept in memory. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

/** A clock that only moves when told to. */
export interface FakeClock extends Clock {
  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void;
}

export function createFakeClock(start = new Date(2025, 0, 2, 3, 4, 5).getTime()): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = end;
    },
  };
}

/**
 * The fake `document.modelContext`. The runtime loads the polyfill once per document (whichever
 * runtime turns on first), so this object is shared by every runtime of a test file.
 */
export const fakeModelContext = {
  /** Tools registered and not yet aborted. */
  tools: new Map<string, ModelContextTool>(),
  /** When set, `registerTool` throws this message. */
  refuseRegistration: null as string | null,
  registerTool(tool: ModelContextTool, options?: { signal?: AbortSignal }): void {
    if (fakeModelContext.refuseRegistration) throw new Error(fakeModelContext.refuseRegistration);
    fakeModelContext.tools.set(tool.name, tool);
    options?.signal?.addEventListener('abort', () => {
      if (fakeModelContext.tools.get(tool.name) === tool) fakeModelContext.tools.delete(tool.name);
    }, { once: true });
  },
};

/** What a fake loader did, and knobs to make it fail. */
export interface FakeLoader extends ScriptLoader {
  /** Every `src` asked for, in order. */
  readonly loads: string[];
  /** When set, a load of a matching `src` rejects with this message. */
  failOn: { pattern: RegExp; message: string } | null;
  /** When set, loads wait for this promise first (to observe `starting`). */
  gate: Promise<void> | null;
}

/** A loader whose "polyfill" installs {@link fakeModelContext} and whose relay embed does nothing. */
export function createFakeLoader(): FakeLoader {
  const loader: FakeLoader = {
    loads: [],
    failOn: null,
    gate: null,
    async load(src) {
      loader.loads.push(src);
      if (loader.gate) await loader.gate;
      if (loader.failOn?.pattern.test(src)) throw new Error(loader.failOn.message);
      if (src.endsWith('mcp-b-global.js')) {
        Object.defineProperty(document, 'modelContext', { value: fakeModelContext, configurable: true, writable: true });
      }
      return document.createElement('script');
    },
  };
  return loader;
}

const runtimes: AiOps[] = [];

/**
 * A runtime for one test: its own storage, consent store (in memory: the enrolment of one test's
 * device must not outlive it, UV-8), loader and (optionally) clock; no auto-reconnect.
 */
export function createTestRuntime(options: AiOpsOptions = {}): AiOps & { loader: FakeLoader; storage: MemoryStorage; consentStore: ConsentStore } {
  const loader = (options.loader as FakeLoader | undefined) ?? createFakeLoader();
  const storage = (options.storage as MemoryStorage | undefined) ?? new MemoryStorage();
  const consentStore = options.consentStore ?? createMemoryConsentStore();
  const aiOps = createAiOps({ window, consent: 'click', embedded: false, autoReconnect: false, ...options, loader, storage, consentStore });
  runtimes.push(aiOps);
  return Object.assign(aiOps, { loader, storage, consentStore });
}

/** Turns off every session of the runtimes made so far (run it after each test). */
export function cleanupRuntimes(): void {
  for (const aiOps of runtimes.splice(0)) {
    for (const session of aiOps.sessions.getState()) session.turnOff();
    aiOps.dispose();
  }
  fakeModelContext.refuseRegistration = null;
}

/** A promise and the function that settles it. */
export function createGate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Options of {@link testOperations}. */
export interface TestOperationsOptions {
  /** `execute` of the confirmed operation waits for this (to observe `running`). */
  gate?: Promise<void>;
  detail?: string;
  undoable?: boolean;
}

/**
 * Tiny definitions for `tool`: `<tool>_echo` (no confirmation, returns its input), `<tool>_fail`
 * (fails with `not_found`) and `<tool>_delete_file` (asks for confirmation).
 */
export function testOperations(tool: string, options: TestOperationsOptions = {}): AnyOperationDefinition[] {
  return [
    defineOperation({
      name: `${tool}_echo`,
      description: '入力をそのまま返す。',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
      execute: async (input) => succeed({ text: input.text ?? null }),
    }),
    defineOperation({
      name: `${tool}_fail`,
      description: '必ず失敗する。',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      execute: async () => fail('not_found', 'no such file: a.txt'),
    }),
    defineOperation({
      name: `${tool}_delete_file`,
      description: 'ファイルを消す。',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
      confirmation: (input) => ({
        title: `ファイル「${input.path}」を削除する`,
        summary: `${input.path} を削除します。`,
        actionLabel: '削除する',
        ...(options.detail === undefined ? {} : { detail: options.detail }),
        ...(options.undoable ? { undoable: true } : {}),
      }),
      execute: async (input) => {
        if (options.gate) await options.gate;
        return succeed({ path: input.path });
      },
    }),
  ];
}

/** Resolves once `session` reaches `status`. */
export function statusReached(session: ToolSession, status: 'off' | 'starting' | 'on'): Promise<void> {
  return new Promise((resolve) => {
    if (session.getState().status === status) return resolve();
    const stop = session.subscribe(() => {
      if (session.getState().status !== status) return;
      stop();
      resolve();
    });
  });
}

/** Turns a session on and waits until it is on. */
export async function turnOn(session: ToolSession): Promise<void> {
  await session.turnOn();
  await statusReached(session, 'on');
}

/** The center of an element, in viewport pixels, for `sendMouse`. */
export function centerOf(element: Element): [number, number] {
  const box = element.getBoundingClientRect();
  return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
}

/** The text of an element with whitespace runs collapsed. */
export function textOf(node: Node | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Waits until `predicate` (which may be async) holds: a wait on a state, polled every few
 * milliseconds by `waitUntil` (timers, no animation frames: it runs in a background tab too).
 */
export async function until(predicate: () => boolean | Promise<boolean>, message = 'condition', timeoutMs = 3000): Promise<void> {
  await waitUntil(predicate, `timed out waiting for ${message}`, { interval: 5, timeout: timeoutMs });
}

/** Where {@link inputsDelivered} moves the mouse, in turn: never a spot a test clicks. */
const SENTINEL_SPOTS: [number, number][] = [[7, 7], [8, 8]];
let sentinelTurn = 0;

/**
 * A positive sign for a negative check after real input: the browser delivers input in order, so once
 * a mouse move sent after the test's clicks and keys has reached the page, their handlers have run
 * (and the tasks they queued, a round trip later). Moves the mouse to a corner of the viewport.
 * @example await click(button); await inputsDelivered(); await el.updateComplete; expect(…).to.equal('waiting');
 */
export async function inputsDelivered(): Promise<void> {
  const [x, y] = SENTINEL_SPOTS[sentinelTurn++ % SENTINEL_SPOTS.length];
  const moved = new Promise<void>((resolve) => {
    const onMove = (event: MouseEvent) => {
      if (event.clientX !== x || event.clientY !== y) return;
      window.removeEventListener('mousemove', onMove, true);
      resolve();
    };
    window.addEventListener('mousemove', onMove, true);
  });
  await sendMouse({ type: 'move', position: [x, y] });
  await moved;
}

/**
 * The user's device in the element tests: one virtual authenticator of this page (the `webauthn`
 * command: CDP in Chromium, Marionette in Firefox), present or away.
 */
export const userDevice = {
  id: '',
  async add(present = true) {
    ({ authenticatorId: this.id } = (await executeServerCommand('webauthn', { action: 'add', automaticPresenceSimulation: present })) as { authenticatorId: string });
  },
  async present(enabled: boolean) {
    await executeServerCommand('webauthn', { action: 'presence', authenticatorId: this.id, enabled });
  },
  async credentials() {
    return ((await executeServerCommand('webauthn', { action: 'credentials', authenticatorId: this.id })) as { credentials: { signCount: number }[] }).credentials;
  },
  async remove() {
    if (this.id) await executeServerCommand('webauthn', { action: 'remove', authenticatorId: this.id });
    this.id = '';
  },
};
