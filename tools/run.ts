/**
 * The run contract of the three tools that run something — `sql_run_query`, `go_run` / `go_test`
 * and `node_run_command` — written once. The page's run function (the same one its Run button
 * calls) owns the clock, the timeout and the stop; it resolves to a {@link RunOutcome}, and
 * {@link runAnswer} turns that into the envelope, so the codes are the same for every tool:
 *
 * | outcome     | what happened                                   | answer                      |
 * | ----------- | ----------------------------------------------- | --------------------------- |
 * | `exited`    | the run ended by itself                         | the tool's own (ok, failed…) |
 * | `timeout`   | `timeoutMs` passed and the run was stopped      | `timeout`, output so far    |
 * | `stopped`   | the user stopped it in the page (停止, reset)   | `declined`, output so far (GO-9) |
 * | `cancelled` | the call's `AbortSignal` was aborted            | `declined`, output so far (NAT-6) |
 * | `busy`      | another run, or the engine's load, was going on | `not_ready` (SQL-3, GO-7)   |
 *
 * A run function rejects when the engine cannot be loaded: the call path answers `failed`.
 * @module
 */
import { MAX_OUTPUT_CHARS, tail } from '../src/limits.js';
import { ErrorCode, fail, type OperationFailure, type OperationResult } from '../src/result.js';

/** What every run function is asked for. */
export interface RunRequest {
  /** Stop the run after this many ms, counted once the engine is loaded (SQL-3, GO-4). */
  readonly timeoutMs: number;
  /** The call's signal: aborting it stops the run, and the run resolves to `cancelled` (NAT-2, NAT-6). */
  readonly signal?: AbortSignal;
}

/** The output of a run that writes some (go, node): raw, as the page's pane got it. */
export interface RunOutput {
  /** What the run wrote so far; the answer keeps its last 100,000 characters (GO-6, NODE-5). */
  readonly output: string;
  /** True when the page itself dropped the beginning of the output before handing it over. */
  readonly truncated?: boolean;
}

/**
 * How a run ended. `Exited` is what the tool's own end carries (an exit code and output, or SQL
 * results); `Interrupted` what a run stopped before its end still has (the output so far).
 * @example
 * type GoRunOutcome = RunOutcome<{ exitCode: number } & RunOutput, RunOutput>;
 * const outcome: GoRunOutcome = { kind: 'timeout', output: 'tick\n' };
 */
export type RunOutcome<Exited extends object = object, Interrupted extends object = object> =
  | ({ readonly kind: 'exited' } & Exited)
  | ({ readonly kind: 'timeout' | 'stopped' | 'cancelled' } & Interrupted)
  | { readonly kind: 'busy' };

/** An outcome of a run stopped before its end. */
export type InterruptedOutcome<Interrupted extends object> = { readonly kind: 'timeout' | 'stopped' | 'cancelled' } & Interrupted;

/** The sentences of one tool's failures; each may read the outcome (a node kill not confirmed in time). */
export interface RunWording<Interrupted extends object> {
  /** `not_ready` while another run or the engine's load is in progress. */
  readonly busy: string;
  /** `timeout`: the run did not finish within `timeoutMs`. */
  timeout(outcome: InterruptedOutcome<Interrupted>, timeoutMs: number): string;
  /** `declined`: the user stopped the run in the page. */
  stopped(outcome: InterruptedOutcome<Interrupted>): string;
  /** `declined`: the caller cancelled the call. */
  cancelled(outcome: InterruptedOutcome<Interrupted>): string;
}

/** How {@link runAnswer} answers one tool's outcomes. */
export interface RunAnswerOptions<Exited extends object, Interrupted extends object> {
  /** The `timeoutMs` the run had, for the timeout's message. */
  readonly timeoutMs: number;
  readonly wording: RunWording<Interrupted>;
  /** The answer for a run that ended by itself. */
  exited(outcome: { readonly kind: 'exited' } & Exited): OperationResult | Promise<OperationResult>;
  /** Applied to the raw output before it is cut: the node tool removes terminal controls (NODE-5). */
  readonly transform?: (text: string) => string;
}

/**
 * `{ output, truncated }` as an answer carries them: the last 100,000 characters of the
 * (transformed) output, `truncated` also when the page dropped some before; `{}` for an outcome
 * with no output (SQL).
 * @example outputFields({ output: 'a'.repeat(100_001) }) // { output: 'a'.repeat(100_000), truncated: true }
 */
export function outputFields(outcome: object, transform: (text: string) => string = (text) => text): { output?: string; truncated?: boolean } {
  const { output, truncated } = outcome as Partial<RunOutput>;
  if (typeof output !== 'string') return {};
  const cut = tail(transform(output), MAX_OUTPUT_CHARS);
  return { output: cut.output, truncated: cut.truncated || truncated === true };
}

/**
 * The one answer function of the run contract: the envelope for what a page's run function
 * resolved to. Interrupted runs keep their output (GO-6, NODE-4); a caller's cancel and a user's
 * stop answer `declined`, a timeout `timeout` (NAT-6).
 * @example
 * await runAnswer(await adapter.run('run', { timeoutMs, signal }), {
 *   timeoutMs, wording: goWording('run'), exited: (end) => succeed({ exitCode: end.exitCode, ...outputFields(end) }),
 * });
 */
export async function runAnswer<Exited extends object, Interrupted extends object>(
  outcome: RunOutcome<Exited, Interrupted>,
  options: RunAnswerOptions<Exited, Interrupted>,
): Promise<OperationResult> {
  const { wording, transform } = options;
  switch (outcome.kind) {
    case 'exited':
      return options.exited(outcome as { readonly kind: 'exited' } & Exited);
    case 'busy':
      return fail(ErrorCode.notReady, wording.busy);
    case 'timeout':
      return fail(ErrorCode.timeout, wording.timeout(outcome, options.timeoutMs), outputFields(outcome, transform));
    case 'stopped':
      return fail(ErrorCode.declined, wording.stopped(outcome), outputFields(outcome, transform));
    case 'cancelled':
      return fail(ErrorCode.declined, wording.cancelled(outcome), outputFields(outcome, transform));
    default:
      return fail(ErrorCode.failed, `the page's run function answered something unexpected: ${JSON.stringify((outcome as { kind?: unknown }).kind)}`);
  }
}

/** What {@link createEngineGuard} reads: whether the page has loaded, and its engine's state. */
export interface EngineGuardOptions {
  /** True once the page has loaded what the tool works on (the project, the saved SQL). */
  isLoaded(): boolean;
  /** The engine's state now; `loading` and `running` refuse a run. */
  getState(): string;
  /** `not_ready`'s message until the page has loaded. */
  readonly notLoaded: string;
  /** The engine's name in messages: `the SQL engine`, `the Go engine`. */
  readonly engine: string;
  /** What runs, in messages: `SQL`, `Go code`. */
  readonly code: string;
}

/** The checks a run tool's `prepare` makes, each `T | OperationFailure`. */
export interface EngineGuard {
  /** `value()` once the page has loaded, else `not_ready` (SQL-1, GO-1). */
  loaded<T>(value: () => T): T | OperationFailure;
  /** A run may start now: loaded, the engine not loading, nothing running (SQL-3, GO-4, GO-7); else `not_ready`. */
  idle(): object | OperationFailure;
}

/**
 * The one engine guard of the tools that run something, read right before a run starts (they
 * never confirm, so `prepare` and `execute` follow each other at once).
 * @example
 * const guard = createEngineGuard({ isLoaded, getState: () => engine.state, notLoaded: '…', engine: 'the SQL engine', code: 'SQL' });
 * prepare: async () => guard.idle(),
 */
export function createEngineGuard(options: EngineGuardOptions): EngineGuard {
  const loaded = <T>(value: () => T): T | OperationFailure => (options.isLoaded() ? value() : fail(ErrorCode.notReady, options.notLoaded));
  return {
    loaded,
    idle: () =>
      loaded(() => {
        const state = options.getState();
        if (state === 'loading') return fail(ErrorCode.notReady, `${options.engine} is loading; call again when it is ready`);
        if (state === 'running') return fail(ErrorCode.notReady, `${options.code} is running (started by the user or an agent); call again when it ends`);
        return {};
      }),
  };
}
