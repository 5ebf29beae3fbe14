/** One parsed frame of the event stream (spec §6: `id:` and `data:` lines, blank line; `:` is a keepalive). */
export interface SseFrame {
  /** The frame's `id:` as an integer, or null when it carried none (or a non-integer one). */
  id: number | null;
  /** The `data:` lines of the frame joined with `\n`. */
  data: string;
}

/**
 * Incremental SSE parser (WHATWG framing): feed decoded text chunks in any split, get whole frames.
 * Lines end in LF, CRLF or a lone CR. Keepalive comments are reported through `onKeepalive`, so a
 * follower can tell a quiet stream from a dead one. Fields other than `id` and `data` are ignored.
 */
export class SseParser {
  private buffer = '';
  /** Where to resume looking for a line end; avoids rescanning a long partial `data:` line per chunk. */
  private scanFrom = 0;
  private started = false;
  private id: number | null = null;
  private data: string[] = [];
  constructor(private readonly onKeepalive: () => void = () => {}) {}

  push(chunk: string): SseFrame[] {
    this.buffer += chunk;
    if (!this.started && this.buffer.length > 0) {
      this.started = true;
      if (this.buffer.charCodeAt(0) === 0xfeff) this.buffer = this.buffer.slice(1);
    }
    const frames: SseFrame[] = [];
    let lineStart = 0;
    let i = this.scanFrom;
    while (i < this.buffer.length) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) {
        i += 1;
        continue;
      }
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (c === 0x0d && i + 1 === this.buffer.length) break;
      const line = this.buffer.slice(lineStart, i);
      i += c === 0x0d && this.buffer.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      lineStart = i;
      const frame = this.line(line);
      if (frame) frames.push(frame);
    }
    this.buffer = this.buffer.slice(lineStart);
    this.scanFrom = i - lineStart;
    return frames;
  }

  private line(line: string): SseFrame | null {
    if (line === '') {
      const frame = this.data.length > 0 ? { id: this.id, data: this.data.join('\n') } : null;
      this.id = null;
      this.data = [];
      return frame;
    }
    if (line.startsWith(':')) {
      this.onKeepalive();
      return null;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'id') this.id = /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : null;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}
