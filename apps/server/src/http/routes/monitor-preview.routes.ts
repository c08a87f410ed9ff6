import { ZMessage } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { createMonitorPreview } from "../../modules/monitor-preview/monitor-preview.service.js";
import { ZMonitorFilter } from "../../worker/evaluate/filter.js";
import type { AppOptions } from "../app.js";
import { authOf } from "../context.js";

/** A monitor's settings as the monitor forms send them (filter keys as in monitors.filter). */
const ZMonitorPreviewBody = z
  .object({
    type: z.enum(["mvd", "svd", "cap"]),
    line_id: z.string().uuid(),
    alert_threshold: z.enum(["low", "medium", "high"]).default("medium"),
    use_excluded_part_ids: z.boolean().default(false),
    use_excluded_model_numbers: z.boolean().default(false),
    filter: ZMonitorFilter,
  })
  .strict();

const ZMonitorPreview = z.object({
  window_size: z.number().int(),
  training_size: z.number().int(),
  evaluation_size: z.number().int(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  training_from: z.string().nullable(),
  evaluation_from: z.string().nullable(),
  evaluation: z.object({
    state: z.enum(["OK", "BREACH", "NO_DATA", "ERROR"]),
    reason: z.string().nullable(),
    score: z.number().nullable(),
    threshold: z.number().nullable(),
    training_size: z.number().int().nullable(),
    evaluation_size: z.number().int().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  }),
});

export function monitorPreviewRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preview = createMonitorPreview({ db: services.db });

  r.post(
    "/api/monitors/preview",
    {
      schema: {
        operationId: "previewMonitor",
        tags: ["monitors"],
        description:
          "The window a monitor with these settings would evaluate now (sizes, time span) and the evaluation it would give. Stores nothing.",
        body: ZMonitorPreviewBody,
        response: { 200: ZMonitorPreview, 400: ZMessage, 404: ZMessage },
      },
    },
    (req) => {
      const b = req.body;
      return preview.preview(authOf(req), {
        type: b.type,
        lineId: b.line_id,
        alertThreshold: b.alert_threshold,
        useExcludedPartIds: b.use_excluded_part_ids,
        useExcludedModelNumbers: b.use_excluded_model_numbers,
        filter: b.filter,
      });
    },
  );
}
