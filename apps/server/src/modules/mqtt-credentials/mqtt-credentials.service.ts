import {
  AUDIT_SECRET_MARK,
  MQTT_PASSWORD_PREFIX,
  type TMqttCredential,
  type TRotateMqttPasswordResponse,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { PlantsService } from "../plants/plants.service.js";
import { createMqttCredentialsRepo } from "./mqtt-credentials.repo.js";

const toCredential = (r: {
  username: string;
  passwordSetAt: Date | null;
  lastConnectedAt: Date | null;
}): TMqttCredential => ({
  username: r.username,
  passwordSetAt: r.passwordSetAt?.toISOString() ?? null,
  lastConnectedAt: r.lastConnectedAt?.toISOString() ?? null,
});

/**
 * The MQTT credential of each plant's ingestor on the embedded broker (README "Security"): the
 * username is the ingestor id; the password is shown once when set and stored as its SHA-256.
 * Setting a new one replaces the old, which stops working at once: `onChange` lets the broker in
 * this process disconnect its clients now, other processes' brokers do so at their next refresh.
 */
export function createMqttCredentialsService(deps: {
  db: Db;
  plants: PlantsService;
  now?: () => Date;
  onChange?: () => void;
}) {
  const repo = createMqttCredentialsRepo(deps.db);
  const now = deps.now ?? (() => new Date());
  return {
    async get(ctx: AuthContext, plantId: string): Promise<TMqttCredential> {
      const ingestor = await deps.plants.ingestor(ctx, plantId);
      const row = await repo.find(ingestor.id);
      return toCredential(row ?? { username: ingestor.id, passwordSetAt: null, lastConnectedAt: null });
    },

    /** A new password for the plant's MQTT clients, in this answer only. */
    async rotate(ctx: AuthContext, plantId: string): Promise<TRotateMqttPasswordResponse> {
      const ingestor = await deps.plants.ingestor(ctx, plantId);
      const plant = await deps.plants.get(ctx, plantId);
      const password = `${MQTT_PASSWORD_PREFIX}${newToken()}`;
      const row = await deps.db.transaction(async (tx) => {
        const txRepo = createMqttCredentialsRepo(tx);
        const existing = await txRepo.find(ingestor.id);
        const saved = await txRepo.setPassword({
          ingestorId: ingestor.id,
          customerId: ctx.customerId,
          passwordHash: hashToken(password),
          at: now(),
        });
        // The password is shown once; the log keeps only that a new one was set.
        await recordAudit(tx, ctx, {
          resource: "mqtt_credential",
          action: existing ? "update" : "create",
          resourceId: ingestor.id,
          resourceName: plant.name,
          plantId,
          before: existing ? { username: existing.username } : null,
          after: { username: saved.username, password: AUDIT_SECRET_MARK },
        });
        return saved;
      });
      deps.onChange?.();
      return { credential: toCredential(row), password };
    },
  };
}
export type MqttCredentialsService = ReturnType<typeof createMqttCredentialsService>;
