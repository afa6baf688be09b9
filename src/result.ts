/**
 * The result envelope every operation answers (RES-1..RES-3).
 * @module
 */

/**
 * The seven error codes of the design doc, as a closed set.
 * @example
 * fail(ErrorCode.notFound, 'no such file: a.txt');
 */
export const ErrorCode = {
  invalidInput: 'invalid_input',
  notFound: 'not_found',
  tooLarge: 'too_large',
  notReady: 'not_ready',
  declined: 'declined',
  timeout: 'timeout',
  failed: 'failed',
} as const;

/** One of the seven codes. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const codes: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** A failed call; extra top-level fields (`output`, `truncated`, `sqlState`, `position`) are allowed. */
export type OperationFailure = {
  ok: false;
  error: { code: ErrorCode; message: string };
} & Record<string, unknown>;

/** A successful call: `ok: true` plus the operation's own fields. */
export type OperationSuccess = { ok: true } & Record<string, unknown>;

/** What `execute` resolves to. */
export type OperationResult = OperationSuccess | OperationFailure;

/**
 * Builds a failure envelope.
 * @example
 * return fail('timeout', 'timed out after 30000 ms', { output, truncated });
 */
export function fail(code: ErrorCode, message: string, extra?: Record<string, unknown>): OperationFailure {
  return { ...extra, ok: false, error: { code, message } };
}

/**
 * Builds a success envelope.
 * @example
 * return succeed({ path });
 */
export function succeed<T extends Record<string, unknown>>(fields?: T): { ok: true } & T {
  return { ...(fields as T), ok: true };
}

/** True when `value` is a well-formed failure envelope with one of the seven codes. */
export function isFailure(value: unknown): value is OperationFailure {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
  return v.ok === false && typeof v.error === 'object' && v.error !== null &&
    typeof v.error.code === 'string' && codes.has(v.error.code) && typeof v.error.message === 'string';
}

/** True when `value` is a success envelope. */
export function isSuccess(value: unknown): value is OperationSuccess {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === true;
}

/** The message of anything thrown, never throwing itself. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  try {
    return typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
