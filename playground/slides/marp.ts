/**
 * The slide engine: Marp (`@marp-team/marp-core`) set up to work offline, and the helpers the
 * page needs around it — the effective theme of a deck, rewriting its `theme` directive, and
 * making rendered HTML/CSS safe to show without fetching anything from another origin.
 * @module
 */
import { Marp } from '@marp-team/marp-core';

/** What one render gives the preview. */
export interface RenderedDeck {
  html: string;
  css: string;
  /** Slides in the deck (PLATFORM-NOTES: one comments array per slide). */
  slideCount: number;
  /** The theme the deck renders with: its `theme` directive when that names a known theme, else the default. */
  theme: string;
}

/**
 * Marp with the options PLATFORM-NOTES measured as offline: emoji shortcodes become Unicode text
 * (no Twemoji images from a CDN), no browser helper script, no math (its fonts come from a CDN).
 */
function createMarp(): Marp {
  const marp = new Marp({ emoji: { shortcode: true, unicode: false }, script: false, math: false });
  // gaia pulls its web fonts from fonts.bunny.net: the same theme without that @import falls back
  // to local fonts. Re-adding a theme with the same @theme name replaces it.
  for (const theme of [...marp.themeSet.themes()]) {
    const stripped = stripExternalCss(theme.css);
    if (stripped !== theme.css) marp.themeSet.add(stripped);
  }
  return marp;
}

const marp = createMarp();

/** The theme names Marp knows, read at runtime (IN-7): default, gaia, uncover for marp-core 5. */
export const themeNames: readonly string[] = Object.freeze([...marp.themeSet.themes()].map((theme) => theme.name));

/** The theme a deck without a `theme` directive gets. */
export const defaultTheme: string = marp.themeSet.default?.name ?? themeNames[0] ?? 'default';

let cache: { markdown: string; rendered: RenderedDeck } | null = null;

/**
 * Renders a deck (cached for the last Markdown, so the preview, the read and the count share one render).
 * @example renderDeck('# A\n\n---\n\n# B').slideCount // 2
 */
export function renderDeck(markdown: string): RenderedDeck {
  if (cache?.markdown === markdown) return cache.rendered;
  const { html, css, comments } = marp.render(markdown);
  const directive = (marp as unknown as { lastGlobalDirectives?: { theme?: unknown } }).lastGlobalDirectives?.theme;
  const theme = typeof directive === 'string' && themeNames.includes(directive) ? directive : defaultTheme;
  const rendered = { html, css: stripExternalCss(css), slideCount: comments.length, theme };
  cache = { markdown, rendered };
  return rendered;
}

/** A line of YAML that sets the theme: `theme: gaia`. */
const THEME_LINE = /^([ \t]*theme[ \t]*:[ \t]*)(.*?)([ \t]*)$/m;
/** Front matter at the very start of the deck. */
const FRONT_MATTER = /^(\uFEFF?---[ \t]*\r?\n)([\s\S]*?)(^---[ \t]*$)/m;

/**
 * The deck with its theme set to `theme`: every `theme:` directive (front matter and HTML-comment
 * directives, which override the front matter) now names it; a deck without one gets front matter.
 * @example withTheme('# A', 'gaia') // '---\ntheme: gaia\n---\n\n# A'
 */
export function withTheme(markdown: string, theme: string): string {
  let found = false;
  let result = markdown.replace(/<!--([\s\S]*?)-->/g, (comment: string, body: string) => {
    if (!THEME_LINE.test(body)) return comment;
    found = true;
    return `<!--${body.replace(THEME_LINE, (_line, key: string, _old: string, trailing: string) => `${key}${theme}${trailing}`)}-->`;
  });
  const front = FRONT_MATTER.exec(result);
  if (front && front.index === 0) {
    const [whole, open, body, close] = front;
    const nextBody = THEME_LINE.test(body) ? body.replace(THEME_LINE, (_line, key: string, _old: string, trailing: string) => `${key}${theme}${trailing}`) : `theme: ${theme}\n${body}`;
    result = `${open}${nextBody}${close}${result.slice(whole.length)}`;
    found = true;
  }
  if (!found || renderDeck(result).theme !== theme) {
    result = front && front.index === 0 ? result : `---\ntheme: ${theme}\n---\n\n${result}`;
  }
  return result;
}

/** True for a URL that would leave this page's origin (data: and blob: stay local). */
function isForeign(url: string, base: string): boolean {
  const trimmed = url.trim().replace(/^['"]|['"]$/g, '');
  if (trimmed === '' || /^(data|blob):/i.test(trimmed) || trimmed.startsWith('#')) return false;
  try {
    const resolved = new URL(trimmed, base);
    return resolved.origin !== new URL(base).origin;
  } catch {
    return true;
  }
}

const PAGE_BASE = typeof location === 'undefined' ? 'http://127.0.0.1/' : location.href;

/**
 * CSS without anything from another origin: `@import` of a foreign URL is dropped, a foreign
 * `url(…)` becomes `none`. (Themes, and `<style>` a deck carries.)
 */
export function stripExternalCss(css: string, base = PAGE_BASE): string {
  return css
    .replace(/@import\s+(?:url\(\s*)?(["']?)([^"')\s;]+)\1\s*\)?[^;]*;/gi, (rule, _q, url: string) => (isForeign(url, base) ? '' : rule))
    .replace(/url\(\s*(["']?)([^"')]*)\1\s*\)/gi, (call, _q, url: string) => (isForeign(url, base) ? 'none' : call));
}

/** Attributes that make the browser fetch. */
const FETCHING_ATTRIBUTES = ['src', 'srcset', 'poster', 'data', 'background', 'href', 'xlink:href'];

/**
 * Removes from a rendered fragment everything that would fetch from another origin: foreign
 * `src`/`srcset`/`poster` (kept as `data-blocked-src` for the curious), foreign `url()` in `style`
 * attributes and `<style>` elements. Links (`<a href>`) stay: they fetch only when followed.
 */
export function sanitizeFragment(root: DocumentFragment | Element, base = PAGE_BASE): void {
  for (const element of Array.from(root.querySelectorAll('*'))) {
    for (const name of FETCHING_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value === null) continue;
      if (name === 'href' && element.localName === 'a') continue;
      const urls = name === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') : [value];
      if (urls.some((url) => isForeign(url, base))) {
        element.removeAttribute(name);
        element.setAttribute(`data-blocked-${name.replace(':', '-')}`, value);
      }
    }
    const style = element.getAttribute('style');
    if (style !== null && /url\(/i.test(style)) element.setAttribute('style', stripExternalCss(style, base));
    if (element.localName === 'style') element.textContent = stripExternalCss(element.textContent ?? '', base);
    if (element.localName === 'script') element.remove();
  }
}
