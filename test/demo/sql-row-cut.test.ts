// RowCut (playground/sql/engine/row-cut.ts) on Postgres wire bytes: it keeps every message but the
// DataRows past maxRows of each statement, counts those, and does so wherever the chunks Postgres
// writes happen to split a message. The real stream through PGlite is tested in sql-engine.test.ts.
import { expect } from '@open-wc/testing';
import { RowCut } from '../../playground/sql/engine/row-cut.js';

/** One backend message: its type byte, its int32 length (counting itself) and its body. */
function message(type: string, body: number[] = []): number[] {
  const length = body.length + 4;
  return [type.charCodeAt(0), (length >>> 24) & 255, (length >>> 16) & 255, (length >>> 8) & 255, length & 255, ...body];
}
const row = (n: number) => message('D', [0, 1, 0, 0, 0, 1, 48 + n]);
const rowDescription = message('T', [0, 0]);
const complete = message('C', [...new TextEncoder().encode('SELECT 1'), 0]);
const empty = message('I');
const ready = message('Z', [73]);

/** A run of two selects (5 rows, then 2) with an empty statement between them. */
const stream = [rowDescription, row(1), row(2), row(3), row(4), row(5), complete, empty, rowDescription, row(6), row(7), complete, ready];
const kept3 = [rowDescription, row(1), row(2), row(3), complete, empty, rowDescription, row(6), row(7), complete, ready];
const bytes = new Uint8Array(stream.flat());

function cutOf(chunks: Uint8Array[], maxRows?: number) {
  const cut = new RowCut(maxRows);
  for (const chunk of chunks) cut.push(chunk);
  return { kept: [...cut.kept()], totals: cut.totals };
}

describe('RowCut: SQL-9\'s cut on the wire bytes', () => {
  it('[SQL-9] keeps the first maxRows DataRows of each statement and every other message, and counts every row per statement', () => {
    expect(cutOf([bytes], 3)).to.deep.equal({ kept: kept3.flat(), totals: [5, 2] });
  });

  it('[SQL-9] without maxRows keeps the stream whole', () => {
    expect(cutOf([bytes])).to.deep.equal({ kept: [...bytes], totals: [5, 2] });
  });

  it('[SQL-9] gives the same cut wherever two chunks split the stream (inside a header, inside a body)', () => {
    for (let at = 0; at <= bytes.length; at++) {
      expect(cutOf([bytes.subarray(0, at), bytes.subarray(at)], 3), `split at ${at}`).to.deep.equal({ kept: kept3.flat(), totals: [5, 2] });
    }
  });

  it('[SQL-9] gives the same cut for a stream arriving one byte at a time', () => {
    const chunks = [...bytes].map((byte) => new Uint8Array([byte]));
    expect(cutOf(chunks, 3)).to.deep.equal({ kept: kept3.flat(), totals: [5, 2] });
  });

  it('[SQL-9] keeps nothing of a chunk after it returns: the bytes kept are copies (PGlite reuses the wasm memory it handed)', () => {
    const chunk = bytes.slice();
    const cut = new RowCut(3);
    cut.push(chunk);
    chunk.fill(0);
    expect([...cut.kept()]).to.deep.equal(kept3.flat());
  });
});
