import { asc } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { customers } from "../../db/schema/index.js";
import { forbidden } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";

export function createCustomersService(deps: { db: Db }) {
  return {
    /** Every customer, for the provider staff's customer switch. */
    async listForSwitch(ctx: AuthContext) {
      if (!ctx.isProviderStaff) throw forbidden();
      return deps.db
        .select({ id: customers.id, name: customers.name })
        .from(customers)
        .orderBy(asc(customers.name));
    },
  };
}
export type CustomersService = ReturnType<typeof createCustomersService>;
