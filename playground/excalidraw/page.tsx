/**
 * The Excalidraw page (React 19): the shared header with the drawing's name and the switch at its
 * right end, the Excalidraw canvas, the operation log at the bottom. All state lives in ./state.ts,
 * which also hands the operations to the runtime when the page is first shown (SHAPE-5); this file
 * only renders. Excalidraw's stylesheet and fonts are served at /excalidraw/ (./build.mjs).
 * @module
 */
import { Excalidraw } from '@excalidraw/excalidraw';
import type { ExcalidrawImperativeAPI, ExcalidrawInitialDataState } from '@excalidraw/excalidraw/types';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { AiOpsLog } from 'ai-ops/react';
import { DocumentBar } from '../shared/document-bar.js';
import { ToolHeader } from '../shared/tool-header.js';
import { useSaveOnHide } from '../shared/use-save-on-hide.js';
import { useSearch } from '../shared/router.js';
import { usePageTitle } from '../shared/use-title.js';
import { attachExcalidrawApi, bootExcalidraw, drawingDocuments, flushSave, initialScene, openDrawing, pageState, requestedDrawingId, sceneChanged } from './state.js';

function Canvas({ name }: { name: string }) {
  // Excalidraw reads initialData once, at mount; later changes come from the scene itself.
  const initialData = useMemo<ExcalidrawInitialDataState>(() => {
    const { elements, files } = initialScene();
    return { elements: elements as ExcalidrawInitialDataState['elements'], files: files as ExcalidrawInitialDataState['files'], scrollToContent: true };
  }, []);
  // Excalidraw hands its API over while rendering its inner app (in the app's constructor, after its
  // locale has loaded: possibly after this canvas was committed). The state gets it while the canvas
  // is mounted and lets it go in a layout cleanup, which runs before Excalidraw's own unmount clears
  // its scene — so the last changes are still there to be saved.
  const link = useRef<{ api?: ExcalidrawImperativeAPI; mounted: boolean; detach?: () => void }>({ mounted: false });
  const attach = () => {
    const current = link.current;
    current.detach?.();
    current.detach = current.mounted && current.api ? attachExcalidrawApi(current.api) : undefined;
  };
  const onApi = useCallback((api: ExcalidrawImperativeAPI) => {
    link.current.api = api;
    attach();
  }, []);
  useLayoutEffect(() => {
    link.current.mounted = true;
    attach();
    return () => {
      link.current.mounted = false;
      attach();
    };
  }, []);
  return <Excalidraw initialData={initialData} excalidrawAPI={onApi} onChange={sceneChanged} langCode="ja-JP" name={name} />;
}

/** The page at /excalidraw/. */
export default function ExcalidrawPage() {
  const { document: drawing, status, error } = useSyncExternalStore(pageState.subscribe, pageState.getState);
  const requested = requestedDrawingId(useSearch());
  useEffect(() => {
    void bootExcalidraw().then(() => openDrawing(requested));
  }, [requested]);
  useSaveOnHide(flushSave);
  const shown = drawing?.id === requested ? drawing : null;
  const name = shown?.name ?? requested;
  usePageTitle([name, 'excalidraw']);
  return (
    <>
      <link rel="stylesheet" href="/shared/document-page.css" precedence="page" />
      <link rel="stylesheet" href="/excalidraw/excalidraw.css" precedence="page" />
      <ToolHeader tool="excalidraw" title="Excalidraw" documentName={name}>
        <DocumentBar documents={drawingDocuments} label="図の操作" newName="新しい図" />
      </ToolHeader>
      <main className="page-main excalidraw-main" aria-busy={status === 'loading'}>
        {error ? (
          <p role="alert" className="notice">{error}</p>
        ) : shown ? (
          <div className="excalidraw-host">
            <Canvas key={shown.id} name={shown.name} />
          </div>
        ) : (
          <p className="loading" role="status">読み込み中…</p>
        )}
      </main>
      <footer className="page-footer">
        <AiOpsLog tool="excalidraw" />
      </footer>
    </>
  );
}
