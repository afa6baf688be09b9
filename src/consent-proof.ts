/**
 * Consent as a proof (UV-3, UV-5): the one pure description of what the user consented to, the
 * challenge derived from it, and the checks of a WebAuthn assertion against a public key. The page
 * (`user-verifier.ts`, on demand) and an auditor (`verifyReceipt`, the `ai-ops/verify` entry, in a
 * browser or in Node ≥ 20 with no DOM) run this same code, so both compute the same bytes.
 *
 * Nothing here touches the DOM or storage: WebCrypto (`globalThis.crypto.subtle`) only.
 * @module
 */

/** What one consent was given for. Its canonical JSON's SHA-256 is the WebAuthn challenge. */
export type ConsentDescription =
  | {
    /** Approving one call's dialog (UV-1). */
    readonly kind: 'call';
    /** The page's origin, e.g. `http://localhost:8000`. */
    readonly origin: string;
    readonly tool: string;
    /** The operation name, e.g. `node_delete_file`. */
    readonly operation: string;
    /** Hex SHA-256 of the canonical JSON of the call's input ({@link inputDigest}). */
    readonly inputDigest: string;
    /** The confirmation request's id (the call's id on this page). */
    readonly callId: number;
    /** Epoch ms when the dialog opened for this call. */
    readonly openedAt: number;
    /** The user also chose 「このページでは今後尋ねない」. */
    readonly skipFuture: boolean;
  }
  | {
    /** Turning a switch on until `enabledUntil` (UV-1). */
    readonly kind: 'switch';
    readonly origin: string;
    readonly tool: string;
    readonly enabledUntil: number;
  }
  | {
    /** Approving several waiting calls at once (BATCH-2): the digests of their call descriptions, in order. */
    readonly kind: 'batch';
    readonly origin: string;
    readonly batchId: string;
    readonly calls: readonly string[];
  }
  | {
    /** Removing the enrolled credential (UV-2: itself a verified action). */
    readonly kind: 'unenrol';
    readonly origin: string;
    readonly credentialId: string;
  };

/**
 * What a verified consent leaves behind: the assertion, as base64url strings, and what it was for.
 * A row keeps it (UV-5); the stored switch value carries the switch's (UV-3).
 */
export interface Receipt {
  /** base64url of the credential id. */
  readonly credentialId: string;
  /** base64url of the authenticator data. */
  readonly authenticatorData: string;
  /** base64url of the client data JSON (its `challenge` is the description's). */
  readonly clientDataJSON: string;
  /** base64url of the signature as the authenticator made it (ES256: DER). */
  readonly signature: string;
  readonly description: ConsentDescription;
}

/** An enrolled credential's public part: all the page ever stores of it (UV-1). */
export interface PublicKeyRecord {
  /** base64url of the credential id. */
  readonly credentialId: string;
  /** The COSE algorithm: -7 ES256, -257 RS256, -8 EdDSA. */
  readonly alg: number;
  /** base64url of the SubjectPublicKeyInfo (`AuthenticatorAttestationResponse.getPublicKey()`). */
  readonly spki: string;
}

/** The COSE algorithms the page asks for and can verify, most preferred first. */
export const SUPPORTED_ALGORITHMS: readonly number[] = [-7, -8, -257];

/**
 * JSON with object keys sorted at every depth, no whitespace; `undefined` members left out as
 * JSON.stringify does. The same value always gives the same text.
 * @example canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }) // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export declare function canonicalJson(value: unknown): string;

/** SHA-256 of a string's UTF-8 bytes, or of bytes. */
export declare function sha256(data: string | Uint8Array): Promise<Uint8Array>;

/** Hex SHA-256 of the canonical JSON of a call's input. */
export declare function inputDigest(input: unknown): Promise<string>;

/** The WebAuthn challenge of a description: SHA-256 of its canonical JSON. */
export declare function challengeOf(description: ConsentDescription): Promise<Uint8Array>;

/** base64url without padding, both ways. */
export declare function toBase64Url(bytes: Uint8Array | ArrayBuffer): string;
export declare function fromBase64Url(text: string): Uint8Array;

/**
 * Checks an assertion receipt against a public key: the signature over authenticatorData ‖
 * SHA-256(clientDataJSON) (ES256 DER → raw r‖s for WebCrypto; RS256; EdDSA), clientData `type`
 * `webauthn.get`, its `challenge` equal to {@link challengeOf} the receipt's description, its
 * `origin` the description's, the rpIdHash the SHA-256 of the origin's host, the UP and UV flags set,
 * and the receipt's credential id the key's. Resolves to null when all hold, else to the reason
 * (plain English, for a developer). Never rejects.
 */
export declare function checkReceipt(receipt: Receipt, key: PublicKeyRecord): Promise<string | null>;

/**
 * A short, readable fingerprint of a key: the first 16 bytes of SHA-256(SPKI), hex in groups of 4,
 * e.g. `3f2a 9c01 …`. The page shows it so that a user can compare it with the key they hold.
 */
export declare function fingerprint(key: PublicKeyRecord): Promise<string>;
