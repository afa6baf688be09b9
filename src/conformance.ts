/**
 * A conformance kit for tool-page authors: given a tool's definitions and a ready adapter behind
 * them, it derives bad inputs from each `inputSchema` — a missing required field, each wrong type,
 * an unknown field, values outside `minimum`/`maximum`, a value outside an `enum` or `pattern`,
 * one item too many, a string one character over `maxLength`, a string of 1 MB + 1 byte of
 * multibyte UTF-8 (and one of exactly 1 MB), and the paths `../x`, `/abs`, `a/../../b` — and calls
 * each through the real call path ({@link runCall}), checking that every call answers a JSON
 * envelope with the specified code (RES-1, RES-3, IN-1, IN-2, IN-4, IN-5, FILE-2) and never throws.
 * The project's rules are tested even where a schema forgets them: fields named `markdown`, `xml`,
 * `cells`, `contents`, `sql` get the 1 MB cases, `timeoutMs` gets 999 / 120,001 / 1.5, `path` gets
 * the paths above (see {@link ConformanceOptions} to change the names). It also checks each
 * definition without calling it: a valid name, a description, `additionalProperties: false` on
 * every object schema, a schema the validator compiles, unique names, `prepare` (not the old
 * `check`, which the pipeline no longer calls).
 *
 * Framework-free: it returns a report, or throws a {@link ConformanceError} listing the problems.
 * Confirmations are always declined, so a confirmed operation never executes. Operations without a
 * confirmation do execute when an input passes the schema: with bad inputs that never happens, but
 * the exactly-1-MB case does run (e.g. a write of a 1 MB file at a path derived from the schema,
 * `ai-ops-conformance`), so point the kit at a disposable project or document.
 * @example
 * const report = await checkConformance(createSqlOperations(testAdapter));
 * if (!report.ok) console.table(report.problems);
 * await assertConformance(createDrawioOperations(adapter), toolConformanceOptions); // throws on problems
 * @module
 */
import { conformanceCases, sample, schemaProblems, type ConformanceCase, type ConformanceExpectation, type ConformanceOptions } from './conformance-cases.js';
import { isValidName, type AnyOperationDefinition } from './definition.js';
import { compileOperation, runCall, type CallHooks, type CompiledOperation } from './pipeline.js';
import { ErrorCode, describeError, isFailure, isSuccess } from './result.js';

export { conformanceCases };
export type { ConformanceCase, ConformanceExpectation, ConformanceOptions };

/** Something that does not conform. */
export interface ConformanceProblem {
  /** The operation, or `*` for problems of the list as a whole. */
  operation: string;
  /** The case (its label), or `definition` for problems found without a call. */
  case: string;
  /** What was expected. */
  expected: string;
  /** What happened. */
  actual: string;
}

/** What {@link checkConformance} found. */
export interface ConformanceReport {
  /** True when there is no problem. */
  ok: boolean;
  /** How many calls were made. */
  calls: number;
  problems: ConformanceProblem[];
}

/** The error {@link assertConformance} throws: its `errors` are the problems, one `Error` each. */
export class ConformanceError extends AggregateError {
  /** The whole report. */
  readonly report: ConformanceReport;
  constructor(report: ConformanceReport) {
    super(
      report.problems.map((p) => new Error(`${p.operation} — ${p.case}: expected ${p.expected}, got ${p.actual}`)),
      `${report.problems.length} conformance problem(s):\n${report.problems
        .map((p) => `  ${p.operation} — ${p.case}: expected ${p.expected}, got ${p.actual}`)
        .join('\n')}`,
    );
    this.name = 'ConformanceError';
    this.report = report;
  }
}


/** What a case's call resolves to when it did not answer in time. */
const OMIT = Symbol('no answer');

/** Hooks that allow every call and decline every confirmation. */
function decliningHooks(): CallHooks {
  return { isEnabled: () => true, skipsConfirmation: () => false, confirm: async () => null };
}

function describeExpectation(expect: ConformanceExpectation): string {
  return 'code' in expect ? `a failure with code ${expect.code}` : `an envelope whose code is not ${expect.notCodes.join(' or ')}`;
}

/** Calls one case; returns the problem, or null. */
async function callCase(compiled: CompiledOperation, c: ConformanceCase, timeoutMs: number): Promise<ConformanceProblem | null> {
  const problem = (actual: string): ConformanceProblem => ({ operation: c.operation, case: c.label, expected: describeExpectation(c.expect), actual });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let json: unknown;
  try {
    const answer = await Promise.race([
      runCall(compiled, c.input, decliningHooks()).then((outcome) => outcome.json),
      new Promise<typeof OMIT>((resolve) => {
        timer = setTimeout(() => resolve(OMIT), timeoutMs);
      }),
    ]);
    if (answer === OMIT) return problem(`no answer within ${timeoutMs} ms`);
    json = answer;
  } catch (error) {
    return problem(`a thrown ${describeError(error)}`);
  } finally {
    clearTimeout(timer);
  }
  if (typeof json !== 'string') return problem(`a ${typeof json} instead of a JSON string`);
  let envelope: unknown;
  try {
    envelope = JSON.parse(json);
  } catch {
    return problem(`text that is not JSON: ${json.slice(0, 200)}`);
  }
  if (!isSuccess(envelope) && !isFailure(envelope)) return problem(`JSON that is not an envelope: ${json.slice(0, 200)}`);
  const failure = isFailure(envelope) ? envelope.error : null;
  const code = failure ? failure.code : null;
  const shown = failure ? `${failure.code} (${failure.message.slice(0, 160)})` : 'ok: true';
  if ('code' in c.expect) return code === c.expect.code ? null : problem(shown);
  return code !== null && c.expect.notCodes.includes(code) ? problem(shown) : null;
}

/**
 * Checks definitions (their names, descriptions and schemas) and calls every derived bad input
 * through {@link runCall}. Never throws; resolves to a report.
 * @example
 * const report = await checkConformance(definitions, { validInputs: { go_read_file: { path: 'main.go' } } });
 */
export async function checkConformance(definitions: readonly AnyOperationDefinition[], options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const problems: ConformanceProblem[] = [];
  const timeoutMs = options.callTimeoutMs ?? 10_000;
  let calls = 0;
  const seen = new Set<string>();
  for (const definition of definitions) {
    const operation = typeof definition?.name === 'string' ? definition.name : String(definition?.name);
    const definitionProblem = (expected: string, actual: string) => problems.push({ operation, case: 'definition', expected, actual });
    if (!isValidName(operation)) definitionProblem('a name of [a-z0-9_], 1–128 characters', JSON.stringify(operation));
    if (seen.has(operation)) problems.push({ operation: '*', case: 'definition', expected: 'unique names', actual: `${operation} twice` });
    seen.add(operation);
    if (typeof definition.description !== 'string' || definition.description.trim() === '') definitionProblem('a description', 'none');
    if (typeof definition.execute !== 'function') definitionProblem('an execute function', typeof definition.execute);
    // The old shape's `check` is never called: a definition that still has one skips its checks silently.
    if ('check' in definition) definitionProblem('prepare (check is no longer called)', 'a check function');
    if (definition.prepare !== undefined && typeof definition.prepare !== 'function') definitionProblem('prepare as a function', typeof definition.prepare);
    const shapeProblems: string[] = [];
    schemaProblems(definition.inputSchema, '', shapeProblems);
    for (const shape of shapeProblems) definitionProblem('every object schema with additionalProperties: false', shape);
    let compiled: CompiledOperation;
    try {
      compiled = compileOperation(definition);
    } catch (error) {
      definitionProblem('a schema the validator compiles', describeError(error));
      continue;
    }
    const base = options.validInputs && operation in options.validInputs ? options.validInputs[operation] : sample(definition.inputSchema);
    const baseInvalid = compiled.validate(base);
    if (baseInvalid) {
      definitionProblem('a valid input to derive bad inputs from (pass validInputs)', `${JSON.stringify(base)?.slice(0, 200)}: ${baseInvalid.error.message}`);
      continue;
    }
    let cases: ConformanceCase[];
    try {
      cases = conformanceCases(definition, options);
    } catch (error) {
      definitionProblem('bad inputs derived from the schema', describeError(error));
      continue;
    }
    for (const c of cases) {
      calls += 1;
      const problem = await callCase(compiled, c, timeoutMs);
      if (problem) problems.push(problem);
    }
  }
  return { ok: problems.length === 0, calls, problems };
}

/**
 * {@link checkConformance}, throwing a {@link ConformanceError} (an `AggregateError`) when there is
 * any problem; resolves to the report otherwise.
 * @example await assertConformance(createGoOperations(adapter));
 */
export async function assertConformance(definitions: readonly AnyOperationDefinition[], options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const report = await checkConformance(definitions, options);
  if (!report.ok) throw new ConformanceError(report);
  return report;
}
