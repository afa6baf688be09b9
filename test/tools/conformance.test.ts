import { expect } from '@open-wc/testing';
import {
  ConformanceError, assertConformance, checkConformance, conformanceCases, type ConformanceCase,
} from '../../src/conformance.js';
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { listFilesSchema, writeFileSchema } from '../../src/files.js';
import { MAX_TEXT_BYTES, textSchema, timeoutSchema, utf8ByteLength } from '../../src/limits.js';
import { succeed } from '../../src/result.js';
import { toolConformanceOptions } from '../../tools/index.js';
import { createAllTools } from '../helpers/tools-setup.js';

const labels = (cases: ConformanceCase[]) => cases.map((c) => c.label);

describe('the conformance kit (src/conformance.ts)', () => {
  it('[RES-1] [IN-2] [IN-4] [IN-5] [FILE-2] it passes on all 23 operations, and no confirmed operation executes', async function () {
    this.timeout(60_000);
    const tools = createAllTools();
    const before = { markdown: tools.slides.markdown, xml: tools.drawio.xml, elements: tools.excalidraw.elements.length, files: [...tools.node.fileMap.keys()] };
    const report = await assertConformance(tools.all, toolConformanceOptions);
    expect(report.ok).to.equal(true);
    expect(report.problems).to.deep.equal([]);
    expect(report.calls).to.be.greaterThan(23 * 5);
    // Every confirmation was declined: nothing was replaced, cleared or deleted.
    expect(tools.slides.markdown).to.equal(before.markdown);
    // drawio_write never replaced the diagram (drawio_add_cells, unconfirmed, did add its 1 MB case's cell).
    expect(tools.drawio.xml.startsWith(before.xml.slice(0, before.xml.indexOf('</root>')))).to.equal(true);
    expect(tools.excalidraw.elements.length).to.equal(before.elements);
    for (const path of before.files) expect(tools.node.fileMap.has(path), path).to.equal(true);
  });

  it('[IN-4] [IN-5] [FILE-2] it derives the specified bad inputs from a schema', () => {
    const write = conformanceCases(defineOperation({
      name: 'x_write', description: 'テスト', inputSchema: writeFileSchema, execute: async () => succeed(),
    }));
    const run = conformanceCases(defineOperation({
      name: 'x_run',
      description: 'テスト',
      inputSchema: { type: 'object', properties: { timeoutMs: timeoutSchema('時間') }, additionalProperties: false },
      execute: async () => succeed(),
    }));
    expect(labels(write)).to.include.members([
      '/path missing (required)',
      '/contents missing (required)',
      '/aiOpsUnknownField (a field the schema lacks)',
      '/path = 7 (an integer, not string)',
      '/contents = null (a null, not string)',
      '/path = "../x" (outside the working directory)',
      '/path = "/abs" (outside the working directory)',
      '/path = "a/../../b" (outside the working directory)',
      '/contents = 1,048,577 bytes of multibyte UTF-8 (maxBytes 1048576 + 1)',
      '/contents = exactly 1,048,576 bytes of UTF-8 (maxBytes)',
    ]);
    const over = write.find((c) => c.label.startsWith('/contents = 1,048,577'))!;
    const contents = (over.input as { contents: string }).contents;
    expect(utf8ByteLength(contents)).to.equal(MAX_TEXT_BYTES + 1);
    expect(contents.length).to.be.lessThan(MAX_TEXT_BYTES / 2); // multibyte: the byte cap, not a character cap, is what trips
    expect(over.expect).to.deep.equal({ code: 'too_large' });
    expect(labels(run)).to.include.members([
      '/timeoutMs = 999 (below minimum 1000)',
      '/timeoutMs = 120001 (above maximum 120000)',
      '/timeoutMs = 1.5 (a number, not integer)',
      '(the input) = null (a null, not object)',
    ]);
    for (const c of run) expect(c.expect, c.label).to.deep.equal({ code: 'invalid_input' });
  });

  it('[RES-1] it fails on deliberately wrong definitions, naming each problem, and never throws while checking', async () => {
    const wrong: AnyOperationDefinition[] = [
      // No byte cap (a character cap only) and no additionalProperties: false; accepts anything.
      defineOperation({
        name: 'bad_write',
        description: '書く',
        inputSchema: { type: 'object', properties: { path: { type: 'string' }, contents: { type: 'string', maxLength: MAX_TEXT_BYTES } }, required: ['path', 'contents'] },
        execute: async () => succeed({}),
      }),
      // No path check at all, and a handler that throws.
      defineOperation({
        name: 'bad_list',
        description: '一覧',
        inputSchema: listFilesSchema,
        execute: async (input) => {
          if (input.path === '/abs') throw new Error('boom');
          return succeed({ entries: [] });
        },
      }),
      // A bad name, no description, and a prepare that never answers.
      defineOperation({
        name: 'Bad-Name',
        description: '',
        inputSchema: { type: 'object', properties: { sql: textSchema('SQL') }, required: ['sql'], additionalProperties: false },
        prepare: () => new Promise(() => {}),
        execute: async () => succeed(),
      }),
    ];
    // The old shape: a check the pipeline would never call.
    wrong.push(Object.assign(defineOperation({
      name: 'old_shape', description: '古い', inputSchema: { type: 'object', additionalProperties: false }, execute: async () => succeed(),
    }), { check: async () => null }));
    const report = await checkConformance(wrong, { callTimeoutMs: 50 });
    expect(report.ok).to.equal(false);
    const found = report.problems.map((p) => `${p.operation} | ${p.case} | ${p.actual}`);
    const has = (re: RegExp) => expect(found.some((f) => re.test(f)), `${re} in\n${found.join('\n')}`).to.equal(true);
    has(/^bad_write \| definition \| \/: an object schema without additionalProperties: false/);
    has(/^old_shape \| definition \| a check function/);
    has(/^bad_write \| \/contents = 1,048,577 bytes .* \| ok: true/);
    has(/^bad_list \| \/path = "\.\.\/x" .* \| ok: true/);
    has(/^bad_list \| \/path = "\/abs" .* \| failed \(boom\)/);
    has(/^Bad-Name \| definition \| "Bad-Name"/);
    has(/^Bad-Name \| definition \| none/);
    has(/^Bad-Name \| \/sql = exactly 1,048,576 bytes .* \| no answer within 50 ms/);

    let thrown: unknown;
    try {
      await assertConformance(wrong.slice(0, 1));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(ConformanceError);
    expect(thrown).to.be.instanceOf(AggregateError);
    const error = thrown as ConformanceError;
    expect(error.errors.length).to.equal(error.report.problems.length);
    expect(error.message).to.include('bad_write');
  });

  it('[RES-1] a base input the schema refuses is reported, not turned into meaningless cases', async () => {
    const definition = defineOperation({
      name: 'x_pattern',
      description: 'テスト',
      inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^Z{3}$' } }, required: ['code'], additionalProperties: false },
      execute: async () => succeed(),
    });
    const report = await checkConformance([definition]);
    expect(report.calls).to.equal(0);
    expect(report.problems[0].expected).to.include('validInputs');
    expect((await checkConformance([definition], { validInputs: { x_pattern: { code: 'ZZZ' } } })).ok).to.equal(true);
  });
});
