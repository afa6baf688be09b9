// The undo steps of the document operations (UNDO-1, UNDO-2, UNDO-5): slides_write,
// slides_set_theme, excalidraw_add_elements, excalidraw_update_element, excalidraw_clear,
// drawio_add_cells, drawio_write. Each is run through the runtime's real call path (runCall), its
// step taken as the log would take it, then undone: the document serialized after the undo must be
// the one serialized before the call, byte for byte.
import { expect } from '@open-wc/testing';
import type { UndoStep } from '../../src/definition.js';
import { undoCaller as caller, undoOutcome } from '../helpers/undo-call.js';
import { createSlidesOperations } from '../../tools/slides/operations.js';
import { createExcalidrawOperations } from '../../tools/excalidraw/operations.js';
import { createDrawioOperations } from '../../tools/drawio/operations.js';
import { BLANK_DIAGRAM, FakeDrawioPage, FakeExcalidrawPage, FakeSlidesPage } from '../helpers/tools-fakes.js';
import { createDocumentState } from '../../playground/shared/document-state.js';
import { openDocumentStore, type SavedDocument } from '../../playground/shared/documents.js';

/** What one call produced, the undo step included. */
/** The slide editor, with a revision that grows with every change of the deck (as the playground's). */
class SlidesPage extends FakeSlidesPage {
  revision = 0;
  getRevision = () => this.revision;
  override setMarkdown = (markdown: string) => {
    if (markdown !== this.markdown) this.revision += 1;
    this.markdown = markdown;
  };
  override setTheme = (theme: string) => {
    if (theme !== this.theme) this.revision += 1;
    this.theme = theme;
  };
  /** The deck as a page would save it. */
  serialize = () => JSON.stringify({ markdown: this.markdown, theme: this.theme });
}

/** Excalidraw's scene, saved and restored as the page does (the whole scene as JSON text). */
class ExcalidrawPage extends FakeExcalidrawPage {
  revision = 0;
  restores = 0;
  updates = 0;
  constructor() {
    super();
    const { addElements, updateElement, clear } = this;
    // Every change of the scene moves its revision, as an element's new version nonce does.
    this.addElements = async (elements) => {
      this.revision += 1;
      await addElements(elements);
    };
    this.updateElement = async (id, patch) => {
      this.revision += 1;
      this.updates += 1;
      await updateElement(id, patch);
    };
    this.clear = async () => {
      if (this.elements.length > 0) this.revision += 1;
      return clear();
    };
  }
  saveScene = () => JSON.stringify(this.elements);
  restoreScene = (scene: string) => {
    this.revision += 1;
    this.restores += 1;
    this.elements = JSON.parse(scene);
  };
  getRevision = () => this.revision;
  serialize = () => JSON.stringify(this.elements);
}

/** The draw.io page, with a revision that grows with every change of the XML. */
class DrawioPage extends FakeDrawioPage {
  revision = 0;
  getRevision = () => this.revision;
  override setXml = (xml: string) => {
    if (xml !== this.xml) this.revision += 1;
    this.xml = xml;
    this.writes += 1;
  };
}

/** Runs one change, checks its step, undoes it, and answers the document before and after. */
async function changeThenUndo(
  call: ReturnType<typeof caller>, serialize: () => string, name: string, input: unknown, target: string,
) {
  const before = serialize();
  const outcome = await call(name, input);
  expect(outcome.result.ok, `${name}: ${outcome.json}`).to.equal(true);
  expect(serialize(), `${name} changed the document`).to.not.equal(before);
  expect(outcome.undo, `${name} hands a step`).to.not.equal(null);
  const step = outcome.undo!;
  expect(step.targets).to.deep.equal([target]);
  expect(step.bytes).to.be.greaterThan(0);
  // The step never reaches what the agent reads.
  expect(outcome.json).to.not.include('undo');
  expect(await step.changedSince?.()).to.equal(false);
  const after = serialize();
  const { envelope: undone, again } = undoOutcome(await step.undo());
  expect(undone.ok, `${name}'s undo: ${JSON.stringify(undone)}`).to.equal(true);
  expect(serialize(), `${name} undone`).to.equal(before);
  // UV-17: the undo kept what it took away; undoing the undo brings the call's document back, and
  // that undo's own step the first state again.
  expect(again, `${name}'s undo hands its own step`).to.not.equal(null);
  expect(again!.targets).to.deep.equal([target]);
  const { envelope: redone, again: third } = undoOutcome(await again!.undo());
  expect([redone.ok, serialize() === after], `${name}'s undo undone`).to.deep.equal([true, true]);
  expect(undoOutcome(await third!.undo()).envelope.ok).to.equal(true);
  expect(serialize(), `${name} undone again`).to.equal(before);
  return outcome;
}

describe('tools: the undo steps of the document operations', () => {
  describe('slides', () => {
    const slides = () => {
      const page = new SlidesPage();
      return { page, call: caller(createSlidesOperations(page)) };
    };

    it('[UNDO-1] [UNDO-5] slides_write: its dialog says undo restores it, and the step puts the deck back byte for byte', async () => {
      const { page, call } = slides();
      page.theme = 'gaia';
      const outcome = await changeThenUndo(call, page.serialize, 'slides_write', { markdown: '# 新しい表紙\n\n---\n\n# 次\n' }, 'slides:document:deck-1');
      expect(outcome.confirmations).to.have.length(1);
      expect(outcome.confirmations[0].undoable).to.equal(true);
      expect(page.markdown).to.equal('# 表紙\n\n---\n\n# 2 枚目\n');
    });

    it('[UNDO-5] slides_write says it can be undone even where the editor\'s own undo does not restore it', async () => {
      const page = new SlidesPage();
      page.undoRestoresAgentChanges = false;
      const declined = await caller(createSlidesOperations(page))('slides_write', { markdown: 'x' }, 'decline');
      expect(declined.confirmations[0].undoable).to.equal(true);
      expect(declined.undo).to.equal(null);
    });

    it('[UNDO-1] slides_set_theme: the step puts the theme (and the Markdown) back', async () => {
      const { page, call } = slides();
      await changeThenUndo(call, page.serialize, 'slides_set_theme', { theme: 'uncover' }, 'slides:document:deck-1');
      expect(page.theme).to.equal('default');
    });

    it('[UNDO-1] the same Markdown, the same theme, a read, a declined or failed call: no step', async () => {
      const { page, call } = slides();
      expect((await call('slides_write', { markdown: page.markdown })).undo).to.equal(null);
      expect((await call('slides_set_theme', { theme: 'default' })).undo).to.equal(null);
      expect((await call('slides_read')).undo).to.equal(null);
      expect((await call('slides_write', { markdown: '# 断る' }, 'decline')).undo).to.equal(null);
      expect((await call('slides_set_theme', { theme: 'no-such-theme' })).undo).to.equal(null);
      expect(page.revision).to.equal(0);
    });

    it('[UNDO-2] changedSince: false until the deck changes again (the user\'s typing, a later call), then true', async () => {
      const { page, call } = slides();
      const { undo } = await call('slides_write', { markdown: '# A\n' });
      expect(await undo!.changedSince!()).to.equal(false);
      page.setMarkdown('# A\n\nthe user typed\n');
      expect(await undo!.changedSince!()).to.equal(true);
    });

    it('[UNDO-1] two changes undone newest first bring back the first deck', async () => {
      const { page, call } = slides();
      const before = page.serialize();
      const first = await call('slides_write', { markdown: '# A\n' });
      const second = await call('slides_set_theme', { theme: 'gaia' });
      await second.undo!.undo();
      expect(page.serialize()).to.equal(JSON.stringify({ markdown: '# A\n', theme: 'default' }));
      await first.undo!.undo();
      expect(page.serialize()).to.equal(before);
    });

    it('[UNDO-1] with another deck open the undo answers not_ready and changes nothing', async () => {
      const { page, call } = slides();
      const { undo } = await call('slides_write', { markdown: '# A\n' });
      page.document = { id: 'deck-2', name: '別の資料' };
      page.markdown = '# 別の資料\n';
      const answer = (await undo!.undo()) as { ok: boolean; error?: { code: string; message: string } };
      expect(answer.ok).to.equal(false);
      expect(answer.error?.code).to.equal('not_ready');
      expect(answer.error?.message).to.include('週報');
      expect(page.markdown).to.equal('# 別の資料\n');
    });
  });

  describe('excalidraw', () => {
    const excalidraw = () => {
      const page = new ExcalidrawPage();
      let n = 0;
      return { page, call: caller(createExcalidrawOperations(page, { generateId: () => `gen${++n}` })) };
    };
    const target = 'excalidraw:document:drawing-1';

    it('[UNDO-1] excalidraw_add_elements: the step puts back the scene as it was', async () => {
      const { page, call } = excalidraw();
      await changeThenUndo(call, page.serialize, 'excalidraw_add_elements', {
        elements: [{ id: 'b2', type: 'ellipse', x: 200, y: 0, text: '丸' }, { type: 'arrow', x: 100, y: 30, from: 'box', to: 'b2' }],
      }, target);
      expect(page.elements.map((element) => element.id)).to.deep.equal(['box', 'pen']);
    });

    it('[UNDO-1] excalidraw_update_element: the step puts back the element', async () => {
      const { page, call } = excalidraw();
      await changeThenUndo(call, page.serialize, 'excalidraw_update_element', { id: 'box', x: 40, backgroundColor: '#a5d8ff' }, target);
      expect(page.elements[0]).to.deep.include({ x: 0, backgroundColor: 'transparent' });
    });

    it('[UNDO-1] [UNDO-5] excalidraw_clear: its dialog says undo restores it, and the step brings every element back', async () => {
      const { page, call } = excalidraw();
      const outcome = await changeThenUndo(call, page.serialize, 'excalidraw_clear', {}, target);
      expect(outcome.confirmations[0].undoable).to.equal(true);
      expect(page.elements).to.have.length(2);
    });

    it('[UNDO-1] an update with the values the element has, nothing to add, a clear of an empty drawing: no change and no step', async () => {
      const { page, call } = excalidraw();
      const same = await call('excalidraw_update_element', { id: 'box', x: 0, strokeColor: '#1e1e1e' });
      expect(same.result).to.deep.equal({ ok: true, id: 'box' });
      expect(same.undo).to.equal(null);
      expect((await call('excalidraw_update_element', { id: 'box' })).undo).to.equal(null);
      expect(page.updates).to.equal(0);
      const none = await call('excalidraw_add_elements', { elements: [] });
      expect(none.result).to.deep.equal({ ok: true, ids: [] });
      expect(none.undo).to.equal(null);
      expect(page.added).to.have.length(0);
      page.elements = [];
      const cleared = await call('excalidraw_clear');
      expect(cleared.result).to.deep.equal({ ok: true, count: 0 });
      expect(cleared.undo).to.equal(null);
      expect((await call('excalidraw_read')).undo).to.equal(null);
      expect(page.revision).to.equal(0);
    });

    it('[UNDO-1] a page that cannot save its scene hands no step, and its clear dialog says what the page\'s own undo can do', async () => {
      const plain = new FakeExcalidrawPage();
      const call = caller(createExcalidrawOperations(plain));
      expect((await call('excalidraw_update_element', { id: 'box', x: 9 })).undo).to.equal(null);
      const cleared = await call('excalidraw_clear');
      expect(cleared.result.ok).to.equal(true);
      expect(cleared.undo).to.equal(null);
      expect(cleared.confirmations[0].undoable).to.equal(false);
      const flagged = Object.assign(new FakeExcalidrawPage(), { undoRestoresAgentChanges: true });
      expect((await caller(createExcalidrawOperations(flagged))('excalidraw_clear', {}, 'decline')).confirmations[0].undoable).to.equal(true);
    });

    it('[UNDO-2] changedSince: true once the scene changed after the call (here the user moves an element)', async () => {
      const { page, call } = excalidraw();
      const { undo } = await call('excalidraw_add_elements', { elements: [{ id: 'n', type: 'rectangle', x: 0, y: 0 }] });
      expect(await undo!.changedSince!()).to.equal(false);
      await page.updateElement('pen', { x: 50 });
      expect(await undo!.changedSince!()).to.equal(true);
    });

    it('[UNDO-1] three changes undone newest first bring back the first scene; with another drawing open nothing is restored', async () => {
      const { page, call } = excalidraw();
      const before = page.serialize();
      const steps = [
        (await call('excalidraw_add_elements', { elements: [{ id: 'n', type: 'text', x: 0, y: 0, text: 'メモ' }] })).undo!,
        (await call('excalidraw_update_element', { id: 'n', y: 90 })).undo!,
        (await call('excalidraw_clear')).undo!,
      ];
      for (const step of steps.reverse()) expect(undoOutcome(await step.undo()).envelope.ok).to.equal(true);
      expect(page.serialize()).to.equal(before);
      const { undo } = await call('excalidraw_clear');
      page.document = { id: 'drawing-2', name: '別の図' };
      expect(((await undo!.undo()) as { error?: { code: string } }).error?.code).to.equal('not_ready');
      expect(page.elements).to.have.length(0);
      expect(page.restores).to.equal(3);
    });
  });

  describe('drawio', () => {
    const drawio = () => {
      const page = new DrawioPage();
      return { page, call: caller(createDrawioOperations(page)) };
    };
    const target = 'drawio:document:diagram-1';

    it('[UNDO-1] drawio_add_cells: the step puts back the XML as it was', async () => {
      const { page, call } = drawio();
      await changeThenUndo(call, () => page.xml, 'drawio_add_cells', { cells: '<mxCell id="b" value="B" vertex="1" parent="1"/>' }, target);
    });

    it('[UNDO-1] [UNDO-5] drawio_write: its dialog says undo restores it, and the step puts back the XML', async () => {
      const { page, call } = drawio();
      const outcome = await changeThenUndo(call, () => page.xml, 'drawio_write', { xml: '<mxGraphModel><root><mxCell id="0"/></root></mxGraphModel>' }, target);
      expect(outcome.confirmations[0].undoable).to.equal(true);
    });

    it('[UNDO-1] the same XML written again, a read, a failed add: no step', async () => {
      const { page, call } = drawio();
      expect((await call('drawio_write', { xml: page.xml })).undo).to.equal(null);
      expect((await call('drawio_read')).undo).to.equal(null);
      expect((await call('drawio_add_cells', { cells: '<mxCell id="a" vertex="1" parent="1"/>' })).undo).to.equal(null);
      expect(page.revision).to.equal(0);
    });

    it('[UNDO-2] changedSince: true after a later change of the diagram, false on another diagram (whose undo refuses)', async () => {
      const { page, call } = drawio();
      const { undo } = await call('drawio_add_cells', { cells: '<mxCell id="b" vertex="1" parent="1"/>' });
      expect(await undo!.changedSince!()).to.equal(false);
      await call('drawio_add_cells', { cells: '<mxCell id="c" vertex="1" parent="1"/>' });
      expect(await undo!.changedSince!()).to.equal(true);
      page.document = { id: 'diagram-2', name: '別の図' };
      expect(await undo!.changedSince!()).to.equal(false);
      expect(((await undo!.undo()) as { error?: { code: string } }).error?.code).to.equal('not_ready');
    });
  });
});

describe('playground: the document pages\' revision and undo through their real state', () => {
  let n = 0;
  const freshDatabase = () => `ai-ops-test-undo-${Date.now()}-${++n}`;
  const state = (storeName = freshDatabase()) => createDocumentState({
    storeName,
    field: 'xml',
    idPrefix: 'diagram',
    welcome: { name: 'ようこそ', text: BLANK_DIAGRAM },
    blank: () => '<mxGraphModel><root/></mxGraphModel>',
  });

  it('[UNDO-2] the revision grows with each change of the open document, not with the same text, and stays while another one changes', async () => {
    const diagrams = state();
    await diagrams.open('welcome');
    expect(diagrams.revision).to.equal(0);
    await diagrams.setText(BLANK_DIAGRAM, 'agent');
    expect(diagrams.revision).to.equal(0);
    await diagrams.setText('<mxGraphModel><root><mxCell id="0"/></root></mxGraphModel>', 'agent');
    await diagrams.setText('<mxGraphModel><root/></mxGraphModel>', 'typing');
    expect(diagrams.revision).to.equal(2);
    await diagrams.open('other');
    expect(diagrams.revision).to.equal(0);
    await diagrams.setText('<mxGraphModel><root><mxCell id="9"/></root></mxGraphModel>', 'user');
    await diagrams.open('welcome');
    expect(diagrams.revision).to.equal(2);
  });

  it('[UNDO-1] drawio_write on the page\'s real state, undone: the open text and the record saved in IndexedDB are the ones before, byte for byte', async () => {
    const name = freshDatabase();
    const diagrams = state(name);
    await diagrams.open('welcome');
    const adapter = {
      getOpenDocument: diagrams.openDocument,
      getXml: () => diagrams.document?.xml ?? '',
      setXml: (xml: string) => diagrams.setText(xml, 'agent'),
      getRevision: () => diagrams.revision,
    };
    const call = caller(createDrawioOperations(adapter));
    const records = openDocumentStore<SavedDocument & { xml: string }>(name);
    const { undo } = await call('drawio_write', { xml: '<mxGraphModel><root><mxCell id="0"/></root></mxGraphModel>' });
    expect((await records.get('welcome'))?.xml).to.equal('<mxGraphModel><root><mxCell id="0"/></root></mxGraphModel>');
    expect(await undo!.changedSince!()).to.equal(false);
    expect(undoOutcome(await undo!.undo()).envelope.ok).to.equal(true);
    expect(diagrams.document!.xml).to.equal(BLANK_DIAGRAM);
    expect((await records.get('welcome'))?.xml).to.equal(BLANK_DIAGRAM);
    // The undo is a change of the page like any other: its own 「元に戻す」 can take it back.
    expect(diagrams.canUndo).to.equal(true);
    expect(await undo!.changedSince!()).to.equal(true);
  });
});
