import { DATA_SOURCE_MESSAGES, type TCreateDataSourceBody, type TDataSource } from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { PlantsService } from "../plants/plants.service.js";
import { createDataSourcesRepo } from "./data-sources.repo.js";

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
      if (!row) throw new AppError("NOT_FOUND", DATA_SOURCE_MESSAGES.notFound);
      return toDataSource(row);
    },

    async create(ctx: AuthContext, plantId: string, body: TCreateDataSourceBody): Promise<TDataSource> {
      const ingestor = await deps.plants.ingestor(ctx, plantId);
      if (await repo.findByName(ingestor.id, body.name))
        throw new AppError("CONFLICT", DATA_SOURCE_MESSAGES.nameTaken);
      const row = await repo.insert({ customerId: ctx.customerId, ingestorId: ingestor.id, ...body });
      changed();
      return toDataSource(row);
    },

    async delete(ctx: AuthContext, id: string) {
      const row = await repo.find(ctx.customerId, id);
      if (!row) throw new AppError("NOT_FOUND", DATA_SOURCE_MESSAGES.notFound);
      await repo.delete(ctx.customerId, id);
      changed();
    },
  };
}
export type DataSourcesService = ReturnType<typeof createDataSourcesService>;
