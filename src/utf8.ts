/**
 * UTF-8 byte counting (IN-4), shared by the limits and the call path's validator.
 * @module
 */

/**
 * UTF-8 length of a string in bytes, counted without allocating. A lone surrogate counts 3 bytes
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
