// The tree the SSR tests render (REACT-2): on the server through the built package (dist/lib, what
// `import 'ai-ops/react'` gives a Node consumer) and in Chromium through the same entries bundled
// from the sources. React.createElement, not JSX, so Node imports this file as it is.
import * as React from 'react';
import { AiOpsConfirm, AiOpsLog, AiOpsSwitch } from 'ai-ops/react';

/** The tool the tree's switch and log are for. */
export const SSR_TOOL = 'notes';

/**
 * A page of a server-rendered React app: a header with the switch, the log, the one dialog.
 * `variant` changes a text on one side only (the tests' proof that a mismatch is caught).
 */
export function SsrPage({ variant = '' } = {}) {
  const h = React.createElement;
  return h(React.StrictMode, null,
    h('div', { className: 'page' },
      h('header', null, h('h1', null, `Notes${variant}`), h(AiOpsSwitch, { tool: SSR_TOOL })),
      h('main', null, h('p', null, 'A page rendered on the server.')),
      h('footer', null, h(AiOpsLog, { tool: SSR_TOOL })),
      h(AiOpsConfirm, null)));
}

