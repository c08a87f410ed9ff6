import {
  DATA_SOURCE_MESSAGES,
  type TCreateDataSourceBody,
  type TDataSource,
  topicFiltersOverlap,
  ZCreateDataSourceBody,
} from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { ingestors } from "../../db/schema/index.js";
import { AppError, badRequest } from "../../errors.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { PlantsService } from "../plants/plants.service.js";
import { createDataSourcesRepo, isTopicOwnerViolation, isUniqueViolation } from "./data-sources.repo.js";

const toDataSource = (r: {
  id: string;
  name: string;
  topic: string;
  createdAt: Date;
  ingestorId: string;
}): TDataSource => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
});

const notFound = () => new AppError("NOT_FOUND", DATA_SOURCE_MESSAGES.notFound);
const nameTaken = () => new AppError("CONFLICT", DATA_SOURCE_MESSAGES.nameTaken);
const topicTaken = () => new AppError("CONFLICT", DATA_SOURCE_MESSAGES.topicTaken);

export function createDataSourcesService(deps: {
  db: Db;
  plants: PlantsService;
  /** Told after every change so the ingestor re-subscribes without a restart. */
  onChange?: () => void;
}) {
  const repo = createDataSourcesRepo(deps.db);
  const changed = () => deps.onChange?.();

  return {
    async listForPlant(ctx: AuthContext, plantId: string): Promise<TDataSource[]> {
      const ingestor = await deps.plants.ingestor(ctx, plantId);
      return (await repo.listByIngestor(ctx.customerId, ingestor.id)).map(toDataSource);
    },

    async get(ctx: AuthContext, id: string): Promise<TDataSource> {
      const row = await repo.find(ctx.customerId, id);
      if (!row) throw notFound();
      return toDataSource(row);
    },

    /**
     * Names are unique per plant (its one ingestor), ignoring letter case, so two cards never
     * read the same. The body rules (trimmed, bounded, topic a valid MQTT filter) are the
     * contract's, checked here too so callers other than the route (seeds, imports) obey them.
     * The name and topic checks run in the insert's transaction after the topic lock, so two
     * creates — of one customer or of two — cannot both pass them; the unique index on the name
     * and migration 0012's topic trigger refuse whatever skips them.
     */
    async create(ctx: AuthContext, plantId: string, input: TCreateDataSourceBody): Promise<TDataSource> {
      const parsed = ZCreateDataSourceBody.safeParse(input);
      if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => i.message).join("; "));
      const body = parsed.data;
      const ingestor = await deps.plants.ingestor(ctx, plantId);
      let row: Awaited<ReturnType<typeof repo.insert>>;
      try {
        row = await deps.db.transaction(async (tx) => {
          const txRepo = createDataSourcesRepo(tx);
          await txRepo.lockTopics();
          if (await txRepo.findByName(ingestor.id, body.name)) throw nameTaken();
          // Every topic belongs to one plant: otherwise a source could read another plant's (or
          // another customer's) records. The message names no other customer.
          const others = await txRepo.topicsOutsideIngestor(ingestor.id);
          if (others.some((o) => topicFiltersOverlap(o.topic, body.topic))) throw topicTaken();
          const inserted = await txRepo.insert({
            customerId: ctx.customerId,
            ingestorId: ingestor.id,
            ...body,
          });
          await recordAudit(tx, ctx, {
            resource: "data_source",
            action: "create",
            resourceId: inserted.id,
            resourceName: inserted.name,
            plantId,
            before: null,
            after: { name: inserted.name, topic: inserted.topic },
          });
          return inserted;
        });
      } catch (err) {
        if (isTopicOwnerViolation(err)) throw topicTaken();
        if (isUniqueViolation(err)) throw nameTaken();
        throw err;
      }
      changed();
      return toDataSource(row);
    },

    /** Another customer's source, or one already deleted, is not found (404). */
    async delete(ctx: AuthContext, id: string) {
      await deps.db.transaction(async (tx) => {
        const txRepo = createDataSourcesRepo(tx);
        const row = await txRepo.find(ctx.customerId, id);
        if (!row || !(await txRepo.delete(ctx.customerId, id))) throw notFound();
        const [ingestor] = await tx
          .select({ plantId: ingestors.plantId })
          .from(ingestors)
          .where(eq(ingestors.id, row.ingestorId));
        await recordAudit(tx, ctx, {
          resource: "data_source",
          action: "delete",
          resourceId: row.id,
          resourceName: row.name,
          plantId: ingestor?.plantId ?? null,
          before: { name: row.name, topic: row.topic },
          after: null,
        });
      });
      changed();
    },
  };
}
export type DataSourcesService = ReturnType<typeof createDataSourcesService>;
