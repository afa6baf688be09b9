/**
 * React wrappers of the ai-ops elements (SHAPE-6), a thin layer over React 19's own custom-element
 * support: properties such as `aiOps` and `strings` are set as properties, and the `ai-ops-*`
 * events arrive as typed `on*` props. The stores also work with `useSyncExternalStore` directly, see {@link useAiOpsStore}.
 *
 * Importing this module defines `<ai-ops-switch>` at once and nothing else (REACT-1): the dialog
 * and the log are defined, their code loaded, when the runtime first loads its on-demand part (its
 * first switch-on or call; `ai-ops/elements/define.js`), so a React page whose switches are all off loads no log or dialog
 * code, within PKG-4's 12 KB. Until then `<AiOpsConfirm>` and `<AiOpsLog>` render their bare tags
 * (they show nothing while every switch is off, LOG-1), and the properties React set on them are
 * taken over when the tags upgrade. In Node (server rendering) nothing is defined and the wrappers
 * render the tags alone (REACT-2).
 * @module
 */
import * as React from 'react';
import type { ReadableStore } from '../src/store.js';
import type { AiOpsConfirm as AiOpsConfirmElement } from './confirm/ai-ops-confirm.js';
import type { AiOpsLog as AiOpsLogElement } from './log/ai-ops-log.js';
import type { AiOpsSwitch as AiOpsSwitchElement } from './switch/ai-ops-switch.js';
import './define.js';
export type {} from './jsx.js'; // the JSX types of the raw tags come with the wrappers: a type-only re-export, kept in the .d.ts and erased from the JS (a bare import of this side-effect-free module is one bundlers warn about)
import type {
  AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, AiOpsLogVisibilityChangeEvent, AiOpsSwitchChangeEvent,
} from './internal/events.js';

/** The props of a wrapper: the element's own properties, its events as `on*`, and HTML's attributes. */
type WrapperProps<I extends HTMLElement, P extends keyof I, E extends Record<string, Event>> =
  Omit<React.HTMLAttributes<I>, keyof E | P> & Partial<Pick<I, P>> & { [K in keyof E]?: (event: E[K]) => void } & { ref?: React.Ref<I> };

/**
 * A React component rendering `tagName` (REACT-1: a few lines instead of `@lit/react`'s
 * `createComponent`, whose bytes every React page would load with the switch). `properties` are
 * set on the element as properties in a layout effect, never rendered as attributes: objects such
 * as `aiOps`, `strings` and the clock, which React 19 would otherwise turn into attribute strings
 * on a tag not yet upgraded (the dialog's and the log's code loads on demand), and which have no
 * server rendering (REACT-2). A bare tag keeps them as own properties and Lit takes them over when
 * it upgrades. Everything else goes to React 19, which sets a known property and otherwise an
 * attribute (`tool`, `mode`, `open`: selectors and server rendering see them). `events` maps an
 * `on*` prop to the element's event name, which React 19 listens to as `on<event-name>`.
 */
function wrapper<I extends HTMLElement, P extends keyof I & string, E extends Record<string, Event>>(
  tagName: string, displayName: string, properties: readonly P[], events: { [K in keyof E]: string },
): React.FC<WrapperProps<I, P, E>> {
  const eventNames = events as Record<string, string>;
  const component = (props: WrapperProps<I, P, E>) => {
    const node = React.useRef<I | null>(null);
    const given = props as Record<string, unknown>;
    const rendered: Record<string, unknown> = {};
    for (const name of Object.keys(given)) {
      if (name === 'ref' || (properties as readonly string[]).includes(name)) continue;
      rendered[name in eventNames ? `on${eventNames[name]}` : name] = given[name];
    }
    const outer = given.ref as React.Ref<I> | undefined;
    rendered.ref = React.useCallback((element: I | null) => {
      node.current = element;
      if (typeof outer === 'function') return outer(element);
      if (outer) (outer as React.RefObject<I | null>).current = element;
      return undefined;
    }, [outer]);
    React.useLayoutEffect(() => {
      const element = node.current as Record<string, unknown> | null;
      if (!element) return;
      for (const name of properties) {
        if (name in given && element[name] !== given[name]) element[name] = given[name];
      }
    });
    return React.createElement(tagName, rendered);
  };
  component.displayName = displayName;
  return component;
}

/**
 * `<ai-ops-switch>` for React.
 * @example <AiOpsSwitch tool="slides" onSwitchChange={(e) => console.log(e.detail.on)} />
 */
export const AiOpsSwitch = wrapper<AiOpsSwitchElement, 'aiOps' | 'strings' | 'tool', { onSwitchChange: AiOpsSwitchChangeEvent }>(
  'ai-ops-switch', 'AiOpsSwitch', ['aiOps', 'strings'] as ('aiOps' | 'strings' | 'tool')[], { onSwitchChange: 'ai-ops-switch-change' },
);

/**
 * `<ai-ops-confirm>` for React: its properties (no attribute, or `pointerGuardMs` whose attribute
 * is spelled otherwise) are set as properties, also before its code has loaded (REACT-1). A test
 * checks every declared property of the class reaches the element.
 * @example <AiOpsConfirm onApprove={(e) => console.log(e.detail.name)} />
 */
export const AiOpsConfirm = wrapper<AiOpsConfirmElement, 'aiOps' | 'strings' | 'pointerGuardMs' | 'clock' | 'automated',
  { onApprove: AiOpsConfirmApproveEvent, onDecline: AiOpsConfirmDeclineEvent }>(
  'ai-ops-confirm', 'AiOpsConfirm', ['aiOps', 'strings', 'pointerGuardMs', 'clock', 'automated'],
  { onApprove: 'ai-ops-confirm-approve', onDecline: 'ai-ops-confirm-decline' },
);

/**
 * `<ai-ops-log>` for React. Its `tool`, `mode` and `open` go as attributes, which the bare tag
 * keeps and Lit reads when it upgrades; React 19 sets them as properties from then on.
 * @example <AiOpsLog tool="node" mode="tab" onVisibilityChange={(e) => setTabShown(e.detail.visible)} />
 */
export const AiOpsLog = wrapper<AiOpsLogElement, 'aiOps' | 'strings' | 'clock' | 'tool' | 'mode' | 'open',
  { onVisibilityChange: AiOpsLogVisibilityChangeEvent }>(
  'ai-ops-log', 'AiOpsLog', ['aiOps', 'strings', 'clock'] as ('aiOps' | 'strings' | 'clock' | 'tool' | 'mode' | 'open')[],
  { onVisibilityChange: 'ai-ops-log-visibility-change' },
);

/**
 * Reads a runtime store in a React component (a session, the log, the confirmation queue).
 * @example
 * const { status } = useAiOpsStore(getAiOps().getSession('node')!);
 * return status === 'off' ? <Terminal /> : <AiOpsLog tool="node" mode="tab" />;
 */
export function useAiOpsStore<T>(store: ReadableStore<T>): T {
  return React.useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
