/**
 * The once-a-second render of the times left while calls are listed under the dialog's (BATCH-1).
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock, TimerHandle } from '../../src/clock.js';

/** What the countdown reads from its host after each render. */
export interface CountdownOptions {
  clock(): Clock;
  /** Whether times left are on screen (then the host renders again each second). */
  counting(): boolean;
}

/**
 * Renders its host again a second after each render while `counting()` holds; stops otherwise and
 * when the host leaves the document. Runs on the host's clock, so a test drives it without waiting.
 * @example new CountdownController(this, { clock: () => this.clock, counting: () => this.listed.length > 0 });
 */
export class CountdownController implements ReactiveController {
  private tick: TimerHandle | null = null;

  constructor(private readonly host: ReactiveControllerHost, private readonly options: CountdownOptions) {
    host.addController(this);
  }

  hostUpdated(): void {
    if (!this.options.counting()) {
      this.stop();
      return;
    }
    this.tick ??= this.options.clock().setTimeout(() => {
      this.tick = null;
      this.host.requestUpdate();
    }, 1000);
  }

  hostDisconnected(): void {
    this.stop();
  }

  private stop(): void {
    if (this.tick !== null) this.options.clock().clearTimeout(this.tick);
    this.tick = null;
  }
}
