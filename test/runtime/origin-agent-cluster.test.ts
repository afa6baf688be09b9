// Firefox (measured, ESR 153) keys a page's agent cluster by site unless the page is served with
// `Origin-Agent-Cluster: ?1`, and then `window.originAgentCluster` is false; the WebMCP polyfill
// (@mcp-b/global 5.1.0) refuses every tool call there with a bare `SecurityError` (its own check of
// `originAgentCluster === false`). Issue 36: before, the sample page's switch in Firefox ended in
// 「AI からの操作を始められません SecurityError」 after the polyfill had loaded. Now the runtime says
// why and what to do, and loads nothing. Chromium keys by origin by default, so the window here is a
// stand-in whose only difference is `originAgentCluster`; the real Firefox case is
// test/e2e-firefox/ (the playground's server sends the header).
import { expect } from '@open-wc/testing';
import { createModelContextProvider } from '../../src/model-context.js';
import type { ScriptLoader } from '../../src/script-loader.js';

/** A loader that records what it was asked to load and loads nothing. */
const recordingLoader = () => {
  const loads: string[] = [];
  const loader: ScriptLoader = {
    async load(src) {
      loads.push(src);
      return document.createElement('script');
    },
  };
  return { loads, loader };
};

/**
 * A page keyed by site without WebMCP of its own: `originAgentCluster` false and a document without
 * `modelContext` (this file also runs in the Chromium whose document has its own, WEBMCP=1, where
 * the polyfill is not what registers the tools).
 */
const windowKeyedBySite = () => ({
  document: { baseURI: window.location.href, modelContext: undefined, querySelector: () => null },
  location: window.location,
  navigator: window.navigator,
  originAgentCluster: false,
}) as unknown as Window;

describe('a page not keyed by origin (Origin-Agent-Cluster)', () => {
  it('[SW-4] the polyfill is not loaded, and the reason names the header that makes it work', async () => {
    const { loads, loader } = recordingLoader();
    const provider = createModelContextProvider({ loader, window: windowKeyedBySite(), browserModelContext: undefined });
    let error: unknown;
    try {
      await provider.ensure();
    } catch (caught) {
      error = caught;
    }
    expect(error, 'ensure() refuses').to.be.instanceOf(Error);
    expect((error as Error).message).to.contain('Origin-Agent-Cluster: ?1');
    expect(loads, 'nothing was loaded').to.deep.equal([]);
  });

  it('[SW-4] this Chromium keys its pages by origin by default, so its suites take the polyfill\'s path', () => {
    expect(window.originAgentCluster).to.equal(true);
  });
});
