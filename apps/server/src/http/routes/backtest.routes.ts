import { PassThrough } from "node:stream";
import {
  BACKTEST_STREAM_TYPE,
  SERVER_MESSAGES,
  type TBacktestStreamLine,
  ZBacktest,
  ZMessage,
} from "@linewatch/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { loggableError } from "../../db/errors.js";
import { AppError, STATUS_OF } from "../../errors.js";
import { authOf, clientGone } from "../context.js";
import type { AppOptions } from "../types.js";

/** Backtest: issue #18 §1; its progress streamed and its cancellation, issue #27 §1. */
export function backtestRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/monitors/backtest",
    {
      schema: {
        operationId: "backtestMonitor",
        tags: ["monitors"],
        description: `Replays a monitor (\`task\`: its settings as a create takes them, with the form's \`rules\`; or \`monitor_uuid\`: a saved one) at its frequency over \`period\` (default the last 7 days, at most 31): each slot's window, evaluation, alert rules and alert opening / auto-resolving, by the worker's code. Stores nothing. With \`Accept: ${BACKTEST_STREAM_TYPE}\` the answer is a stream of JSON lines: \`progress\` as the replay moves, then \`result\` (this same body) or \`error\`. The replay stops when the client goes away or past BACKTEST_CPU_MS of CPU time (400).`,
        body: services.backtest.schemas.ZBacktestBody,
        response: { 200: ZBacktest, 400: ZMessage, 401: ZMessage, 404: ZMessage },
      },
    },
    async (req, reply) => {
      const signal = clientGone(reply);
      if (!req.headers.accept?.includes(BACKTEST_STREAM_TYPE))
        return services.backtest.backtest(authOf(req), req.body, { signal });

      // Streamed: the status is sent with the first progress line, once the records are read and
      // the replay has begun; a failure before that answers with its own status, as above.
      const stream = new PassThrough();
      const line = (l: TBacktestStreamLine) => stream.write(`${JSON.stringify(l)}\n`);
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        // A stream is sent as it is (the 200 schema describes the plain answer, the `result` line's body).
        (reply.type(BACKTEST_STREAM_TYPE) as FastifyReply).send(stream);
      };
      try {
        const backtest = await services.backtest.backtest(authOf(req), req.body, {
          signal,
          onProgress: ({ done, total, at }) => {
            start();
            line({ type: "progress", done, total, at: at == null ? null : new Date(at).toISOString() });
          },
        });
        start();
        line({ type: "result", backtest });
      } catch (err) {
        if (!started) throw err;
        if (err instanceof AppError)
          line({ type: "error", status: STATUS_OF[err.code], message: err.message });
        else if (!signal.aborted) {
          req.log.error({ err: loggableError(err) }, "backtest failed");
          line({ type: "error", status: 500, message: SERVER_MESSAGES.internal });
        }
      }
      stream.end();
      return reply;
    },
  );
}
