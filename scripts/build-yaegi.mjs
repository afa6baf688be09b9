// Builds the Go page's engine: the Go program in playground/go/engine/yaegi/ (a Yaegi interpreter)
// compiled with GOOS=js GOARCH=wasm to build/yaegi/yaegi.wasm, plus the matching wasm_exec.js
// from the Go installation. Both are build outputs (build/ is gitignored), never committed.
//
//   node scripts/build-yaegi.mjs [--force]
//
// Offline on Debian: golang-go + golang-github-traefik-yaegi-dev, whose source is used through a
// `replace` with GOPROXY=off. Elsewhere (no Debian source), the module comes from the normal
// module proxy at the same version. The build takes ~40 s, so it is skipped while yaegi.wasm is
// newer than the Go sources and this script.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Yaegi release Debian ships (golang-github-traefik-yaegi-dev); the proxy fallback pins it too. */
export const YAEGI_VERSION = 'v0.14.3';
/** Where golang-github-traefik-yaegi-dev puts the module source. */
export const DEBIAN_YAEGI = '/usr/share/gocode/src/github.com/traefik/yaegi';

const here = fileURLToPath(import.meta.url);
const defaultRoot = dirname(dirname(here));

/**
 * Builds build/yaegi/yaegi.wasm and copies wasm_exec.js next to it, unless both are up to date.
 * @param {{ root?: string, force?: boolean, log?: (msg: string) => void }} [options]
 * @returns {Promise<{ wasm: string, wasmExec: string, built: boolean, ms: number }>}
 */
export async function buildYaegi({ root = defaultRoot, force = false, log = (m) => console.log(m) } = {}) {
  const srcDir = join(root, 'playground/go/engine/yaegi');
  const outDir = join(root, 'build/yaegi');
  const wasm = join(outDir, 'yaegi.wasm');
  const wasmExec = join(outDir, 'wasm_exec.js');
  const sources = (await readdir(srcDir)).filter((f) => f.endsWith('.go'));
  if (sources.length === 0) throw new Error(`no Go sources in ${srcDir}`);

  if (!force && existsSync(wasm) && existsSync(wasmExec)) {
    const built = (await stat(wasm)).mtimeMs;
    const inputs = await Promise.all([...sources.map((f) => join(srcDir, f)), here].map((f) => stat(f)));
    if (inputs.every((s) => s.mtimeMs < built)) return { wasm, wasmExec, built: false, ms: 0 };
  }

  const started = Date.now();
  const go = process.env.GO || 'go';
  const goroot = execFileSync(go, ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
  // Go <= 1.23 keeps it in misc/wasm, Go >= 1.24 in lib/wasm.
  const execSrc = [join(goroot, 'misc/wasm/wasm_exec.js'), join(goroot, 'lib/wasm/wasm_exec.js')].find((p) => existsSync(p));
  if (!execSrc) throw new Error(`wasm_exec.js not found under ${goroot}`);

  // A throwaway module: the sources plus a go.mod made for this machine (the Debian replace
  // path must not end up in the repository).
  const modDir = join(outDir, 'mod');
  await rm(modDir, { recursive: true, force: true });
  await mkdir(modDir, { recursive: true });
  for (const f of sources) await copyFile(join(srcDir, f), join(modDir, f));
  const debian = existsSync(join(DEBIAN_YAEGI, 'go.mod'));
  const gomod = [
    'module aiops/yaegi-engine',
    '',
    'go 1.19',
    '',
    `require github.com/traefik/yaegi ${YAEGI_VERSION}`,
    ...(debian ? ['', `replace github.com/traefik/yaegi => ${DEBIAN_YAEGI}`] : []),
    '',
  ].join('\n');
  await writeFile(join(modDir, 'go.mod'), gomod);

  const env = { ...process.env, GOOS: 'js', GOARCH: 'wasm', CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };
  if (debian) env.GOPROXY = 'off';
  log(`building ${wasm} (yaegi ${debian ? `from ${DEBIAN_YAEGI}` : `${YAEGI_VERSION} from the module proxy`})…`);
  const tmp = `${wasm}.tmp`;
  // -s -w: no symbol table or DWARF; the interpreter's own Go stack is never shown to users.
  execFileSync(go, ['build', '-trimpath', '-ldflags=-s -w', '-o', tmp, '.'], { cwd: modDir, env, stdio: ['ignore', 'inherit', 'inherit'] });
  await rename(tmp, wasm);
  await copyFile(execSrc, wasmExec);
  const ms = Date.now() - started;
  log(`built ${wasm} (${((await stat(wasm)).size / 1048576).toFixed(1)} MB) in ${(ms / 1000).toFixed(1)} s`);
  return { wasm, wasmExec, built: true, ms };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildYaegi({ force: process.argv.includes('--force') });
}
