// Helpers the benches that start the product in a child process share: free ports, CPU seconds from
// /proc, a keep-alive HTTP client and percentiles.
import { readFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";

/** Clock ticks per second of /proc's CPU times (USER_HZ on Linux). */
export const CLOCK_TICKS = 100; // USER_HZ on Linux

/** A TCP port free on 127.0.0.1 just now (the OS picks it; closed again before it is returned). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds (user + system) of a process so far, from /proc; with `tid`, only that thread's
 * (`cpuSeconds(pid, pid)`: the main thread's).
 */
export function cpuSeconds(pid: number, tid?: number): number {
  const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Keep-alive connections for `request`: the benches reuse them; destroy it when done. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One HTTP request to 127.0.0.1:`port` over the shared keep-alive agent; the whole body as a string. */
export function request(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/** The `q` quantile (0..1) of ascending `sorted` by the nearest-rank method; NaN when empty. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}
