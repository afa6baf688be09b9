// PKG-4: the production build collapses the whitespace of the elements' `css` literals
// (scripts/css-literals.mjs); what it keeps must mean the same CSS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collapseCss } from '../../scripts/css-literals.mjs';

test('[PKG-4] collapsing a css literal drops indentation and line breaks but keeps descendant selectors, calc() operators and strings', () => {
  const css = `
    :host([mode='tab']) .rows {
      max-width: calc(100% - 1.25rem);
      font-family: var(--ai-ops-font, system-ui, sans-serif);
    }
    input::before {
      content: '';
    }
    @media (prefers-reduced-motion: reduce) {
      input, input::before {
        transition: none;
      }
    }
  `;
  assert.equal(collapseCss(css),
    ":host([mode='tab']) .rows{max-width:calc(100% - 1.25rem);font-family:var(--ai-ops-font,system-ui,sans-serif)}"
    + "input::before{content:''}"
    + '@media (prefers-reduced-motion:reduce){input,input::before{transition:none}}');
});
