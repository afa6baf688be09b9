/**
 * The page's 「元に戻す」: whole-document snapshots taken before every change, the agent's included,
 * so the button restores what an agent replaced (CONF-2: the adapters say `undoRestoresAgentChanges`).
 * Typing is grouped: one snapshot per burst of keystrokes, not one per key.
 * @module
 */

/**
 * Where a change came from: `typing` in the page's editor, another `user` action in the page
 * (a select, a rename, an edit on the draw.io canvas), an `agent`'s operation, the page's `undo`,
 * or a document `load`.
 */
export type ChangeSource = 'typing' | 'user' | 'agent' | 'undo' | 'load';

/** A bounded stack of previous texts. */
export interface UndoHistory {
  /** Call before applying a change; `previous` is the text the change replaces. */
  record(previous: string, source: ChangeSource): void;
  /** The text to go back to, or undefined when there is none. */
  pop(): string | undefined;
  readonly size: number;
  clear(): void;
}

/**
 * Creates a history. Typing within `burstMs` of the previous keystroke joins the same step.
 * @example const history = createUndoHistory(); history.record(old, 'agent'); history.pop() // old
 */
export function createUndoHistory({ limit = 100, burstMs = 1000, now = () => Date.now() } = {}): UndoHistory {
  const stack: string[] = [];
  let lastSource: ChangeSource | null = null;
  let lastTime = -Infinity;
  return {
    record(previous, source) {
      const time = now();
      const sameBurst = source === 'typing' && lastSource === 'typing' && time - lastTime < burstMs;
      lastSource = source;
      lastTime = time;
      if (source === 'undo' || source === 'load' || sameBurst) return;
      if (stack[stack.length - 1] === previous) return;
      stack.push(previous);
      if (stack.length > limit) stack.shift();
    },
    pop() {
      lastSource = 'undo';
      return stack.pop();
    },
    get size() {
      return stack.length;
    },
    clear() {
      stack.length = 0;
      lastSource = null;
    },
  };
}
