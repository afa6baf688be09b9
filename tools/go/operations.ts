/**
 * The six Go operations (GO-1..GO-8, FILE-1..FILE-6).
 * @module
 */
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { deleteFileSchema, listFilesSchema, readFileSchema, resolveRelativePath, writeFileSchema } from '../../src/files.js';
import { MAX_TEXT_BYTES, TIMEOUT_MS, tail, timeoutSchema, utf8ByteLength } from '../../src/limits.js';
import { ErrorCode, fail, type OperationFailure, type OperationResult } from '../../src/result.js';
import { RELAY_WAIT_NOTE, filePath, kindOf, listUnder, ok, withDirectories, deleteFileConfirmation } from '../shared.js';
import type { GoRunMode, GoRunOutcome, GoToolAdapter } from './adapter.js';

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

/**
 * `go_run`'s or `go_test`'s answer for what the page's run function ended with; `output` is the
 * last 100,000 characters (GO-6).
 * @example goRunAnswer('run', { kind: 'exited', exitCode: 0, output: 'hi\n' }, 30000) // { ok: true, exitCode: 0, output: 'hi\n', truncated: false }
 */
export function goRunAnswer(mode: GoRunMode, outcome: GoRunOutcome, timeoutMs: number): OperationResult {
  if (outcome.kind === 'busy') return fail(ErrorCode.notReady, 'Go code is running or the engine is loading; call again when it ends');
  const what = mode === 'run' ? 'the program' : 'the tests';
  const were = mode === 'run' ? 'was' : 'were';
  const { output, truncated } = tail(outcome.output ?? '');
  switch (outcome.kind) {
    case 'exited':
      return ok({ exitCode: outcome.exitCode, output, truncated });
    case 'timeout':
      return fail(ErrorCode.timeout, `${what} did not finish within ${timeoutMs} ms and ${were} stopped`, { output, truncated });
    case 'stopped':
      // GO-9: the user's decision, not the program's exit code.
      return fail(ErrorCode.declined, `the user stopped ${what} with the page's 停止 button before the end`, { output, truncated });
    case 'cancelled':
      return fail(ErrorCode.declined, `the caller cancelled the call; ${what} ${were} stopped`, { output, truncated });
    default:
      return fail(ErrorCode.failed, 'the Go page answered something unexpected');
  }
}

/**
 * Creates the Go operations. File operations edit the page's files module (GO-2); `go_run` and
 * `go_test` call the page's run function (GO-3) and never confirm (GO-8).
 * @example
 * provideOperations('go', createGoOperations({ files: goFiles, getRunnerState: () => runner.state, run: runFromAgent }));
 */
export function createGoOperations(adapter: GoToolAdapter): AnyOperationDefinition[] {
  const { files } = adapter;
  const requireLoaded = (): OperationFailure | null => (files.isLoaded() ? null : fail(ErrorCode.notReady, NOT_LOADED));
  const entries = () => withDirectories(files.list());
  const nullIfOk = (result: { ok: true } | OperationFailure) => (result.ok ? null : result);

  const listFiles = defineOperation({
    name: 'go_list_files',
    description:
      'Go を動かすツールのファイルとディレクトリの一覧を返す。path を渡すとその下の、省くとプロジェクトの全体の、全ての階層を返す。kind は file か directory で、空のディレクトリも入る。1,000 件までで、切り詰めたときは truncated が true になる。',
    inputSchema: listFilesSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    check: async (input) => requireLoaded() ?? (input.path === undefined ? null : nullIfOk(resolveRelativePath(input.path))),
    execute: async (input) => {
      const notReady = requireLoaded();
      if (notReady) return notReady;
      // No exclude rule here: every file and directory of the project is listed (FILE-3).
      const listing = listUnder(files.list(), input.path);
      if ('error' in listing) return listing;
      return ok({ entries: listing.entries, truncated: listing.truncated });
    },
  });

  const readFile = defineOperation({
    name: 'go_read_file',
    description:
      'Go を動かすツールのファイルの中身を返す。1 MB を超えるファイルは too_large、テキストとして読めないファイルとディレクトリは invalid_input、無いファイルは not_found を返す。',
    inputSchema: readFileSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    check: async (input) => requireLoaded() ?? nullIfOk(filePath(input.path)),
    execute: async (input) => {
      const notReady = requireLoaded();
      if (notReady) return notReady;
      const path = filePath(input.path);
      if (!path.ok) return path;
      const kind = kindOf(entries(), path.path);
      if (kind === 'directory') return fail(ErrorCode.invalidInput, `is a directory, not a file: ${path.path}`);
      const contents = files.read(path.path);
      if (contents === null) return fail(ErrorCode.notFound, `no such file: ${path.path}`);
      const bytes = utf8ByteLength(contents);
      if (bytes > MAX_TEXT_BYTES) return fail(ErrorCode.tooLarge, `${path.path} is ${bytes} bytes of UTF-8, over the limit of ${MAX_TEXT_BYTES}`);
      if (contents.includes('\u0000')) return fail(ErrorCode.invalidInput, `${path.path} is not text`);
      return ok({ path: path.path, contents });
    },
  });

  /** `invalid_input` when `path` is a directory, or a file stands where one of its parents would go. */
  const writable = (path: string): OperationFailure | null => {
    const all = entries();
    if (kindOf(all, path) === 'directory') return fail(ErrorCode.invalidInput, `is a directory: ${path}`);
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      if (kindOf(all, parent) === 'file') return fail(ErrorCode.invalidInput, `a parent of ${path} is a file: ${parent}`);
    }
    return null;
  };

  const writeFile = defineOperation({
    name: 'go_write_file',
    description:
      'Go を動かすツールにファイルを書く。ファイルがあれば確認なしで上書きし、無ければ作り、親のディレクトリが無ければ作る。エディタの表示と保存は、利用者が書いたときと同じに更新される。contents は UTF-8 で 1 MB まで。',
    inputSchema: writeFileSchema,
    check: async (input) => {
      const notReady = requireLoaded();
      if (notReady) return notReady;
      const path = filePath(input.path);
      return path.ok ? writable(path.path) : path;
    },
    execute: async (input) => {
      const notReady = requireLoaded();
      if (notReady) return notReady;
      const path = filePath(input.path);
      if (!path.ok) return path;
      const refused = writable(path.path);
      if (refused) return refused;
      await files.write(path.path, input.contents);
      return ok({ path: path.path });
    },
  });

  const deletable = (path: string): OperationFailure | null => {
    const kind = kindOf(entries(), path);
    if (kind === 'directory') return fail(ErrorCode.invalidInput, `is a directory, not a file: ${path}`);
    if (kind === 'missing' && files.read(path) === null) return fail(ErrorCode.notFound, `no such file: ${path}`);
    return null;
  };

  const deleteFile = defineOperation({
    name: 'go_delete_file',
    description:
      'Go を動かすツールのファイルを消す。ファイルだけを消し、ディレクトリを指すと invalid_input、無いパスを指すと not_found を返す。利用者が確認の画面で確定してから実行する。',
    inputSchema: deleteFileSchema,
    annotations: { consequentialHint: true },
    check: async (input) => {
      const notReady = requireLoaded();
      if (notReady) return notReady;
      const path = filePath(input.path);
      return path.ok ? deletable(path.path) : path;
    },
    confirmation: (input) => deleteFileConfirmation(input.path, 'Go を動かすツールのプロジェクト'),
    execute: async (input) => {
      const notReady = requireLoaded();
      if (notReady) return notReady;
      const path = filePath(input.path);
      if (!path.ok) return path;
      // The user may have changed the files while the dialog was open.
      const refused = deletable(path.path);
      if (refused) return refused;
      await files.remove(path.path);
      return ok({ path: path.path });
    },
  });

  const requireIdle = (): OperationFailure | null => {
    const state = adapter.getRunnerState();
    if (state === 'loading') return fail(ErrorCode.notReady, 'the Go engine is loading; call again when it is ready');
    if (state === 'running') return fail(ErrorCode.notReady, 'Go code is running (started by the user or an agent); call again when it ends');
    return null;
  };

  // `call` carries the call's signal: aborting it stops the job (NAT-2).
  const runner = (mode: GoRunMode) => async (input: { timeoutMs?: number }, call?: { readonly signal?: AbortSignal }) => {
    const notReady = requireLoaded() ?? requireIdle();
    if (notReady) return notReady;
    const timeoutMs = input.timeoutMs ?? TIMEOUT_MS.default;
    return goRunAnswer(mode, await adapter.run(mode, { timeoutMs, signal: call?.signal }), timeoutMs);
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
    check: async () => requireLoaded() ?? requireIdle(),
    execute: runner('run'),
  });

  const test = defineOperation({
    name: 'go_test',
    description:
      `全ての package のテストを実行し、終了コード(exitCode)と出力(output)を返す。出力(=== RUN、--- PASS、--- FAIL)はそのまま返し、テストごとに分けない。テストの失敗とコンパイルのエラーは exitCode 1。${outputNote}${timeoutNote}`,
    inputSchema: goRunSchema,
    annotations: { consequentialHint: true, untrustedContentHint: true },
    check: async () => requireLoaded() ?? requireIdle(),
    execute: runner('test'),
  });

  return [listFiles, readFile, writeFile, deleteFile, run, test];
}
