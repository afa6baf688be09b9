/**
 * The playground's entry: one React app for every route, inside StrictMode.
 * @module
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { defineAiOpsElements } from 'ai-ops/elements/define.js';
import { App } from './shell.js';

defineAiOpsElements();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
