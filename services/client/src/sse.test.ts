import { describe, expect, it } from 'vitest';
import { SseParser } from './sse.js';

describe('SseParser', () => {
  it('reads id and data lines of a frame ended by a blank line', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\ndata: {"type":"done"}\n\n')).toEqual([{ id: 7, data: '{"type":"done"}' }]);
  });

  it('holds back a frame until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\ndata: {"a":1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: 1, data: '{"a":1}' }]);
  });

  it('reassembles frames split at every possible byte', () => {
    const text = 'id: 1\r\ndata: {"x":"héllo"}\r\n\r\n: keepalive\r\n\r\nid: 2\ndata: {"y":2}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser();
      const frames = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(frames, `split at ${cut}`).toEqual([
        { id: 1, data: '{"x":"héllo"}' },
        { id: 2, data: '{"y":2}' },
      ]);
    }
  });

  it('accepts CRLF and lone CR line ends', () => {
    const parser = new SseParser();
    expect(parser.push('id: 3\r\ndata: a\r\n\r\nid: 4\rdata: b\r\r')).toEqual([{ id: 3, data: 'a' }]);
    // The last CR could be half of a CRLF, so that frame ends only when the next byte shows it is not.
    expect(parser.push(': keepalive\r\r')).toEqual([{ id: 4, data: 'b' }]);
  });

  it('joins several data lines with a newline', () => {
    const parser = new SseParser();
    expect(parser.push('id: 5\ndata: first\ndata:second\ndata:  third\n\n')).toEqual([{ id: 5, data: 'first\nsecond\n third' }]);
  });

  it('reports keepalive comments and never turns them into frames', () => {
    let keepalives = 0;
    const parser = new SseParser(() => (keepalives += 1));
    expect(parser.push(': keepalive\n\n:\n\nid: 9\ndata: x\n\n: keepalive\n\n')).toEqual([{ id: 9, data: 'x' }]);
    expect(keepalives).toBe(3);
  });

  it('ignores unknown fields, a frame without data, and a leading byte-order mark', () => {
    const parser = new SseParser();
    expect(parser.push('\uFEFFevent: x\nretry: 10\nid: 1\n\nid: 2\ndata: y\n\n')).toEqual([{ id: 2, data: 'y' }]);
  });

  it('gives a null id to a frame whose id is missing or not a whole number', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\n\nid: x1\ndata: b\n\n')).toEqual([
      { id: null, data: 'a' },
      { id: null, data: 'b' },
    ]);
  });

  it('does not let the id of one frame leak into the next', () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\ndata: a\n\ndata: b\n\n').map((f) => f.id)).toEqual([1, null]);
  });

  it('parses a megabyte-long data line fed in small chunks', () => {
    const big = JSON.stringify({ type: 'final', pad: 'x'.repeat(1_000_000) });
    const text = `id: 10\ndata: ${big}\n\n`;
    const parser = new SseParser();
    const frames = [];
    for (let i = 0; i < text.length; i += 4096) frames.push(...parser.push(text.slice(i, i + 4096)));
    expect(frames).toEqual([{ id: 10, data: big }]);
  });
});
