/**
 * The Go page's state, outside any component (SHAPE-5): the files module (files.ts), the engine
 * (GoRunner), and the one run function (run-control.ts) that the Run and Test buttons and
 * `go_run`/`go_test` call (GO-3). The AI operations are handed to the runtime here, at module
 * initialisation.
 * @module
 */
import { provideOperations } from 'ai-ops';
import type { GoToolAdapter } from 'ai-ops/tools/go';
import { createGoOperations } from 'ai-ops/tools/go';
import { GoRunner } from './engine/go-runner.js';
import { createGoFiles, createIndexedDbProjectStorage } from './files.js';
import { createGoRunControl } from './run-control.js';

export type { OutputEvent, RunEnd, RunState } from './run-control.js';

/** The embed id from `?id=` (default `demo`): the project is saved under it and shown in the title (DOC-3). */
export function readEmbedId(search: string): string {
  const id = new URLSearchParams(search).get('id')?.trim();
  return id ? id.slice(0, 100) : 'demo';
}

export const embedId = readEmbedId(location.search);

/** The project's files (GO-2). */
export const files = createGoFiles({ projectId: embedId, storage: createIndexedDbProjectStorage() });

/** Yaegi in a Web Worker; the wasm loads on the first run (GO-4). */
export const runner = new GoRunner({ workerUrl: 'engine/worker.js', wasmUrl: 'engine/yaegi.wasm' });

/** The page's run function, run state and output stream (run-control.ts). */
const control = createGoRunControl({ runner, files });

/** The run state store (the buttons show running from it, for agent runs too: GO-7). */
export const runState = control.runState;

/** Follows the output of every run, started by a button or an agent alike (GO-4). */
export const subscribeOutput = control.subscribeOutput;

/**
 * The one function behind the Run and Test buttons and `go_run`/`go_test` (GO-3).
 * @example const outcome = await run('test', { timeoutMs: 30_000 });
 */
export const run = control.run;

/** Stops the current run (the page's 停止 button). No effect when nothing runs. */
export const stop = control.stop;

/** What `tools/go` reads: the same files module and the same run function as the page (GO-2, GO-3). */
export const goAdapter: GoToolAdapter = {
  files: {
    isLoaded: () => files.isLoaded(),
    list: () => files.list(),
    read: (path) => files.read(path),
    write: (path, contents) => files.write(path, contents),
    remove: (path) => files.remove(path),
  },
  getRunnerState: () => runState.getState().status,
  run: (mode, { timeoutMs, signal }) => run(mode, { timeoutMs, signal }),
};

provideOperations('go', createGoOperations(goAdapter));

void files.load();

// Typing saves after a short pause; a page being hidden or closed saves at once.
addEventListener('pagehide', () => void files.flush());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void files.flush();
});
