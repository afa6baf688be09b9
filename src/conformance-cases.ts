/**
 * The conformance kit's cases (see `conformance.ts`): bad inputs derived from each definition's
 * `inputSchema` and the project's rules, and the checks of a definition made without calling it.
 * Pure: nothing here calls an operation.
 * @module
 */
import { isValidName, type AnyOperationDefinition } from './definition.js';
import { MAX_TEXT_BYTES, TIMEOUT_MS, utf8ByteLength } from './limits.js';
import { ErrorCode } from './result.js';

/** What one case expects: exactly this code, or anything but these codes. */
export type ConformanceExpectation = { code: ErrorCode } | { notCodes: readonly ErrorCode[] };

/** One derived call. */
export interface ConformanceCase {
  /** The operation called. */
  operation: string;
  /** What the input is, e.g. `/timeoutMs = 999 (below minimum 1000)`. */
  label: string;
  input: unknown;
  expect: ConformanceExpectation;
}

/** Options of the kit. */
export interface ConformanceOptions {
  /**
   * A valid input per operation name: the base the bad inputs are derived from. By default it is
   * derived from the schema (required fields only; strings `ai-ops-conformance`, the first `enum`
   * value, numbers at their `minimum` or 0).
   */
  validInputs?: Readonly<Record<string, unknown>>;
  /**
   * How to make a valid value of a byte-capped (`maxBytes`) string field, keyed `operation.field`
   * (e.g. `drawio_add_cells.cells`): the function gets a filler of multibyte text and returns the
   * value around it, adding a fixed number of bytes (e.g. `` (f) => `<mxCell id="x"/><!--${f}-->` ``).
   * By default the filler alone is the value.
   */
  wrapText?: Readonly<Record<string, (filler: string) => string>>;
  /** String property names that hold working-directory-relative paths (FILE-2). Default `['path']`. */
  pathFields?: readonly string[];
  /**
   * String property names that must be capped at 1 MB of UTF-8 (IN-4), tested even when the schema
   * forgets `maxBytes`. Default `['markdown', 'xml', 'cells', 'contents', 'sql']`.
   */
  textFields?: readonly string[];
  /**
   * Property names that must be a `timeoutMs` (IN-5: an integer from 1,000 to 120,000), tested even
   * when the schema forgets its bounds. Default `['timeoutMs']`.
   */
  timeoutFields?: readonly string[];
  /** A call not answered within this many ms is a problem. Default 10,000. */
  callTimeoutMs?: number;
}

type Schema = { readonly [keyword: string]: unknown };
type Path = readonly (string | number)[];
const OMIT = Symbol('omit');

const WRONG_TYPE_SAMPLES: readonly { type: string; value: unknown }[] = [
  { type: 'string', value: 'ai-ops-wrong-type' },
  { type: 'integer', value: 7 },
  { type: 'number', value: 1.5 },
  { type: 'boolean', value: true },
  { type: 'null', value: null },
  { type: 'array', value: [] },
  { type: 'object', value: {} },
];

const BAD_PATHS = ['../x', '/abs', 'a/../../b'] as const;
const BASE_STRING = 'ai-ops-conformance';
const PATTERN_CANDIDATES = [BASE_STRING, '#000000', 'transparent', 'a', 'A', '0', 'a-b', ''];
const NOT_IN_PATTERN_CANDIDATES = ['ai-ops-conformance-bad\n', '\u0000', '!!', ' ', '#zz'];

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): string[] | null {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return null;
}

function jsonTypeAccepts(types: readonly string[], sample: { type: string; value: unknown }): boolean {
  if (types.includes(sample.type)) return true;
  return sample.type === 'integer' && types.includes('number');
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A copy of `base` with `value` at `path` (or the key removed for OMIT). */
function withValue(base: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value === OMIT ? undefined : value;
  const root = clone(base) as Record<string | number, unknown>;
  let node = root;
  for (let i = 0; i < path.length - 1; i++) node = node[path[i]] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === OMIT) delete node[last];
  else node[last] = value;
  return root;
}

function pointer(path: Path): string {
  return path.length === 0 ? '(the input)' : `/${path.join('/')}`;
}

/** A string of exactly `bytes` UTF-8 bytes, multibyte as far as possible (3-byte `あ`, then `é` or `a`). */
function multibyte(bytes: number): string {
  if (bytes <= 0) return '';
  const threes = Math.floor(bytes / 3);
  const rest = bytes - threes * 3;
  return 'あ'.repeat(threes) + (rest === 2 ? 'é' : rest === 1 ? 'a' : '');
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/** A value the schema accepts, as far as a small derivation can tell; the validator has the last word. */
/** A valid input derived from `schema`: required fields only; strings `ai-ops-conformance`, the first `enum` value, numbers at their `minimum` or 0. */
export function sample(schema: Schema): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return clone(schema.default);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && isSchema(options[0])) return sample({ ...schema, [key]: undefined, ...options[0] });
  }
  const type = typesOf(schema)?.[0];
  switch (type) {
    case 'string': {
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      let value = BASE_STRING.padEnd(minLength, 'x');
      if (typeof schema.pattern === 'string') value = PATTERN_CANDIDATES.find((c) => matches(schema.pattern as string, c) && c.length >= minLength) ?? value;
      if (typeof schema.maxLength === 'number') value = value.slice(0, schema.maxLength);
      return value;
    }
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number') return type === 'integer' ? Math.ceil(schema.minimum) : schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return Math.floor(schema.exclusiveMinimum) + 1;
      if (typeof schema.maximum === 'number') return Math.min(0, type === 'integer' ? Math.floor(schema.maximum) : schema.maximum);
      return 0;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return isSchema(schema.items) ? Array.from({ length: minItems }, () => sample(schema.items as Schema)) : [];
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const key of required) if (typeof key === 'string' && isSchema(properties[key])) out[key] = sample(properties[key] as Schema);
      return out;
    }
    default:
      return null;
  }
}

/** Collects the problems of a schema a call cannot show: an object node without `additionalProperties: false` (IN-2). */
/** Adds to `out` each object schema under `schema` that lacks `additionalProperties: false`, by its path. */
export function schemaProblems(schema: unknown, path: string, out: string[]): void {
  if (!isSchema(schema)) return;
  const types = typesOf(schema);
  if ((types?.includes('object') || isSchema(schema.properties)) && schema.additionalProperties !== false) {
    out.push(`${path || '/'}: an object schema without additionalProperties: false`);
  }
  if (isSchema(schema.properties)) for (const [key, child] of Object.entries(schema.properties)) schemaProblems(child, `${path}/properties/${key}`, out);
  if (isSchema(schema.items)) schemaProblems(schema.items, `${path}/items`, out);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, i) => schemaProblems(child, `${path}/${key}/${i}`, out));
  }
}

/**
 * The calls the kit makes for one definition (exported so an author can see or reuse them).
 * @example conformanceCases(definition).map((c) => c.label)
 */
export function conformanceCases(definition: AnyOperationDefinition, options: ConformanceOptions = {}): ConformanceCase[] {
  const operation = definition.name;
  const pathFields = new Set(options.pathFields ?? ['path']);
  const textFields = new Set(options.textFields ?? ['markdown', 'xml', 'cells', 'contents', 'sql']);
  const timeoutFields = new Set(options.timeoutFields ?? ['timeoutMs']);
  const base = options.validInputs && operation in options.validInputs ? clone(options.validInputs[operation]) : sample(definition.inputSchema);
  const cases: ConformanceCase[] = [];
  const add = (label: string, input: unknown, expect: ConformanceExpectation) => cases.push({ operation, label, input, expect });
  const invalid = { code: ErrorCode.invalidInput } as const;
  const tooLarge = { code: ErrorCode.tooLarge } as const;

  const visit = (schema: Schema, input: unknown, path: Path, key: string | number | null, depth: number) => {
    if (depth > 6) return;
    const at = pointer(path);
    const types = typesOf(schema);
    const constrained = 'const' in schema || Array.isArray(schema.enum) || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf);
    if (types) {
      for (const wrong of WRONG_TYPE_SAMPLES) {
        if (!jsonTypeAccepts(types, wrong)) add(`${at} = ${JSON.stringify(wrong.value)} (${/^[aeiou]/.test(wrong.type) ? 'an' : 'a'} ${wrong.type}, not ${types.join('|')})`, withValue(input, path, wrong.value), invalid);
      }
    }
    if (Array.isArray(schema.enum) && types?.includes('string')) {
      add(`${at} = a string outside the enum`, withValue(input, path, 'ai-ops-conformance-not-in-enum'), invalid);
    }
    if (types?.includes('string') && !constrained) {
      const pattern = typeof schema.pattern === 'string' ? schema.pattern : null;
      if (pattern) {
        const bad = NOT_IN_PATTERN_CANDIDATES.find((candidate) => !matches(pattern, candidate));
        if (bad !== undefined) add(`${at} = ${JSON.stringify(bad)} (does not match ${pattern})`, withValue(input, path, bad), invalid);
      }
      if (typeof schema.minLength === 'number' && schema.minLength > 0) {
        add(`${at} = a string shorter than minLength ${schema.minLength}`, withValue(input, path, ''), invalid);
      }
      const maxBytes = typeof schema.maxBytes === 'number' ? schema.maxBytes : typeof key === 'string' && textFields.has(key) ? MAX_TEXT_BYTES : null;
      if (maxBytes !== null) {
        const wrapKey = `${operation}.${typeof key === 'string' ? key : path.join('.')}`;
        const wrap = options.wrapText?.[wrapKey] ?? ((filler: string) => filler);
        const overhead = utf8ByteLength(wrap(''));
        const over = wrap(multibyte(maxBytes + 1 - overhead));
        add(`${at} = ${utf8ByteLength(over).toLocaleString('en')} bytes of multibyte UTF-8 (maxBytes ${maxBytes} + 1)`, withValue(input, path, over), tooLarge);
        const exact = wrap(multibyte(maxBytes - overhead));
        add(`${at} = exactly ${utf8ByteLength(exact).toLocaleString('en')} bytes of UTF-8 (maxBytes)`, withValue(input, path, exact), {
          notCodes: [ErrorCode.tooLarge, ErrorCode.invalidInput],
        });
      } else if (typeof schema.maxLength === 'number' && !pattern) {
        add(`${at} = ${schema.maxLength + 1} characters (maxLength ${schema.maxLength} + 1)`, withValue(input, path, 'a'.repeat(schema.maxLength + 1)), tooLarge);
      }
      if (typeof key === 'string' && pathFields.has(key)) {
        for (const bad of BAD_PATHS) add(`${at} = ${JSON.stringify(bad)} (outside the working directory)`, withValue(input, path, bad), invalid);
      }
    }
    if (typeof key === 'string' && timeoutFields.has(key)) {
      add(`${at} = ${TIMEOUT_MS.minimum - 1} (below minimum ${TIMEOUT_MS.minimum})`, withValue(input, path, TIMEOUT_MS.minimum - 1), invalid);
      add(`${at} = ${TIMEOUT_MS.maximum + 1} (above maximum ${TIMEOUT_MS.maximum})`, withValue(input, path, TIMEOUT_MS.maximum + 1), invalid);
      if (!types || types.includes('number')) add(`${at} = 1.5 (not an integer)`, withValue(input, path, 1.5), invalid);
    } else if ((types?.includes('integer') || types?.includes('number')) && !constrained) {
      const integer = !types.includes('number');
      if (typeof schema.minimum === 'number') {
        const below = integer ? Math.ceil(schema.minimum) - 1 : schema.minimum - 1;
        add(`${at} = ${below} (below minimum ${schema.minimum})`, withValue(input, path, below), invalid);
      }
      if (typeof schema.maximum === 'number') {
        const above = integer ? Math.floor(schema.maximum) + 1 : schema.maximum + 1;
        add(`${at} = ${above} (above maximum ${schema.maximum})`, withValue(input, path, above), invalid);
      }
    }
    if (types?.includes('array') && isSchema(schema.items)) {
      const item = sample(schema.items);
      if (typeof schema.maxItems === 'number') {
        add(`${at} = ${schema.maxItems + 1} items (maxItems ${schema.maxItems} + 1)`, withValue(input, path, Array.from({ length: schema.maxItems + 1 }, () => clone(item))), tooLarge);
      }
      if (typeof schema.minItems === 'number' && schema.minItems > 0) add(`${at} = [] (minItems ${schema.minItems})`, withValue(input, path, []), invalid);
      const current = path.length === 0 ? input : readAt(input, path);
      const items = Array.isArray(current) && current.length > 0 ? current : [item];
      const withItems = withValue(input, path, items);
      visit(schema.items, withItems, [...path, 0], 0, depth + 1);
    }
    if (types?.includes('object') && isSchema(schema.properties)) {
      const current = path.length === 0 ? input : readAt(input, path);
      const here = isSchema(current) ? current : sample(schema);
      const withHere = withValue(input, path, here);
      const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
      for (const name of required) add(`${pointer([...path, name])} missing (required)`, withValue(withHere, [...path, name], OMIT), invalid);
      if (schema.additionalProperties === false) {
        add(`${pointer([...path, 'aiOpsUnknownField'])} (a field the schema lacks)`, withValue(withHere, [...path, 'aiOpsUnknownField'], 1), invalid);
      }
      for (const [name, child] of Object.entries(schema.properties)) {
        if (!isSchema(child)) continue;
        const value = isSchema(here) && name in here ? (here as Record<string, unknown>)[name] : sample(child);
        visit(child, withValue(withHere, [...path, name], value), [...path, name], name, depth + 1);
      }
    }
  };

  visit(definition.inputSchema, base, [], null, 0);
  return cases;
}


function readAt(input: unknown, path: Path): unknown {
  let node: unknown = input;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}
