import { expect } from '@open-wc/testing';
import { jsonSafe } from '../../tools/shared.js';

describe('tools/shared', () => {
  it('[SQL-4] engine values JSON cannot write keep their meaning instead of turning into null', () => {
    const out = jsonSafe({ big: 10n, nan: NaN, inf: Infinity, ninf: -Infinity, date: new Date(0), bad: new Date(NaN), bytes: new Uint8Array([1, 255]), list: [1n] });
    expect(JSON.parse(JSON.stringify(out))).to.deep.equal({
      big: '10', nan: 'NaN', inf: 'Infinity', ninf: '-Infinity', date: '1970-01-01T00:00:00.000Z', bad: 'Invalid Date', bytes: '\\x01ff', list: ['1'],
    });
  });
});
