// Type-level tests, checked by `tsc -p tsconfig.json` (npm run typecheck); nothing here runs.
// [IN-3] the input types of the definitions are those of the design doc's `Inputs`, derived from
// the schema literals, so a schema and its handlers cannot drift apart.
import { defineOperation, type InputOf } from '../../src/definition.js';
import { fail, succeed } from '../../src/result.js';
import { timeoutSchema } from '../../src/limits.js';
import { nodeInputSchemas } from '../../tools/node/operations.js';
import { goInputSchemas } from '../../tools/go/operations.js';
import { sqlInputSchemas } from '../../tools/sql/operations.js';
import { slidesWriteSchema, type SlidesSetThemeSchema } from '../../tools/slides/operations.js';
import { emptyInputSchema } from '../../tools/shared.js';
import { excalidrawInputSchemas } from '../../tools/excalidraw/operations.js';
import { drawioInputSchemas } from '../../tools/drawio/operations.js';
import type { NodeRuntimeLike } from '../../tools/node/adapter.js';
import type { SqlEngineStatus, SqlRunOutcome } from '../../tools/sql/adapter.js';
import type { GoRunnerStatus } from '../../tools/go/adapter.js';
import type { NodeRuntime } from '../../playground/node/engine/node-runtime.js';
import type { SqlEngineState, toRunOutcome } from '../../playground/sql/engine/sql-engine.js';
import type { GoRunnerState } from '../../playground/go/engine/go-runner.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// A handler reading a field the schema lacks does not compile.
defineOperation({
  name: 'x_read',
  description: '読む',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  execute: async (input) => {
    const path: string = input.path;
    // @ts-expect-error `contents` is not in the schema
    const contents: string = input.contents;
    return succeed({ path, contents });
  },
});

// An optional field is possibly undefined; a required one is not.
defineOperation({
  name: 'x_run',
  description: '実行する',
  inputSchema: { type: 'object', properties: { command: { type: 'string' }, timeoutMs: timeoutSchema('時間') }, required: ['command'], additionalProperties: false },
  prepare: async (input) => {
    // @ts-expect-error timeoutMs is optional
    const ms: number = input.timeoutMs;
    void ms;
  },
  // @ts-expect-error a handler's parameter type must be the schema's type
  execute: async (input: { command: number }) => succeed({ command: input.command }),
});

// [DEF-1] The context is what prepare resolves to, failures aside; confirmation and execute get it typed.
const withContext = defineOperation({
  name: 'x_delete',
  description: '消す',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  prepare: async (input) => (input.path === '' ? fail('invalid_input', 'empty') : { resolved: input.path, size: 3 }),
  confirmation: (input, ctx) => ({ title: ctx.resolved, summary: String(ctx.size), actionLabel: '削除する' }),
  execute: async (_input, ctx, call) => {
    const signal: AbortSignal = call.signal;
    // @ts-expect-error the context has no `contents`
    const contents: string = ctx.contents;
    return succeed({ path: ctx.resolved, contents, aborted: signal.aborted });
  },
});
export type ContextInferred = Expect<Equal<Parameters<typeof withContext.execute>[1], { resolved: string; size: number }>>;

// Without prepare the context is void; a definition still has no `check` (the old shape).
defineOperation({
  name: 'x_plain',
  description: '読む',
  inputSchema: { type: 'object', additionalProperties: false },
  // @ts-expect-error `check` is gone: prepare replaced it
  check: async () => null,
  execute: async () => succeed(),
});

type NewElement = {
  type: 'rectangle' | 'ellipse' | 'diamond' | 'text' | 'arrow';
  x: number;
  y: number;
  id?: string;
  width?: number;
  height?: number;
  text?: string;
  from?: string;
  to?: string;
};

export type Inputs = [
  Expect<Equal<InputOf<typeof emptyInputSchema>, {}>>,
  Expect<Equal<InputOf<typeof slidesWriteSchema>, { markdown: string }>>,
  Expect<Equal<InputOf<SlidesSetThemeSchema>, { theme: string }>>,
  Expect<Equal<InputOf<typeof excalidrawInputSchemas.excalidraw_read>, {}>>,
  Expect<Equal<InputOf<typeof excalidrawInputSchemas.excalidraw_add_elements>, { elements: NewElement[] }>>,
  Expect<Equal<
    InputOf<typeof excalidrawInputSchemas.excalidraw_update_element>,
    { id: string; x?: number; y?: number; width?: number; height?: number; strokeColor?: string; backgroundColor?: string }
  >>,
  Expect<Equal<InputOf<typeof excalidrawInputSchemas.excalidraw_clear>, {}>>,
  Expect<Equal<InputOf<typeof drawioInputSchemas.drawio_read>, {}>>,
  Expect<Equal<InputOf<typeof drawioInputSchemas.drawio_add_cells>, { cells: string }>>,
  Expect<Equal<InputOf<typeof drawioInputSchemas.drawio_write>, { xml: string }>>,
  Expect<Equal<InputOf<typeof nodeInputSchemas.node_list_files>, { path?: string }>>,
  Expect<Equal<InputOf<typeof nodeInputSchemas.node_read_file>, { path: string }>>,
  Expect<Equal<InputOf<typeof nodeInputSchemas.node_write_file>, { path: string; contents: string }>>,
  Expect<Equal<InputOf<typeof nodeInputSchemas.node_delete_file>, { path: string }>>,
  Expect<Equal<InputOf<typeof nodeInputSchemas.node_run_command>, { command: string; args?: string[]; timeoutMs?: number }>>,
  Expect<Equal<InputOf<typeof sqlInputSchemas.sql_read_query>, {}>>,
  Expect<Equal<InputOf<typeof sqlInputSchemas.sql_run_query>, { sql: string; timeoutMs?: number }>>,
  Expect<Equal<InputOf<typeof goInputSchemas.go_list_files>, { path?: string }>>,
  Expect<Equal<InputOf<typeof goInputSchemas.go_read_file>, { path: string }>>,
  Expect<Equal<InputOf<typeof goInputSchemas.go_write_file>, { path: string; contents: string }>>,
  Expect<Equal<InputOf<typeof goInputSchemas.go_delete_file>, { path: string }>>,
  Expect<Equal<InputOf<typeof goInputSchemas.go_run>, { timeoutMs?: number }>>,
  Expect<Equal<InputOf<typeof goInputSchemas.go_test>, { timeoutMs?: number }>>,
];

// The adapters fit the demo engines as they are, so a page's glue stays thin.
export type EngineFit = [
  Expect<NodeRuntime extends NodeRuntimeLike ? true : false>,
  Expect<SqlEngineState extends SqlEngineStatus ? true : false>,
  Expect<ReturnType<typeof toRunOutcome> extends SqlRunOutcome ? true : false>,
  Expect<GoRunnerState extends GoRunnerStatus ? true : false>,
];
