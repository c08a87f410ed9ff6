import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { customers } from "../../db/schema/index.js";

/** Seeds the demo customer on an empty database. Filled in by the demo plant generator. */
export async function seedDemoIfEmpty(db: Db): Promise<{ ms: number; partRecords: number } | null> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(customers);
  if ((row?.n ?? 0) > 0) return null;
  return null;
}
