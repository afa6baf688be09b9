/**
 * The switch's notice as drawn once the on-demand part has loaded (FIRST-2): readable wherever the
 * switch sits. It loads with the dialog and the log (strings.ts hands it to the switch through
 * `switchWording`), not with the switch, so a page whose switches are all off does not pay for it
 * (PKG-4); every notice but "the call path could not load" comes after that load.
 *
 * - Above everything: a manual popover is in the browser's top layer, so no canvas, overlay or
 *   stacking context of the page covers it (Excalidraw's canvas covered a `z-index` box). A browser
 *   without popovers shows it under the switch as before.
 * - Inside the viewport: placed under the switch, its right edge at the switch's, moved left or
 *   right to stay 8 px inside the viewport and never wider than it; over the switch when there is
 *   no room under it. Placed again on every render, resize and scroll.
 * - Closable: a × button (named in the page's language), or Escape inside the notice; focus goes
 *   back to the switch. It stays closed until the state it is about changes.
 * - Announced: `role="alert"`, as before.
 * @module
 */
import { html, nothing } from 'lit';
import type { AiOpsStrings } from '../internal/strings-store.js';

/** The state whose notice the user closed, per switch. */
const closed = new WeakMap<HTMLElement, object>();
/** The switches showing a notice, placed again on resize and scroll. */
const shown = new Set<HTMLElement>();

const placeAll = (): void => shown.forEach(placeNotice);
addEventListener('resize', placeAll);
// Capture: a scroll container's scroll (which does not bubble) moves its switches too.
addEventListener('scroll', placeAll, { capture: true, passive: true });

/**
 * The notice of `host` for the state `key`, or nothing once the user closed it.
 * @example switchWording.notice = noticeView;
 */
export function noticeView(host: HTMLElement & { requestUpdate(): void }, text: AiOpsStrings, title: string, body: string | null, key: object): unknown {
  if (closed.get(host) === key) return nothing;
  const close = (): void => {
    closed.set(host, key);
    host.requestUpdate();
    // The switch itself: `host.focus()` keeps a focus already inside the host (delegatesFocus), the × about to go.
    host.shadowRoot?.querySelector('input')?.focus();
  };
  // The rules beside the switch's own `.alert` ones (which adopted sheets put after this one, so
  // these are more specific): the popover's user-agent box undone, and the ×.
  return html`<style>
    .alert[popover] { margin: 0; inset: auto; height: auto; color: inherit; grid-template-columns: 1fr auto; max-width: min(var(--ai-ops-alert-width, 24rem), calc(100vw - 16px)); }
    .alert[popover] button { grid-area: 1 / 2 / 3; align-self: start; margin: -.25rem -.5rem 0 .5rem; padding: .25rem .5rem; border: 0; border-radius: var(--_radius); background: none; color: inherit; font: inherit; line-height: 1; cursor: pointer; }
    .alert[popover] button::before { content: '\\d7'; font-size: 1.25em; }
  </style><div class="alert" part="alert" role="alert" popover="manual"
    @keydown=${(event: KeyboardEvent) => event.key === 'Escape' && close()}
  ><strong part="alert-title">${title}</strong>
<span part="alert-body">${body}</span><button type="button" part="alert-close" aria-label=${text.noticeClose} @click=${close}></button></div>`;
}

/**
 * Shows `host`'s notice in the top layer and places it under the switch inside the viewport.
 * @example switchWording.place = placeNotice;
 */
export function placeNotice(host: HTMLElement): void {
  const alert = host.shadowRoot?.querySelector<HTMLElement>('.alert[popover]');
  if (!alert || !host.isConnected) {
    shown.delete(host);
    return;
  }
  shown.add(host);
  if (!alert.showPopover) return;
  if (!alert.matches(':popover-open')) alert.showPopover();
  const { top, bottom, right } = host.getBoundingClientRect();
  const { clientWidth, clientHeight } = document.documentElement;
  const { offsetWidth: width, offsetHeight: height } = alert;
  const below = bottom + 4;
  // In the top layer an absolute box is placed on the document: a document scroll carries it along.
  alert.style.left = `${scrollX + Math.max(8, Math.min(right - width, clientWidth - width - 8))}px`;
  alert.style.top = `${scrollY + (below + height > clientHeight && top - 4 - height >= 0 ? top - 4 - height : below)}px`;
}
