import { expect } from '@open-wc/testing';
import { ErrorCode, fail, succeed, isFailure } from '../../src/result.js';
import { serialize } from '../../src/pipeline.js';
import { compileInputValidator, publishedSchema } from '../../src/schema.js';
import { MAX_TEXT_BYTES, tail, head, stripTerminalControls, textSchema, timeoutSchema, utf8ByteLength } from '../../src/limits.js';
import { resolveRelativePath, writeFileSchema, listFilesSchema } from '../../src/files.js';
import { compileOperation, runCall, type CallHooks } from '../../src/pipeline.js';
import { defineOperation } from '../../src/definition.js';

const allow: CallHooks = { isEnabled: () => true, skipsConfirmation: () => false, confirm: async () => () => {} };

describe('envelope, limits and validation', () => {
  it('[RES-2] success and failure envelopes have the specified shape', () => {
    expect(JSON.parse(serialize(succeed({ id: 'a' })).json)).to.deep.equal({ ok: true, id: 'a' });
    expect(JSON.parse(serialize(fail('not_found', 'gone', { output: 'x' })).json)).to.deep.equal({
      ok: false, error: { code: 'not_found', message: 'gone' }, output: 'x',
    });
  });

  it('[RES-3] the seven codes, and only those, make a failure', () => {
    expect(Object.values(ErrorCode)).to.have.members(['invalid_input', 'not_found', 'too_large', 'not_ready', 'declined', 'timeout', 'failed']);
    expect(isFailure({ ok: false, error: { code: 'nope', message: '' } })).to.equal(false);
  });

  it('[RES-1] a non-envelope or unserialisable result still answers a JSON envelope', () => {
    const cyclic: Record<string, unknown> = { ok: true };
    cyclic.self = cyclic;
    expect(JSON.parse(serialize(cyclic).json).error.code).to.equal('failed');
    expect(JSON.parse(serialize('bare string').json).error.code).to.equal('failed');
    expect(JSON.parse(serialize({ ok: true, n: 10n }).json).error.code).to.equal('failed');
  });

  it('[RES-4] an exception thrown by prepare or execute becomes failed', async () => {
    const throwsInPrepare = compileOperation(defineOperation({
      name: 't_a', description: 'テスト', inputSchema: { type: 'object', additionalProperties: false },
      prepare: async (): Promise<void> => { throw new Error('boom in prepare'); },
      execute: async () => succeed(),
    }));
    const throwsInExecute = compileOperation(defineOperation({
      name: 't_b', description: 'テスト', inputSchema: { type: 'object', additionalProperties: false },
      execute: async () => { throw new TypeError('boom in execute'); },
    }));
    const a = JSON.parse((await runCall(throwsInPrepare, {}, allow)).json);
    const b = JSON.parse((await runCall(throwsInExecute, {}, allow)).json);
    expect(a).to.deep.equal({ ok: false, error: { code: 'failed', message: 'boom in prepare' } });
    expect(b).to.deep.equal({ ok: false, error: { code: 'failed', message: 'boom in execute' } });
  });

  it('[IN-1] every call is validated against the schema before prepare and execute', async () => {
    let prepared = 0;
    let executed = 0;
    const op = compileOperation(defineOperation({
      name: 't_c', description: 'テスト',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
      prepare: async () => { prepared++; },
      execute: async ({ n }) => { executed++; return succeed({ n }); },
    }));
    for (const bad of [undefined, null, 'str', 42, [], { n: 'x' }, { n: 1.5 }, {}]) {
      const { result } = await runCall(op, bad, allow);
      expect(result.ok, JSON.stringify(bad)).to.equal(false);
      expect((result as { error: { code: string } }).error.code).to.equal('invalid_input');
    }
    expect([prepared, executed]).to.deep.equal([0, 0]);
    expect((await runCall(op, { n: 2 }, allow)).result).to.deep.equal({ ok: true, n: 2 });
  });

  it('[IN-2] an unknown field is invalid_input and names the field', () => {
    const validate = compileInputValidator(listFilesSchema);
    const failure = validate({ path: 'a', extra: 1 });
    expect(failure?.error.code).to.equal('invalid_input');
    expect(failure?.error.message).to.contain('extra');
  });

  it('[IN-4] text fields take exactly 1 MB of UTF-8 and answer too_large one byte over', () => {
    const validate = compileInputValidator(writeFileSchema);
    const exact = 'あ'.repeat((MAX_TEXT_BYTES - 1) / 3) + 'a'; // 3 bytes each, plus one
    expect(utf8ByteLength(exact)).to.equal(MAX_TEXT_BYTES);
    expect(validate({ path: 'a.txt', contents: exact })).to.equal(null);
    const over = exact + 'a';
    expect(validate({ path: 'a.txt', contents: over })?.error.code).to.equal('too_large');
    expect(validate({ path: 'a.txt', contents: 'a'.repeat(MAX_TEXT_BYTES + 1) })?.error.code).to.equal('too_large');
    expect(utf8ByteLength('😀')).to.equal(4);
    expect(utf8ByteLength('\ud800x')).to.equal(4);
  });

  it('[IN-4] agents see a standard maxLength instead of the maxBytes extension', () => {
    const published = publishedSchema({ type: 'object', properties: { sql: textSchema('SQL') } });
    expect(JSON.stringify(published)).not.to.contain('maxBytes');
    expect((published.properties as Record<string, { maxLength: number }>).sql.maxLength).to.equal(MAX_TEXT_BYTES);
  });

  it('[IN-5] timeoutMs is an integer from 1,000 to 120,000 with default 30,000', () => {
    const validate = compileInputValidator({ type: 'object', properties: { timeoutMs: timeoutSchema('上限') }, additionalProperties: false });
    expect(timeoutSchema('x').default).to.equal(30000);
    for (const ok of [1000, 30000, 120000]) expect(validate({ timeoutMs: ok })).to.equal(null);
    for (const bad of [999, 120001, 1.5, '3000']) expect(validate({ timeoutMs: bad })?.error.code).to.equal('invalid_input');
  });

  it('[FILE-2] only relative paths inside the working directory are accepted', () => {
    expect(resolveRelativePath('src/../main.go')).to.deep.equal({ ok: true, path: 'main.go' });
    expect(resolveRelativePath('./a//b/')).to.deep.equal({ ok: true, path: 'a/b' });
    expect(resolveRelativePath('.')).to.deep.equal({ ok: true, path: '' });
    for (const bad of ['../x', '/abs', 'a/../../b', 'C:/x', 'a\\b', 'a\0b']) {
      const result = resolveRelativePath(bad);
      expect(result.ok, bad).to.equal(false);
      expect((result as { error: { code: string } }).error.code).to.equal('invalid_input');
    }
  });

  it('[FILE-1] the shared write schema caps contents at 1 MB and rejects unknown fields', () => {
    expect(writeFileSchema.required).to.deep.equal(['path', 'contents']);
    expect(writeFileSchema.additionalProperties).to.equal(false);
    expect(writeFileSchema.properties.contents.maxBytes).to.equal(MAX_TEXT_BYTES);
  });

  it('[NODE-7] every ECMA-48 control sequence is removed, leaving no residue', () => {
    const cases: [string, string, string][] = [
      ['tput sgr0 (ESC ( B)', 'a\u001b(B\u001b[mb', 'ab'],
      ['save / restore cursor (ESC 7, ESC 8)', 'a\u001b7b\u001b8c', 'abc'],
      ['keypad modes (ESC =, ESC >)', '\u001b=a\u001b>b', 'ab'],
      ['DCS with its payload (ESC P … ST)', 'a\u001bP1$r0;1m\u001b\\b', 'ab'],
      ['OSC ended by BEL', 'a\u001b]0;title\u0007b', 'ab'],
      ['OSC ended by ST (a hyperlink)', '\u001b]8;;https://x.test/\u001b\\link\u001b]8;;\u001b\\', 'link'],
      ['8-bit CSI', 'a\u009b31mred\u009b0mb', 'aredb'],
      ['8-bit OSC ended by 8-bit ST', 'a\u009d0;t\u009cb', 'ab'],
      ['APC, PM and SOS strings', 'a\u001b_apc\u001b\\b\u001b^pm\u001b\\c\u001bXsos\u001b\\d', 'abcd'],
      ['other C1 controls (IND, NEL, HTS)', 'a\u0084b\u0085c\u0088d', 'abcd'],
      ['ESC # 8 and ESC % G', 'a\u001b#8b\u001b%Gc', 'abc'],
      ['CSI with private parameters (cursor hide/show)', '\u001b[?25la\u001b[?25h', 'a'],
      ['an unterminated OSC at the end', 'done\u001b]0;tit', 'done'],
      ['a lone ESC at the end', 'done\u001b', 'done'],
      ['a stray 8-bit OSC introducer swallows nothing', 'a\u009db\nc', 'ab\nc'],
    ];
    for (const [what, input, expected] of cases) expect(stripTerminalControls(input), what).to.equal(expected);
  });

  it('[NODE-7] a carriage return rewrites the line as a terminal does; CR LF is a newline', () => {
    expect(stripTerminalControls('10%\r20%\r30%')).to.equal('30%');
    expect(stripTerminalControls('loading 10%\rloading 20%\rloading 100%\ndone\n')).to.equal('loading 100%\ndone\n');
    expect(stripTerminalControls('one\r\ntwo\r\n')).to.equal('one\ntwo\n');
    expect(stripTerminalControls('abcdef\rxy')).to.equal('xycdef'); // overwritten, not erased
    expect(stripTerminalControls('abcdef\r\u001b[Kxy')).to.equal('xy'); // erase to end of line
    expect(stripTerminalControls('abcdef\r\u001b[2Kxy')).to.equal('xy');
    expect(stripTerminalControls('ab\bc')).to.equal('ac');
    expect(stripTerminalControls('\u001b[32m50%\u001b[0m\r\u001b[32m100%\u001b[0m\n')).to.equal('100%\n');
  });

  it('[NODE-5] output keeps the last characters and drops terminal controls', () => {
    expect(tail('abcdef', 3)).to.deep.equal({ output: 'def', truncated: true });
    expect(tail('abc', 3)).to.deep.equal({ output: 'abc', truncated: false });
    expect(tail('a😀b', 2).output).to.equal('b'); // never half a surrogate pair
    expect(stripTerminalControls('\u001b[31mred\u001b[0m\r\nnext\u0007\u001b]0;title\u0007')).to.equal('red\nnext');
    expect(head([1, 2, 3], 2)).to.deep.equal({ items: [1, 2], truncated: true });
  });
});
