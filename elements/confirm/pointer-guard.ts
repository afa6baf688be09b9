/**
 * SAFE-7's guard as a reactive controller: a short time after a dialog appears, or after the page
 * becomes visible again, a pointer press on the guarded button does not count, as browsers' own
 * permission prompts do. The keyboard is not delayed on the buttons that decide this one call; on
 * one that grants more (the skip action, UV-18) a key press inside the guard does not count either,
 * so that no key sequence typed in one moment reaches it.
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock, TimerHandle } from '../../src/clock.js';

/** What the guard reads from its host, each time it needs it (both can change at any time). */
export interface PointerGuardOptions {
  /** The clock the guard is timed with (tests inject one). */
  clock(): Clock;
  /** How long the guard lasts, in ms; 0 or less turns it off. */
  ms(): number;
  /** Whether a request waits for an answer now: only then does the page becoming visible re-guard. */
  waiting(): boolean;
}

/**
 * Times the guard and remembers where the last pointer press began. The host calls `start()` when
 * a new dialog appears, `stop()` when it closes, `pressed()` on every `pointerdown`, and asks
 * `allows(click)` before acting on a click; `active` is for the button's `aria-disabled`.
 * @example
 * private readonly guard = new PointerGuardController(this, { clock: () => this.clock, ms: () => 750, waiting: () => true });
 * onPointerDown(e) { this.guard.pressed(e.composedPath().includes(this.button)); }
 * onClick(e) { if (this.guard.allows(e)) approve(); }
 */
export class PointerGuardController implements ReactiveController {
  /** True while the guard runs; the host renders again when it ends. */
  active = false;
  private startedAt = -Infinity;
  private timer: TimerHandle | null = null;
  /** When the current press on the guarded button began; null when it began elsewhere. */
  private pressedAt: number | null = null;
  /** When the current Enter or Space on a key-guarded button went down; null when elsewhere. */
  private keyedAt: number | null = null;

  constructor(private readonly host: ReactiveControllerHost, private readonly options: PointerGuardOptions) {
    host.addController(this);
  }

  /** Starts the guard anew from now. */
  start(): void {
    this.stop();
    const { clock, ms } = this.options;
    this.startedAt = clock().now();
    if (!(ms() > 0)) return;
    this.active = true;
    this.host.requestUpdate();
    this.timer = clock().setTimeout(() => {
      this.timer = null;
      this.active = false;
      this.host.requestUpdate();
    }, ms());
  }

  /** Ends the guard (the dialog closed). */
  stop(): void {
    if (this.timer !== null) this.options.clock().clearTimeout(this.timer);
    this.timer = null;
    if (this.active) this.host.requestUpdate();
    this.active = false;
  }

  /** A pointer press began, on the guarded button or not. */
  pressed(onButton: boolean): void {
    this.pressedAt = onButton ? this.options.clock().now() : null;
  }

  /** A key that presses a button (Enter, Space) went down, on a key-guarded button or not (UV-18). */
  keyPressed(onButton: boolean): void {
    this.keyedAt = onButton ? this.options.clock().now() : null;
  }

  /**
   * Whether a click on the guarded button counts. From a pointer only when the press began on the
   * button and both the press and the release fall after the guard. From the keyboard (Enter or
   * Space give a click with no pointer) always, reaching the button took a deliberate Tab — unless
   * `keys` (UV-18): then, as for a pointer, only when the key went down on the button and both its
   * press and the click fall after the guard.
   * @example if (guard.allows(event, { keys: true })) grantSkip();
   */
  allows(click: MouseEvent, { keys = false }: { keys?: boolean } = {}): boolean {
    const fromKeyboard = click.detail === 0 && !(click as PointerEvent).pointerType;
    const pressedAt = fromKeyboard ? this.keyedAt : this.pressedAt;
    this.pressedAt = null;
    this.keyedAt = null;
    if (fromKeyboard && !keys) return true;
    return pressedAt !== null && !this.covers(pressedAt) && !this.covers(this.options.clock().now());
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onVisibilityChange);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onVisibilityChange);
  }

  /** True when `time` falls within the guard. */
  private covers(time: number): boolean {
    return time < this.startedAt + Math.max(0, this.options.ms());
  }

  /** The page became visible again: a user coming back may click where the dialog now is. */
  private readonly onVisibilityChange = () => {
    if (document.visibilityState === 'visible' && this.options.waiting()) this.start();
  };
}
