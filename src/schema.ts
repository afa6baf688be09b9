/**
 * Input validation (IN-1, IN-2, IN-4), here because neither the polyfill nor the relay validates
 * (PLATFORM-NOTES): each definition's schema is compiled once, and every call is checked before
 * `prepare`. Our `maxBytes` keyword is checked in UTF-8 bytes and published as `maxLength`.
 * @module
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import type { InputSchema } from './definition.js';
import { utf8ByteLength } from './utf8.js';
import { ErrorCode, fail, type OperationFailure } from './result.js';

/** Keywords whose violation means "over a limit" (`too_large`) rather than "malformed". */
const SIZE_KEYWORDS = new Set(['maxLength', 'maxItems', 'maxProperties']);

type SchemaNode = { [key: string]: unknown };

/** Returns a validator for `schema`: null when the input is valid, else the failure to answer. */
export function compileInputValidator(schema: InputSchema): (input: unknown) => OperationFailure | null {
  const validator = new Validator(publishedSchema(schema) as Schema, '2020-12', false);
  const byteCaps = hasByteCaps(schema);
  return (input) => {
    // The validator throws on `undefined` (not a JSON value); JSON has no such input either.
    if (input === undefined) return fail(ErrorCode.invalidInput, 'the input must be a JSON value matching the schema, not undefined');
    const result = validator.validate(input);
    if (!result.valid) {
      // The leaf errors say what is wrong; the "properties"/"items" wrappers only repeat them.
      const leaves = result.errors.filter((e) => !['properties', 'items', 'allOf', 'prefixItems', '$ref'].includes(e.keyword));
      const errors = leaves.length ? leaves : result.errors;
      const onlySize = errors.every((e) => SIZE_KEYWORDS.has(e.keyword));
      const message = errors.slice(0, 5).map((e) => `${e.instanceLocation.replace(/^#/, '') || '/'}: ${e.error}`).join('; ');
      return fail(onlySize ? ErrorCode.tooLarge : ErrorCode.invalidInput, message);
    }
    if (byteCaps) {
      const over = findOverByteCap(schema as SchemaNode, input, '');
      if (over) return fail(ErrorCode.tooLarge, `${over.path}: ${over.bytes} bytes of UTF-8, over the limit of ${over.limit}`);
    }
    return null;
  };
}

function hasByteCaps(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"maxBytes"');
}

function findOverByteCap(schema: SchemaNode, value: unknown, path: string): { path: string; bytes: number; limit: number } | null {
  if (typeof schema !== 'object' || schema === null) return null;
  if (typeof value === 'string' && typeof schema.maxBytes === 'number') {
    // Every UTF-16 unit is at least one byte and at most three, so most strings are decided cheaply.
    if (value.length > schema.maxBytes) return { path: path || '/', bytes: utf8ByteLength(value), limit: schema.maxBytes };
    if (value.length * 3 > schema.maxBytes) {
      const bytes = utf8ByteLength(value);
      if (bytes > schema.maxBytes) return { path: path || '/', bytes, limit: schema.maxBytes };
    }
    return null;
  }
  if (Array.isArray(value) && typeof schema.items === 'object' && schema.items !== null) {
    for (let i = 0; i < value.length; i++) {
      const found = findOverByteCap(schema.items as SchemaNode, value[i], `${path}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null && typeof schema.properties === 'object' && schema.properties !== null) {
    const properties = schema.properties as Record<string, SchemaNode>;
    for (const key of Object.keys(properties)) {
      if (key in value) {
        const found = findOverByteCap(properties[key], (value as Record<string, unknown>)[key], `${path}/${key}`);
        if (found) return found;
      }
    }
  }
  return null;
}

/**
 * The schema as agents see it: our `maxBytes` extension becomes the standard `maxLength` (a byte cap
 * implies the same cap on characters), so strict validators on the client side meet no unknown keyword.
 */
export function publishedSchema(schema: InputSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.maxBytes === 'number') {
      const { maxBytes, ...rest } = value as { maxBytes: number } & Record<string, unknown>;
      return { ...rest, maxLength: Math.min(maxBytes, typeof rest.maxLength === 'number' ? rest.maxLength : Infinity) };
    }
    return value;
  });
}

