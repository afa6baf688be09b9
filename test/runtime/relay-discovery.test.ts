import { expect, oneEvent } from '@open-wc/testing';
import { createRelayConnector } from '../../src/relay-connection.js';
import { RelayLookout } from '../../src/relay-probe.js';
import { FakeClock, FakeLoader } from './helpers.js';
import { pairedStore } from './pairing-helpers.js';

/**
 * A same-origin frame standing in for the relay widget, its WebSocket and fetch replaced: a relay
 * listens (the socket opens, the fetch answers 426) or nothing does (both fail).
 */
async function fakeWidget(listening: boolean, door?: { served: boolean }) {
  let answers = listening;
  const frame = document.createElement('iframe');
  frame.dataset.webmcpRelay = '1';
  frame.src = '/package.json';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const probes: string[] = [];
  const closed: string[] = [];
  const win = frame.contentWindow as Window & { fetch: typeof fetch; WebSocket: unknown };
  const modes: (RequestMode | undefined)[] = [];
  win.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    probes.push(`fetch ${String(input)}`);
    modes.push(init?.mode);
    if (!answers) throw new TypeError('Failed to fetch');
    // ai-ops-relay's door answers a plain GET with whether it serves the asking origin (DOOR-5).
    if (door) return Response.json({ service: 'ai-ops-relay', served: door.served });
    return new Response(null, { status: 426 });
  };
  win.WebSocket = class {
    onopen: (() => void) | null = null;
    onerror: (() => void) | null = null;
    constructor(readonly url: string) {
      probes.push(`socket ${url}`);
      // ai-ops-relay refuses an origin it does not serve at the handshake: to a script, a failed socket.
    setTimeout(() => (answers && door?.served !== false ? this.onopen?.() : this.onerror?.()));
    }
    close() {
      closed.push(this.url);
    }
  };
  const messages: unknown[] = [];
  win.addEventListener('message', (event) => messages.push(event.data));
  /**
   * What the widget was told, once everything posted to it so far has arrived: a marker posted now
   * is delivered after every message posted before it (one event loop, posted messages in order),
   * so once the marker is in, a `webmcp.connect` the page posted while it probed is in too.
   */
  const told = async () => {
    const arrived = new Promise<void>((resolve) => {
      const onMessage = (event: MessageEvent) => {
        if ((event.data as { type?: unknown } | null)?.type !== 'test.marker') return;
        win.removeEventListener('message', onMessage);
        resolve();
      };
      win.addEventListener('message', onMessage);
    });
    win.postMessage({ type: 'test.marker' }, location.origin);
    await arrived;
    return messages.filter((m) => (m as { type?: unknown } | null)?.type !== 'test.marker');
  };
  /** Starts (true) or stops (false) the relay standing in. */
  const listen = (on: boolean) => void (answers = on);
  /** Restarts the relay standing in for this origin (true) or another (false). */
  const serve = (on: boolean) => void (door = { served: on });
  return { frame, probes, closed, told, listen, serve, modes };
}

describe('finding a relay started after the page', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay]').forEach((e) => e.remove()));

  it('[RELAY-5] in probe discovery the widget is added idle: no WebSocket until the relay port answers', async () => {
    const loader = new FakeLoader();
    const relay = createRelayConnector({ loader, relayPort: 9, pairingStore: pairedStore(9), discovery: 'probe' });
    await relay.connect();
    expect(loader.attributes.at(-1)).to.include({ 'data-relay-port': '9', 'data-auto-connect': 'false' });
  });

  it('[RELAY-5] nothing answers: the widget is not told to connect', async () => {
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, pairingStore: pairedStore(9), discovery: 'probe' });
    await relay.connect();
    const widget = await fakeWidget(false);
    // The probe failed and discover settled: a connect it posted would have arrived before the marker.
    expect(await relay.discover()).to.equal(false);
    expect(await widget.told()).to.deep.equal([]);
  });

  it('[RELAY-5] the first probe is one WebSocket, closed once answered; after it failed, the port is fetched until a fetch is answered', async () => {
    const clock = new FakeClock();
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, pairingStore: pairedStore(9), discovery: 'probe', clock });
    await relay.connect();
    const widget = await fakeWidget(false);
    expect(await relay.discover()).to.equal(false);
    expect(await relay.discover()).to.equal(false);
    expect(await relay.discover()).to.equal(false);
    // One failed WebSocket at most: the throttle counts them, a failed fetch it does not.
    expect(widget.probes).to.deep.equal(['socket ws://127.0.0.1:9/', 'fetch http://127.0.0.1:9/', 'fetch http://127.0.0.1:9/']);
    expect(widget.closed).to.deep.equal(['ws://127.0.0.1:9/']);
    // A relay started later is found by a fetch; the next probe (after a switch off and on) is a socket again.
    widget.listen(true);
    expect(await relay.discover()).to.equal(true);
    // The widget told reached nothing within 10 s: the port is probed again, by a socket. (An answered
    // fetch is followed by a readable one, for ai-ops-relay's answer: DOOR-5.)
    clock.advance(10_001);
    await relay.discover();
    expect(widget.probes.slice(3)).to.deep.equal(['fetch http://127.0.0.1:9/', 'fetch http://127.0.0.1:9/', 'socket ws://127.0.0.1:9/']);
    relay.disconnect();
    widget.frame.remove();
    const running = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, pairingStore: pairedStore(9), discovery: 'probe' });
    await running.connect();
    const live = await fakeWidget(true);
    expect(await running.discover()).to.equal(true);
    // A relay running is found by the socket alone: no HTTP request, whose 426 the browser logs as an error.
    expect(live.probes).to.deep.equal(['socket ws://127.0.0.1:9/']);
    expect(live.closed).to.deep.equal(['ws://127.0.0.1:9/']);
  });

  it('[RELAY-5] the relay port answers: the widget is told to connect, once', async () => {
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, pairingStore: pairedStore(9), discovery: 'probe' });
    await relay.connect();
    const widget = await fakeWidget(true);
    expect(await relay.discover()).to.equal(true);
    expect(await widget.told()).to.deep.equal([{ type: 'webmcp.connect' }]);
    expect(await relay.discover()).to.equal(false); // told less than 10 s ago
  });

  it('[RELAY-5] once a relay asked for the tools, discovery stops; widget discovery never probes', async () => {
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, pairingStore: pairedStore(9), discovery: 'probe' });
    await relay.connect();
    const widget = await fakeWidget(true);
    // The connector's listener was added before this one: once this one heard the request, it had too.
    const heard = oneEvent(window, 'message');
    window.postMessage({ type: 'webmcp.tools.list.request', requestId: 'x' }, location.origin);
    await heard;
    expect(relay.isConnected()).to.equal(true);
    expect(await relay.discover()).to.equal(false);
    const plain = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, pairingStore: pairedStore(9) });
    await plain.connect();
    expect(await plain.discover()).to.equal(false);
    expect(widget.probes).to.deep.equal([]);
  });

  it('[DOOR-5] the relay on the port does not serve this origin: refused names the origin, the widget is not told; restarted for it, found', async () => {
    const clock = new FakeClock();
    const relay = createRelayConnector({ loader: new FakeLoader(), relayPort: 9, pairingStore: pairedStore(9), discovery: 'probe', clock });
    await relay.connect();
    const widget = await fakeWidget(true, { served: false });
    const seen: (string | null)[] = [];
    relay.refused.subscribe(() => seen.push(relay.refused.getState()));
    expect(relay.refused.getState()).to.equal(null);
    // The refused handshake looks like no relay; the fetch that follows reads the relay's answer.
    expect(await relay.discover()).to.equal(false);
    expect(relay.refused.getState()).to.equal(null);
    expect(await relay.discover()).to.equal(false);
    expect(relay.refused.getState()).to.equal(location.origin);
    expect(await relay.discover()).to.equal(false);
    // Each check after the refused socket: one fetch that something answered, one that reads the answer.
    expect(widget.probes).to.deep.equal(['socket ws://127.0.0.1:9/', ...Array(4).fill('fetch http://127.0.0.1:9/')]);
    expect(widget.modes).to.deep.equal(['no-cors', 'cors', 'no-cors', 'cors']);
    // Three checks settled, each after its door's answer: a connect posted by any would be in before the marker.
    expect(await widget.told()).to.deep.equal([]);
    // The relay restarted with this origin: the next check finds it, and the refusal is gone.
    widget.serve(true);
    expect(await relay.discover()).to.equal(true);
    expect(relay.refused.getState()).to.equal(null);
    expect(await widget.told()).to.deep.equal([{ type: 'webmcp.connect' }]);
    expect(seen).to.deep.equal([location.origin, null]);
    relay.disconnect();
  });
});

describe('the lookout backs off while its paired relay is away (DOOR-9)', () => {
  it('[DOOR-9] [RELAY-5] six looks 2 s apart, then 4, 8, 16, 32 s and at most every 60 s; a relay that answered starts it over', async () => {
    const clock = new FakeClock();
    const looks: number[] = [];
    let connected = false;
    const lookout = new RelayLookout(window, clock, {
      connected: () => connected,
      discover: async () => void looks.push(clock.now()),
      reconnect: async () => {},
    });
    lookout.keepLooking(() => true);
    for (let i = 0; i < 200; i++) clock.advance(1000);
    const gaps = looks.slice(1).map((at, i) => at - looks[i]);
    expect(gaps.slice(0, 10)).to.deep.equal([2000, 2000, 2000, 2000, 2000, 4000, 8000, 16_000, 32_000, 60_000]);
    expect(Math.max(...gaps)).to.equal(60_000);
    // The relay answers, then goes again: looked for every 2 s once more.
    connected = true;
    for (let i = 0; i < 60; i++) clock.advance(1000);
    connected = false;
    const before = looks.length;
    for (let i = 0; i < 10; i++) clock.advance(1000);
    expect(looks.length - before).to.be.at.least(4);
    lookout.dispose();
  });
});
