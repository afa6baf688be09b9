/**
 * The route table: the only module that knows every tool page. Each page is its own chunk, loaded
 * the first time its path is shown (APP-3), so the home page loads no engine.
 * @module
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ToolName } from '../shared/tools.js';

/** Every tool page, by tool name: the app renders each itself (/sample/ alone is its own document). */
export const toolPages: Partial<Record<ToolName, LazyExoticComponent<ComponentType>>> = {
  sql: lazy(() => import('../sql/page.js')),
  excalidraw: lazy(() => import('../excalidraw/page.js')),
  slides: lazy(() => import('../slides/page.js')),
  drawio: lazy(() => import('../drawio/page.js')),
  node: lazy(() => import('../node/page.js')),
  go: lazy(() => import('../go/page.js')),
};

/** The tool a path names (`/sql/` → `sql`), or undefined for the home page and unknown paths. */
export function toolOfPath(path: string): ToolName | undefined {
  const name = /^\/([a-z]+)\/?$/.exec(path)?.[1];
  return name && name in toolPages ? (name as ToolName) : undefined;
}

/** True for the paths the app shows without loading a new document. */
export function isRouted(path: string): boolean {
  return path === '/' || toolOfPath(path) !== undefined;
}
