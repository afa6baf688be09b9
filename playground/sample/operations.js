// A page without a bundler: one module hands its definitions to the runtime at initialisation.
import { provideOperations, defineOperation, succeed, fail } from '/ai-ops/ai-ops.js';

const note = () => document.getElementById('note');

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
    }),
    execute: async (_input, { field }) => {
      const count = field.value.length;
      field.value = '';
      return succeed({ count });
    },
  }),
]);
