import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback OTLP/HTTP receiver for `npm run bench -- --otlp`: it accepts every export (traces, metrics),
 * counts it and answers 200 at once, so what the figures measure is the exporting side's cost, as with
 * a collector that keeps up.
 */
export interface OtlpSink {
  url: string;
  close(): Promise<{ requests: number; bytes: number }>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => { bytes += chunk.length; });
    req.on('end', () => {
      requests++;
      // An empty ExportTraceServiceResponse (or metrics'), as a collector answers: no bytes in protobuf.
      if (req.headers['content-type'] === 'application/x-protobuf') res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return { requests, bytes };
    },
  };
}

// `--serve` (telemetry-cost.ts): a sink in a process of its own, announcing its URL over IPC, so the
// receiving side's CPU is not counted with the exporting process's.
if (process.argv.includes('--serve') && process.send) {
  const sink = await startOtlpSink();
  process.send({ url: sink.url });
  process.on('SIGTERM', () => void sink.close().then(() => process.exit(0)));
  process.on('disconnect', () => void sink.close().then(() => process.exit(0)));
}
