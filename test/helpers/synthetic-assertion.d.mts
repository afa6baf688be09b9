// Types of synthetic-assertion.mjs for the TypeScript tests.
import type { ConsentDescription, PublicKeyRecord, Receipt } from '../../src/consent-proof.js';

export interface SyntheticKey {
  readonly alg: number;
  readonly privateKey: CryptoKey;
  readonly record: PublicKeyRecord;
}
export interface ReceiptOverrides {
  flags?: number;
  type?: string;
  origin?: string;
  challenge?: string;
  rpId?: string;
  signFor?: ConsentDescription;
  credentialId?: string;
}
export function descriptionJson(description: ConsentDescription): string;
export function makeKey(alg?: number): Promise<SyntheticKey>;
export function rawToDer(raw: Uint8Array): Uint8Array;
export function makeReceipt(key: SyntheticKey, description: ConsentDescription, overrides?: ReceiptOverrides): Promise<Receipt>;
