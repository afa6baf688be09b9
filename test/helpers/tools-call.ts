// Calls the tools' definitions through the runtime's real call path (compileOperation + runCall),
// recording what a confirmation dialog would have shown.
import { compileOperation, runCall, type CallHooks } from '../../src/pipeline.js';
import type { AnyOperationDefinition, ConfirmationContent } from '../../src/definition.js';

/** The parsed envelope, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Envelope = { ok: boolean; error?: { code: string; message: string }; [field: string]: any };

/** What one call produced. */
export interface CallRecord {
  result: Envelope;
  json: string;
  /** The confirmations asked for, in order (at most one per call). */
  confirmations: ConfirmationContent[];
  /** Order of the pipeline steps the test can observe. */
  steps: string[];
}

/** How the simulated user answers a confirmation. */
export type Answer = 'accept' | 'decline' | 'skip';

/**
 * An answer, or a user who does something while the dialog is open (switches documents, deletes
 * the file) and then answers.
 */
export type UserAction = Answer | ((content: ConfirmationContent) => Answer);

/** A caller over one tool's definitions. */
export function caller(definitions: readonly AnyOperationDefinition[]) {
  const byName = new Map(definitions.map((d) => [d.name, compileOperation(d)]));
  return async (name: string, input: unknown = {}, action: UserAction = 'accept', options: { signal?: AbortSignal } = {}): Promise<CallRecord> => {
    const operation = byName.get(name);
    if (!operation) throw new Error(`no operation ${name}`);
    const confirmations: ConfirmationContent[] = [];
    const steps: string[] = [];
    const hooks: CallHooks = {
      isEnabled: () => true,
      skipsConfirmation: () => action === 'skip',
      confirm: async ({ content }) => {
        steps.push('confirm');
        confirmations.push(content);
        const answer = typeof action === 'function' ? action(content) : action;
        return answer === 'accept' ? () => steps.push('done') : null;
      },
    };
    const { json } = await runCall(operation, input, hooks, options);
    return { result: JSON.parse(json) as Envelope, json, confirmations, steps };
  };
}

/** True when `text` is written in Japanese (has kana or kanji). */
export function isJapanese(text: string): boolean {
  return /[\u3040-\u30ff\u4e00-\u9fff]/.test(text);
}
