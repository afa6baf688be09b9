import { expect } from '@open-wc/testing';
import {
  cutText, DETAIL_CHARS, formatInline, formatTime, formatValue, SUMMARY_CHARS, summarizeArgs, summarizeResult,
} from '../../elements/internal/format.js';
import { fail, succeed } from '../../src/result.js';

describe('elements/format', () => {
  it('[LOG-6] strings inside values are shown unescaped: real line breaks and quotes, as a block', () => {
    const markdown = '# 見出し\n\n- "引用" と \\ バックスラッシュ\n<b>太字</b>';
    const { text, truncated } = formatValue({ markdown, theme: 'gaia' });
    expect(truncated).to.equal(false);
    expect(text).to.equal(`{\n  "markdown": """\n${markdown}\n""",\n  "theme": "gaia"\n}`);
    expect(text).to.contain('\n- "引用" と \\ バックスラッシュ\n');
    expect(text).to.not.contain('\\n');
    expect(text).to.not.contain('\\"');
  });

  it('[LOG-6] nested arrays and objects are indented; scalars as in JSON', () => {
    const xml = '<mxGraphModel>\n  <root/>\n</mxGraphModel>';
    const value = { ok: true, n: 1.5, none: null, list: [1, 'a', { xml }], empty: {}, nothing: [], skipped: undefined };
    expect(formatValue(value).text).to.equal([
      '{',
      '  "ok": true,',
      '  "n": 1.5,',
      '  "none": null,',
      '  "list": [',
      '    1,',
      '    "a",',
      '    {',
      '      "xml": """',
      xml,
      '"""',
      '    }',
      '  ],',
      '  "empty": {},',
      '  "nothing": []',
      '}',
    ].join('\n'));
  });

  it('[LOG-6] values that are not JSON still print, and never throw', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(formatValue(cyclic).text).to.equal('{\n  "a": 1,\n  "self": [Circular]\n}');
    expect(formatInline(cyclic).text).to.equal('{"a":1,"self":[Circular]}');
    expect(formatValue('top\nlevel').text).to.equal('top\nlevel');
    expect(formatValue(undefined).text).to.equal('undefined');
    expect(formatValue(10n).text).to.equal('10n');
    expect(formatValue(Number.NaN).text).to.equal('NaN');
    expect(formatValue(Symbol('s')).text).to.equal('Symbol(s)');
    expect(formatValue(function named() {}).text).to.equal('[function named]');
    expect(formatValue(new Date(0)).text).to.equal('1970-01-01T00:00:00.000Z');
    expect(formatValue({ at: new Date(0) }).text).to.equal('{\n  "at": "1970-01-01T00:00:00.000Z"\n}');
    expect(formatInline([new Date(0), () => 1]).text).to.equal('["1970-01-01T00:00:00.000Z",[function anonymous]]');
  });

  it('[LOG-4] the full view is cut at 10,000 characters, without walking the rest', () => {
    const big = { contents: 'x'.repeat(1_000_000) };
    const { text, truncated } = formatValue(big);
    expect(DETAIL_CHARS).to.equal(10_000);
    expect(truncated).to.equal(true);
    expect(text.length).to.equal(10_000);
    expect(text.startsWith('{\n  "contents": "xxx')).to.equal(true);
    const exact = formatValue('y'.repeat(10_000));
    expect(exact).to.deep.equal({ text: 'y'.repeat(10_000), truncated: false });
  });

  it('[LOG-3] summaries are one line, the first 80 characters', () => {
    expect(SUMMARY_CHARS).to.equal(80);
    expect(summarizeArgs({ path: 'src/main.go' })).to.deep.equal({ text: '{"path":"src/main.go"}', truncated: false });
    const markdown = `# Title\n\n${'本文'.repeat(100)}`;
    const { text, truncated } = summarizeArgs({ markdown });
    expect(truncated).to.equal(true);
    expect(text.length).to.equal(80);
    expect(text).to.equal(`{"markdown":"# Title ${'本文'.repeat(100)}`.slice(0, 80));
    expect(text).to.not.contain('\n');
    expect(summarizeArgs(undefined).text).to.equal('undefined');
  });

  it('[LOG-3] result summaries: the error for a failure, the fields besides ok for a success', () => {
    expect(summarizeResult(fail('declined', 'the user declined')).text).to.equal('declined: the user declined');
    expect(summarizeResult(succeed({ slideCount: 3 })).text).to.equal('{"slideCount":3}');
    expect(summarizeResult(succeed()).text).to.equal('');
    const long = summarizeResult(fail('failed', 'e'.repeat(200)));
    expect(long.text).to.equal(`failed: ${'e'.repeat(72)}`);
    expect(long.truncated).to.equal(true);
  });

  it('[SAFE-8] a 1 MB string is summarised from its start only, exactly as the whole string collapsed and cut', () => {
    const spaced = `${' \n\t'.repeat(5_000)}a${'  b\n'.repeat(300_000)}`;
    const words = 'w '.repeat(600_000);
    for (const text of [spaced, words, 'x'.repeat(1 << 20)]) {
      const collapsed = text.replace(/\s+/g, ' ');
      expect(formatInline(text).text).to.equal(collapsed.slice(0, SUMMARY_CHARS));
      expect(formatInline({ text }).text).to.equal(`{"text":"${collapsed}`.slice(0, SUMMARY_CHARS));
      expect(formatInline(text).truncated).to.equal(true);
    }
  });

  it('[LOG-3] a cut never splits a surrogate pair', () => {
    expect(cutText('ab😀cd', 3)).to.deep.equal({ text: 'ab', truncated: true });
    expect(cutText('ab😀cd', 4)).to.deep.equal({ text: 'ab😀', truncated: true });
    expect(cutText('abc', 3)).to.deep.equal({ text: 'abc', truncated: false });
  });

  it('[LOG-3] time is local HH:MM:SS', () => {
    expect(formatTime(new Date(2025, 0, 2, 3, 4, 5).getTime())).to.equal('03:04:05');
    expect(formatTime(new Date(2025, 0, 2, 23, 59, 9).getTime())).to.equal('23:59:09');
  });
});
