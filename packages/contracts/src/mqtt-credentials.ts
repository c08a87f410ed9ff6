import { z } from "zod";
import { zString } from "./common.js";

/**
 * A plant's MQTT credential on the embedded broker, as administrators see it: the username and
 * when the password was set, never the password after it is shown once.
 */
export const ZMqttCredential = z.object({
  /** The plant's ingestor id. */
  username: zString(),
  /** null until a password is first set: the plant's clients cannot connect yet. */
  passwordSetAt: z.iso.datetime({ offset: true }).nullable(),
  lastConnectedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type TMqttCredential = z.infer<typeof ZMqttCredential>;

/** The new password is in this answer only: it is shown once. */
export const ZRotateMqttPasswordResponse = z.object({ credential: ZMqttCredential, password: zString() });
export type TRotateMqttPasswordResponse = z.infer<typeof ZRotateMqttPasswordResponse>;

/** A login on the embedded broker: the plant's Ingestor ID and its password. */
export type TMqttLogin = { username: string; password: string };

export const MQTT_PASSWORD_PREFIX = "lwm_";
export const MQTT_CREDENTIAL_MESSAGES = {
  passwordSet: "MQTT password set. Copy it now: it will not be shown again.",
  rotateTitle: (plant: string) => `New MQTT password : ${plant}`,
  rotateWarning:
    "Clients connected with the current password are disconnected and refused from now on. Give them the new password.",
} as const;

/**
 * Whether every topic `filter` matches is also matched by `scope` (MQTT 3.1.1 §4.7): the filter
 * equals the scope or is narrower. A plant's client may subscribe only to such filters of its
 * plant's data sources. '$' filters (and shared subscriptions) are never within a wildcard scope.
 */
export function topicFilterWithin(filter: string, scope: string): boolean {
  const fl = filter.split("/");
  const sl = scope.split("/");
  if (filter.startsWith("$") && (sl[0] === "+" || sl[0] === "#")) return false;
  for (let i = 0; ; i++) {
    const f = fl[i];
    const s = sl[i];
    // '#' also matches the parent level, so `a` is within `a/#`.
    if (s === "#") return true;
    if (f === undefined || s === undefined) return f === s;
    if (f === "#") return false;
    if (f === "+") {
      if (s !== "+") return false;
    } else if (s !== "+" && s !== f) return false;
  }
}
