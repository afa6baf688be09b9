// The call path the undo tests of the tools share: the runtime's real runCall, keeping the undo
// step the log row would own (the tests' usual caller drops it).
import { expect } from '@open-wc/testing';
import { compileOperation, runCall, type CallHooks } from '../../src/pipeline.js';
import type { AnyOperationDefinition, ConfirmationContent } from '../../src/definition.js';
import type { UndoStep } from '../../src/definition.js';

/** A caller over one tool's definitions: the parsed envelope, its JSON, the step, the dialogs asked for. */
export function undoCaller(definitions: readonly AnyOperationDefinition[]) {
  const byName = new Map(definitions.map((d) => [d.name, compileOperation(d)]));
  return async (name: string, input: unknown = {}, answer: 'accept' | 'decline' = 'accept') => {
    const confirmations: ConfirmationContent[] = [];
    const hooks: CallHooks = {
      isEnabled: () => true,
      skipsConfirmation: () => false,
      confirm: async ({ content }) => {
        confirmations.push(content);
        return answer === 'accept' ? () => {} : null;
      },
    };
    const { json, undo } = await runCall(byName.get(name)!, input, hooks);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { result: JSON.parse(json) as Record<string, any>, json, undo, confirmations };
  };
}

/** The step, asserted present. */
export function stepOf(undo: UndoStep | null): UndoStep {
  expect(undo, 'the call hands an undo step').to.not.equal(null);
  return undo!;
}

/**
 * What a step's `undo()` resolved to, read as the undo keeper reads it (UV-17): the envelope, and
 * the undo's own step (what it took away, to put back) when it handed one.
 */
export function undoOutcome(value: unknown): { envelope: { ok?: boolean; error?: { code: string; message: string } }; again: UndoStep | null } {
  const outcome = value as { result?: unknown; undo?: UndoStep | null };
  if (outcome && typeof outcome === 'object' && 'result' in outcome) return { envelope: outcome.result as { ok?: boolean }, again: outcome.undo ?? null };
  return { envelope: value as { ok?: boolean }, again: null };
}
