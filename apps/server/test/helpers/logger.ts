import { createLogger } from "../../src/lib/logger.js";

/** The process logger writing into memory: every line as pino wrote it (JSON), in order. */
export function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger("debug", { write: (line: string) => void lines.push(line) });
  return {
    logger,
    /** Every line, as written: message and fields. */
    text: () => lines.join(""),
    messages: () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg),
  };
}
