/**
 * Finds transaction control (COMMIT, ROLLBACK, BEGIN, SAVEPOINT, END, …) among the top-level
 * statements of a SQL text, so the engine can refuse it before running anything (SQL-8).
 *
 * Why refusing is enough: each run sends BEGIN, the user's text as one simple-protocol query, then
 * COMMIT or ROLLBACK. A COMMIT in the text would commit the statements before it even when a later
 * one fails, and a ROLLBACK would let the statements after it run outside the run's transaction.
 * Postgres parses the whole query string before it runs any of it, so a text with a syntax error
 * runs nothing; only texts the grammar accepts matter, and in those a transaction can end only
 * through a top-level statement that starts with one of the words below (CALL and DO cannot end
 * it inside a transaction block, PREPARE and rules cannot hold such a statement).
 *
 * So the scanner has to split statements exactly where Postgres does: it skips `--` and nested
 * `/* *\/` comments, '…' strings ('' inside; backslash escapes in E'…', and in every string when
 * `standard_conforming_strings` is off), "…" names, $tag$…$tag$ bodies, and does not split inside
 * the `BEGIN ATOMIC … END` body of CREATE FUNCTION / PROCEDURE (where CASE … END nests).
 * @module
 */

/** A transaction-control statement found in a text. */
export interface TransactionControl {
  /** The statement's leading word(s) in capitals, e.g. `COMMIT`, `PREPARE TRANSACTION`. */
  statement: string;
  /** 1-based character (code point) offset of the statement in the text, as Postgres counts. */
  position: number;
}

/** Options of {@link findTransactionControl}. */
export interface ScanOptions {
  /**
   * The session's `standard_conforming_strings` (default true). When off, a backslash escapes
   * the next character in every '…' string, so `'\''` is one string, not a string and a quote.
   */
  standardConformingStrings?: boolean;
}

/** Statements that start with one of these end, start or nest the run's transaction. */
const CONTROL_WORDS = new Set(['begin', 'start', 'commit', 'end', 'rollback', 'abort', 'savepoint', 'release']);

const isIdentStart = (c: string) => /[A-Za-z_]/.test(c) || c >= '\u0080';
const isIdentPart = (c: string) => /[A-Za-z0-9_$]/.test(c) || c >= '\u0080';
/** A dollar quote's opening: `$$` or `$tag$` (the tag is an identifier without `$`). */
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/**
 * The first transaction-control statement of `sql`, or null when there is none.
 * @example findTransactionControl("select 'commit'; commit") // { statement: 'COMMIT', position: 18 }
 */
export function findTransactionControl(sql: string, options: ScanOptions = {}): TransactionControl | null {
  const backslashInPlainStrings = options.standardConformingStrings === false;
  const n = sql.length;
  let i = 0;

  // Per statement: its words so far (lowercased, up to 4, for CREATE [OR REPLACE] FUNCTION), the
  // word just before the current token, the paren depth and the BEGIN ATOMIC … END depth.
  let words: string[] = [];
  let wordCount = 0;
  let tokens = 0;
  let previousWord: string | null = null;
  let parens = 0;
  let blockDepth = 0;
  let firstAt = 0;

  const endStatement = () => {
    words = [];
    wordCount = 0;
    tokens = 0;
    previousWord = null;
    parens = 0;
    blockDepth = 0;
  };
  const found = (statement: string): TransactionControl => ({ statement, position: Array.from(sql.slice(0, firstAt)).length + 1 });
  const createsRoutine = () =>
    words[0] === 'create' && (words[1] === 'function' || words[1] === 'procedure' || (words[1] === 'or' && words[2] === 'replace' && (words[3] === 'function' || words[3] === 'procedure')));

  /** Skips a '…' string starting at the quote at `i`; returns the index after it. */
  const skipString = (start: number, escapes: boolean): number => {
    let j = start + 1;
    while (j < n) {
      const c = sql[j];
      if (escapes && c === '\\') j += 2;
      else if (c === "'") {
        if (sql[j + 1] === "'") j += 2;
        else return j + 1;
      } else j++;
    }
    return n;
  };

  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '-' && next === '-') {
      const eol = sql.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (c === ';') {
      if (blockDepth === 0) endStatement();
      else previousWord = null;
      i++;
      continue;
    }

    // Any other token; remember where the statement's first one starts.
    if (tokens === 0) firstAt = i;
    tokens++;
    let word: string | null = null;
    if (c === "'") {
      i = skipString(i, backslashInPlainStrings);
    } else if (c === '"') {
      let j = i + 1;
      while (j < n) {
        if (sql[j] === '"') {
          if (sql[j + 1] === '"') j += 2;
          else break;
        } else j++;
      }
      i = j + 1;
    } else if (c === '$') {
      DOLLAR_TAG.lastIndex = i;
      const tag = DOLLAR_TAG.exec(sql);
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? n : close + tag[0].length;
      } else {
        i++;
        while (i < n && /[0-9]/.test(sql[i])) i++;
      }
    } else if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(sql[j])) j++;
      const raw = sql.slice(i, j);
      if ((raw === 'e' || raw === 'E') && sql[j] === "'") {
        // E'…': backslash escapes whatever standard_conforming_strings says.
        i = skipString(j, true);
      } else {
        word = raw.toLowerCase();
        i = j;
      }
    } else if (/[0-9]/.test(c) || (c === '.' && next !== undefined && /[0-9]/.test(next))) {
      i++;
      while (i < n && /[0-9A-Za-z_.]/.test(sql[i])) i++;
    } else {
      if (c === '(') parens++;
      else if (c === ')') parens = Math.max(0, parens - 1);
      i++;
    }

    if (word === null) {
      previousWord = null;
      continue;
    }
    if (tokens === 1 && CONTROL_WORDS.has(word)) return found(word === 'start' ? 'START TRANSACTION' : word.toUpperCase());
    if (tokens === 2 && words[0] === 'prepare' && word === 'transaction') return found('PREPARE TRANSACTION');
    if (wordCount < 4) words.push(word);
    wordCount++;
    if (createsRoutine()) {
      if (word === 'atomic' && previousWord === 'begin' && parens === 0) blockDepth++;
      else if (word === 'case' && blockDepth > 0) blockDepth++;
      else if (word === 'end' && blockDepth > 0) blockDepth--;
    }
    previousWord = word;
  }
  return null;
}
