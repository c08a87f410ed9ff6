// Column helpers every table of the schema uses.
import { customType, timestamp, uuid } from "drizzle-orm/pg-core";

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const id = () => uuid("id").primaryKey().defaultRandom();

/** float8[] that may hold NULLs (a record missing a value for a signal). */
export const float8Array = customType<{ data: (number | null)[]; driverData: string | (number | null)[] }>({
  dataType: () => "double precision[]",
});

/** text[] that may hold NULLs. */
export const nullableTextArray = customType<{
  data: (string | null)[];
  driverData: string | (string | null)[];
}>({
  dataType: () => "text[]",
});
