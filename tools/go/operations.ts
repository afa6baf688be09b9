/**
 * The six Go operations (GO-1..GO-8, FILE-1..FILE-6).
 * @module
 */
import { defineOperation, type AnyOperationDefinition, type CallContext } from '../../src/definition.js';
import { deleteFileSchema, listFilesSchema, readFileSchema, writeFileSchema } from '../../src/files.js';
import { TIMEOUT_MS, timeoutSchema } from '../../src/limits.js';
import { ErrorCode, fail, succeed, type OperationResult } from '../../src/result.js';
import { createFileOperations, type FileStore } from '../files.js';
import { createEngineGuard, outputFields, runAnswer, type RunOutput, type RunWording } from '../run.js';
import { RELAY_WAIT_NOTE } from '../shared.js';
import type { GoFilesModule, GoRunMode, GoToolAdapter } from './adapter.js';

/** `go_run`'s and `go_test`'s input (IN-3, IN-5). */
export const goRunSchema = {
  type: 'object',
  properties: {
    timeoutMs: timeoutSchema('時間の上限(ミリ秒)。1000 から 120000 までの整数。省くと 30000。Go の読み込みの時間は含めない。'),
  },
  additionalProperties: false,
} as const;

/** The input schemas of the six operations, by name. */
export const goInputSchemas = {
  go_list_files: listFilesSchema,
  go_read_file: readFileSchema,
  go_write_file: writeFileSchema,
  go_delete_file: deleteFileSchema,
  go_run: goRunSchema,
  go_test: goRunSchema,
} as const;

const NOT_LOADED = 'the Go page has not finished loading the project and its saved files';

/** The page's files module as the shared file operations read it: sync calls made async. */
function moduleStore(files: GoFilesModule): FileStore {
  return {
    entries: () => files.list(),
    read: async (path) => files.read(path) ?? fail(ErrorCode.notFound, `no such file: ${path}`),
    write: async (path, contents) => {
      await files.write(path, contents);
      return { path };
    },
    remove: async (path) => {
      await files.remove(path);
      return { path };
    },
    locate: async (path) => (files.read(path) === null ? 'missing' : 'file'),
    // The module's removal takes a directory with all below it: only an empty one is asked for.
    removeEmptyDirectory: async (path) => {
      if (!files.removeDirectory || files.list().some((entry) => entry.path.startsWith(`${path}/`))) return;
      await files.removeDirectory(path);
    },
  };
}

/** `go_run`'s or `go_test`'s failures in the run contract's terms (tools/run.ts). */
function goWording(mode: GoRunMode): RunWording<RunOutput> {
  const what = mode === 'run' ? 'the program' : 'the tests';
  const were = mode === 'run' ? 'was' : 'were';
  return {
    busy: 'Go code is running or the engine is loading; call again when it ends',
    timeout: (_outcome, timeoutMs) => `${what} did not finish within ${timeoutMs} ms and ${were} stopped`,
    // GO-9: the user's decision, not the program's exit code.
    stopped: () => `the user stopped ${what} with the page's 停止 button before the end`,
    cancelled: () => `the caller cancelled the call; ${what} ${were} stopped`,
  };
}

/** A run or a test that ended by itself: its exit code and the last 100,000 characters of its output (GO-5, GO-6). */
const exitedAnswer = (end: { exitCode: number } & RunOutput): OperationResult => succeed({ exitCode: end.exitCode, ...outputFields(end) });

/**
 * Creates the Go operations. File operations edit the page's files module (GO-2); `go_run` and
 * `go_test` call the page's run function (GO-3) and never confirm (GO-8). With `undo: false` no call keeps a
 * before-state or hands an undo step (UNDO-1 off: a page that wants none, the bench's baseline).
 * @example
 * provideOperations('go', createGoOperations({ files: goFiles, getRunnerState: () => runner.state, run: runFromAgent }));
 */
export function createGoOperations(adapter: GoToolAdapter, options: { readonly undo?: boolean } = {}): AnyOperationDefinition[] {
  const { files } = adapter;
  const guard = createEngineGuard({ isLoaded: () => files.isLoaded(), getState: () => adapter.getRunnerState(), notLoaded: NOT_LOADED, engine: 'the Go engine', code: 'Go code' });

  const fileOperations = createFileOperations({
    tool: 'go',
    // No exclude rule here: every file and directory of the project is listed (FILE-3).
    store: () => guard.loaded(() => moduleStore(files)),
    undo: options.undo,
    // An undo goes back to the project the change was made in (UNDO-1).
    undoTo: () => {
      const pinned = files.pin?.() ?? files;
      return () => (pinned.isLoaded() ? moduleStore(pinned) : fail(ErrorCode.notReady, NOT_LOADED));
    },
    wording: {
      list: 'Go を動かすツールのファイルとディレクトリの一覧を返す。path を渡すとその下の、省くとプロジェクトの全体の、全ての階層を返す。kind は file か directory で、空のディレクトリも入る。1,000 件までで、切り詰めたときは truncated が true になる。',
      read: 'Go を動かすツールのファイルの中身を返す。1 MB を超えるファイルは too_large、テキストとして読めないファイルとディレクトリは invalid_input、無いファイルは not_found を返す。',
      write: 'Go を動かすツールにファイルを書く。ファイルがあれば確認なしで上書きし、無ければ作り、親のディレクトリが無ければ作る。エディタの表示と保存は、利用者が書いたときと同じに更新される。contents は UTF-8 で 1 MB まで。',
      delete: 'Go を動かすツールのファイルを消す。ファイルだけを消し、ディレクトリを指すと invalid_input、無いパスを指すと not_found を返す。利用者が確認の画面で確定してから実行する。',
      where: 'Go を動かすツールのプロジェクト',
    },
  });

  // Read right before the run starts: no dialog, so prepare and execute follow each other at once.
  const prepare = async () => guard.idle();

  // `call` carries the call's signal: aborting it stops the job (NAT-2).
  const runner = (mode: GoRunMode) => async (input: { timeoutMs?: number }, _ctx: unknown, call: CallContext) => {
    const timeoutMs = input.timeoutMs ?? TIMEOUT_MS.default;
    const outcome = await adapter.run(mode, { timeoutMs, signal: call.signal });
    return runAnswer(outcome, { timeoutMs, wording: goWording(mode), exited: exitedAnswer });
  };

  const outputNote =
    'output は末尾の 100,000 文字で、切り詰めたときは truncated が true になる。コードは入力で受け取らないので、先に go_write_file で書く。実行を始めたときのファイルの写しを実行し、出力は画面の出力のペインにも出る。';
  const timeoutNote =
    `timeoutMs(1000〜120000、省くと 30000。Go の読み込みの時間は含めない)までに終わらないときは、実行を止めて timeout と、それまでの output を返す。利用者が画面の「停止」で止めたときと、呼び出しが取り消されたときは、declined と、それまでの output を返す。実行中と読み込み中は not_ready を返す。${RELAY_WAIT_NOTE}`;

  const run = defineOperation({
    name: 'go_run',
    description:
      `ルートのディレクトリの直下にある main の package を実行し、終了コード(exitCode)と出力(output)を返す。コンパイルのエラーは exitCode 1 で output にエラーが入り、os.Exit(n) は n、panic は 2。${outputNote}${timeoutNote}`,
    inputSchema: goRunSchema,
    annotations: { consequentialHint: true, untrustedContentHint: true },
    prepare,
    execute: runner('run'),
  });

  const test = defineOperation({
    name: 'go_test',
    description:
      `全ての package のテストを実行し、終了コード(exitCode)と出力(output)を返す。出力(=== RUN、--- PASS、--- FAIL)はそのまま返し、テストごとに分けない。テストの失敗とコンパイルのエラーは exitCode 1。${outputNote}${timeoutNote}`,
    inputSchema: goRunSchema,
    annotations: { consequentialHint: true, untrustedContentHint: true },
    prepare,
    execute: runner('test'),
  });

  return [...fileOperations, run, test];
}
