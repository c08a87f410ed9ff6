/**
 * Scheduling (docs/conventions.md "Worker": schedule/ decides what is due and claims it;
 * docs/architecture.md "Processes": workers share monitors through row leases).
 *
 * - An active monitor on an active line is due every `frequency` minutes: its next slot is
 *   monitors.next_run_at. An active monitor without one (new or re-activated) gets `now` as its
 *   first slot.
 * - claimDue takes a lease on due monitors with SELECT … FOR UPDATE SKIP LOCKED, so workers never
 *   claim the same monitor (oldest slot first; the monitors of one slot by line, so a batch holds
 *   monitors whose windows can share a query); a lease whose worker died expires and the monitor
 *   is claimed again for the same slot. A living worker renews the leases of the evaluations it
 *   is running (renewLeases), so an evaluation longer than the lease is not claimed a second time.
 * - completeClaim stores the evaluation for slot = the claimed next_run_at (unique (monitor_id,
 *   slot): once), runs the onEvaluated hook in the same transaction, moves next_run_at to the
 *   first slot strictly after `now` (a slow evaluation skips ticks instead of piling them up) and
 *   releases the lease — only while the lease is still ours for that slot. The lease check and
 *   the rescheduling are one statement unless the monitor's frequency changed after the claim.
 * - Inactive monitors and monitors on inactive lines are never claimed; their next_run_at is left
 *   as it is, so a line switched back on evaluates its monitors at once (one slot, then on the grid).
 */
import type { TMonitorType } from "@linewatch/contracts";
import { and, eq, sql } from "drizzle-orm";
import { type Db, rowsOf, type Tx } from "../../db/client.js";
import { evaluations, monitors } from "../../db/schema/index.js";
import type { EvaluationResult } from "../../modules/evaluation/evaluate.js";
import type { ApplyOutcome } from "../alerts/apply.js";

export type ClaimedMonitor = {
  id: string;
  customerId: string;
  lineId: string;
  name: string;
  type: TMonitorType;
  frequency: number;
  alertThreshold: "low" | "medium" | "high";
  filter: unknown;
  useExcludedPartIds: boolean;
  useExcludedModelNumbers: boolean;
  /** The slot being evaluated: next_run_at when claimed. */
  slot: Date;
  leaseUntil: Date;
};

export type StoredEvaluation = typeof evaluations.$inferSelect;

const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

/** Gives active monitors on active lines without a slot their first one (`now`). */
export async function initialiseSlots(db: Tx, now: Date): Promise<number> {
  const r = await db.execute(sql`
    update monitors m set next_run_at = ${now}
    where m.active and m.next_run_at is null
      and exists (select 1 from lines l where l.id = m.line_id and l.active)
    returning m.id`);
  return rowsOf(r).length;
}

/** Claims up to `limit` due monitors for `owner` until now + leaseMs. */
export async function claimDue(
  db: Tx,
  opts: { owner: string; now: Date; leaseMs: number; limit: number },
): Promise<ClaimedMonitor[]> {
  const leaseUntil = new Date(opts.now.getTime() + opts.leaseMs);
  const r = await db.execute(sql`
    update monitors set lease_owner = ${opts.owner}, lease_until = ${leaseUntil}
    where id in (
      select m.id from monitors m
      where m.active and m.next_run_at <= ${opts.now}
        and (m.lease_until is null or m.lease_until < ${opts.now})
        and exists (select 1 from lines l where l.id = m.line_id and l.active)
      order by m.next_run_at, m.line_id
      limit ${opts.limit}
      for update of m skip locked)
    returning id, customer_id, line_id, name, type, frequency, alert_threshold, filter,
      use_excluded_part_ids, use_excluded_model_numbers, next_run_at, lease_until`);
  return rowsOf<Record<string, unknown>>(r)
    .map((row) => ({
      id: String(row.id),
      customerId: String(row.customer_id),
      lineId: String(row.line_id),
      name: String(row.name),
      type: row.type as ClaimedMonitor["type"],
      frequency: Number(row.frequency),
      alertThreshold: row.alert_threshold as ClaimedMonitor["alertThreshold"],
      filter: typeof row.filter === "string" ? JSON.parse(row.filter) : row.filter,
      useExcludedPartIds: Boolean(row.use_excluded_part_ids),
      useExcludedModelNumbers: Boolean(row.use_excluded_model_numbers),
      slot: date(row.next_run_at),
      leaseUntil: date(row.lease_until),
    }))
    .sort((a, b) => a.slot.getTime() - b.slot.getTime());
}

/**
 * Extends `owner`'s leases on these monitors to now + leaseMs; answers the ids still leased to it
 * (a missing id was taken over after its lease expired, or its evaluation has been stored).
 */
export async function renewLeases(
  db: Tx,
  opts: { owner: string; monitorIds: readonly string[]; now: Date; leaseMs: number },
): Promise<string[]> {
  if (opts.monitorIds.length === 0) return [];
  const leaseUntil = new Date(opts.now.getTime() + opts.leaseMs);
  const r = await db.execute(sql`
    update monitors set lease_until = ${leaseUntil}
    where lease_owner = ${opts.owner}
      and id in (select jsonb_array_elements_text(${JSON.stringify(opts.monitorIds)}::jsonb)::uuid)
    returning id`);
  return rowsOf<{ id: unknown }>(r).map((row) => String(row.id));
}

/**
 * Gives up `owner`'s leases of these monitors (a stopping worker that did not finish their
 * evaluations): another worker claims them at once for the same slot instead of after the lease.
 */
export async function releaseLeases(db: Tx, opts: { owner: string; monitorIds: readonly string[] }) {
  if (opts.monitorIds.length === 0) return;
  await db.execute(sql`
    update monitors set lease_owner = null, lease_until = null
    where lease_owner = ${opts.owner}
      and id in (select jsonb_array_elements_text(${JSON.stringify(opts.monitorIds)}::jsonb)::uuid)`);
}

/** The first slot slot + k·period (k ≥ 1) strictly after `now`. */
export function nextSlotAfter(slot: Date, periodMs: number, now: Date): Date {
  if (!(periodMs > 0)) throw new Error("period must be positive");
  const k = Math.max(1, Math.floor((now.getTime() - slot.getTime()) / periodMs) + 1);
  return new Date(slot.getTime() + k * periodMs);
}

/**
 * The newest record time of each monitor's latest evaluation that had one (the "nothing new"
 * check), for a batch of monitors in one statement: the same answer previousLastRecordTs gives
 * for each; monitors without one are absent.
 */
export async function previousLastRecordTsOf(
  db: Tx,
  monitorIds: readonly string[],
): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  if (monitorIds.length === 0) return out;
  const r = await db.execute(sql`
    select m.id, (select e.last_record_ts from evaluations e
        where e.monitor_id = m.id and e.last_record_ts is not null
        order by e.slot desc limit 1) as last_record_ts
    from (select jsonb_array_elements_text(${JSON.stringify(monitorIds)}::jsonb)::uuid as id) m`);
  for (const row of rowsOf<{ id: unknown; last_record_ts: unknown }>(r))
    if (row.last_record_ts) out.set(String(row.id), date(row.last_record_ts));
  return out;
}

/** newest record time of the monitor's latest evaluation that had one (the "nothing new" check). */
export async function previousLastRecordTs(db: Tx, monitorId: string): Promise<Date | null> {
  const r = await db.execute(sql`
    select last_record_ts from evaluations
    where monitor_id = ${monitorId} and last_record_ts is not null
    order by slot desc limit 1`);
  const row = rowsOf<{ last_record_ts: unknown }>(r)[0];
  return row?.last_record_ts ? date(row.last_record_ts) : null;
}

/** The alert rules' hook: runs in the transaction that stores the evaluation; answers the alert's change. */
export type OnEvaluatedHook = (
  tx: Tx,
  evaluation: StoredEvaluation,
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that answers nothing (a test's spy) is a hook too
) => Promise<ApplyOutcome | undefined | void>;

export type CompleteOutcome =
  | { status: "stored"; evaluation: StoredEvaluation; nextRunAt: Date; applied?: ApplyOutcome }
  /** The slot had been stored already (by a worker whose lease had expired): only rescheduled. */
  | { status: "duplicate"; nextRunAt: Date }
  /** The lease was no longer ours (expired and taken over, or the slot moved): nothing written. */
  | { status: "lost" };

/**
 * Stores the evaluation of a claimed slot, runs `onEvaluated` in the same transaction, schedules
 * the next slot after now() and releases the lease.
 */
export async function completeClaim(
  db: Db,
  opts: {
    owner: string;
    claim: ClaimedMonitor;
    result: EvaluationResult;
    now: () => Date;
    minuteMs: number;
    onEvaluated?: OnEvaluatedHook;
  },
): Promise<CompleteOutcome> {
  const { claim, result } = opts;
  return db.transaction(async (tx) => {
    const schedule = (frequency: number) => {
      const now = opts.now();
      const nextRunAt = nextSlotAfter(claim.slot, frequency * opts.minuteMs, now);
      const set = sql`next_run_at = ${nextRunAt}, lease_owner = null, lease_until = null,
        last_evaluated_at = ${now}, last_state = ${result.state}`;
      return { now, nextRunAt, set };
    };
    // Usually one statement locks the monitor, checks the lease is still ours for this slot and
    // schedules the next slot (the frequency it was claimed with, unchanged since). It and the
    // insert below run for every evaluation: named statements, parsed once per connection.
    let next = schedule(claim.frequency);
    const updated = await tx
      .update(monitors)
      .set({
        nextRunAt: sql`${sql.placeholder("nextRunAt")}`,
        leaseOwner: null,
        leaseUntil: null,
        lastEvaluatedAt: sql`${sql.placeholder("now")}`,
        lastState: sql`${sql.placeholder("state")}`,
      })
      .where(
        and(
          eq(monitors.id, sql.placeholder("id")),
          eq(monitors.leaseOwner, sql.placeholder("owner")),
          eq(monitors.nextRunAt, sql.placeholder("slot")),
          eq(monitors.frequency, sql.placeholder("frequency")),
        ),
      )
      .returning({ id: monitors.id })
      .prepare("worker_complete_claim")
      .execute({
        nextRunAt: next.nextRunAt,
        now: next.now,
        state: result.state,
        id: claim.id,
        owner: opts.owner,
        slot: claim.slot,
        frequency: claim.frequency,
      });
    if (updated.length === 0) {
      // Not ours any more, or the frequency changed meanwhile: decide on the locked row.
      const locked = rowsOf<{ lease_owner: string | null; next_run_at: unknown; frequency: number }>(
        await tx.execute(sql`
          select lease_owner, next_run_at, frequency from monitors where id = ${claim.id} for update`),
      )[0];
      if (
        !locked ||
        locked.lease_owner !== opts.owner ||
        !locked.next_run_at ||
        date(locked.next_run_at).getTime() !== claim.slot.getTime()
      ) {
        return { status: "lost" } as const;
      }
      next = schedule(Number(locked.frequency));
      await tx.execute(sql`update ${monitors} set ${next.set} where id = ${claim.id}`);
    }
    const [stored] = await tx
      .insert(evaluations)
      .values({
        customerId: sql.placeholder("customerId"),
        monitorId: sql.placeholder("monitorId"),
        slot: sql.placeholder("slot"),
        evaluatedAt: sql.placeholder("evaluatedAt"),
        state: sql.placeholder("state"),
        reason: sql.placeholder("reason"),
        score: sql.placeholder("score"),
        threshold: sql.placeholder("threshold"),
        trainingSize: sql.placeholder("trainingSize"),
        evaluationSize: sql.placeholder("evaluationSize"),
        // Raw SQL, not the column's mapping: Drizzle maps a placeholder's null through
        // Date#toISOString, so an evaluation without records (no signal left) failed to store.
        lastRecordTs: sql`${sql.placeholder("lastRecordTs")}::timestamptz`,
        details: sql.placeholder("details"),
      })
      .onConflictDoNothing({ target: [evaluations.monitorId, evaluations.slot] })
      .returning()
      .prepare("worker_store_evaluation")
      .execute({
        customerId: claim.customerId,
        monitorId: claim.id,
        slot: claim.slot,
        evaluatedAt: next.now,
        state: result.state,
        reason: result.reason,
        score: result.score,
        threshold: result.threshold,
        trainingSize: result.trainingSize,
        evaluationSize: result.evaluationSize,
        lastRecordTs: result.lastRecordTs?.toISOString() ?? null,
        details: { ...(result.details ?? {}), worker: opts.owner },
      });
    const applied = stored && opts.onEvaluated ? await opts.onEvaluated(tx, stored) : undefined;
    const { nextRunAt } = next;
    return stored
      ? { status: "stored", evaluation: stored, nextRunAt, ...(applied ? { applied } : {}) }
      : { status: "duplicate", nextRunAt };
  });
}

/** Gives a claim back without evaluating (worker stopping). */
/**
 * The active monitors on active lines whose slot has passed and that no worker holds a lease on,
 * and how far the oldest such slot lies behind `now` (s): the lag while it builds up (metrics).
 */
export async function overdue(db: Tx, now: Date): Promise<{ monitors: number; oldestSeconds: number }> {
  const [row] = rowsOf<{ n: unknown; oldest: unknown }>(
    await db.execute(sql`
      select count(*) as n, min(m.next_run_at) as oldest from monitors m
      where m.active and m.next_run_at <= ${now}
        and (m.lease_until is null or m.lease_until < ${now})
        and exists (select 1 from lines l where l.id = m.line_id and l.active)`),
  );
  const oldest = row?.oldest ? date(row.oldest).getTime() : now.getTime();
  return { monitors: Number(row?.n ?? 0), oldestSeconds: Math.max(0, (now.getTime() - oldest) / 1000) };
}

export async function releaseClaim(db: Tx, owner: string, monitorId: string): Promise<void> {
  await db.execute(sql`
    update monitors set lease_owner = null, lease_until = null
    where id = ${monitorId} and lease_owner = ${owner}`);
}
