/**
 * The five node operations (NODE-1..NODE-9, FILE-1..FILE-6).
 * @module
 */
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { TIMEOUT_MS, stripTerminalControls, timeoutSchema, utf8ByteLength } from '../../src/limits.js';
import { ErrorCode, fail, isFailure, succeed, type OperationFailure } from '../../src/result.js';
import { deleteFileSchema, listFilesSchema, readFileSchema, writeFileSchema } from '../../src/files.js';
import { FileLedger, createFileOperations, createFileUndo, type FileBefore, type FileStore } from '../files.js';
import type { UndoStep } from '../../src/definition.js';
import { outputFields, runAnswer, type InterruptedOutcome, type RunWording } from '../run.js';
import { RELAY_WAIT_NOTE } from '../shared.js';
import type { NodeFileFailure, NodeInterruptedRun, NodeRuntimeLike, NodeToolAdapter } from './adapter.js';

/** One kept file of the runtime's snapshot. */
type NodeKeptFile = Awaited<ReturnType<NonNullable<NodeRuntimeLike['files']['snapshot']>>>['files'][number];
import { createExcludeMatcher } from './exclude.js';

/**
 * The runner's limits on a command (playground/node/server/runner.mjs, NODE-9): it names the process
 * `ai: <command>` and caps a name at 256 characters, takes 1,000 arguments, and refuses a request
 * body over 64 KiB; one argument may take 60 KiB of it.
 */
export const NODE_COMMAND_LIMITS = { commandLength: 256 - 'ai: '.length, args: 1000, requestBytes: 64 * 1024, argBytes: 60 * 1024 } as const;

/** `node_run_command`'s input (IN-3). */
export const runCommandSchema = {
  type: 'object',
  properties: {
    command: {
      type: 'string',
      minLength: 1,
      maxLength: NODE_COMMAND_LIMITS.commandLength,
      description: '実行するコマンド(例: node、npm)。そのままプロセスに渡す。引数を含めず、args に分けて渡す。252 文字まで。',
    },
    args: {
      type: 'array',
      items: { type: 'string', maxBytes: NODE_COMMAND_LIMITS.argBytes },
      maxItems: NODE_COMMAND_LIMITS.args,
      description: 'コマンドに渡す引数の配列(例: ["index.js"])。そのまま渡す。1,000 個まで、command と合わせて JSON で 64 KiB まで(長いスクリプトは node_write_file でファイルに書いてから実行する)。',
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

/** The runtime's files as the shared file operations read them. */
function runtimeStore(rt: NodeRuntimeLike): FileStore {
  const excluded = createExcludeMatcher(rt.excludes.patterns);
  const changed = (result: { ok: true } | NodeFileFailure, path: string) => (result.ok ? { path } : fromRuntime(result, path));
  return {
    entries: () => rt.files.tree.getState(),
    get entriesTruncated() {
      return rt.files.tree.truncated === true;
    },
    hidden: (entry) => excluded(entry.path, entry.kind),
    read: async (path) => {
      const read = await rt.files.read(path);
      return read.ok ? read.contents : fromRuntime(read, path);
    },
    write: async (path, contents) => changed(await rt.files.write(path, contents), path),
    remove: async (path) => changed(await rt.files.remove(path), path),
    ...(rt.files.versions ? { versions: rt.files.versions.bind(rt.files) } : {}),
    ...(rt.files.writeKeeping ? { writeKeeping: async (path: string, contents: string) => {
      const kept = await rt.files.writeKeeping!(path, contents);
      if (!kept.ok) return fromRuntime(kept, path);
      const before = 'contents' in kept.before ? kept.before.contents : 'absent' in kept.before ? null : undefined;
      return { path, before, version: kept.version };
    } } : {}),
    ...(rt.files.removeEmptyDirectory ? { removeEmptyDirectory: async (path: string) => void (await rt.files.removeEmptyDirectory!(path)) } : {}),
    // The tree may lag behind the disk, or not enter an excluded directory: ask the runner.
    locate: async (path) => {
      const read = await rt.files.read(path);
      if (read.ok) return 'file';
      return read.code === 'not_found' ? 'missing' : read.code === 'is_directory' ? 'directory' : 'file';
    },
  };
}

/**
 * The workspace's kept files now by path, the page's exclude rules applied on top of the runner's
 * (FILE-3), or null when they cannot all be kept (no snapshot, the runner stopped short, it failed):
 * the command then keeps no undo step.
 */
async function keptFiles(rt: NodeRuntimeLike, contents: boolean): Promise<Map<string, NodeKeptFile> | null> {
  if (!rt.files.snapshot) return null;
  try {
    const snapshot = await rt.files.snapshot({ contents });
    if (snapshot.truncated) return null;
    const excluded = createExcludeMatcher(rt.excludes.patterns);
    return new Map(snapshot.files.filter((file) => !excluded(file.path, 'file')).map((file) => [file.path, file]));
  } catch {
    return null;
  }
}

/**
 * What a command changed among the kept files, each as it was before (null: it created the file),
 * sorted by path, and the version each holds now.
 */
function differences(before: ReadonlyMap<string, NodeKeptFile>, after: ReadonlyMap<string, NodeKeptFile>) {
  const changed: FileBefore[] = [];
  const left: (string | null)[] = [];
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const was = before.get(path);
    const now = after.get(path);
    if (was?.version === now?.version) continue;
    changed.push({ path, contents: was ? was.contents ?? '' : null });
    left.push(now?.version ?? null);
  }
  return { changed, left };
}

/** NODE-9: what the schema cannot bound, the runner's 64 KiB request, checked before anything runs. */
function fitting(command: string, args: readonly string[]): { command: string; args: readonly string[] } | OperationFailure {
  const bytes = utf8ByteLength(JSON.stringify({ command, args, name: `ai: ${command}` }));
  if (bytes <= NODE_COMMAND_LIMITS.requestBytes) return { command, args };
  return fail(
    ErrorCode.tooLarge,
    `command and args are ${bytes} bytes as the runner receives them, over its limit of ${NODE_COMMAND_LIMITS.requestBytes}; write a long script to a file with node_write_file and run that file`,
  );
}

/** How the kill of an interrupted command went, for its message. */
const killWords = (outcome: InterruptedOutcome<NodeInterruptedRun>) =>
  outcome.killConfirmed ? 'it was killed' : 'it was told to stop, but its end was not confirmed in time';

/** `node_run_command`'s failures in the run contract's terms (tools/run.ts). */
const nodeWording: RunWording<NodeInterruptedRun> = {
  busy: 'the Node runtime cannot start a command now; call again',
  timeout: (outcome, timeoutMs) => `the command did not finish within ${timeoutMs} ms; ${killWords(outcome)}`,
  stopped: (outcome) => `the user stopped the command in the page; ${killWords(outcome)}`,
  cancelled: (outcome) => `the caller cancelled the call while the command ran; ${killWords(outcome)}`,
};

/**
 * Creates the node operations. They read the runtime through `adapter.getRuntime()` on every
 * prepare (NODE-2) and answer `not_ready` while it is null (NODE-1). With `undo: false` no call
 * keeps a before-state or hands an undo step (UNDO-1 off: a page that wants none, the bench's baseline).
 * @example
 * provideOperations('node', createNodeOperations({ getRuntime: () => currentRuntime }));
 */
export function createNodeOperations(adapter: NodeToolAdapter, options: { readonly undo?: boolean } = {}): AnyOperationDefinition[] {
  const runtime = (): NodeRuntimeLike | OperationFailure => adapter.getRuntime() ?? fail(ErrorCode.notReady, NOT_READY);

  const storeNow = (): FileStore | OperationFailure => {
    const rt = runtime();
    return isFailure(rt) ? rt : runtimeStore(rt);
  };
  // What the logged changes left in each path, shared by the file operations and the commands (UNDO-2).
  const ledger = new FileLedger();

  const files = createFileOperations({
    tool: 'node',
    store: storeNow,
    ledger,
    undo: options.undo,
    wording: {
      list: 'Node の実行環境の作業ディレクトリにある、ファイルとディレクトリの一覧を返す。path を渡すとその下の、省くと作業ディレクトリの全体の、全ての階層を返す。kind は file か directory。保存しないファイルの規則の exclude に当たるパス(node_modules/ など)は返さない。1,000 件までで、切り詰めたとき(実行環境が一覧を途中で切ったときも)は truncated が true になる。',
      read: '作業ディレクトリのファイルの中身を、UTF-8 のテキストで返す。1 MB を超えるファイルは too_large、テキストとして読めないファイルとディレクトリは invalid_input、無いファイルは not_found を返す(保存しないファイルの規則と同じ判定)。',
      write: '作業ディレクトリにファイルを書く。ファイルがあれば確認なしで上書きし、親のディレクトリが無ければ作る。contents は UTF-8 で 1 MB まで。',
      delete: '作業ディレクトリのファイルを消す。ファイルだけを消し、ディレクトリを指すと invalid_input、無いパスを指すと not_found を返す。利用者が確認の画面で確定してから実行する。',
      where: 'Node の実行環境の作業ディレクトリ',
    },
  });

  /** The undo step of a command that changed kept files: their texts before it (UNDO-1); null when it changed none. */
  const commandUndo = async (rt: NodeRuntimeLike, before: ReadonlyMap<string, NodeKeptFile>): Promise<UndoStep | null> => {
    const after = await keptFiles(rt, false);
    if (!after) return null;
    const { changed, left } = differences(before, after);
    if (changed.length === 0) return null;
    return createFileUndo({ tool: 'node', before: changed, store: runtimeStore(rt), undoStore: storeNow, ledger, left });
  };

  /** The undo step from the runtime's own before-state (`keep` / `changes`); `changes` also reloads the tree. */
  const markedUndo = async (rt: NodeRuntimeLike, mark: string): Promise<UndoStep | null> => {
    let told;
    try {
      told = await rt.files.changes!(mark);
    } catch {
      await rt.files.tree.refresh?.().catch(() => {});
      return null;
    }
    if (!told.complete) return null;
    const excluded = createExcludeMatcher(rt.excludes.patterns);
    const shown = told.files.filter((file) => !excluded(file.path, 'file'));
    if (shown.length === 0) return null;
    const changed: FileBefore[] = shown.map((file) => ({ path: file.path, contents: file.before }));
    return createFileUndo({ tool: 'node', before: changed, store: runtimeStore(rt), undoStore: storeNow, ledger, left: shown.map((file) => file.version) });
  };

  /** The runtime's mark before a command, when it keeps the before-state itself; null otherwise or when it cannot. */
  const markNow = async (rt: NodeRuntimeLike): Promise<string | null> => {
    try {
      return await rt.files.keep!();
    } catch {
      return null;
    }
  };

  const run = async (rt: NodeRuntimeLike, command: string, args: readonly string[], timeoutMs: number, signal: AbortSignal) => {
    // Taken before the command starts; held only until the difference is known. A runtime with
    // keep/changes holds it itself and hands over only what the command changed (issue 24).
    const marking = options.undo !== false && rt.files.keep !== undefined && rt.files.changes !== undefined;
    const mark = marking ? await markNow(rt) : null;
    const before = options.undo === false || marking ? null : await keptFiles(rt, true);
    let undo: UndoStep | null = null;
    const result = await runAnswer(await rt.run(command, args, { name: `ai: ${command}`, timeoutMs, signal }), {
      timeoutMs,
      wording: nodeWording,
      transform: stripTerminalControls,
      exited: async (end) => {
        if (mark !== null) {
          // The runtime's look for the changes lists the tree too (NODE-6): one walk for both.
          undo = await markedUndo(rt, mark);
        } else {
          // The process may have changed files: list them at once (NODE-6).
          await rt.files.tree.refresh?.().catch(() => {});
          if (before) undo = await commandUndo(rt, before);
        }
        return succeed({ exitCode: end.exitCode, ...outputFields(end, stripTerminalControls) });
      },
    });
    return undo ? { result, undo } : result;
  };

  const runCommand = defineOperation({
    name: 'node_run_command',
    description:
      `作業ディレクトリでコマンドを実行し、終了コード(exitCode)と出力(output)を返す。command と args はそのまま渡し、コマンドの文字列を引数に分けないので、引数は args に入れる。プロセスは「ai: <command>」の名前で端末のペインに出る。0 でない終了コードでも ok は true。output は、端末の制御の文字を除いた出力の末尾の 100,000 文字で、切り詰めたときは truncated が true になる。timeoutMs(1000〜120000、省くと 30000)までに終わらないときは、プロセスを終了させ、timeout と、それまでの output を返す。呼び出しが取り消されたときも、プロセスを終了させ、declined と、それまでの output を返す。command は 252 文字まで、command と args を合わせて 64 KiB まで(超えると too_large)。${RELAY_WAIT_NOTE}`,
    inputSchema: runCommandSchema,
    annotations: { consequentialHint: true, untrustedContentHint: true },
    prepare: async (input) => {
      const rt = runtime();
      if (isFailure(rt)) return rt;
      const checked = fitting(input.command, input.args ?? []);
      return isFailure(checked) ? checked : { rt, ...checked };
    },
    // `call` carries the call's signal: aborting it kills the process (NAT-2, NAT-6).
    execute: async (input, { rt, command, args }, call) => run(rt, command, args, input.timeoutMs ?? TIMEOUT_MS.default, call.signal),
  });

  return [...files, runCommand];
}
