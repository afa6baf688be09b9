/**
 * The Go page's state, outside any component (SHAPE-5): per embed id, the files module (files.ts)
 * and the one run function (run-control.ts) that the Run and Test buttons and `go_run`/`go_test`
 * call (GO-3), over one engine (GoRunner). The AI operations are handed to the runtime once per
 * document, when the page first mounts (APP-3); they read the project shown last.
 * @module
 */
import { provideOperations } from 'ai-ops';
import { createGoOperations, type GoToolAdapter } from 'ai-ops/tools/go';
import { embedIdOf, keepsUndo } from '../shared/page-params.js';
import { once } from '../shared/once.js';
import { GoRunner } from './engine/go-runner.js';
import { createGoFiles, createIndexedDbProjectStorage, type GoFiles, type GoProjectStorage } from './files.js';
import { createGoRunControl, type GoRunControl } from './run-control.js';
import type { GoRunMode } from 'ai-ops/tools/go';

export type { OutputEvent, RunEnd, RunState } from './run-control.js';

/** The embed id when the URL has none. */

/** Characters of the last run's output kept for the pane, so it shows again after navigation. */
const KEPT_PANE_CHARS = 200_000;

/** One project: its files, its run function, and the last run's output as the pane shows it. */
export interface GoProject extends Pick<GoRunControl, 'runState' | 'subscribeOutput' | 'run' | 'stop'> {
  readonly embedId: string;
  readonly files: GoFiles;
  /** The mode and output of the current or last run. */
  lastOutput(): { mode: GoRunMode | null; text: string };
}

let runner: GoRunner | undefined;
let storage: GoProjectStorage | undefined;
const projects = new Map<string, GoProject>();
let shown: GoProject | undefined;

function createProject(embedId: string): GoProject {
  // Yaegi in a Web Worker at absolute URLs (the app's URL changes); the wasm loads on the first run (GO-4).
  runner ??= new GoRunner({ workerUrl: '/go/engine/worker.js', wasmUrl: '/go/engine/yaegi.wasm' });
  storage ??= createIndexedDbProjectStorage();
  const files = createGoFiles({ projectId: embedId, storage });
  const control = createGoRunControl({ runner, files });
  let mode: GoRunMode | null = null;
  let text = '';
  control.subscribeOutput((event) => {
    if (event.type === 'start') {
      mode = event.mode;
      text = '';
    } else if (event.type === 'chunk') {
      text += event.text;
      if (text.length > KEPT_PANE_CHARS * 2) text = text.slice(-KEPT_PANE_CHARS);
    }
  });
  void files.load();
  return {
    embedId,
    files,
    runState: control.runState,
    subscribeOutput: control.subscribeOutput,
    run: control.run,
    stop: control.stop,
    lastOutput: () => ({ mode, text: text.slice(-KEPT_PANE_CHARS) }),
  };
}

/** The project of the embed id in `search` (`?id=`), created (and its saved files read) on first use. */
export function goProjectFor(search: string): GoProject {
  const embedId = embedIdOf(search);
  let project = projects.get(embedId);
  if (!project) {
    project = createProject(embedId);
    projects.set(embedId, project);
  }
  return project;
}

/** What `tools/go` reads: the shown project's files module and run function (GO-2, GO-3). */
const goAdapter: GoToolAdapter = {
  files: {
    isLoaded: () => shown?.files.isLoaded() ?? false,
    list: () => shown?.files.list() ?? [],
    read: (path) => shown?.files.read(path) ?? null,
    write: (path, contents) => (shown ? shown.files.write(path, contents) : Promise.reject(new Error('the project is not loaded yet'))),
    remove: (path) => (shown ? shown.files.remove(path) : Promise.reject(new Error('the project is not loaded yet'))),
    removeDirectory: (path) => (shown ? shown.files.removeDirectory(path) : Promise.reject(new Error('the project is not loaded yet'))),
    // An agent's change is undone in its own project, whichever is shown then (UNDO-1).
    pin: () => shown?.files ?? null,
  },
  getRunnerState: () => shown?.runState.getState().status ?? 'idle',
  run: (mode, { timeoutMs, signal }) => (shown ? shown.run(mode, { timeoutMs, signal }) : Promise.resolve({ kind: 'busy' })),
};

/** The project is shown: the operations read it; the first call hands them to ai-ops. */
export function showGoProject(project: GoProject): void {
  shown = project;
  handOver();
}

const handOver = once(() => provideOperations('go', createGoOperations(goAdapter, { undo: keepsUndo() })));
