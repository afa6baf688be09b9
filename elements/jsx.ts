/**
 * `ai-ops/jsx`: JSX types for the raw tags in a React 19 app (PKG-3), so
 * `<ai-ops-switch tool="notes" />` type-checks without the wrappers of `ai-ops/react` (which
 * bring these types too). React 19 sets `aiOps` and `strings` as properties; for typed
 * `ai-ops-*` events use the wrappers.
 * @example
 * import type {} from 'ai-ops/jsx';
 * export const Header = () => <header><h1>Notes</h1><ai-ops-switch tool="notes" /></header>;
 * @module
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AiOps } from '../src/runtime.js';
import type { AiOpsConfirm } from './confirm/ai-ops-confirm.js';
import type { AiOpsLog, AiOpsLogMode } from './log/ai-ops-log.js';
import type { AiOpsSwitch } from './switch/ai-ops-switch.js';
import type { AiOpsStrings } from './internal/strings.js';

/** What every ai-ops tag takes besides the HTML attributes. */
interface AiOpsElementProps {
  /** The runtime to show, when no context provider gives one (a property, set by React 19). */
  aiOps?: AiOps;
  /** Strings merged over the page-wide ones. */
  strings?: Partial<AiOpsStrings>;
}

/** The props of one ai-ops tag in JSX. */
type AiOpsTagProps<E extends HTMLElement, Own> = DetailedHTMLProps<HTMLAttributes<E>, E> & AiOpsElementProps & Own;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX types live in this namespace
  namespace JSX {
    interface IntrinsicElements {
      /** The switch 「AI からの操作」 of one tool. */
      'ai-ops-switch': AiOpsTagProps<AiOpsSwitch, { tool: string }>;
      /** The operation log of one tool. */
      'ai-ops-log': AiOpsTagProps<AiOpsLog, { tool?: string; mode?: AiOpsLogMode; open?: boolean }>;
      /** The page's confirmation dialog. */
      'ai-ops-confirm': AiOpsTagProps<AiOpsConfirm, object>;
    }
  }
}

export {};
