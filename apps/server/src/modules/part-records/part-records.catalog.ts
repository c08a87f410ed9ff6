import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { lines, plants, signals, stations } from "../../db/schema/index.js";

type EntityType = (typeof signals.$inferInsert)["entityType"];
export type SignalSlot = { id: string; storage: "num" | "text"; slot: number; entityType: EntityType };
export type StationEntry = { id: string; lineId: string; signals: Map<string, SignalSlot> };
type LineEntry = { id: string; stations: Map<string, StationEntry> };

/** What a record needs created or looked up at its station. */
export type SignalWant = {
  name: string;
  entityType: EntityType;
  storage: "num" | "text";
  /** For limits: the measurement they belong to, and which side. */
  limitOf?: { measurement: string; side: "upper" | "lower" };
  /** For a new measurement: the record's only result signal. */
  resultName?: string;
};

/**
 * Lines, stations and signals by name for one plant, created on first sight (docs/monitoring.md
 * "Part records"). Kept in memory as a cache only: every miss goes to the database, and creation
 * is race-safe across processes through the unique indexes.
 */
export function createPartRecordsCatalog(db: Db) {
  const plantsCache = new Map<string, Map<string, LineEntry>>();

  async function line(customerId: string, plantId: string, name: string): Promise<LineEntry> {
    let plant = plantsCache.get(plantId);
    if (!plant) {
      plant = new Map();
      plantsCache.set(plantId, plant);
    }
    const hit = plant.get(name);
    if (hit) return hit;
    await db
      .insert(lines)
      .values({
        customerId,
        plantId,
        name,
        isNewLine: true,
        ingestionThresholdHours: null,
        // A line first seen in a deactivated plant is created inactive: a deactivated plant has no
        // active line. FOR SHARE waits for a deactivation in progress (it holds the plant's row).
        active: sql`(select ${plants.active} from ${plants} where ${plants.id} = ${plantId} for share)`,
      })
      .onConflictDoNothing();
    const [row] = await db
      .select({ id: lines.id })
      .from(lines)
      .where(and(eq(lines.plantId, plantId), eq(lines.name, name)));
    if (!row) throw new Error(`line ${name} could not be created`);
    const entry: LineEntry = { id: row.id, stations: new Map() };
    plant.set(name, entry);
    return entry;
  }

  async function station(customerId: string, l: LineEntry, name: string): Promise<StationEntry> {
    const hit = l.stations.get(name);
    if (hit) return hit;
    await db.insert(stations).values({ customerId, lineId: l.id, name }).onConflictDoNothing();
    const [row] = await db
      .select({ id: stations.id })
      .from(stations)
      .where(and(eq(stations.lineId, l.id), eq(stations.name, name)));
    if (!row) throw new Error(`station ${name} could not be created`);
    const rows = await db
      .select({
        id: signals.id,
        name: signals.name,
        storage: signals.storage,
        slot: signals.slot,
        entityType: signals.entityType,
      })
      .from(signals)
      .where(eq(signals.stationId, row.id));
    const entry: StationEntry = {
      id: row.id,
      lineId: l.id,
      signals: new Map(
        rows.map((s) => [s.name, { id: s.id, storage: s.storage, slot: s.slot, entityType: s.entityType }]),
      ),
    };
    l.stations.set(name, entry);
    return entry;
  }

  async function createSignal(customerId: string, st: StationEntry, want: SignalWant): Promise<SignalSlot> {
    return db.transaction(async (tx) => {
      // The station row's counter hands out slots; its row lock orders concurrent creators.
      const column = want.storage === "num" ? stations.nextNumSlot : stations.nextTextSlot;
      const [slotRow] = await tx
        .update(stations)
        .set(
          want.storage === "num" ? { nextNumSlot: sql`${column} + 1` } : { nextTextSlot: sql`${column} + 1` },
        )
        .where(eq(stations.id, st.id))
        .returning({ next: column });
      if (!slotRow) throw new Error("station vanished");
      const inserted = await tx
        .insert(signals)
        .values({
          customerId,
          lineId: st.lineId,
          stationId: st.id,
          name: want.name,
          entityType: want.entityType,
          storage: want.storage,
          slot: slotRow.next - 1,
        })
        .onConflictDoNothing()
        .returning({
          id: signals.id,
          storage: signals.storage,
          slot: signals.slot,
          entityType: signals.entityType,
        });
      const [row] = inserted.length
        ? inserted
        : await tx
            .select({
              id: signals.id,
              storage: signals.storage,
              slot: signals.slot,
              entityType: signals.entityType,
            })
            .from(signals)
            .where(and(eq(signals.stationId, st.id), eq(signals.name, want.name)));
      if (!row) throw new Error(`signal ${want.name} could not be created`);
      if (inserted.length) await associate(tx, st, want, row.id);
      return row;
    });
  }

  /** New limits attach to their measurement; a new measurement takes the record's only result. */
  async function associate(tx: Tx, st: StationEntry, want: SignalWant, id: string) {
    if (want.limitOf) {
      const m = st.signals.get(want.limitOf.measurement);
      if (!m) return;
      await tx
        .update(signals)
        .set(want.limitOf.side === "upper" ? { upperLimitSignalId: id } : { lowerLimitSignalId: id })
        .where(eq(signals.id, m.id));
    } else if (want.resultName && want.entityType === "MEASUREMENT") {
      const r = st.signals.get(want.resultName);
      if (r) await tx.update(signals).set({ resultSignalId: r.id }).where(eq(signals.id, id));
    }
  }

  return {
    line,
    station,
    /** The station when line and station are already known: no await on the hot path. */
    cachedStation(plantId: string, lineName: string, stationName: string): StationEntry | undefined {
      return plantsCache.get(plantId)?.get(lineName)?.stations.get(stationName);
    },
    /** The signal's slot, creating it on first sight. Results before measurements before limits. */
    async signal(customerId: string, st: StationEntry, want: SignalWant): Promise<SignalSlot> {
      const hit = st.signals.get(want.name);
      if (hit) return hit;
      const created = await createSignal(customerId, st, want);
      st.signals.set(want.name, created);
      return created;
    },
    /** Forgets everything (tests, or after configuration is removed). */
    clear: () => plantsCache.clear(),
  };
}
export type PartRecordsCatalog = ReturnType<typeof createPartRecordsCatalog>;
