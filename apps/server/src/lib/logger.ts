import pino from "pino";

/**
 * One logger for the process (conventions: structured logs): the pino root made in main.ts, a
 * child per role (`role: "api" | "worker" | "ingest" | "simulator"`), handed to Fastify, the
 * ingestor, the worker and the notifier. Fields name what a line is about — `monitorId`, `slot`,
 * `outboxId`, `dataSourceId`, `topic` — never a payload or a statement's parameters.
 */
export type Logger = pino.Logger;

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { pid: process.pid } }, destination as pino.DestinationStream);
}

/** For callers that log nothing (tests that do not read the log, tools). */
export const silentLogger: Logger = pino({ level: "silent" });
