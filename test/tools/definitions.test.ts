import { expect } from '@open-wc/testing';
import { MAX_TEXT_BYTES } from '../../src/limits.js';
import { caller, isJapanese } from '../helpers/tools-call.js';
import { createAllTools } from '../helpers/tools-setup.js';

const NAMES = {
  slides: ['slides_read', 'slides_write', 'slides_set_theme'],
  excalidraw: ['excalidraw_read', 'excalidraw_add_elements', 'excalidraw_update_element', 'excalidraw_clear'],
  drawio: ['drawio_read', 'drawio_add_cells', 'drawio_write'],
  node: ['node_list_files', 'node_read_file', 'node_write_file', 'node_delete_file', 'node_run_command'],
  sql: ['sql_read_query', 'sql_run_query'],
  go: ['go_list_files', 'go_read_file', 'go_write_file', 'go_delete_file', 'go_run', 'go_test'],
};

/** A valid input and the success fields of the design doc's table, per operation (RES-5). */
const SUCCESS: Record<string, { input: Record<string, unknown>; fields: string[] }> = {
  slides_read: { input: {}, fields: ['document', 'markdown', 'theme', 'slideCount'] },
  slides_write: { input: { markdown: '# a' }, fields: ['slideCount'] },
  slides_set_theme: { input: { theme: 'gaia' }, fields: ['theme'] },
  excalidraw_read: { input: {}, fields: ['document', 'elements'] },
  excalidraw_add_elements: { input: { elements: [{ type: 'rectangle', x: 1, y: 2 }] }, fields: ['ids'] },
  excalidraw_update_element: { input: { id: 'box', x: 5 }, fields: ['id'] },
  excalidraw_clear: { input: {}, fields: ['count'] },
  drawio_read: { input: {}, fields: ['document', 'xml'] },
  drawio_add_cells: { input: { cells: '<mxCell id="b" vertex="1" parent="1"/>' }, fields: ['count'] },
  drawio_write: { input: { xml: '<mxGraphModel><root><mxCell id="0"/></root></mxGraphModel>' }, fields: [] },
  node_list_files: { input: {}, fields: ['entries', 'truncated'] },
  node_read_file: { input: { path: 'index.js' }, fields: ['path', 'contents'] },
  node_write_file: { input: { path: 'new.txt', contents: 'x' }, fields: ['path'] },
  node_delete_file: { input: { path: 'src/a.js' }, fields: ['path'] },
  node_run_command: { input: { command: 'node', args: ['index.js'] }, fields: ['exitCode', 'output', 'truncated'] },
  sql_read_query: { input: {}, fields: ['sql'] },
  sql_run_query: { input: { sql: 'select 1' }, fields: ['results', 'ms'] },
  go_list_files: { input: {}, fields: ['entries', 'truncated'] },
  go_read_file: { input: { path: 'main.go' }, fields: ['path', 'contents'] },
  go_write_file: { input: { path: 'x.go', contents: 'package main\n' }, fields: ['path'] },
  go_delete_file: { input: { path: 'lib/lib.go' }, fields: ['path'] },
  go_run: { input: {}, fields: ['exitCode', 'output', 'truncated'] },
  go_test: { input: {}, fields: ['exitCode', 'output', 'truncated'] },
};

/** The design doc's `Inputs` type: property → JSON type, and the required ones (IN-3). */
const INPUTS: Record<string, { properties: Record<string, string>; required: string[] }> = {
  slides_read: { properties: {}, required: [] },
  slides_write: { properties: { markdown: 'string' }, required: ['markdown'] },
  slides_set_theme: { properties: { theme: 'string' }, required: ['theme'] },
  excalidraw_read: { properties: {}, required: [] },
  excalidraw_add_elements: { properties: { elements: 'array' }, required: ['elements'] },
  excalidraw_update_element: {
    properties: { id: 'string', x: 'number', y: 'number', width: 'number', height: 'number', strokeColor: 'string', backgroundColor: 'string' },
    required: ['id'],
  },
  excalidraw_clear: { properties: {}, required: [] },
  drawio_read: { properties: {}, required: [] },
  drawio_add_cells: { properties: { cells: 'string' }, required: ['cells'] },
  drawio_write: { properties: { xml: 'string' }, required: ['xml'] },
  node_list_files: { properties: { path: 'string' }, required: [] },
  node_read_file: { properties: { path: 'string' }, required: ['path'] },
  node_write_file: { properties: { path: 'string', contents: 'string' }, required: ['path', 'contents'] },
  node_delete_file: { properties: { path: 'string' }, required: ['path'] },
  node_run_command: { properties: { command: 'string', args: 'array', timeoutMs: 'integer' }, required: ['command'] },
  sql_read_query: { properties: {}, required: [] },
  sql_run_query: { properties: { sql: 'string', timeoutMs: 'integer' }, required: ['sql'] },
  go_list_files: { properties: { path: 'string' }, required: [] },
  go_read_file: { properties: { path: 'string' }, required: ['path'] },
  go_write_file: { properties: { path: 'string', contents: 'string' }, required: ['path', 'contents'] },
  go_delete_file: { properties: { path: 'string' }, required: ['path'] },
  go_run: { properties: { timeoutMs: 'integer' }, required: [] },
  go_test: { properties: { timeoutMs: 'integer' }, required: [] },
};

type SchemaNode = { type?: string; properties?: Record<string, SchemaNode>; required?: string[]; items?: SchemaNode; [k: string]: unknown };

function definitionsByName() {
  const tools = createAllTools();
  return { tools, byName: new Map(tools.all.map((d) => [d.name, d])) };
}

function callerFor() {
  const { tools } = definitionsByName();
  return { tools, call: caller(tools.all) };
}

describe('tools: the 23 definitions', () => {
  it('[DEF-2] exactly the 23 names of the design doc, each prefixed by its tool, only [a-z0-9_]', () => {
    const { tools } = definitionsByName();
    for (const [tool, names] of Object.entries(NAMES)) {
      const defs = tools.byTool[tool as keyof typeof tools.byTool];
      expect(defs.map((d) => d.name)).to.deep.equal(names);
      for (const d of defs) {
        expect(d.name).to.match(/^[a-z0-9_]+$/);
        expect(d.name.startsWith(`${tool}_`)).to.equal(true);
      }
    }
    expect(tools.all).to.have.length(23);
    expect(new Set(tools.all.map((d) => d.name)).size).to.equal(23);
  });

  it('[DEF-3] every description, and every property description, is Japanese', () => {
    const { tools } = definitionsByName();
    const walk = (schema: SchemaNode, where: string) => {
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        expect(isJapanese(String(child.description ?? '')), `${where}.${key}`).to.equal(true);
        walk(child, `${where}.${key}`);
      }
      if (schema.items) walk(schema.items, `${where}[]`);
    };
    for (const d of tools.all) {
      expect(isJapanese(d.description), d.name).to.equal(true);
      walk(d.inputSchema as SchemaNode, d.name);
    }
  });

  it('[DEF-3] node_run_command, sql_run_query, go_run and go_test warn about the 60 s relay wait; sql_run_query says a timeout resets the DB', () => {
    const { tools, byName } = definitionsByName();
    const warned = ['node_run_command', 'sql_run_query', 'go_run', 'go_test'];
    for (const d of tools.all) {
      const says = /60 秒/.test(d.description) && /relay/.test(d.description) && /timeoutMs/.test(d.description) && /待つのをやめる/.test(d.description);
      expect(says, d.name).to.equal(warned.includes(d.name));
    }
    expect(byName.get('sql_run_query')!.description).to.match(/timeoutMs[^。]*過ぎると[^。]*DB の中身は初期の状態に戻る/);
  });

  it('[DEF-4] consequentialHint, readOnlyHint and untrustedContentHint sit on exactly the listed operations', () => {
    const { tools } = definitionsByName();
    const having = (hint: 'consequentialHint' | 'readOnlyHint' | 'untrustedContentHint') =>
      tools.all.filter((d) => d.annotations?.[hint] === true).map((d) => d.name).sort();
    const reads = ['slides_read', 'excalidraw_read', 'drawio_read', 'node_list_files', 'node_read_file', 'sql_read_query', 'go_list_files', 'go_read_file'];
    const runs = ['node_run_command', 'sql_run_query', 'go_run', 'go_test'];
    expect(having('consequentialHint')).to.deep.equal(
      ['node_delete_file', 'go_delete_file', 'excalidraw_clear', 'drawio_write', ...runs].sort(),
    );
    expect(having('readOnlyHint')).to.deep.equal([...reads].sort());
    expect(having('untrustedContentHint')).to.deep.equal([...reads, ...runs].sort());
    // No hint is set to false: absent means "not this".
    for (const d of tools.all) for (const value of Object.values(d.annotations ?? {})) expect(value).to.equal(true);
  });

  it('[DEF-5] only the five destructive operations have a confirmation; check answers before any dialog', async () => {
    const { tools, call } = callerFor();
    expect(tools.all.filter((d) => d.confirmation).map((d) => d.name).sort()).to.deep.equal(
      ['drawio_write', 'excalidraw_clear', 'go_delete_file', 'node_delete_file', 'slides_write'].sort(),
    );
    const cases: [string, unknown, string][] = [
      ['node_delete_file', { path: 'missing.txt' }, 'not_found'],
      ['node_delete_file', { path: '../x' }, 'invalid_input'],
      ['go_delete_file', { path: 'lib' }, 'invalid_input'],
      ['drawio_write', { xml: '<mxGraphModel><root>' }, 'invalid_input'],
    ];
    for (const [name, input, code] of cases) {
      const { result, confirmations } = await call(name, input);
      expect(result.error?.code, name).to.equal(code);
      expect(confirmations, name).to.have.length(0);
    }
    tools.slides.document = null;
    const slides = await call('slides_write', { markdown: 'x' });
    expect(slides.result.error?.code).to.equal('not_ready');
    expect(slides.confirmations).to.have.length(0);
  });

  it('[DEF-6] definitions created before the state exists read it on every call', async () => {
    const { tools, call } = callerFor();
    tools.sql.editorSql = 'select 2;';
    expect((await call('sql_read_query')).result.sql).to.equal('select 2;');
    tools.sql.editorSql = 'select 3;';
    expect((await call('sql_read_query')).result.sql).to.equal('select 3;');
    await tools.go.files.write('added.go', 'package main\n');
    expect((await call('go_read_file', { path: 'added.go' })).result.contents).to.equal('package main\n');
    tools.slides.markdown = '# changed';
    expect((await call('slides_read')).result.markdown).to.equal('# changed');
    tools.excalidraw.elements = [];
    expect((await call('excalidraw_read')).result.elements).to.deep.equal([]);
  });

  it('[RES-5] each operation succeeds with exactly the fields of the design doc table', async () => {
    const { call } = callerFor();
    for (const [name, { input, fields }] of Object.entries(SUCCESS)) {
      const { result } = await call(name, input);
      expect(result.ok, `${name}: ${JSON.stringify(result)}`).to.equal(true);
      expect(Object.keys(result).sort(), name).to.deep.equal(['ok', ...fields].sort());
    }
  });

  it('[RES-5] nested result items have exactly their specified fields', async () => {
    const { tools, call } = callerFor();
    for (const name of ['node_list_files', 'go_list_files']) {
      const { result } = await call(name);
      expect(result.entries.length, name).to.be.greaterThan(0);
      for (const entry of result.entries) expect(Object.keys(entry).sort()).to.deep.equal(['kind', 'path']);
    }
    for (const name of ['slides_read', 'excalidraw_read', 'drawio_read']) {
      expect(Object.keys((await call(name)).result.document).sort(), name).to.deep.equal(['id', 'name']);
    }
    const sql = await call('sql_run_query', { sql: 'select 1' });
    expect(Object.keys(sql.result.results[0]).sort()).to.deep.equal(['affectedRows', 'fields', 'rows', 'totalRows', 'truncated']);
    await call('excalidraw_add_elements', { elements: [{ id: 'r', type: 'rectangle', x: 0, y: 0 }, { type: 'arrow', x: 0, y: 0, from: 'r', to: 'box' }] });
    const { elements } = (await call('excalidraw_read')).result;
    const shapeKeys = ['backgroundColor', 'height', 'id', 'strokeColor', 'text', 'type', 'width', 'x', 'y'];
    for (const element of elements) {
      expect(Object.keys(element).sort()).to.deep.equal(element.type === 'arrow' ? [...shapeKeys, 'from', 'to'].sort() : shapeKeys);
    }
    expect(tools.excalidraw.elements.length).to.equal(4);
  });

  it('[RES-6] markdown, xml, elements and sql of the reads come back whole, however large', async () => {
    const { tools, call } = callerFor();
    tools.slides.markdown = `# big\n${'あ'.repeat(MAX_TEXT_BYTES)}`;
    expect((await call('slides_read')).result.markdown).to.equal(tools.slides.markdown);
    tools.drawio.xml = `<mxGraphModel><root><mxCell id="0" value="${'x'.repeat(2 * MAX_TEXT_BYTES)}"/></root></mxGraphModel>`;
    expect((await call('drawio_read')).result.xml).to.equal(tools.drawio.xml);
    tools.sql.editorSql = `-- ${'y'.repeat(300_000)}`;
    expect((await call('sql_read_query')).result.sql).to.equal(tools.sql.editorSql);
    tools.excalidraw.elements = Array.from({ length: 1500 }, (_, i) => ({
      id: `e${i}`, type: 'ellipse', x: i, y: i, width: 1, height: 1, text: null, strokeColor: '#000000', backgroundColor: 'transparent',
    }));
    expect((await call('excalidraw_read')).result.elements).to.have.length(1500);
  });

  it('[IN-3] every input schema has exactly the properties, types and required fields of the design doc', () => {
    const { byName } = definitionsByName();
    for (const [name, expected] of Object.entries(INPUTS)) {
      const schema = byName.get(name)!.inputSchema as SchemaNode;
      expect(schema.type, name).to.equal('object');
      expect(schema.additionalProperties, name).to.equal(false);
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, v.type]));
      expect(properties, name).to.deep.equal(expected.properties);
      expect([...(schema.required ?? [])].sort(), name).to.deep.equal([...expected.required].sort());
    }
    const newElement = (byName.get('excalidraw_add_elements')!.inputSchema as SchemaNode).properties!.elements.items!;
    expect(newElement.additionalProperties).to.equal(false);
    expect(Object.fromEntries(Object.entries(newElement.properties!).map(([k, v]) => [k, v.type]))).to.deep.equal({
      type: 'string', x: 'number', y: 'number', id: 'string', width: 'number', height: 'number', text: 'string', from: 'string', to: 'string',
    });
    expect(newElement.properties!.type.enum).to.deep.equal(['rectangle', 'ellipse', 'diamond', 'text', 'arrow']);
    expect([...newElement.required!].sort()).to.deep.equal(['type', 'x', 'y']);
    // [NODE-9] strings, each bounded by the runner's request limit.
    expect((byName.get('node_run_command')!.inputSchema as SchemaNode).properties!.args.items).to.deep.equal({ type: 'string', maxBytes: 60 * 1024 });
  });

  it('[IN-3] a field the type lacks is invalid_input, for every operation', async () => {
    const { call } = callerFor();
    for (const [name, { input }] of Object.entries(SUCCESS)) {
      const { result } = await call(name, { ...input, extra: 1 });
      expect(result.error?.code, name).to.equal('invalid_input');
    }
  });

  it('[IN-4] markdown, xml, cells, contents and sql over 1 MB of UTF-8 are too_large; exactly 1 MB is not', async () => {
    const { call } = callerFor();
    // 349,525 three-byte characters = 1,048,575 bytes: far fewer characters than bytes.
    const almost = 'あ'.repeat(349_525);
    const over = `${almost}éé`.slice(0, -1); // + 2 bytes = 1 MB + 1
    const exact = `${almost}a`;
    const fields: [string, string, Record<string, unknown>][] = [
      ['slides_write', 'markdown', {}],
      ['drawio_write', 'xml', {}],
      ['drawio_add_cells', 'cells', {}],
      ['node_write_file', 'contents', { path: 'big.txt' }],
      ['go_write_file', 'contents', { path: 'big.go' }],
      ['sql_run_query', 'sql', {}],
    ];
    for (const [name, field, rest] of fields) {
      const { result } = await call(name, { ...rest, [field]: over }, 'decline');
      expect(result.error?.code, name).to.equal('too_large');
    }
    expect((await call('node_write_file', { path: 'big.txt', contents: exact })).result.ok).to.equal(true);
    expect((await call('go_write_file', { path: 'big.go', contents: exact })).result.ok).to.equal(true);
    expect((await call('sql_run_query', { sql: exact })).result.ok).to.equal(true);
    expect((await call('slides_write', { markdown: exact })).result.ok).to.equal(true);
  });

  it('[IN-5] timeoutMs is an integer from 1,000 to 120,000, 30,000 when omitted', async () => {
    const { tools, call } = callerFor();
    for (const name of ['node_run_command', 'sql_run_query', 'go_run', 'go_test']) {
      const base = name === 'node_run_command' ? { command: 'node' } : name === 'sql_run_query' ? { sql: 'select 1' } : {};
      for (const bad of [999, 120_001, 1.5, '30000', null]) {
        expect((await call(name, { ...base, timeoutMs: bad })).result.error?.code, `${name} ${bad}`).to.equal('invalid_input');
      }
      for (const good of [1000, 120_000]) expect((await call(name, { ...base, timeoutMs: good })).result.ok, `${name} ${good}`).to.equal(true);
    }
    await call('sql_run_query', { sql: 'select 1' });
    await call('go_run');
    await call('go_test', { timeoutMs: 5000 });
    expect(tools.sql.runs.at(-1)!.timeoutMs).to.equal(30_000);
    expect(tools.go.runs.slice(-2).map((r) => r.timeoutMs)).to.deep.equal([30_000, 5000]);
  });

  it('[CONF-1] the five confirmations have the specified titles and action labels', async () => {
    const { call } = callerFor();
    const expected: [string, unknown, string, string][] = [
      ['slides_write', { markdown: '# x' }, 'スライド「週報」の全文を置き換える', '置き換える'],
      ['excalidraw_clear', {}, '図「構成図」の全ての要素を削除する', '削除する'],
      ['drawio_write', { xml: '<mxGraphModel><root/></mxGraphModel>' }, '図「業務フロー」の全体を置き換える', '置き換える'],
      ['node_delete_file', { path: './src/../src/a.js' }, 'ファイル「src/a.js」を削除する', '削除する'],
      ['go_delete_file', { path: 'lib/lib.go' }, 'ファイル「lib/lib.go」を削除する', '削除する'],
    ];
    for (const [name, input, title, actionLabel] of expected) {
      const { confirmations, result } = await call(name, input, 'decline');
      expect(result.error?.code, name).to.equal('declined');
      expect(confirmations, name).to.have.length(1);
      expect(confirmations[0].title).to.equal(title);
      expect(confirmations[0].actionLabel).to.equal(actionLabel);
      expect(isJapanese(confirmations[0].summary), name).to.equal(true);
    }
  });
});
