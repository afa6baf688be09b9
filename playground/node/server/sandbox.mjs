// The operating-system sandbox around every process the runner starts (BOX-1..3, BOX-5):
// bubblewrap gives each command its own user, PID, network, IPC and UTS namespaces, a root made
// of read-only system directories plus the workspace (the only writable place), an empty HOME and
// /tmp on size-limited tmpfs, a cleared environment and an unprivileged uid; prlimit inside the
// sandbox sets the per-process bounds. Without bubblewrap nothing runs (BOX-5).
import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/**
 * Bounds of one command. Counts are per process except `processes`, `diskBytes` (the whole
 * workspace), `timeMs` and `outputChars` (the whole command).
 */
export const DEFAULT_LIMITS = Object.freeze({
  /**
   * RLIMIT_NPROC: processes and threads in one sandbox (one Node process uses about 11). Since
   * Linux 5.14 the kernel counts them per user namespace, so each sandbox has its own count
   * (measured: two sandboxes of the same uid each reached their own limit).
   */
  processes: 256,
  /** RLIMIT_DATA per process: heap, buffers and other private writable memory. */
  memoryBytes: 2 * 1024 ** 3,
  /** RLIMIT_FSIZE: the largest file a process may write. */
  fileBytes: 256 * 1024 ** 2,
  /** RLIMIT_CPU per process (SIGXCPU at the limit, SIGKILL one second later). */
  cpuSeconds: 300,
  /** Size of the tmpfs mounted on /tmp and of the one on HOME (memory-backed, so bounded). */
  tmpfsBytes: 64 * 1024 ** 2,
  /** Characters of output one command may produce before the runner stops it. */
  outputChars: 32 * 1024 ** 2,
  /** Wall-clock time one command may run before the runner stops it. */
  timeMs: 30 * 60_000,
  /** Disk the whole workspace may take while commands run; over it, every running one is stopped. */
  diskBytes: 2 * 1024 ** 3,
  /** How often the workspace's disk use is measured while a command runs. */
  diskCheckMs: 2000,
});

/** HOME inside the sandbox: an empty tmpfs per command. */
export const SANDBOX_HOME = '/home/sandbox';

/** The uid/gid commands run as when the server runs as root (Debian's `nobody`). */
export const SANDBOX_USER = Object.freeze({ uid: 65534, gid: 65534 });

/** What to tell the user when bubblewrap is missing. */
export const INSTALL_HINT = 'install bubblewrap: sudo apt-get install bubblewrap (or run scripts/setup.sh)';

/** Files under /etc a command needs (dynamic linker, alternatives links, time zone, CA list). */
const ETC_ENTRIES = ['ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'alternatives', 'localtime', 'nsswitch.conf', 'hosts', 'ssl', 'mime.types'];

/** Top-level system directories; on merged-/usr systems they are links into /usr. */
const SYSTEM_TOP = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

function findOnPath(command, path = process.env.PATH || '/usr/local/bin:/usr/bin:/bin') {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, fsConstants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // keep looking
    }
  }
  return null;
}

/**
 * The uid/gid the sandbox runs as: `SANDBOX_USER` when the server is root (so nothing inside has
 * root's files as its own), otherwise null (the server's own unprivileged user).
 * @returns {{uid: number, gid: number} | null}
 */
export function sandboxOwner() {
  return typeof process.geteuid === 'function' && process.geteuid() === 0 ? { ...SANDBOX_USER } : null;
}

/**
 * Directories that must be visible (read-only) for `node` and `npm` to run: the Node binary's
 * install prefix when it is not under /usr (nvm, /opt, /usr/local is under /usr already).
 */
function nodePrefixes(execPath) {
  const real = realpathSync(execPath);
  const prefix = dirname(dirname(real)); // …/bin/node → …
  if (prefix === '/usr' || prefix.startsWith('/usr/')) return [];
  return [prefix];
}

/**
 * Creates the sandbox for one workspace. `bwrap`/`prlimit` are paths (injectable so a test can
 * name a missing binary); `owner` is what `sandboxOwner()` answered.
 * @param {{workspace: string, etcDir?: string, bwrap?: string|null, prlimit?: string|null,
 *   owner?: {uid: number, gid: number}|null, limits?: Partial<typeof DEFAULT_LIMITS>, lang?: string}} options
 *   `etcDir` holds the `passwd` and `group` files shown inside (made by createWorkspace).
 */
export function createSandbox({ workspace, etcDir, bwrap = findOnPath('bwrap'), prlimit = findOnPath('prlimit', '/usr/bin:/bin'), owner = sandboxOwner(), limits = {}, lang = 'C.UTF-8' }) {
  const bounds = { ...DEFAULT_LIMITS, ...limits };
  const home = SANDBOX_HOME;
  const path = ['/usr/local/bin', '/usr/bin', '/bin'];
  const prefixes = nodePrefixes(process.execPath);
  for (const prefix of prefixes) path.unshift(join(prefix, 'bin'));
  const env = {
    PATH: path.join(':'),
    HOME: home,
    LANG: lang,
    TMPDIR: '/tmp',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_cache: `${home}/.npm`,
    // No network inside (--unshare-net): npm must not spend a minute on retries before failing.
    npm_config_offline: 'true',
  };

  const mounts = () => {
    const args = ['--ro-bind', '/usr', '/usr'];
    for (const name of SYSTEM_TOP) {
      const host = `/${name}`;
      let info;
      try {
        info = lstatSync(host);
      } catch {
        continue;
      }
      if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(host), host);
      else if (info.isDirectory()) args.push('--ro-bind', host, host);
    }
    for (const prefix of prefixes) args.push('--ro-bind', prefix, prefix);
    for (const name of ETC_ENTRIES) {
      const host = `/etc/${name}`;
      if (existsSync(host)) args.push('--ro-bind', host, host);
    }
    if (etcDir) {
      for (const name of ['passwd', 'group']) {
        if (existsSync(join(etcDir, name))) args.push('--ro-bind', join(etcDir, name), `/etc/${name}`);
      }
    }
    args.push(
      '--proc', '/proc',
      '--dev', '/dev',
      '--size', String(bounds.tmpfsBytes), '--tmpfs', '/tmp',
      '--size', String(bounds.tmpfsBytes), '--tmpfs', home,
      '--bind', workspace, workspace,
      '--chdir', workspace,
      // The sandbox's own root (a tmpfs) read-only too: /etc/x or /newdir cannot be created.
      '--remount-ro', '/',
    );
    return args;
  };

  const bwrapArgs = () => {
    const uid = owner ? owner.uid : process.getuid();
    const gid = owner ? owner.gid : process.getgid();
    const args = [
      '--unshare-user', '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
      '--uid', String(uid), '--gid', String(gid),
      '--hostname', 'ai-ops-sandbox',
      '--die-with-parent', '--new-session',
      '--cap-drop', 'ALL',
      '--clearenv',
    ];
    for (const [key, value] of Object.entries(env)) args.push('--setenv', key, value);
    return [...args, ...mounts()];
  };

  const limitArgs = () => [
    `--nproc=${bounds.processes}`,
    `--data=${bounds.memoryBytes}`,
    `--fsize=${bounds.fileBytes}`,
    `--cpu=${bounds.cpuSeconds}:${bounds.cpuSeconds + 1}`,
    '--core=0',
  ];

  /** How to spawn `file args` inside the sandbox. */
  const wrap = (file, args) => ({
    file: bwrap,
    args: [...bwrapArgs(), '--', prlimit, ...limitArgs(), '--', file, ...args],
    options: owner ? { uid: owner.uid, gid: owner.gid } : {},
  });

  let checked;
  /**
   * Resolves null when a sandbox can be made here, else the message every command answers
   * (naming what is missing). Tried once: `bwrap … -- prlimit … -- true`.
   * @returns {Promise<string|null>}
   */
  const check = () => {
    checked ??= (async () => {
      if (!bwrap || !existsSync(bwrap)) {
        return `ai-ops runner: the sandbox is not available: bubblewrap (bwrap) was not found${bwrap ? ` at ${bwrap}` : ''}; ${INSTALL_HINT}. Commands are not run without the sandbox.`;
      }
      if (!prlimit || !existsSync(prlimit)) {
        return 'ai-ops runner: the sandbox is not available: prlimit (util-linux) was not found; install util-linux: sudo apt-get install util-linux. Commands are not run without the sandbox.';
      }
      const trueBin = ['/usr/bin/true', '/bin/true'].find((candidate) => existsSync(candidate)) ?? '/usr/bin/true';
      const trial = wrap(trueBin, []);
      const result = await new Promise((resolve) => {
        let stderr = '';
        let child;
        try {
          child = spawn(trial.file, trial.args, { ...trial.options, stdio: ['ignore', 'ignore', 'pipe'], env: {} });
        } catch (error) {
          resolve({ code: -1, stderr: error.message });
          return;
        }
        child.stderr.on('data', (chunk) => { stderr += chunk; });
        child.on('error', (error) => resolve({ code: -1, stderr: error.message }));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      if (result.code === 0) return null;
      const why = result.stderr.trim().split('\n').at(-1) || `exit code ${result.code}`;
      return `ai-ops runner: the sandbox is not available: bubblewrap could not create it (${why}); user namespaces must be enabled (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0) and the sandbox user must be able to reach the workspace. Commands are not run without the sandbox.`;
    })();
    return checked;
  };

  return { check, wrap, limits: bounds, env, home };
}

/**
 * Why a sandboxed command ended abnormally, judged from its exit code and the tail of its
 * output, as a line for the user; null when nothing points at a bound.
 * @param {number} exitCode @param {string} tail @param {typeof DEFAULT_LIMITS} limits
 * @param {string} command
 */
export function explainExit(exitCode, tail, limits, command) {
  const mib = (bytes) => `${Math.round(bytes / 1024 ** 2)} MiB`;
  if (exitCode === 0) return null;
  if ((command === 'npm' || command === 'npx') && /\b(ENOTCACHED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED)\b|network request/i.test(tail)) {
    return { reason: 'network', message: 'the sandbox has no network: npm cannot reach a registry, so npm install can only use packages already in the workspace' };
  }
  if (exitCode === 152 || /\bSIGXCPU\b|CPU time limit exceeded/.test(tail)) {
    return { reason: 'cpu', message: `stopped by the CPU time limit (${limits.cpuSeconds} s per process)` };
  }
  if (exitCode === 153 || /\bEFBIG\b|File size limit exceeded/.test(tail)) {
    return { reason: 'file_size', message: `a file reached the size limit (${mib(limits.fileBytes)} per file)` };
  }
  if (/heap out of memory|Allocation failed|allocation failed|Cannot allocate memory|\bENOMEM\b|could not allocate memory|std::bad_alloc/.test(tail)) {
    return { reason: 'memory', message: `ran out of memory: the sandbox allows ${mib(limits.memoryBytes)} of memory per process` };
  }
  if (command === 'node' && (exitCode === 139 || exitCode === 134)) {
    // Under RLIMIT_DATA V8 often dies on a failed mapping without a word (SIGSEGV or SIGABRT).
    return { reason: 'memory', message: `crashed (${exitCode === 139 ? 'SIGSEGV' : 'SIGABRT'}), most likely out of memory: the sandbox allows ${mib(limits.memoryBytes)} of memory per process` };
  }
  if (/\bEAGAIN\b.*(spawn|fork)|(spawn|fork).*\bEAGAIN\b|Cannot fork|fork: Resource temporarily unavailable|Resource temporarily unavailable/.test(tail)) {
    return { reason: 'processes', message: `the process limit was reached (${limits.processes} processes and threads)` };
  }
  return null;
}
