// The words the log shows for connecting an agent (LOG-2), built in src/connection-text.ts; the
// log's own test checks that it shows them with this page's origin and the runtime's port.
import { expect } from '@open-wc/testing';
import { DEFAULT_RELAY_PORT, relayConnectionText } from '../../src/connection-text.js';

describe('relayConnectionText', () => {
  it('[LOG-2] [PKG-2] the default port is left unsaid; the command and the configuration start the same relay without installing', () => {
    expect(DEFAULT_RELAY_PORT).to.equal(9333);
    const text = relayConnectionText('https://tools.example');
    expect(text.command).to.equal('npx --offline --no-install ai-ops-relay --widget-origin https://tools.example');
    expect(JSON.parse(text.config)).to.deep.equal({
      mcpServers: { 'ai-ops': { command: 'npx', args: ['--offline', '--no-install', 'ai-ops-relay', '--widget-origin', 'https://tools.example'] } },
    });
    expect(text.config).to.contain('\n  "mcpServers"');
    expect(relayConnectionText('https://tools.example', 9333)).to.deep.equal(text);
  });

  it('[LOG-2] another port is spelled out in both', () => {
    const text = relayConnectionText('http://localhost:5173', 9400);
    expect(text.args).to.deep.equal(['--offline', '--no-install', 'ai-ops-relay', '--widget-origin', 'http://localhost:5173', '--port', '9400']);
    expect(text.command).to.equal(`npx ${text.args.join(' ')}`);
    expect(JSON.parse(text.config).mcpServers['ai-ops'].args).to.deep.equal(text.args);
  });
});
