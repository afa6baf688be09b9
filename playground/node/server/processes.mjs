// Processes started by the node page: spawned without a shell, each inside its own bubblewrap
// sandbox (sandbox.mjs) in its own process group, output kept in memory (last OUTPUT_LIMIT
// characters) and streamed to subscribers. `node` also runs under Node's permission model, limited
// to the workspace, as a second wall. Without a sandbox nothing runs (BOX-5).
import { spawn } from 'node:child_process';
import { access, constants as fsConstants, stat } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { createSandbox, explainExit } from './sandbox.mjs';
import { diskUsage } from './workspace.mjs';

/**
 * Commands the runner starts. Others end at once with exit code 127 and a message. The list is a
 * guard against accidents, not the boundary: `npm`/`npx` run package scripts and `node` may start
 * child processes; the boundary is the sandbox every one of them runs in.
 */
export const ALLOWED_COMMANDS = Object.freeze([
  'node', 'npm', 'npx',
  'ls', 'cat', 'echo', 'pwd', 'mkdir', 'rm', 'cp', 'mv', 'touch', 'head', 'tail', 'wc', 'grep',
  'sleep', 'true', 'false',
]);

/** Characters of output kept per process (the tail). */
export const OUTPUT_LIMIT = 200_000;

/** Processes that may run at the same time. */
export const MAX_RUNNING = 16;

/** Finished processes remembered (their output too); older ones are forgotten. */
export const MAX_FINISHED = 50;

/**
 * Node options that would widen or switch off the permission model, or hand the process to a
 * debugger. Refused anywhere in `node`'s argument list, since a value-taking option (`-r x`) makes
 * "where the options end" ambiguous.
 */
const REFUSED_NODE_ARG = /^--(?:no-)?(?:allow-|experimental-permission|permission|inspect|debug|redirect-warnings)/;

/** How long to wait for stdout/stderr to close after the process itself has exited. */
const CLOSE_GRACE_MS = 250;

/** How long `kill` waits for the exit to be observed. */
const KILL_WAIT_MS = 2000;

function exitCodeOf(code, signal) {
  if (typeof code === 'number') return code;
  const number = signal ? osConstants.signals[signal] : undefined;
  return typeof number === 'number' ? 128 + number : 1;
}

async function findExecutable(command, path) {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      await access(candidate, fsConstants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // keep looking
    }
  }
  return null;
}

/**
 * @typedef {object} ProcessInfo
 * @property {string} id
 * @property {string} name
 * @property {string} command
 * @property {string[]} args
 * @property {number|null} pid
 * @property {'running'|'exited'} status
 * @property {number|null} exitCode 128+signal number when killed by a signal
 * @property {string|null} signal
 * @property {string|null} reason why a bound or the runner ended it (output, time, disk, cpu, memory,
 *   file_size, processes, network, sandbox_unavailable), else null
 */

/** A real timer must not keep the server's process alive on its own. */
const unref = (timer) => {
  timer?.unref?.();
  return timer;
};

/** Characters of the output's end that are searched for the cause of an abnormal exit. */
const EXPLAIN_TAIL = 8000;

/**
 * Creates the process table for one workspace.
 * @param {{workspace: string, home: string, outputLimit?: number, now?: () => number,
 *   sandbox?: ReturnType<typeof createSandbox>, etcDir?: string, bwrap?: string|null,
 *   limits?: object, timers?: {setTimeout: Function, clearTimeout: Function},
 *   confine?: boolean}} options
 *   `sandbox` (or the options to make one: `etcDir`, `bwrap`, `limits`) confines every command.
 *   `confine: false` runs commands without the sandbox: only the bench uses it, to measure the
 *   sandbox's start-up cost; the runner and the server never pass it.
 */
export function createProcessManager({
  workspace, home, outputLimit = OUTPUT_LIMIT, now = Date.now,
  etcDir, bwrap, limits, sandbox = createSandbox({ workspace, etcDir, limits, ...(bwrap === undefined ? {} : { bwrap }) }),
  timers = { setTimeout, clearTimeout }, confine = true,
}) {
  /** @type {Map<string, any>} */
  const records = new Map();
  let nextId = 1;
  // Moves whenever a process starts or ends: with none running and this unchanged, no process of
  // this manager can have changed the workspace (a confined command's descendants die with its
  // PID namespace before its exit is seen). The kept-files cache trusts its last walk then.
  let generation = 0;
  const bounds = sandbox.limits;
  // Inside the sandbox the environment is the sandbox's own (bwrap --clearenv): no tokens, no
  // NODE_OPTIONS, nothing of the server's config. Unconfined (bench only) the same minimal set.
  const path = confine ? sandbox.env.PATH : [dirname(process.execPath), process.env.PATH || '/usr/local/bin:/usr/bin:/bin'].join(delimiter);
  const env = confine ? { PATH: path } : {
    PATH: path,
    HOME: home,
    LANG: process.env.LANG || 'C.UTF-8',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
  };

  const info = (record) => ({
    id: record.id,
    name: record.name,
    command: record.command,
    args: record.args,
    pid: record.pid,
    status: record.status,
    exitCode: record.exitCode,
    signal: record.signal,
    reason: record.reason,
  });

  // The workspace's disk use, measured every diskCheckMs while a confined command runs: the
  // per-file bound (RLIMIT_FSIZE) does not stop many files, this does.
  let diskTimer = null;
  const running = () => [...records.values()].filter((r) => r.status === 'running' && r.child);
  const watchDisk = () => {
    if (diskTimer !== null || !confine) return;
    diskTimer = unref(timers.setTimeout(async () => {
      const used = await diskUsage(workspace, { stopAbove: bounds.diskBytes });
      diskTimer = null;
      if (used > bounds.diskBytes) {
        const message = `stopped: the workspace takes more than ${Math.round(bounds.diskBytes / 1024 ** 2)} MiB of disk; delete files to go on`;
        for (const record of running()) stop(record, 'disk', message);
      }
      if (running().length > 0) watchDisk();
    }, bounds.diskCheckMs));
  };

  /** Stops a command that crossed a bound the runner watches itself (output, time, disk). */
  const stop = (record, reason, message) => {
    if (record.status === 'exited' || record.reason) return;
    record.reason = reason;
    record.reasonMessage = message;
    if (record.pid) {
      try {
        process.kill(-record.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  const append = (record, text) => {
    if (!text) return;
    const offset = record.dropped + record.text.length;
    record.text += text;
    if (record.text.length > outputLimit) {
      let drop = record.text.length - outputLimit;
      // Do not start the kept tail with half of a surrogate pair.
      const code = record.text.charCodeAt(drop);
      if (code >= 0xdc00 && code <= 0xdfff) drop += 1;
      record.text = record.text.slice(drop);
      record.dropped += drop;
    }
    for (const listener of record.listeners) listener.output(text, offset);
    if (confine && record.status === 'running' && offset + text.length > bounds.outputChars) {
      stop(record, 'output', `stopped: the command printed more than ${bounds.outputChars.toLocaleString('en-US')} characters`);
    }
  };

  const finish = (record, code, signal) => {
    if (record.status === 'exited') return;
    append(record, record.stdoutDecoder?.decode() ?? '');
    append(record, record.stderrDecoder?.decode() ?? '');
    if (record.timer !== null) timers.clearTimeout(record.timer);
    record.signal = signal ?? null;
    record.exitCode = exitCodeOf(code, signal);
    if (record.child && confine) {
      // Say why a bound ended it, so the terminal and the agent see the cause, not just a code.
      let note = record.reason ? { reason: record.reason, message: record.reasonMessage } : null;
      note ??= explainExit(record.exitCode, record.text.slice(-EXPLAIN_TAIL), bounds, record.command);
      if (note) {
        record.reason = note.reason;
        append(record, `${record.text && !record.text.endsWith('\n') ? '\n' : ''}ai-ops runner: ${note.message}\n`);
      }
    }
    record.status = 'exited';
    record.endedAt = now();
    generation++;
    for (const listener of record.listeners) listener.exit(info(record));
    record.listeners.clear();
    record.resolveExit();
    forgetOld();
  };

  const forgetOld = () => {
    const finished = [...records.values()].filter((r) => r.status === 'exited');
    for (const record of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) records.delete(record.id);
  };

  const newRecord = (command, args, name) => {
    const record = {
      id: `p${nextId++}`,
      name,
      command,
      args,
      pid: null,
      status: 'running',
      exitCode: null,
      signal: null,
      startedAt: now(),
      endedAt: null,
      text: '',
      dropped: 0,
      listeners: new Set(),
      child: null,
      stdoutDecoder: null,
      stderrDecoder: null,
      reason: null,
      reasonMessage: null,
      timer: null,
    };
    record.exited = new Promise((resolve) => { record.resolveExit = resolve; });
    records.set(record.id, record);
    generation++;
    return record;
  };

  /** Ends a record at once with a message, as a shell does for a command it cannot run. */
  const refuse = (record, message, code) => {
    append(record, `${message}\n`);
    finish(record, code, null);
    return info(record);
  };

  return {
    /** The sandbox every command runs in (its `check()` says whether one can be made here). */
    sandbox,

    /**
     * Starts `command` with `args` (never through a shell). Refusals and spawn failures still
     * produce a process, already exited with 126/127 and the reason in its output.
     * @param {string} command @param {string[]} args @param {string} [name]
     * @returns {Promise<ProcessInfo>}
     */
    async start(command, args, name = [command, ...args].join(' ')) {
      const running = [...records.values()].filter((r) => r.status === 'running').length;
      if (running >= MAX_RUNNING) {
        const error = new Error(`at most ${MAX_RUNNING} processes may run at once`);
        error.code = 'too_many_processes';
        throw error;
      }
      const record = newRecord(command, args, name);
      if (!ALLOWED_COMMANDS.includes(command)) {
        return refuse(record, `ai-ops runner: command not allowed: ${command} (allowed: ${ALLOWED_COMMANDS.join(', ')})`, 127);
      }
      if (confine) {
        const missing = await sandbox.check();
        if (missing) {
          record.reason = 'sandbox_unavailable';
          return refuse(record, missing, 126);
        }
      }
      let file;
      let argv = args;
      if (command === 'node') {
        const refused = args.find((arg) => REFUSED_NODE_ARG.test(arg));
        if (refused) return refuse(record, `ai-ops runner: node option not allowed here: ${refused}`, 126);
        // The server's own binary, so the permission flags are known to be understood. One
        // --allow-fs-read and one --allow-fs-write only: repeating one crashes Node 20.20.
        file = process.execPath;
        argv = [
          '--experimental-permission',
          `--allow-fs-read=${workspace}/*`,
          `--allow-fs-write=${workspace}/*`,
          '--allow-child-process',
          '--allow-worker',
          '--disable-warning=ExperimentalWarning',
          '--disable-warning=SecurityWarning',
          ...args,
        ];
      } else {
        file = await findExecutable(command, path);
        if (!file) return refuse(record, `ai-ops runner: command not found: ${command}`, 127);
      }
      // Confined, the process group's leader is bwrap: killing it takes the sandbox's PID
      // namespace with it (its init dies with it, and the kernel kills everything inside).
      const launch = confine ? sandbox.wrap(file, argv) : { file, args: argv, options: { cwd: workspace } };
      let child;
      try {
        child = spawn(launch.file, launch.args, {
          cwd: '/',
          ...launch.options,
          env,
          shell: false,
          detached: true, // own process group, so kill reaches every descendant
          stdio: ['ignore', 'pipe', 'pipe'],
          windowsHide: true,
        });
      } catch (error) {
        return refuse(record, `ai-ops runner: cannot start ${command}: ${error.message}`, 126);
      }
      record.child = child;
      record.pid = child.pid ?? null;
      if (confine) {
        record.timer = unref(timers.setTimeout(() => stop(record, 'time', `stopped: the command ran longer than ${Math.round(bounds.timeMs / 1000)} s`), bounds.timeMs));
        watchDisk();
      }
      record.stdoutDecoder = new TextDecoder();
      record.stderrDecoder = new TextDecoder();
      child.stdout.on('data', (chunk) => append(record, record.stdoutDecoder.decode(chunk, { stream: true })));
      child.stderr.on('data', (chunk) => append(record, record.stderrDecoder.decode(chunk, { stream: true })));
      child.on('error', (error) => {
        append(record, `ai-ops runner: ${error.message}\n`);
        finish(record, error.code === 'ENOENT' ? 127 : 126, null);
      });
      child.on('close', (code, signal) => finish(record, code, signal));
      child.on('exit', (code, signal) => {
        // A descendant that keeps the pipes open must not keep the process "running".
        setTimeout(() => finish(record, code, signal), CLOSE_GRACE_MS).unref();
      });
      return info(record);
    },

    /**
     * What may have changed the workspace: `generation` moves at every start and end, `running`
     * counts the processes not yet ended. Only a confined manager's ends mean its descendants ended.
     * @returns {{generation: number, running: number, confined: boolean}}
     */
    activity() {
      let alive = 0;
      for (const record of records.values()) if (record.status === 'running') alive++;
      return { generation, running: alive, confined: confine };
    },

    /** @returns {ProcessInfo|undefined} */
    get(id) {
      const record = records.get(id);
      return record && info(record);
    },

    /** @returns {ProcessInfo[]} in start order */
    list() {
      return [...records.values()].map(info);
    },

    /**
     * Calls `output(text, offset)` for the kept output from character `from` on and every later
     * chunk, then `exit(info)` once. `offset` counts every character ever produced, so an offset
     * above `from` means the beginning was cut. Returns an unsubscribe function, or null for an
     * unknown id.
     */
    subscribe(id, from, { output, exit }) {
      const record = records.get(id);
      if (!record) return null;
      const start = Math.max(from, record.dropped);
      const kept = record.text.slice(start - record.dropped);
      if (kept) output(kept, start);
      if (record.status === 'exited') {
        exit(info(record));
        return () => {};
      }
      const listener = { output, exit };
      record.listeners.add(listener);
      return () => record.listeners.delete(listener);
    },

    /**
     * SIGKILLs the whole process group and waits (up to 2 s) until the exit is seen.
     * @returns {Promise<ProcessInfo|undefined>}
     */
    async kill(id) {
      const record = records.get(id);
      if (!record) return undefined;
      if (record.pid) {
        try {
          process.kill(-record.pid, 'SIGKILL');
        } catch (error) {
          if (error.code !== 'ESRCH') throw error;
        }
      }
      await Promise.race([record.exited, new Promise((resolve) => setTimeout(resolve, KILL_WAIT_MS).unref())]);
      return info(record);
    },

    /** Kills every process group this manager started. */
    async killAll() {
      await Promise.all([...records.keys()].map((id) => this.kill(id)));
    },
  };
}
