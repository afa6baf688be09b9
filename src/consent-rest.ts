/**
 * UV-10's rest, as UV-16 extends it: every prompt for a tool that ends without the user's approval
 * counts — the user's cancel, the OS timeout, the call's own 50 s, やめる pressed while the prompt is
 * up, the caller's cancel, the switch turned off meanwhile — and after
 * {@link REFUSALS_BEFORE_REST} in a row the tool's verifications rest: no prompt, every call
 * answered at once with the time left. The rest is kept in the consent store (IndexedDB, UV-8), not
 * localStorage — an agent's `browser_localstorage_*` tools could clear that — and is read from it
 * before every prompt, so it holds across reloads and across the origin's tabs without a message
 * between them. Each rest in a series lasts longer ({@link REST_STEPS_MS}); the series starts again
 * after a verified approval, or after a day without a refusal.
 *
 * Part of the on-demand part, like the gate that uses it (PKG-4).
 * @module
 */
import type { Clock } from './clock.js';
import type { ConsentStore } from './consent-store.js';

/** After this many prompts of a tool in a row that gave no receipt, its verifications rest (UV-10). */
export const REFUSALS_BEFORE_REST = 2;

/**
 * How long each rest in a series lasts: 60 s (UV-10), then 5 min, then 15 min, which is the cap
 * for every later one. With the user away, an agent that keeps calling gets at most two prompts
 * per 15 min of the user's device; a user who comes back waits at most 15 min.
 */
export const REST_STEPS_MS: readonly number[] = [60_000, 5 * 60_000, 15 * 60_000];

/** The longest rest ({@link REST_STEPS_MS}'s last): no stored value makes one last longer. */
export const REST_CAP_MS = REST_STEPS_MS[REST_STEPS_MS.length - 1];

/** A series of rests ends after this long without a refusal: the next rest is 60 s again. */
export const REST_SERIES_MS = 24 * 60 * 60 * 1000;

/** Where a tool's rest is kept in the consent store. */
export function restKey(tool: string): string {
  return `rest:${tool}`;
}

/**
 * A tool's rest as the consent store keeps it: refusals in a row so far, how many rests the current
 * series has had, until when the current one lasts (0: none), and when the last refusal was.
 */
export interface RestRecord {
  readonly v: 1;
  readonly refusals: number;
  readonly rests: number;
  readonly until: number;
  readonly at: number;
}

const count = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The stored record, or null for anything that is not exactly a {@link RestRecord} (a value written
 * behind the page's back, a later version's): such a value is read as no record, never trusted to
 * shorten or lengthen a rest beyond {@link REST_CAP_MS}.
 * @example parseRest(await store.get(restKey('notes')))
 */
export function parseRest(value: unknown): RestRecord | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { v, refusals, rests, until, at, ...rest } = value as Record<string, unknown>;
  if (v !== 1 || Object.keys(rest).length || ![refusals, rests, until, at].every(count)) return null;
  return { v, refusals: refusals as number, rests: rests as number, until: until as number, at: at as number };
}

const NONE: RestRecord = { v: 1, refusals: 0, rests: 0, until: 0, at: 0 };

/** Options of {@link ConsentRest}. */
export interface ConsentRestOptions {
  clock: Clock;
  /** The page's consent store (IndexedDB by default, shared by the origin's tabs). */
  store: ConsentStore;
}

/**
 * The rests of a page's tools. The gate asks {@link left} before every prompt and tells
 * {@link refused} or {@link verified} how each ended.
 * @example
 * const rest = new ConsentRest({ clock, store });
 * if (await rest.left(['notes']) > 0) throw new CoolingDown(left);
 * try { await verifier.verify(d, signal); await rest.verified(['notes']); } catch (e) { await rest.refused(['notes']); throw e; }
 */
export class ConsentRest {
  /**
   * What this page itself last wrote per tool: stands in where the store lost it (cleared site
   * data, a store that refused the write), so that a page never forgets its own rest.
   */
  private readonly own = new Map<string, RestRecord>();
  /** This page's writes, in order: a read waits for them, so it sees a refusal counted a moment ago. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConsentRestOptions) {}

  /** The ms left of the longest rest among `tools` (0: none rests), read from the store. */
  async left(tools: readonly string[]): Promise<number> {
    await this.writing;
    const now = this.options.clock.now();
    const records = await Promise.all(tools.map((tool) => this.read(tool)));
    return Math.max(0, ...records.map((r) => Math.min(r.until - now, REST_CAP_MS)));
  }

  /**
   * A prompt for `tools` ended without the user's approval: one more refusal in a row for each;
   * the {@link REFUSALS_BEFORE_REST}th starts the next rest of the series. Counted at once (the
   * next {@link left} of this page sees it); resolves once it is stored.
   */
  refused(tools: readonly string[]): Promise<void> {
    return this.update(tools, (record, now) => {
      // A long quiet spell ends the series: the next rest is the first again.
      const fresh = now - record.at > REST_SERIES_MS ? NONE : record;
      const refusals = fresh.refusals + 1;
      if (refusals < REFUSALS_BEFORE_REST) return { ...fresh, refusals, at: now };
      const step = REST_STEPS_MS[Math.min(fresh.rests, REST_STEPS_MS.length - 1)];
      return { v: 1, refusals: 0, rests: fresh.rests + 1, until: now + step, at: now };
    });
  }

  /** A verified approval for `tools`: their refusals in a row and their series start again. */
  verified(tools: readonly string[]): Promise<void> {
    return this.update(tools, (record) => (record.refusals || record.rests ? NONE : null));
  }

  /** The tool's record: the stored one, kept no shorter than this page's own. */
  private async read(tool: string): Promise<RestRecord> {
    const stored = parseRest(await this.options.store.get(restKey(tool)));
    const own = this.own.get(tool);
    const record = stored ?? own ?? NONE;
    return own && own.until > record.until ? { ...record, until: own.until } : record;
  }

  /** Applies `change` to each tool's record in turn after this page's earlier writes; null leaves it. */
  private update(tools: readonly string[], change: (record: RestRecord, now: number) => RestRecord | null): Promise<void> {
    const write = async () => {
      for (const tool of new Set(tools)) {
        const next = change(await this.read(tool), this.options.clock.now());
        if (!next) continue;
        this.own.set(tool, next);
        await this.options.store.set(restKey(tool), next);
      }
    };
    // A failed write never stops the next one (the store never rejects; this is belt and braces).
    this.writing = this.writing.then(write, write);
    return this.writing;
  }
}
