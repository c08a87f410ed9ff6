import {
  defaultFeatureFlags,
  FEATURE_FLAG_KEYS,
  FEATURE_FLAGS,
  type TFeatureFlagKey,
  type TFeatureFlagsResponse,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { customers, featureFlags } from "../../db/schema/index.js";
import { AppError } from "../../errors.js";
import { type AuditActor, recordAudit } from "../audit-log/audit-log.service.js";

/** Flags per customer: stored values over the defaults of packages/contracts (demo: all on). */
export function createFeatureFlagsService(deps: { db: Db }) {
  return {
    async get(customerId: string, db: Tx = deps.db): Promise<TFeatureFlagsResponse> {
      const [customer] = await db
        .select({ isDemo: customers.isDemo, etqOverride: customers.etqOverride })
        .from(customers)
        .where(eq(customers.id, customerId));
      if (!customer) throw new AppError("NOT_FOUND", USER_MESSAGES.customerNotFound);
      const flags = defaultFeatureFlags(customer.isDemo);
      const stored = await db
        .select({ key: featureFlags.key, enabled: featureFlags.enabled })
        .from(featureFlags)
        .where(eq(featureFlags.customerId, customerId));
      for (const s of stored) {
        if ((FEATURE_FLAG_KEYS as string[]).includes(s.key)) flags[s.key as TFeatureFlagKey] = s.enabled;
      }
      return { flags, etqOverride: customer.etqOverride };
    },

    /**
     * Provider staff switch a flag of the customer they act for; the record belongs to that
     * customer and names the staff member (issue 18 §2).
     */
    async set(ctx: AuditActor, key: TFeatureFlagKey, enabled: boolean) {
      const { customerId } = ctx;
      await deps.db.transaction(async (tx) => {
        const before = (await this.get(customerId, tx)).flags[key];
        await tx
          .insert(featureFlags)
          .values({ customerId, key, enabled })
          .onConflictDoUpdate({ target: [featureFlags.customerId, featureFlags.key], set: { enabled } });
        await recordAudit(tx, ctx, {
          resource: "feature_flag",
          action: "update",
          resourceId: key,
          resourceName: FEATURE_FLAGS[key].label,
          before: { enabled: before },
          after: { enabled },
        });
      });
      return this.get(customerId);
    },
  };
}

export type FeatureFlagsService = ReturnType<typeof createFeatureFlagsService>;
