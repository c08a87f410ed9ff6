import {
  defaultFeatureFlags,
  FEATURE_FLAG_KEYS,
  type TFeatureFlagKey,
  type TFeatureFlagsResponse,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { customers, featureFlags } from "../../db/schema/index.js";
import { AppError } from "../../errors.js";

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

    async set(customerId: string, key: TFeatureFlagKey, enabled: boolean) {
      await deps.db
        .insert(featureFlags)
        .values({ customerId, key, enabled })
        .onConflictDoUpdate({ target: [featureFlags.customerId, featureFlags.key], set: { enabled } });
      return this.get(customerId);
    },
  };
}

export type FeatureFlagsService = ReturnType<typeof createFeatureFlagsService>;
