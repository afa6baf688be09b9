/**
 * The five node operations (NODE-1..NODE-6, FILE-1..FILE-6).
 * @module
 */
import { systemClock, type Clock } from '../../src/clock.js';
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { deleteFileSchema, listFilesSchema, readFileSchema, resolveRelativePath, writeFileSchema } from '../../src/files.js';
import { TIMEOUT_MS, stripTerminalControls, timeoutSchema } from '../../src/limits.js';
import { ErrorCode, fail, type OperationFailure } from '../../src/result.js';
import { RELAY_WAIT_NOTE, createOutputSink, filePath, kindOf, listUnder, ok, withDirectories, deleteFileConfirmation } from '../shared.js';
import type { NodeFileFailure, NodeRuntimeLike, NodeToolAdapter } from './adapter.js';
import { createExcludeMatcher } from './exclude.js';

/** Options of {@link createNodeOperations}. */
export interface NodeOperationsOptions {
  /** Timers for `timeoutMs`; the real clock by default. */
  clock?: Clock;
}

/** `node_run_command`'s input (IN-3). */
export const runCommandSchema = {
  type: 'object',
  properties: {
    command: {
      type: 'string',
      minLength: 1,
      description: '実行するコマンド(例: node、npm)。そのままプロセスに渡す。引数を含めず、args に分けて渡す。',
    },
    args: {
      type: 'array',
      items: { type: 'string' },
      description: 'コマンドに渡す引数の配列(例: ["index.js"])。そのまま渡す。',
    },
    timeoutMs: timeoutSchema('時間の上限(ミリ秒)。1000 から 120000 までの整数。省くと 30000。過ぎるとプロセスを終了させる。'),
  },
  required: ['command'],
  additionalProperties: false,
} as const;

/** The input schemas of the five operations, by name. */
export const nodeInputSchemas = {
  node_list_files: listFilesSchema,
  node_read_file: readFileSchema,
  node_write_file: writeFileSchema,
  node_delete_file: deleteFileSchema,
  node_run_command: runCommandSchema,
} as const;

const NOT_READY = 'the Node runtime has not booted, or failed to boot';

function fromRuntime(failure: NodeFileFailure, path: string): OperationFailure {
  const message = failure.message ?? `${failure.code}: ${path}`;
  switch (failure.code) {
    case 'not_found':
      return fail(ErrorCode.notFound, message);
    case 'too_large':
      return fail(ErrorCode.tooLarge, message);
    case 'not_text':
    case 'is_directory':
    case 'invalid_path':
      return fail(ErrorCode.invalidInput, message);
    default:
      return fail(ErrorCode.failed, message);
  }
}

/**
 * Creates the node operations. They read the runtime through `adapter.getRuntime()` on every check
 * and execute (NODE-2) and answer `not_ready` while it is null (NODE-1).
 * @example
 * provideOperations('node', createNodeOperations({ getRuntime: () => currentRuntime }));
 */
export function createNodeOperations(adapter: NodeToolAdapter, options: NodeOperationsOptions = {}): AnyOperationDefinition[] {
  const clock = options.clock ?? systemClock;
  const runtime = (): NodeRuntimeLike | OperationFailure => adapter.getRuntime() ?? fail(ErrorCode.notReady, NOT_READY);
  const requireRuntime = async (): Promise<OperationFailure | null> => (adapter.getRuntime() ? null : fail(ErrorCode.notReady, NOT_READY));
  const tree = (rt: NodeRuntimeLike) => withDirectories(rt.files.tree.getState());

  const listFiles = defineOperation({
    name: 'node_list_files',
    description:
      'Node の実行環境の作業ディレクトリにある、ファイルとディレクトリの一覧を返す。path を渡すとその下の、省くと作業ディレクトリの全体の、全ての階層を返す。kind は file か directory。保存しないファイルの規則の exclude に当たるパス(node_modules/ など)は返さない。1,000 件までで、切り詰めたときは truncated が true になる。',
    inputSchema: listFilesSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    check: async (input) => {
      const notReady = await requireRuntime();
      if (notReady) return notReady;
      return input.path === undefined ? null : nullIfOk(resolveRelativePath(input.path));
    },
    execute: async (input) => {
      const rt = runtime();
      if ('error' in rt) return rt;
      const excluded = createExcludeMatcher(rt.excludes.patterns);
      const listing = listUnder(tree(rt), input.path, (entry) => !excluded(entry.path, entry.kind));
      if ('error' in listing) return listing;
      return ok({ entries: listing.entries, truncated: listing.truncated });
    },
  });

  const readFile = defineOperation({
    name: 'node_read_file',
    description:
      '作業ディレクトリのファイルの中身を、UTF-8 のテキストで返す。1 MB を超えるファイルは too_large、テキストとして読めないファイルとディレクトリは invalid_input、無いファイルは not_found を返す(保存しないファイルの規則と同じ判定)。',
    inputSchema: readFileSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    check: async (input) => (await requireRuntime()) ?? nullIfOk(filePath(input.path)),
    execute: async (input) => {
      const rt = runtime();
      if ('error' in rt) return rt;
      const path = filePath(input.path);
      if (!path.ok) return path;
      const read = await rt.files.read(path.path);
      if (!read.ok) return fromRuntime(read, path.path);
      return ok({ path: path.path, contents: read.contents });
    },
  });

  const writeFile = defineOperation({
    name: 'node_write_file',
    description:
      '作業ディレクトリにファイルを書く。ファイルがあれば確認なしで上書きし、親のディレクトリが無ければ作る。contents は UTF-8 で 1 MB まで。',
    inputSchema: writeFileSchema,
    check: async (input) => {
      const notReady = await requireRuntime();
      if (notReady) return notReady;
      const path = filePath(input.path);
      if (!path.ok) return path;
      const rt = adapter.getRuntime();
      if (rt && kindOf(tree(rt), path.path) === 'directory') return fail(ErrorCode.invalidInput, `is a directory: ${path.path}`);
      return null;
    },
    execute: async (input) => {
      const rt = runtime();
      if ('error' in rt) return rt;
      const path = filePath(input.path);
      if (!path.ok) return path;
      const written = await rt.files.write(path.path, input.contents);
      if (!written.ok) return fromRuntime(written, path.path);
      return ok({ path: path.path });
    },
  });

  /** Where `path` stands: from the tree, or, when the tree does not show it (not entered, not yet refreshed), from a read. */
  const fileKind = async (rt: NodeRuntimeLike, path: string): Promise<'file' | 'directory' | 'missing'> => {
    const kind = kindOf(tree(rt), path);
    if (kind !== 'missing') return kind;
    const read = await rt.files.read(path);
    if (read.ok) return 'file';
    if (read.code === 'not_found') return 'missing';
    if (read.code === 'is_directory') return 'directory';
    return 'file';
  };

  const deleteFile = defineOperation({
    name: 'node_delete_file',
    description:
      '作業ディレクトリのファイルを消す。ファイルだけを消し、ディレクトリを指すと invalid_input、無いパスを指すと not_found を返す。利用者が確認の画面で確定してから実行する。',
    inputSchema: deleteFileSchema,
    annotations: { consequentialHint: true },
    check: async (input) => {
      const rt = adapter.getRuntime();
      if (!rt) return fail(ErrorCode.notReady, NOT_READY);
      const path = filePath(input.path);
      if (!path.ok) return path;
      const kind = await fileKind(rt, path.path);
      if (kind === 'directory') return fail(ErrorCode.invalidInput, `is a directory, not a file: ${path.path}`);
      if (kind === 'missing') return fail(ErrorCode.notFound, `no such file: ${path.path}`);
      return null;
    },
    confirmation: (input) => deleteFileConfirmation(input.path, 'Node の実行環境の作業ディレクトリ'),
    execute: async (input) => {
      const rt = runtime();
      if ('error' in rt) return rt;
      const path = filePath(input.path);
      if (!path.ok) return path;
      const removed = await rt.files.remove(path.path);
      if (!removed.ok) return fromRuntime(removed, path.path);
      return ok({ path: path.path });
    },
  });

  const runCommand = defineOperation({
    name: 'node_run_command',
    description:
      `作業ディレクトリでコマンドを実行し、終了コード(exitCode)と出力(output)を返す。command と args はそのまま渡し、コマンドの文字列を引数に分けないので、引数は args に入れる。プロセスは「ai: <command>」の名前で端末のペインに出る。0 でない終了コードでも ok は true。output は、端末の制御の文字を除いた出力の末尾の 100,000 文字で、切り詰めたときは truncated が true になる。timeoutMs(1000〜120000、省くと 30000)までに終わらないときは、プロセスを終了させ、timeout と、それまでの output を返す。${RELAY_WAIT_NOTE}`,
    inputSchema: runCommandSchema,
    annotations: { consequentialHint: true, untrustedContentHint: true },
    check: async () => requireRuntime(),
    execute: async (input) => {
      const rt = runtime();
      if ('error' in rt) return rt;
      const timeoutMs = input.timeoutMs ?? TIMEOUT_MS.default;
      const proc = await rt.processes.start(input.command, input.args ?? [], { name: `ai: ${input.command}` });
      const sink = createOutputSink(stripTerminalControls);
      const unsubscribe = proc.output.subscribe((chunk) => sink.push(chunk));
      let timer: unknown;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = clock.setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        const ended = await Promise.race([proc.exit, timedOut]);
        if (proc.output.truncated) sink.markDropped();
        if (ended === 'timeout') {
          // Not awaited: the answer must not wait on a runtime that may itself be stuck.
          void Promise.resolve()
            .then(() => proc.kill())
            .catch(() => {});
          const { output, truncated } = sink.result();
          return fail(ErrorCode.timeout, `the command did not finish within ${timeoutMs} ms and was killed`, { output, truncated });
        }
        const { output, truncated } = sink.result();
        await rt.files.tree.refresh?.().catch(() => {});
        return ok({ exitCode: ended, output, truncated });
      } finally {
        clock.clearTimeout(timer);
        unsubscribe();
      }
    },
  });

  return [listFiles, readFile, writeFile, deleteFile, runCommand];
}

function nullIfOk(result: { ok: true } | OperationFailure): OperationFailure | null {
  return result.ok ? null : result;
}
