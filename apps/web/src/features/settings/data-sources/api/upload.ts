import type { TCsvUploadResult } from "@linewatch/contracts";
import { ApiError } from "../../../../shared/api/client";

export type CsvUploadOptions = {
  /** Bytes sent so far of all to send (XMLHttpRequest upload progress: fetch reports none). */
  onProgress: (loaded: number, total: number) => void;
  /** The whole file is sent; the server is now storing its rows. */
  onUploaded: () => void;
  signal?: AbortSignal;
};

/**
 * POST a CSV file as a raw text/csv body with upload progress. Answers like `api()`: the parsed
 * body on 2xx, an ApiError with the server's message otherwise, an AbortError when cancelled.
 */
export function postCsv(path: string, file: Blob, opts: CsvUploadOptions): Promise<TCsvUploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("content-type", "text/csv");
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => opts.onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.upload.onload = () => opts.onUploaded();
    xhr.onload = () => {
      let json: unknown;
      try {
        json = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(json as TCsvUploadResult);
      const b = (json && typeof json === "object" ? json : {}) as Record<string, unknown>;
      reject(
        new ApiError(
          xhr.status,
          xhr.statusText,
          typeof b.message === "string" ? b.message : xhr.statusText || `Status ${xhr.status}`,
          b,
        ),
      );
    };
    xhr.onerror = () =>
      reject(new ApiError(0, "Network Error", "The server could not be reached. Check your connection."));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    if (opts.signal) {
      if (opts.signal.aborted) return xhr.abort();
      opts.signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    xhr.send(file);
  });
}
