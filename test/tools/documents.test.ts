// slides, excalidraw and drawio: the single-document tools (DOC-1, DOC-2, SLI-1, EXC-1..4, DRW-1, IN-6, IN-7).
import { expect } from '@open-wc/testing';
import { createSlidesOperations } from '../../tools/slides/operations.js';
import { createExcalidrawOperations } from '../../tools/excalidraw/operations.js';
import { createDrawioOperations } from '../../tools/drawio/operations.js';
import { caller } from '../helpers/tools-call.js';
import { BLANK_DIAGRAM, FakeDrawioPage, FakeExcalidrawPage, FakeSlidesPage } from '../helpers/tools-fakes.js';

function slides() {
  const page = new FakeSlidesPage();
  return { page, call: caller(createSlidesOperations(page)) };
}
function excalidraw() {
  const page = new FakeExcalidrawPage();
  let n = 0;
  return { page, call: caller(createExcalidrawOperations(page, { generateId: () => `gen${++n}` })) };
}
function drawio() {
  const page = new FakeDrawioPage();
  return { page, call: caller(createDrawioOperations(page)) };
}

/** A page's model as draw.io compresses it: raw deflate of the URI-encoded XML, in base64. */
async function drawioCompress(xml: string): Promise<string> {
  const stream = new Blob([new TextEncoder().encode(encodeURIComponent(xml))]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return btoa(String.fromCharCode(...bytes));
}

describe('tools: the open document (slides, excalidraw, drawio)', () => {
  it('[DOC-1] with no open document (or the tool still loading) every operation answers not_ready, without a dialog', async () => {
    const cases: [ReturnType<typeof caller>, { document: unknown }, [string, unknown][]][] = [];
    const s = slides();
    const e = excalidraw();
    const d = drawio();
    cases.push(
      [s.call, s.page, [['slides_read', {}], ['slides_write', { markdown: 'x' }], ['slides_set_theme', { theme: 'gaia' }]]],
      [e.call, e.page, [['excalidraw_read', {}], ['excalidraw_add_elements', { elements: [] }], ['excalidraw_update_element', { id: 'box' }], ['excalidraw_clear', {}]]],
      [d.call, d.page, [['drawio_read', {}], ['drawio_add_cells', { cells: '<mxCell id="z"/>' }], ['drawio_write', { xml: '<mxGraphModel/>' }]]],
    );
    for (const [call, page, operations] of cases) {
      page.document = null;
      for (const [name, input] of operations) {
        const { result, confirmations } = await call(name, input);
        expect(result.error?.code, name).to.equal('not_ready');
        expect(confirmations, name).to.have.length(0);
      }
    }
    expect(s.page.markdown).to.include('表紙');
    expect(e.page.elements).to.have.length(2);
    expect(d.page.writes).to.equal(0);
  });

  it('[DOC-1] no input names a document', () => {
    const all = [...createSlidesOperations(new FakeSlidesPage()), ...createExcalidrawOperations(new FakeExcalidrawPage()), ...createDrawioOperations(new FakeDrawioPage())];
    for (const d of all) {
      const properties = Object.keys((d.inputSchema as { properties: object }).properties);
      expect(properties.filter((p) => /doc|deck|drawing|diagram|file|name/i.test(p)), d.name).to.deep.equal([]);
    }
  });

  it('[DOC-1] a document switched while the confirmation was open is not changed', async () => {
    const page = new FakeDrawioPage();
    const call = caller(createDrawioOperations(page));
    const input = { xml: '<mxGraphModel><root/></mxGraphModel>' };
    const { result, confirmations } = await call('drawio_write', input, () => {
      page.document = { id: 'diagram-2', name: '別の図' }; // the user opens another diagram, then approves
      return 'accept';
    });
    expect(confirmations[0].title).to.equal('図「業務フロー」の全体を置き換える');
    expect(result.error?.code).to.equal('not_ready');
    expect(page.xml).to.equal(BLANK_DIAGRAM);
  });

  it('[DOC-2] read results carry document {id, name}', async () => {
    expect((await slides().call('slides_read')).result.document).to.deep.equal({ id: 'deck-1', name: '週報' });
    expect((await excalidraw().call('excalidraw_read')).result.document).to.deep.equal({ id: 'drawing-1', name: '構成図' });
    expect((await drawio().call('drawio_read')).result.document).to.deep.equal({ id: 'diagram-1', name: '業務フロー' });
  });

  describe('slides', () => {
    it('[SLI-1] slides_read answers document, markdown, theme and slideCount', async () => {
      const { call } = slides();
      expect((await call('slides_read')).result).to.deep.equal({
        ok: true, document: { id: 'deck-1', name: '週報' }, markdown: '# 表紙\n\n---\n\n# 2 枚目\n', theme: 'default', slideCount: 2,
      });
    });

    it('[SLI-1] slides_write replaces the whole Markdown after confirmation and answers slideCount', async () => {
      const { page, call } = slides();
      const markdown = '# 1\n\n---\n\n# 2\n\n---\n\n# 3\n';
      const declined = await call('slides_write', { markdown }, 'decline');
      expect(declined.result.error?.code).to.equal('declined');
      expect(page.markdown).to.include('表紙');
      expect(declined.confirmations[0]).to.deep.include({
        title: 'スライド「週報」の全文を置き換える', actionLabel: '置き換える', detail: markdown, undoable: true,
      });
      const { result } = await call('slides_write', { markdown });
      expect(result).to.deep.equal({ ok: true, slideCount: 3 });
      expect(page.markdown).to.equal(markdown);
    });

    it('[SLI-1] slides_set_theme changes the theme and answers it', async () => {
      const { page, call } = slides();
      expect((await call('slides_set_theme', { theme: 'uncover' })).result).to.deep.equal({ ok: true, theme: 'uncover' });
      expect(page.theme).to.equal('uncover');
    });

    it('[IN-7] the theme enum is the editor theme list at creation time; no name is written in the definitions', async () => {
      const page = new FakeSlidesPage();
      page.themes = ['corporate', 'dark'];
      const definitions = createSlidesOperations(page);
      const schema = definitions.find((d) => d.name === 'slides_set_theme')!.inputSchema as { properties: { theme: { enum: string[] } } };
      expect(schema.properties.theme.enum).to.deep.equal(['corporate', 'dark']);
      page.themes.push('later');
      expect(schema.properties.theme.enum).to.deep.equal(['corporate', 'dark']);
      const call = caller(definitions);
      expect((await call('slides_set_theme', { theme: 'gaia' })).result.error?.code).to.equal('invalid_input');
      expect((await call('slides_set_theme', { theme: 'dark' })).result.ok).to.equal(true);
      for (const d of createSlidesOperations(new FakeSlidesPage())) {
        expect(d.description + JSON.stringify(d.inputSchema).replace(/"enum":\[[^\]]*\]/, '')).to.not.match(/gaia|uncover|"default"/);
      }
      expect(() => createSlidesOperations(Object.assign(new FakeSlidesPage(), { themes: [] }))).to.throw(TypeError);
    });
  });

  describe('excalidraw', () => {
    it('[EXC-1] excalidraw_read answers every element with its fields; arrows also from and to', async () => {
      const { page, call } = excalidraw();
      page.elements.push({ id: 'link', type: 'arrow', x: 0, y: 0, width: 50, height: 0, text: null, strokeColor: '#1e1e1e', backgroundColor: 'transparent', from: 'box', to: null });
      const { result } = await call('excalidraw_read');
      expect(result.elements).to.deep.equal([
        { id: 'box', type: 'rectangle', x: 0, y: 0, width: 100, height: 60, text: '箱', strokeColor: '#1e1e1e', backgroundColor: 'transparent' },
        { id: 'pen', type: 'freedraw', x: 5, y: 5, width: 10, height: 10, text: null, strokeColor: '#1e1e1e', backgroundColor: 'transparent' },
        { id: 'link', type: 'arrow', x: 0, y: 0, width: 50, height: 0, text: null, strokeColor: '#1e1e1e', backgroundColor: 'transparent', from: 'box', to: null },
      ]);
    });

    it('[EXC-2] adds shapes, text and arrows bound to shapes of the scene and of the same call; answers ids', async () => {
      const { page, call } = excalidraw();
      const { result } = await call('excalidraw_add_elements', {
        elements: [
          { type: 'arrow', x: 0, y: 0, from: 'box', to: 'db' },
          { id: 'db', type: 'ellipse', x: 200, y: 0, width: 80, height: 80, text: 'DB' },
          { type: 'text', x: 0, y: 100, text: 'メモ' },
          { type: 'diamond', x: 300, y: 0 },
        ],
      });
      expect(result).to.deep.equal({ ok: true, ids: ['gen1', 'db', 'gen2', 'gen3'] });
      expect(page.added[0][0]).to.deep.equal({ id: 'gen1', type: 'arrow', x: 0, y: 0, from: 'box', to: 'db' });
      const arrow = page.elements.find((e) => e.id === 'gen1')!;
      expect([arrow.from, arrow.to]).to.deep.equal(['box', 'db']);
    });

    it('[EXC-2] at most 200 elements per call: 201 is too_large', async () => {
      const { page, call } = excalidraw();
      const many = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'rectangle', x: i, y: 0 }));
      expect((await call('excalidraw_add_elements', { elements: many(201) })).result.error?.code).to.equal('too_large');
      expect((await call('excalidraw_add_elements', { elements: many(200) })).result.ids).to.have.length(200);
      expect(page.elements).to.have.length(202);
    });

    it('[EXC-2] an id clashing with the scene or the same call is invalid_input; a missing from/to is not_found', async () => {
      const { page, call } = excalidraw();
      const code = async (elements: unknown[]) => (await call('excalidraw_add_elements', { elements })).result.error?.code;
      expect(await code([{ id: 'box', type: 'rectangle', x: 0, y: 0 }])).to.equal('invalid_input');
      expect(await code([{ id: 'n', type: 'rectangle', x: 0, y: 0 }, { id: 'n', type: 'ellipse', x: 0, y: 0 }])).to.equal('invalid_input');
      expect(await code([{ type: 'arrow', x: 0, y: 0, from: 'box', to: 'ghost' }])).to.equal('not_found');
      expect(await code([{ type: 'arrow', x: 0, y: 0, from: 'nobody' }])).to.equal('not_found');
      // Arrows connect shapes, not arrows or pen strokes; only arrows have ends.
      expect(await code([{ id: 'a1', type: 'arrow', x: 0, y: 0 }, { type: 'arrow', x: 0, y: 0, from: 'a1' }])).to.equal('invalid_input');
      expect(await code([{ type: 'arrow', x: 0, y: 0, to: 'pen' }])).to.equal('invalid_input');
      expect(await code([{ type: 'rectangle', x: 0, y: 0, from: 'box' }])).to.equal('invalid_input');
      expect(await code([{ type: 'star', x: 0, y: 0 }])).to.equal('invalid_input');
      expect(page.added).to.have.length(0);
    });

    it('[EXC-5] an id that clashes with a bound text label, or a deleted element, is invalid_input and nothing is added', async () => {
      const { page, call } = excalidraw();
      // In Excalidraw a shape's label is an element of its own; the operations' view folds it into the shape's text.
      page.hiddenIds = ['box-label', 'deleted-1'];
      for (const id of ['box-label', 'deleted-1']) {
        const { result } = await call('excalidraw_add_elements', { elements: [{ id, type: 'rectangle', x: 0, y: 0 }] });
        expect(result.error?.code, id).to.equal('invalid_input');
        expect(result.error?.message, id).to.include(JSON.stringify(id));
      }
      expect(page.added).to.have.length(0);
      // A generated id avoids them too.
      const ids = ['box-label', 'deleted-1', 'fresh'];
      const generated = caller(createExcalidrawOperations(page, { generateId: () => ids.shift()! }));
      expect((await generated('excalidraw_add_elements', { elements: [{ type: 'text', x: 0, y: 0, text: 'x' }] })).result.ids).to.deep.equal(['fresh']);
    });

    it('[EXC-2] a generated id never clashes with the scene or the call', async () => {
      const page = new FakeExcalidrawPage();
      const ids = ['box', 'mine', 'fresh'];
      const call = caller(createExcalidrawOperations(page, { generateId: () => ids.shift()! }));
      const { result } = await call('excalidraw_add_elements', { elements: [{ type: 'rectangle', x: 0, y: 0 }, { id: 'mine', type: 'rectangle', x: 0, y: 0 }] });
      expect(result.ids).to.deep.equal(['fresh', 'mine']);
    });

    it('[EXC-3] excalidraw_update_element changes only the given fields and answers id; unknown id is not_found', async () => {
      const { page, call } = excalidraw();
      expect((await call('excalidraw_update_element', { id: 'box', x: 40, backgroundColor: '#A5D8FF' })).result).to.deep.equal({ ok: true, id: 'box' });
      expect(page.elements[0]).to.deep.include({ x: 40, y: 0, width: 100, backgroundColor: '#A5D8FF', strokeColor: '#1e1e1e' });
      expect((await call('excalidraw_update_element', { id: 'ghost', x: 1 })).result.error?.code).to.equal('not_found');
    });

    it('[IN-6] colours are # and six hex digits; backgroundColor also takes transparent', async () => {
      const { call } = excalidraw();
      const code = async (input: object) => (await call('excalidraw_update_element', { id: 'box', ...input })).result.error?.code ?? 'ok';
      expect(await code({ strokeColor: '#1e1e1e' })).to.equal('ok');
      expect(await code({ backgroundColor: 'transparent' })).to.equal('ok');
      for (const bad of ['#fff', 'red', '1e1e1e', '#1e1e1e1e', '#gggggg', ' #1e1e1e']) {
        expect(await code({ strokeColor: bad }), bad).to.equal('invalid_input');
        expect(await code({ backgroundColor: bad }), bad).to.equal('invalid_input');
      }
      expect(await code({ strokeColor: 'transparent' })).to.equal('invalid_input');
    });

    it('[EXC-4] excalidraw_clear confirms with the element count and answers count', async () => {
      const { page, call } = excalidraw();
      const declined = await call('excalidraw_clear', {}, 'decline');
      expect(declined.confirmations[0].title).to.equal('図「構成図」の全ての要素を削除する');
      expect(declined.confirmations[0].actionLabel).to.equal('削除する');
      expect(declined.confirmations[0].summary).to.include('2 個の要素');
      expect(page.elements).to.have.length(2);
      expect((await call('excalidraw_clear')).result).to.deep.equal({ ok: true, count: 2 });
      expect(page.elements).to.have.length(0);
    });
  });

  describe('drawio', () => {
    it('[DRW-1] drawio_read answers document and the whole xml', async () => {
      expect((await drawio().call('drawio_read')).result).to.deep.equal({ ok: true, document: { id: 'diagram-1', name: '業務フロー' }, xml: BLANK_DIAGRAM });
    });

    it('[DRW-1] drawio_add_cells adds the cells under the root and answers count', async () => {
      const { page, call } = drawio();
      const cells =
        '<mxCell id="b" value="B" vertex="1" parent="1"><mxGeometry x="200" y="10" width="80" height="40" as="geometry"/></mxCell>\n' +
        '<mxCell id="e" edge="1" parent="1" source="a" target="b"><mxGeometry relative="1" as="geometry"/></mxCell>' +
        '<UserObject id="u" label="Link" link="https://example.invalid"><mxCell vertex="1" parent="1"/></UserObject>';
      expect((await call('drawio_add_cells', { cells })).result).to.deep.equal({ ok: true, count: 3 });
      const document = new DOMParser().parseFromString(page.xml, 'application/xml');
      const root = document.getElementsByTagName('root')[0];
      expect(Array.from(root.children).map((c) => c.getAttribute('id'))).to.deep.equal(['0', '1', 'a', 'b', 'e', 'u']);
      expect(document.querySelector('mxCell[id="e"]')!.getAttribute('target')).to.equal('b');
    });

    it('[DRW-2] drawio_add_cells works on a diagram whose <diagram> is compressed as draw.io saves it, and writes it back uncompressed', async () => {
      const { page, call } = drawio();
      const model = BLANK_DIAGRAM.slice(BLANK_DIAGRAM.indexOf('<mxGraphModel>'), BLANK_DIAGRAM.indexOf('</diagram>'));
      const second = '<mxGraphModel><root><mxCell id="0"/><mxCell id="p2" parent="0"/></root></mxGraphModel>';
      page.xml = `<mxfile host="app.diagrams.net"><diagram id="p1" name="Page-1">${await drawioCompress(model)}</diagram>` +
        `<diagram id="p2" name="Page-2">${await drawioCompress(second)}</diagram></mxfile>`;
      const packedSecond = page.xml.slice(page.xml.lastIndexOf('<diagram'));
      // An id of the compressed page still clashes: the cells are checked against its content.
      expect((await call('drawio_add_cells', { cells: '<mxCell id="a" vertex="1" parent="1"/>' })).result.error?.code).to.equal('invalid_input');
      const { result } = await call('drawio_add_cells', { cells: '<mxCell id="b" value="B" vertex="1" parent="1"/>' });
      expect(result).to.deep.equal({ ok: true, count: 1 });
      const document = new DOMParser().parseFromString(page.xml, 'application/xml');
      const first = document.querySelector('diagram[id="p1"]')!;
      expect(first.getAttribute('name')).to.equal('Page-1');
      expect(Array.from(first.querySelectorAll('root > *')).map((c) => c.getAttribute('id'))).to.deep.equal(['0', '1', 'a', 'b']);
      expect(page.xml.endsWith(packedSecond)).to.equal(true); // the other page is left as it was
    });

    it('[DRW-2] a <diagram> whose text is not draw.io\'s compressed form answers failed with the reason, and nothing is written', async () => {
      const { page, call } = drawio();
      page.xml = '<mxfile><diagram id="p1" name="Page-1">not base64 at all!</diagram></mxfile>';
      const { result } = await call('drawio_add_cells', { cells: '<mxCell id="b" vertex="1"/>' });
      expect(result.error?.code).to.equal('failed');
      expect(result.error?.message).to.match(/compressed/);
      expect(page.writes).to.equal(0);
    });

    it('[DRW-1] an mxCell id already in the diagram, or twice in cells, is invalid_input', async () => {
      const { page, call } = drawio();
      expect((await call('drawio_add_cells', { cells: '<mxCell id="a" vertex="1" parent="1"/>' })).result.error?.code).to.equal('invalid_input');
      expect((await call('drawio_add_cells', { cells: '<mxCell id="n" parent="1"/><mxCell id="n" parent="1"/>' })).result.error?.code).to.equal('invalid_input');
      expect((await call('drawio_add_cells', { cells: '<mxCell vertex="1" parent="1"/>' })).result.error?.code).to.equal('invalid_input');
      expect(page.writes).to.equal(0);
    });

    it('[DRW-1] cells or xml that are not well-formed XML are invalid_input, found by check before any confirmation', async () => {
      const { page, call } = drawio();
      for (const cells of ['<mxCell id="x">', '<mxCell id="x"/></root>', 'just text', '<mxCell id="x" value="&nbsp;"/>', '<div id="x"/>', '']) {
        expect((await call('drawio_add_cells', { cells })).result.error?.code, cells).to.equal('invalid_input');
      }
      for (const xml of ['<mxGraphModel><root>', '<mxfile><diagram></mxfile>', 'not xml', '<html/>']) {
        const { result, confirmations } = await call('drawio_write', { xml });
        expect(result.error?.code, xml).to.equal('invalid_input');
        expect(confirmations, xml).to.have.length(0);
      }
      expect(page.writes).to.equal(0);
    });

    it('[DRW-1] a parent, source or target that is nowhere is not_found', async () => {
      const { call } = drawio();
      expect((await call('drawio_add_cells', { cells: '<mxCell id="e" edge="1" parent="1" source="a" target="zz"/>' })).result.error?.code).to.equal('not_found');
      expect((await call('drawio_add_cells', { cells: '<mxCell id="v" vertex="1" parent="layer9"/>' })).result.error?.code).to.equal('not_found');
    });

    it('[DRW-1] drawio_write replaces the whole diagram after confirmation and answers {ok:true}', async () => {
      const { page, call } = drawio();
      const xml = '<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/></root></mxGraphModel>';
      const declined = await call('drawio_write', { xml }, 'decline');
      expect(declined.confirmations[0]).to.deep.include({ title: '図「業務フロー」の全体を置き換える', actionLabel: '置き換える', detail: xml, undoable: true });
      expect(page.xml).to.equal(BLANK_DIAGRAM);
      const { json } = await call('drawio_write', { xml });
      expect(json).to.equal('{"ok":true}');
      expect(page.xml).to.equal(xml);
    });
  });
});
