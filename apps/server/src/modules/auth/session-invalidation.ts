import type { Database } from "../../db/client.js";
import type { AuthService } from "./auth.service.js";

/** The channel migration 0011's triggers notify with the id of a user whose sign-in state changed. */
export const AUTH_CHANNEL = "linewatch_auth";

/**
 * An API process's session cache follows the database: it is used while the process listens on
 * AUTH_CHANNEL, emptied when the listening connection is lost, and each notification drops the
 * named user's sessions. Returns the function that stops listening.
 */
export function startSessionInvalidation(
  database: Pick<Database, "listen">,
  auth: Pick<AuthService, "sessionCacheLive" | "sessionsChanged">,
): Promise<() => Promise<void>> {
  return database.listen(AUTH_CHANNEL, {
    onNotify: (userId) => auth.sessionsChanged(userId),
    onLive: (live) => auth.sessionCacheLive(live),
  });
}
