/**
 * UTF-8 length without allocating: what `maxBytes` measures (IN-4). A module of its own because the
 * call path's validator (`schema.ts`, on demand) and the tools' limits (`limits.ts`, with the page)
 * both use it, and whatever file holds it loads with both: in `definition.ts` it went into what a
 * page whose switches are all off downloads (PKG-4).
 * @module
 */

/**
 * UTF-8 length of a string in bytes — what `maxBytes` measures (IN-4) — counted without allocating. A lone surrogate counts 3 bytes
 * (what TextEncoder writes for U+FFFD).
 * @example utf8ByteLength('あ') // 3
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
