/**
 * Seeds the demo plant on an empty database (DEMO on, docs/architecture.md "Processes"): the demo and
 * provider customers, the catalog of demo.catalog.ts, 14 days of part records from
 * demo.records.ts and three sign-ins (demo.constants.ts DEMO_USERS). One transaction under an
 * advisory lock, so several processes starting together seed once.
 */
import { randomUUID } from "node:crypto";
import { LOCATION_PROVIDER } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { createPartitions, monthStart, PART_RECORDS_PARTITIONING, PARTITIONS } from "../../db/partitions.js";
import {
  challengeParts,
  customers,
  dataSources,
  ingestors,
  lineFeeders,
  lines,
  modelNumbers,
  partAttributeValues,
  plants,
  resultClassifications,
  signalGroupMembers,
  signalGroups,
  signals,
  stations,
  userRoles,
  users,
} from "../../db/schema/index.js";
import { hashPassword } from "../../lib/password.js";
import { createPartRecordsRepo } from "../part-records/part-records.repo.js";
import { DEMO_CATALOG } from "./demo.catalog.js";
import {
  DEMO_CUSTOMER_NAME,
  DEMO_DAYS,
  DEMO_PLANTS,
  DEMO_SEED,
  DEMO_USERS,
  PROVIDER_CUSTOMER_NAME,
} from "./demo.constants.js";
import { type DemoRecord, generateDemoRecords } from "./demo.records.js";
import { type DemoLine, stationLayout } from "./demo.types.js";

export * from "./demo.constants.js";

import { seedDemoMonitors } from "./demo.monitors.js";

export type SeedDemoOptions = {
  /** PRNG seed; the same seed gives the same values. */
  seed?: number;
  /** End of the simulated period (default: now). */
  now?: Date;
  /** Length of the simulated period in days (default DEMO_DAYS). */
  days?: number;
};

/** Part records per INSERT. */
const RECORD_BATCH = 2_000;
/** pg_advisory_xact_lock key: "LWDEMO" as a number, shared by every process. */
const SEED_LOCK = 0x4c57_4445_4d4f;

const countCustomers = async (db: Tx) => {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(customers);
  return row?.n ?? 0;
};

/** Seeds the demo customer on an empty database; null when there is any customer already. */
export async function seedDemoIfEmpty(
  db: Db,
  opts: SeedDemoOptions = {},
): Promise<{ ms: number; partRecords: number } | null> {
  const started = performance.now();
  if ((await countCustomers(db)) > 0) return null;
  // Outside the transaction: hashing (~0.1 s each) and generating hold no lock.
  const [adminHash, userHash, supportHash] = await Promise.all([
    hashPassword(DEMO_USERS.admin.password),
    hashPassword(DEMO_USERS.user.password),
    hashPassword(DEMO_USERS.support.password),
  ]);
  const end = opts.now ?? new Date();
  const generated = generateDemoRecords({ seed: opts.seed ?? DEMO_SEED, end, days: opts.days });
  // The months the records fall in get their partitions first, so the seed lands in them rather
  // than in the default partition (idempotent, in transactions of its own).
  await createPartitions(db, PART_RECORDS_PARTITIONING).ensureMonths(
    new Date(end.getTime() - (opts.days ?? DEMO_DAYS) * 86_400_000),
    monthStart(end, PARTITIONS.aheadMonths),
  );

  const partRecordCount = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK}::bigint)`);
    if ((await countCustomers(tx)) > 0) return null;

    const [demo] = await tx.insert(customers).values({ name: DEMO_CUSTOMER_NAME, isDemo: true }).returning();
    const [provider] = await tx
      .insert(customers)
      .values({ name: PROVIDER_CUSTOMER_NAME, isProvider: true })
      .returning();
    if (!demo || !provider) throw new Error("demo: customers not created");
    const customerId = demo.id;

    const plantIds = new Map<string, string>();
    const lineIds = new Map<string, string>();
    let count = 0;
    for (const plantDef of DEMO_CATALOG) {
      const [plant] = await tx
        .insert(plants)
        .values({ customerId, name: plantDef.name, timeZone: plantDef.timeZone })
        .returning({ id: plants.id });
      if (!plant) throw new Error("demo: plant not created");
      plantIds.set(plantDef.name, plant.id);
      const [ingestor] = await tx
        .insert(ingestors)
        .values({ customerId, plantId: plant.id })
        .returning({ id: ingestors.id });
      if (!ingestor) throw new Error("demo: ingestor not created");
      await tx
        .insert(dataSources)
        .values({ customerId, ingestorId: ingestor.id, name: "Line simulator", topic: plantDef.topic });

      for (const lineDef of plantDef.lines) {
        const lineRecords = generated.find((g) => g.line === lineDef.name)?.records ?? [];
        const lineId = await insertLine(tx, customerId, plant.id, lineDef, lineRecords);
        lineIds.set(lineDef.name, lineId);
        count += lineRecords.length;
      }
      for (const lineDef of plantDef.lines) {
        for (const feeder of lineDef.feeders ?? []) {
          const lineId = lineIds.get(lineDef.name);
          const feederLineId = lineIds.get(feeder);
          if (!lineId || !feederLineId) throw new Error(`demo: feeder ${feeder} not in ${plantDef.name}`);
          await tx.insert(lineFeeders).values({ customerId, lineId, feederLineId });
        }
      }
    }

    const signIns = [
      { ...DEMO_USERS.admin, customerId, hash: adminHash, plant: DEMO_PLANTS.detroit.name },
      { ...DEMO_USERS.user, customerId, hash: userHash, plant: DEMO_PLANTS.stuttgart.name },
      { ...DEMO_USERS.support, customerId: provider.id, hash: supportHash, plant: null },
    ];
    for (const u of signIns) {
      const [row] = await tx
        .insert(users)
        .values({
          customerId: u.customerId,
          email: u.email,
          passwordHash: u.hash,
          locationName: u.plant ?? LOCATION_PROVIDER,
          locationPlantId: u.plant ? (plantIds.get(u.plant) ?? null) : null,
        })
        .returning({ id: users.id });
      if (!row) throw new Error("demo: user not created");
      if (u.isAdministrator) await tx.insert(userRoles).values({ userId: row.id, role: "administrator" });
    }
    return count;
  });
  if (partRecordCount == null) return null;
  // Planner statistics now, not whenever autovacuum gets to it: without them a monitor's window
  // query reads a station's whole history instead of its newest records (about 10× slower).
  await db.execute(sql`analyze part_records`);
  await seedDemoMonitors(db);
  return { ms: Math.round(performance.now() - started), partRecords: partRecordCount };
}

/** One line with its stations, signals, classifications, groups, filters' values and records. */
async function insertLine(
  tx: Tx,
  customerId: string,
  plantId: string,
  def: DemoLine,
  records: DemoRecord[],
): Promise<string> {
  const lastTs = records.reduce((max, r) => Math.max(max, r.ts.getTime()), 0);
  const [line] = await tx
    .insert(lines)
    .values({
      customerId,
      plantId,
      name: def.name,
      friendlyName: def.friendlyName ?? null,
      isNewLine: def.isNewLine,
      ingestionThresholdHours: def.ingestionThresholdHours,
      lastIngestedTime: lastTs ? new Date(lastTs) : null,
    })
    .returning({ id: lines.id });
  if (!line) throw new Error("demo: line not created");
  const lineId = line.id;

  const stationIds = new Map<string, string>();
  /** "station/signal" → signal id. */
  const signalIds = new Map<string, string>();
  const attributeValues: { signalId: string; value: string }[] = [];
  for (const st of def.stations) {
    const layout = stationLayout(st);
    const [station] = await tx
      .insert(stations)
      .values({
        customerId,
        lineId,
        name: st.name,
        final: st.final ?? false,
        nextNumSlot: layout.numCount,
        nextTextSlot: layout.textCount,
      })
      .returning({ id: stations.id });
    if (!station) throw new Error("demo: station not created");
    stationIds.set(st.name, station.id);
    const ids = new Map(st.signals.map((s) => [s.name, randomUUID()]));
    const idOf = (name: string | undefined) => {
      if (name == null) return null;
      const found = ids.get(name);
      if (!found) throw new Error(`demo: no signal "${name}" in ${st.name}`);
      return found;
    };
    await tx.insert(signals).values(
      st.signals.map((s) => {
        const at = layout.slots.get(s.name);
        if (!at) throw new Error(`demo: no slot for ${s.name}`);
        return {
          id: idOf(s.name) as string,
          customerId,
          lineId,
          stationId: station.id,
          name: s.name,
          friendlyName: s.friendlyName ?? null,
          entityType: s.type,
          isSignalActive: !s.inactive,
          qualityCharacteristic: s.quality ?? ("NONE" as const),
          singleSide: s.singleSide ?? null,
          unit: s.unit ?? null,
          upperLimitSignalId: idOf(s.upper),
          lowerLimitSignalId: idOf(s.lower),
          resultSignalId: idOf(s.result),
          storage: at.storage,
          slot: at.slot,
        };
      }),
    );
    const classifications = st.signals.flatMap((s) =>
      (s.classifications ?? []).map((c) => ({ customerId, signalId: idOf(s.name) as string, ...c })),
    );
    if (classifications.length) await tx.insert(resultClassifications).values(classifications);
    for (const s of st.signals) {
      const signalId = idOf(s.name) as string;
      signalIds.set(`${st.name}/${s.name}`, signalId);
      const at = layout.slots.get(s.name);
      if (s.type !== "PART_ATTRIBUTE" || !at || at.storage !== "text") continue;
      // The values the records carry, as ingestion would have kept them.
      const seen = new Set<string>();
      for (const r of records) {
        const v = r.station === st.name ? r.textValues[at.slot] : null;
        if (v != null) seen.add(v);
      }
      for (const value of [...seen].sort()) attributeValues.push({ signalId, value });
    }
  }
  if (attributeValues.length) await tx.insert(partAttributeValues).values(attributeValues);

  for (const g of def.groups) {
    const [group] = await tx
      .insert(signalGroups)
      .values({ customerId, lineId, name: g.name })
      .returning({ id: signalGroups.id });
    if (!group) throw new Error("demo: signal group not created");
    await tx.insert(signalGroupMembers).values(
      g.members.map(([station, signal]) => {
        const signalId = signalIds.get(`${station}/${signal}`);
        if (!signalId) throw new Error(`demo: group ${g.name}: no ${station}/${signal}`);
        return { groupId: group.id, signalId };
      }),
    );
  }
  if (def.modelNumbers.length)
    await tx.insert(modelNumbers).values(def.modelNumbers.map((m) => ({ customerId, lineId, ...m })));
  if (def.challengeParts.length)
    await tx
      .insert(challengeParts)
      .values(def.challengeParts.map((partId) => ({ customerId, lineId, partId })));

  for (let i = 0; i < records.length; i += RECORD_BATCH) {
    const rows = records.slice(i, i + RECORD_BATCH).map((r) => {
      const stationId = stationIds.get(r.station);
      if (!stationId) throw new Error(`demo: no station ${r.station}`);
      return {
        station_id: stationId,
        ts: r.ts.toISOString(),
        part_id: r.partId,
        op: r.op,
        model_number: r.modelNumber,
        num_values: r.numValues,
        text_values: r.textValues,
      };
    });
    // One JSON parameter per batch (part-records.repo.ts).
    await createPartRecordsRepo(tx).insertRecordsFromJson(rows);
  }
  return lineId;
}
