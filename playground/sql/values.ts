/**
 * SQL values as PGlite parses them, turned into what JSON can carry (for the operations) and into
 * text (for the page's result table).
 *
 * PGlite gives `bigint` for int8 outside the safe integer range, `Date` for date/timestamp(tz),
 * `Infinity`/`-Infinity` for the dates 'infinity'/'-infinity', `NaN`/`±Infinity` for float4/float8,
 * and `Uint8Array` for bytea; arrays of those nest. `JSON.stringify` throws on a bigint, writes a
 * Uint8Array as an object of indices and a non-finite number as `null`, so each is written the way
 * Postgres would print it.
 * @module
 */

/** A value `JSON.stringify` writes faithfully. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Postgres' spelling of a non-finite number (float8 output and date/timestamp 'infinity'). */
function nonFinite(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  return value > 0 ? 'Infinity' : '-Infinity';
}

/** Bytes as Postgres' hex output, e.g. `\xdeadbeef`. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '\\x';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * One value made JSON-safe: bigint → decimal string, Date → ISO string (an invalid Date → null),
 * bytes → `\x…` hex, NaN/±Infinity → `'NaN'`/`'Infinity'`/`'-Infinity'`; arrays and objects (json
 * columns) are copied with the same rules.
 * @example toJsonValue(10n ** 20n) // '100000000000000000000'
 */
export function toJsonValue(value: unknown): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : nonFinite(value);
    case 'bigint':
      return value.toString();
    case 'undefined':
      return null;
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return bytesToHex(value);
  if (ArrayBuffer.isView(value)) return bytesToHex(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (value instanceof ArrayBuffer) return bytesToHex(new Uint8Array(value));
  if (Array.isArray(value)) return value.map(toJsonValue);
  const copy: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) copy[key] = toJsonValue(item);
  return copy;
}

function isPlainJsonScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * A row (its values in the order of the columns) made JSON-safe. Returns the same array when every
 * value already is a JSON scalar (the common case), so the kept rows are not copied one by one.
 * @example toJsonRow([1, 10n ** 20n]) // [1, '100000000000000000000']
 */
export function toJsonRow(row: readonly unknown[]): JsonValue[] {
  for (const value of row) {
    if (!isPlainJsonScalar(value)) return row.map(toJsonValue);
  }
  return row as JsonValue[];
}

/**
 * How the page's result table shows a cell: `null` is returned for SQL NULL (the table marks it),
 * strings as they are, anything else as its JSON-safe form (objects and arrays as JSON).
 */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  const safe = toJsonValue(value);
  return typeof safe === 'string' ? safe : JSON.stringify(safe);
}
