/**
 * React wrappers of the ai-ops elements (SHAPE-6), made with `@lit/react`: properties such as
 * `aiOps` and `strings` are set as properties, and the `ai-ops-*` events arrive as typed `on*`
 * props. The stores also work with `useSyncExternalStore` directly, see {@link useAiOpsStore}.
 * @module
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { ReadableStore } from '../src/store.js';
import { AiOpsConfirm as AiOpsConfirmElement } from './ai-ops-confirm.js';
import { AiOpsLog as AiOpsLogElement } from './ai-ops-log.js';
import { AiOpsSwitch as AiOpsSwitchElement } from './ai-ops-switch.js';
import { defineAiOpsElements } from './define.js';
import './jsx.js'; // the JSX types of the raw tags come with the wrappers
import type {
  AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, AiOpsLogVisibilityChangeEvent, AiOpsSwitchChangeEvent,
} from './events.js';

/**
 * `<ai-ops-switch>` for React.
 * @example <AiOpsSwitch tool="slides" onSwitchChange={(e) => console.log(e.detail.on)} />
 */
// The wrappers bring the three classes anyway, so all three tags are defined at once.
defineAiOpsElements(customElements, { now: true });

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
  elementClass: AiOpsConfirmElement,
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
  elementClass: AiOpsLogElement,
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
