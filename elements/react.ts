/**
 * React wrappers of the ai-ops elements (SHAPE-6), made with `@lit/react`: properties such as
 * `aiOps` and `strings` are set as properties, and the `ai-ops-*` events arrive as typed `on*`
 * props. The stores also work with `useSyncExternalStore` directly, see {@link useAiOpsStore}.
 *
 * Importing this module defines `<ai-ops-switch>` at once and nothing else (REACT-1): the dialog
 * and the log are defined, their code loaded, when a switch first shows its tool on
 * (`ai-ops/elements/define.js`), so a React page whose switches are all off loads no log or dialog
 * code, within PKG-4's 12 KB. Until then `<AiOpsConfirm>` and `<AiOpsLog>` render their bare tags
 * (they show nothing while every switch is off, LOG-1), and the properties React set on them are
 * taken over when the tags upgrade. In Node (server rendering) nothing is defined and the wrappers
 * render the tags alone (REACT-2).
 * @module
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { ReadableStore } from '../src/store.js';
import type { AiOpsConfirm as AiOpsConfirmElement } from './ai-ops-confirm.js';
import type { AiOpsLog as AiOpsLogElement } from './ai-ops-log.js';
import { AiOpsSwitch as AiOpsSwitchElement } from './ai-ops-switch.js';
import './define.js';
import './jsx.js'; // the JSX types of the raw tags come with the wrappers
import type {
  AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, AiOpsLogVisibilityChangeEvent, AiOpsSwitchChangeEvent,
} from './events.js';

/**
 * The properties of the elements defined on demand that the wrappers set as properties: those
 * with no attribute (objects, the clock) and `pointerGuardMs` (whose attribute is spelled
 * otherwise). `@lit/react` reads only `elementClass.prototype` to tell properties from attributes,
 * so a stand-in holding these names replaces the class (whose import would load its code). The
 * log's `tool`, `mode` and `open` go as attributes, which the bare tag keeps (selectors and server
 * rendering see them) and Lit reads when it upgrades; React 19 sets them as properties from then
 * on. A test checks every declared property of both classes reaches the element.
 */
const onDemandProperties = {
  'ai-ops-confirm': ['aiOps', 'strings', 'pointerGuardMs', 'clock', 'automated'],
  'ai-ops-log': ['aiOps', 'strings', 'clock'],
} as const;

/** A stand-in for `createComponent`'s `elementClass`: its prototype names the properties only. */
function propertiesOnly<T>(names: readonly string[]): T {
  return { prototype: Object.fromEntries(names.map((name) => [name, undefined])) } as T;
}

/**
 * `<ai-ops-switch>` for React.
 * @example <AiOpsSwitch tool="slides" onSwitchChange={(e) => console.log(e.detail.on)} />
 */
export const AiOpsSwitch = createComponent({
  react: React,
  tagName: 'ai-ops-switch',
  elementClass: AiOpsSwitchElement,
  displayName: 'AiOpsSwitch',
  events: {
    onSwitchChange: 'ai-ops-switch-change' as EventName<AiOpsSwitchChangeEvent>,
  },
});

/**
 * `<ai-ops-confirm>` for React.
 * @example <AiOpsConfirm onApprove={(e) => console.log(e.detail.name)} />
 */
export const AiOpsConfirm = createComponent({
  react: React,
  tagName: 'ai-ops-confirm',
  elementClass: propertiesOnly<typeof AiOpsConfirmElement>(onDemandProperties['ai-ops-confirm']),
  displayName: 'AiOpsConfirm',
  events: {
    onApprove: 'ai-ops-confirm-approve' as EventName<AiOpsConfirmApproveEvent>,
    onDecline: 'ai-ops-confirm-decline' as EventName<AiOpsConfirmDeclineEvent>,
  },
});

/**
 * `<ai-ops-log>` for React.
 * @example <AiOpsLog tool="node" mode="tab" onVisibilityChange={(e) => setTabShown(e.detail.visible)} />
 */
export const AiOpsLog = createComponent({
  react: React,
  tagName: 'ai-ops-log',
  elementClass: propertiesOnly<typeof AiOpsLogElement>(onDemandProperties['ai-ops-log']),
  displayName: 'AiOpsLog',
  events: {
    onVisibilityChange: 'ai-ops-log-visibility-change' as EventName<AiOpsLogVisibilityChangeEvent>,
  },
});

/**
 * Reads a runtime store in a React component (a session, the log, the confirmation queue).
 * @example
 * const { status } = useAiOpsStore(getAiOps().getSession('node')!);
 * return status === 'off' ? <Terminal /> : <AiOpsLog tool="node" mode="tab" />;
 */
export function useAiOpsStore<T>(store: ReadableStore<T>): T {
  return React.useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
