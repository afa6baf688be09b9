/**
 * Which calls listed under the dialog's have been on screen (BATCH-2, UV-11): an item counts as
 * seen once it has stayed in view (inside the list's scroll box) or open for SAFE-7's 750 ms, so an
 * item that flashes by, or that a program opens and approves in the same moment, is not approvable
 * yet. 「すべて承認」 is offered only once every listed item is seen.
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock, TimerHandle } from '../../src/clock.js';
import type { ConfirmationRequest } from '../../src/confirmation-queue.js';

/** What the controller reads from its dialog, each time it needs it. */
export interface BatchSeenOptions {
  clock(): Clock;
  /** The calls listed under the dialog's, as last rendered. */
  listed(): readonly ConfirmationRequest[];
  /** How long an item must stay in view or open (SAFE-7's 750 ms). */
  readonly ms: number;
}

/**
 * Follows the rendered list items (`li[data-id]` inside `.batch`) with an IntersectionObserver and
 * a timer per item on screen; the host renders again when an item becomes seen.
 * @example
 * private readonly seen = new BatchSeenController(this, { clock: () => this.clock, listed: () => this.listed, ms: 750 });
 * html`<details @toggle=${(e: Event) => this.seen.toggled(r.id, e)}>…`;
 */
export class BatchSeenController implements ReactiveController {
  /** Listed calls that have been on screen long enough. */
  private readonly seen = new Set<number>();
  /** Listed calls on screen now, not yet long enough: the timer that marks each seen. */
  private readonly showing = new Map<number, TimerHandle>();
  private observer: IntersectionObserver | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & { readonly renderRoot: HTMLElement | DocumentFragment },
    private readonly options: BatchSeenOptions,
  ) {
    host.addController(this);
  }

  /** True once every listed call has been on screen: only then is 「すべて承認」 offered (BATCH-2). */
  get allSeen(): boolean {
    return this.options.listed().every((r) => this.seen.has(r.id));
  }

  /** A listed item's `<details>` opened: opening counts as being on screen. */
  toggled(id: number, event: Event): void {
    if ((event.target as HTMLDetailsElement).open) this.start(id);
  }

  /** After each render: forget what left the list, observe what is new in it. */
  hostUpdated(): void {
    const items = [...this.host.renderRoot.querySelectorAll<HTMLElement>('.batch li')];
    const ids = new Set(this.options.listed().map((r) => r.id));
    for (const id of this.seen) if (!ids.has(id)) this.seen.delete(id);
    for (const id of [...this.showing.keys()]) if (!ids.has(id)) this.stop(id);
    if (typeof IntersectionObserver !== 'function') return;
    this.observer ??= new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const id = Number((entry.target as HTMLElement).dataset.id);
        if (entry.isIntersecting) this.start(id);
        else if (!(entry.target.querySelector('details')?.open)) this.stop(id);
      }
    }, { threshold: 0.5 });
    for (const item of items) if (!this.seen.has(Number(item.dataset.id))) this.observer.observe(item);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.observer = null;
    for (const id of [...this.showing.keys()]) this.stop(id);
  }

  /** The item `id` is in view (or open): seen once that has lasted `ms`. */
  private start(id: number): void {
    if (this.seen.has(id) || this.showing.has(id)) return;
    this.showing.set(id, this.options.clock().setTimeout(() => {
      this.showing.delete(id);
      this.seen.add(id);
      const item = this.host.renderRoot.querySelector(`.batch li[data-id="${id}"]`);
      if (item) this.observer?.unobserve(item);
      this.host.requestUpdate();
    }, this.options.ms));
  }

  private stop(id: number): void {
    if (!this.showing.has(id)) return;
    this.options.clock().clearTimeout(this.showing.get(id));
    this.showing.delete(id);
  }
}
