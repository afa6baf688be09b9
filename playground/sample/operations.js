// A page without a bundler: one module hands its definitions to the runtime at initialisation.
import { provideOperations, defineOperation, succeed, fail } from '/ai-ops/ai-ops.js';

const note = () => document.getElementById('note');

// Counts every change of the note (the user's typing, a call, an undo), so an undo step can tell
// cheaply whether the note changed since its call, without keeping a second copy.
let version = 0;
note()?.addEventListener('input', () => version++);

provideOperations('sample', [
  defineOperation({
    name: 'sample_read_note',
    description: 'ページのメモの全文を返す。',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    execute: async () => succeed({ text: note().value }),
  }),
  defineOperation({
    name: 'sample_wait',
    description: '指定した秒数だけ待ってから、待った秒数を返す(長い呼び出しの確認用)。',
    inputSchema: {
      type: 'object',
      properties: { seconds: { type: 'integer', minimum: 0, maximum: 130, description: '待つ秒数' } },
      required: ['seconds'],
      additionalProperties: false,
    },
    execute: ({ seconds }) => new Promise((resolve) => setTimeout(() => resolve(succeed({ waited: seconds })), seconds * 1000)),
  }),
  defineOperation({
    name: 'sample_clear_note',
    description: 'ページのメモを空にする。利用者の確認の後に実行する。',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { consequentialHint: true },
    // Runs before the dialog and again after the user approved; what it returns is the context.
    prepare: async () => (note() ? { field: note() } : fail('not_ready', 'the note is not on the page')),
    confirmation: (_input, { field }) => ({
      title: 'メモを空にする',
      summary: `メモの ${field.value.length} 文字を消します。`,
      actionLabel: '空にする',
      detail: field.value,
      // True: the log row's 「元に戻す」 puts the text back (the undo step below).
      undoable: true,
    }),
    execute: async (_input, { field }) => {
      const before = field.value;
      if (before === '') return succeed({ count: 0 }); // nothing changed: nothing to undo
      field.value = '';
      const after = ++version;
      // { result, undo }: the log row keeps the step, in memory only; the agent sees only the result.
      return {
        result: succeed({ count: before.length }),
        undo: {
          targets: ['sample:note'],
          bytes: before.length * 2,
          undo: async () => {
            field.value = before;
            version++;
          },
          // The user typed since: the log asks before their text goes.
          changedSince: () => version !== after,
        },
      };
    },
  }),
]);
