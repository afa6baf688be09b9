#!/usr/bin/env node
// Checks an ai-ops audit record (the log's 「記録を保存」 file, AUDIT-1/AUDIT-2) offline, with the
// public key the auditor holds: the chain from the first line to the last, and every receipt on it.
//   npx --no-install ai-ops-verify ai-ops-log-2026-12-01T20-05-09Z.jsonl --key key.json
//   npx --no-install ai-ops-verify record.jsonl --key key.json --input 7=input-7.json
// `--key` is a file holding the key's JSON ({credentialId, alg, spki}, as the page's consent panel
// gives it; compare its fingerprint with the one the page shows), or that JSON itself. `--input
// N=FILE` hands the input of line N (a JSON file), for a line whose input was longer than the row
// keeps and which therefore carries only its digest.
// Exit status: 0 the record verifies; 1 it does not (the first line edited, deleted, duplicated or
// reordered, or a receipt that does not check, is named); 2 the command was not used right.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { verifyAuditRecord } from '../dist/lib/src/verify.js';

const USAGE = 'usage: ai-ops-verify FILE --key KEY.json [--input LINE=INPUT.json ...]';

/** The command's arguments, or a string saying what is wrong with them. */
export function parseArguments(args) {
  let file;
  let key;
  const inputs = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--key') key = args[++i];
    else if (arg.startsWith('--key=')) key = arg.slice(6);
    else if (arg === '--input' || arg.startsWith('--input=')) {
      const value = arg === '--input' ? args[++i] : arg.slice(8);
      const match = /^(\d+)=(.+)$/.exec(value ?? '');
      if (!match) return `--input takes LINE=FILE, not ${value ?? 'nothing'}`;
      inputs[Number(match[1])] = match[2];
    } else if (arg === '--help' || arg === '-h') return USAGE;
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else if (file === undefined) file = arg;
    else return `one record at a time: ${file}, then ${arg}`;
  }
  if (file === undefined) return 'no record file given';
  if (key === undefined) return 'no --key given: the receipts are checked against the key you hold';
  return { file, key, inputs };
}

/** Reads a JSON file, or says why it cannot. */
function readJson(path, what) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${what} ${path} cannot be read as JSON: ${error.message}`);
  }
}

/** Runs the command; resolves to its exit status, having written its report. */
export async function main(args, out = process.stdout, err = process.stderr) {
  const parsed = parseArguments(args);
  if (typeof parsed === 'string') {
    err.write(`${parsed}\n${parsed === USAGE ? '' : `${USAGE}\n`}`);
    return 2;
  }
  let text;
  let key;
  const inputs = {};
  try {
    text = readFileSync(parsed.file, 'utf8');
    key = parsed.key.trimStart().startsWith('{') ? JSON.parse(parsed.key) : readJson(parsed.key, 'the key');
    for (const [line, path] of Object.entries(parsed.inputs)) inputs[line] = readJson(path, `the input of line ${line},`);
  } catch (error) {
    err.write(`${error.message}\n`);
    return 2;
  }
  const check = await verifyAuditRecord(text, key, { inputs });
  if (!check.ok) {
    out.write(`FAILED: ${check.problem.reason}\n`);
    return 1;
  }
  out.write(`OK: ${check.lines} lines, the chain holds; ${check.verified.length} receipts verified\n`);
  if (check.head) out.write(`last digest: ${check.head}\n`);
  for (const line of check.inputNotChecked) {
    out.write(`line ${line}: input not checked (only its digest is in the record); hand it with --input ${line}=FILE\n`);
  }
  return 0;
}

// Run as the command (npm's bin link resolves to this file), not when a test imports it.
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2));
}
