import { describe, expect, it } from 'vitest';
import { decodeBody } from './charset.js';

describe('charset decoding', () => {
  it('maps windows-1252 specials (€, curly quotes, dashes) that plain latin-1 loses', () => {
    const bytes = Uint8Array.of(0x80, 0x20, 0x93, 0x68, 0x69, 0x94, 0x20, 0x97, 0x20, 0xe9);
    expect(decodeBody(bytes, 'text/html; charset=windows-1252', true)).toBe('€ “hi” — é');
    expect(decodeBody(bytes, 'text/plain; charset=ISO-8859-1', false)).toBe('€ “hi” — é');
  });

  it('decodes shift_jis named in a meta http-equiv tag', () => {
    const head = new TextEncoder().encode('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>');
    const bytes = new Uint8Array([...head, 0x93, 0xfa, 0x96, 0x7b]);
    expect(decodeBody(bytes, 'text/html', true)).toMatch(/日本$/);
  });

  it('lets a BOM win over a wrong header, and falls back to UTF-8', () => {
    const utf8 = new TextEncoder().encode('Zürich');
    expect(decodeBody(Uint8Array.of(0xef, 0xbb, 0xbf, ...utf8), 'text/html; charset=iso-8859-1', true)).toBe('Zürich');
    expect(decodeBody(utf8, 'text/html; charset=no-such-charset', true)).toBe('Zürich');
  });
});
