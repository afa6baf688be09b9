// The 23 definitions over fresh fakes, for the tests that look at all of them at once.
import type { AnyOperationDefinition } from '../../src/definition.js';
import { createDrawioOperations } from '../../tools/drawio/index.js';
import { createExcalidrawOperations } from '../../tools/excalidraw/index.js';
import { createGoOperations } from '../../tools/go/index.js';
import { createNodeOperations } from '../../tools/node/index.js';
import { createSlidesOperations } from '../../tools/slides/index.js';
import { createSqlOperations } from '../../tools/sql/index.js';
import { FakeDrawioPage, FakeExcalidrawPage, FakeGoPage, FakeNodeRuntime, FakeSlidesPage, FakeSqlPage, nodeAdapter } from './tools-fakes.js';

/** Fresh fakes and the definitions built on them. */
export function createAllTools() {
  const node = new FakeNodeRuntime({ 'index.js': 'console.log(1)\n', 'src/a.js': 'a\n' });
  node.programs.set('node', (p) => {
    p.write('hi\n');
    p.end(0);
  });
  const nodeHolder = nodeAdapter(node);
  const sql = new FakeSqlPage();
  const go = new FakeGoPage({ 'main.go': 'package main\n', 'lib/lib.go': 'package lib\n' }, ['empty']);
  const slides = new FakeSlidesPage();
  const excalidraw = new FakeExcalidrawPage();
  const drawio = new FakeDrawioPage();
  const byTool = {
    node: createNodeOperations(nodeHolder),
    sql: createSqlOperations(sql),
    go: createGoOperations(go),
    slides: createSlidesOperations(slides),
    excalidraw: createExcalidrawOperations(excalidraw),
    drawio: createDrawioOperations(drawio),
  };
  const all: AnyOperationDefinition[] = Object.values(byTool).flat();
  return { node, nodeHolder, sql, go, slides, excalidraw, drawio, byTool, all };
}
