/**
 * Decode response bytes: BOM first, then the Content-Type charset, then <meta charset> / http-equiv in
 * the first 2 KB, else UTF-8. Node ships full ICU, so TextDecoder knows windows-1252, shift_jis, etc.
 */

function sniffMeta(bytes: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const m =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(head);
  return m?.[1] ?? null;
}

export function charsetFromContentType(contentType: string): string | null {
  const m = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType);
  return m?.[1] ?? null;
}

function decoderFor(label: string | null): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.toLowerCase());
  } catch {
    return null;
  }
}

/** Windows-1252 bytes 0x80–0x9F (undefined ones map to the C1 control of the same value). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
];

/**
 * Node 20's TextDecoder decodes windows-1252 (and its aliases latin1/iso-8859-1, per WHATWG) as plain
 * ISO-8859-1, losing €, curly quotes and dashes; decode that one table ourselves.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const codes = Array.from(bytes.subarray(i, i + 8192), (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b));
    out += String.fromCharCode(...codes);
  }
  return out;
}

export function decodeBody(bytes: Uint8Array, contentType: string, isHtml: boolean): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const decoder =
    decoderFor(charsetFromContentType(contentType)) ?? (isHtml ? decoderFor(sniffMeta(bytes)) : null) ?? new TextDecoder('utf-8');
  return decoder.encoding === 'windows-1252' ? decodeWindows1252(bytes) : decoder.decode(bytes);
}
