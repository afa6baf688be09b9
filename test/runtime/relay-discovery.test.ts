import { expect } from '@open-wc/testing';
import { createRelayConnector } from '../../src/relay-connection.js';
import { FakeLoader } from './helpers.js';

/** A same-origin frame standing in for the relay widget, with its fetch replaced. */
async function fakeWidget(answers: boolean) {
  const frame = document.createElement('iframe');
  frame.dataset.webmcpRelay = '1';
  frame.src = '/package.json';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const probes: string[] = [];
  const win = frame.contentWindow as Window & { fetch: typeof fetch };
  win.fetch = async (input: RequestInfo | URL) => {
    probes.push(String(input));
    if (!answers) throw new TypeError('Failed to fetch');
    return new Response(null, { status: 426 });
  };
  const messages: unknown[] = [];
  win.addEventListener('message', (event) => messages.push(event.data));
  return { frame, probes, messages };
}

describe('finding a relay started after the page', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay]').forEach((e) => e.remove()));

  it('[RELAY-5] in probe discovery the widget is added idle: no WebSocket until the relay port answers', async () => {
    const loader = new FakeLoader();
    const relay = createRelayConnector({ loader, relayPort: 9, discovery: 'probe' });
    await relay.connect();
    expect(loader.attributes.at(-1)).to.include({ 'data-relay-port': '9', 'data-auto-connect': 'false' });
  });

  it('[RELAY-5] nothing answers: the widget is not told to connect', async () => {
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, discovery: 'probe' });
    await relay.connect();
    const widget = await fakeWidget(false);
    expect(await relay.discover()).to.equal(false);
    expect(widget.probes).to.deep.equal(['http://127.0.0.1:9/']);
    await new Promise((r) => setTimeout(r, 20));
    expect(widget.messages).to.deep.equal([]);
  });

  it('[RELAY-5] the relay port answers: the widget is told to connect, once', async () => {
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, discovery: 'probe' });
    await relay.connect();
    const widget = await fakeWidget(true);
    expect(await relay.discover()).to.equal(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(widget.messages).to.deep.equal([{ type: 'webmcp.connect' }]);
    expect(await relay.discover()).to.equal(false); // told less than 10 s ago
  });

  it('[RELAY-5] once a relay asked for the tools, discovery stops; widget discovery never probes', async () => {
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, discovery: 'probe' });
    await relay.connect();
    const widget = await fakeWidget(true);
    window.postMessage({ type: 'webmcp.tools.list.request', requestId: 'x' }, location.origin);
    await new Promise((r) => setTimeout(r, 20));
    expect(relay.isConnected()).to.equal(true);
    expect(await relay.discover()).to.equal(false);
    const plain = createRelayConnector({ loader: new FakeLoader(), relayPort: 9 });
    await plain.connect();
    expect(await plain.discover()).to.equal(false);
    expect(widget.probes).to.deep.equal([]);
  });
});
