/**
 * The Excalidraw page (React 19): header with the drawing's name and the switch at its right end,
 * the Excalidraw canvas, the operation log at the bottom, the confirmation dialog. All state lives
 * in ./state.ts, which also hands the operations to the runtime (SHAPE-5); this file only renders.
 * @module
 */
import '@excalidraw/excalidraw/index.css';
import { Excalidraw } from '@excalidraw/excalidraw';
import type { ExcalidrawInitialDataState } from '@excalidraw/excalidraw/types';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { defineAiOpsElements } from '../../elements/define.js';
import { AiOpsConfirm, AiOpsLog, AiOpsSwitch } from '../../elements/react.js';
import { pageState, requestedDrawingId, setExcalidrawApi } from './state.js';

/** The page `<title>`: the open drawing's name first (DOC-3). */
export function pageTitle(name: string): string {
  return `${name} — excalidraw — ai-ops`;
}

function Canvas({ drawing }: { drawing: NonNullable<ReturnType<typeof pageState.getState>['drawing']> }) {
  // Excalidraw reads initialData once, at mount; later changes come from the scene itself.
  const initialData = useMemo<ExcalidrawInitialDataState>(
    () => ({ elements: drawing.elements as ExcalidrawInitialDataState['elements'], files: drawing.files as ExcalidrawInitialDataState['files'], scrollToContent: true }),
    [drawing.id],
  );
  return <Excalidraw initialData={initialData} excalidrawAPI={setExcalidrawApi} langCode="ja-JP" name={drawing.name} />;
}

function Page() {
  const { drawing, status, error } = useSyncExternalStore(pageState.subscribe, pageState.getSnapshot);
  const name = drawing?.name ?? requestedDrawingId();
  useEffect(() => {
    document.title = pageTitle(name);
  }, [name]);
  return (
    <>
      <header className="page-header">
        <a className="home" href="/">ai-ops</a>
        <h1>Excalidraw</h1>
        <span className="doc-name">{name}</span>
        <AiOpsSwitch tool="excalidraw" />
      </header>
      <main className="page-main excalidraw-main" aria-busy={status === 'loading'}>
        {error ? (
          <p role="alert" className="notice">{error}</p>
        ) : drawing ? (
          <div className="excalidraw-host">
            <Canvas key={drawing.id} drawing={drawing} />
          </div>
        ) : (
          <p className="loading">読み込み中…</p>
        )}
      </main>
      <footer className="page-footer">
        <AiOpsLog tool="excalidraw" />
      </footer>
      <AiOpsConfirm />
    </>
  );
}

// Explicit, not only through react.ts's bare import of define.js: bundlers may drop bare imports
// (the package's sideEffects list); defining twice is a no-op.
defineAiOpsElements();
createRoot(document.getElementById('root')!).render(<Page />);
