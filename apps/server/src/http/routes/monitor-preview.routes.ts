import { ZMessage, ZMonitorPreview, ZMonitorPreviewBody } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf, clientGone } from "../context.js";
import type { AppOptions } from "../types.js";

export function monitorPreviewRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/monitors/preview",
    {
      schema: {
        operationId: "previewMonitor",
        tags: ["monitors"],
        description:
          "The window a monitor with these settings would evaluate now (sizes, time span) and the evaluation it would give; with `period`, the window of that period instead (at most MVD_QUERY_MAX_RECORD_COUNT records). Stores nothing. The statistics stop when the client goes away or past STATS_REQUEST_CPU_MS of CPU time (400).",
        body: ZMonitorPreviewBody,
        response: { 200: ZMonitorPreview, 400: ZMessage, 404: ZMessage },
      },
    },
    (req, reply) => {
      const b = req.body;
      return services.monitorPreview.preview(
        authOf(req),
        {
          type: b.type,
          lineId: b.line_id,
          alertThreshold: b.alert_threshold,
          useExcludedPartIds: b.use_excluded_part_ids,
          useExcludedModelNumbers: b.use_excluded_model_numbers,
          filter: b.filter,
          period: b.period,
        },
        { signal: clientGone(reply) },
      );
    },
  );
}
