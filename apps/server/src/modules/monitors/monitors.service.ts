import {
  CAP_MONITOR_DEFAULTS,
  CHALLENGE_RANGE_TEXTS,
  createTaskSchemas,
  DEFAULT_MONITOR_RULES,
  fromServerAlertThreshold,
  lineLabel,
  MONITOR_BOUNDS,
  MONITOR_MESSAGES,
  monitorFilterMd5,
  nextMonitorName,
  RULE_FIELDS,
  RULE_TYPES,
  SIGNAL_MESSAGES,
  storedFilterOf,
  type TMonitor,
  type TMonitorFormBounds,
  type TMonitorRule,
  type TMonitorType,
  type TPatchMonitorBody,
  type TStoredMonitorFilter,
  type TTaskCreate,
  USER_MESSAGES,
} from "@linewatch/contracts";
import type { Db, Tx } from "../../db/client.js";
import { AppError, badRequest, conflict, forbidden } from "../../errors.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { FeatureFlagsService } from "../feature-flags/feature-flags.service.js";
import type { LinesService } from "../lines/lines.service.js";
import type { PlantsService } from "../plants/plants.service.js";
import { createSignalsRepo } from "../signals/signals.repo.js";
import { createMonitorsRepo, type MonitorRow, type MonitorValues, type RuleValues } from "./monitors.repo.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const monitorNotFound = () => new AppError("NOT_FOUND", MONITOR_MESSAGES.notFound);

/** md5 of the canonical filter JSON plus the type: equal settings on a line are duplicates. */
export const filterMd5 = (type: TMonitorType, filter: TStoredMonitorFilter) => monitorFilterMd5(type, filter);

/** PostgreSQL unique violation, wherever the driver put it in the cause chain. */
function isUniqueViolation(e: unknown): boolean {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined; x; x = x.cause as typeof x) {
    if (x.code === "23505") return true;
  }
  return false;
}

export function toMonitor(r: MonitorRow): TMonitor {
  const f = r.filter;
  return {
    monitor_uuid: r.id,
    monitor_name: r.name,
    monitor_type: r.type,
    active: r.active,
    frequency: r.frequency,
    notes: r.notes,
    use_excluded_part_ids: r.useExcludedPartIds,
    use_excluded_model_numbers: r.useExcludedModelNumbers,
    monitor_filter: {
      cust_uuid: r.customerId,
      plant_uuid: r.plantId,
      line_uuid: r.lineId,
      signal_uuids: f.signal_uuids ?? [],
      signal_group_uuids: f.signal_group_uuids ?? [],
      part_groups: f.part_groups ?? [],
      part_numbers: f.part_numbers ?? [],
      part_attributes: (f.part_attributes ?? []).map((a) => ({
        attributeUuid: a.attribute_uuid,
        selectedAttributeValues: a.selected_attribute_values,
      })),
      pass_fail_filter: f.pass_fail_filter ?? [],
      evaluation_ratio: f.evaluation_ratio,
      sample_size: f.sample_size,
      alert_threshold: r.alertThreshold,
      ...(f.op_count ? { op_count: f.op_count } : {}),
      ...(f.run_rules?.length ? { run_rules: f.run_rules } : {}),
      ...(f.challenge_ranges?.length ? { challenge_ranges: f.challenge_ranges } : {}),
    },
    last_state: r.lastState ?? null,
    last_evaluated_at: r.lastEvaluatedAt?.toISOString() ?? null,
    next_run_at: r.nextRunAt?.toISOString() ?? null,
    monitor_filter_md5: r.filterMd5,
  };
}

/**
 * A monitor's settings as the audit log records them: the form's fields with the filter's flattened
 * beside them (so a change shows the one filter field that changed), without run state.
 */
function auditFieldsOf(r: MonitorRow) {
  const {
    monitor_uuid: _id,
    last_state: _state,
    last_evaluated_at: _evaluated,
    next_run_at: _next,
    monitor_filter_md5: _md5,
    monitor_filter: { cust_uuid: _customer, ...filter },
    ...fields
  } = toMonitor(r);
  return { ...fields, ...filter };
}

const auditTarget = (r: MonitorRow) => ({
  resourceId: r.id,
  resourceName: r.name,
  plantId: r.plantId,
  lineId: r.lineId,
});

/** The three rules as the audit log records them, by rule type. */
const auditRulesOf = (list: TMonitorRule[]) =>
  Object.fromEntries(
    list.map((r) => {
      const { type, ...values } = ruleValuesOf(r);
      return [type, values];
    }),
  );

/** A stored rule value: whole numbers only (the columns are integers). */
const storable = (v: number | null | undefined) =>
  v != null && Number.isInteger(v) && Math.abs(v) < 2_147_483_647 ? v : null;

/** A rule as the API gives it → as it is stored (and as the worker and the backtest read it). */
export function ruleValuesOf(r: TMonitorRule): RuleValues {
  const fields = RULE_FIELDS[r.type];
  const pick = (f: "runs" | "breaches" | "seconds") => (fields.includes(f) ? storable(r.details[f]) : null);
  return {
    type: r.type,
    active: r.active,
    runs: pick("runs"),
    breaches: pick("breaches"),
    seconds: pick("seconds"),
  };
}

export function createMonitorsService(deps: {
  db: Db;
  lines: LinesService;
  plants: PlantsService;
  /** The MVD monitor creation flag gates creating MVD monitors (requirements.md monitor-forms §1). */
  flags: FeatureFlagsService;
  now?: () => Date;
  /** MVD_QUERY_MAX_RECORD_COUNT (config.mvdQueryMaxRecordCount): the largest records window. */
  maxRecordCount: number;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = createMonitorsRepo(db);
  const signalsRepo = createSignalsRepo(db);
  const schemas = createTaskSchemas(deps.maxRecordCount);

  async function load(ctx: AuthContext, id: string) {
    const row = await repo.find(ctx.customerId, id);
    if (!row) throw monitorNotFound();
    return row;
  }

  /** The monitored signals must be active measurements of the monitor's line. */
  async function checkSignals(ctx: AuthContext, lineId: string, ids: string[]) {
    const unique = [...new Set(ids)];
    const found = await signalsRepo.signalsByIds(ctx.customerId, unique);
    if (found.length !== unique.length) throw new AppError("NOT_FOUND", SIGNAL_MESSAGES.notFound);
    if (found.some((s) => s.lineId !== lineId || !s.isSignalActive || s.entityType !== "MEASUREMENT"))
      throw badRequest(MONITOR_MESSAGES.signalsNotOnLine);
  }

  /** Where the task's details point: the caller's customer, a plant and one of its lines. */
  async function resolveDetails(ctx: AuthContext, d: TTaskCreate["task_details"]) {
    if (d.cust_uuid !== ctx.customerId) throw new AppError("NOT_FOUND", USER_MESSAGES.customerNotFound);
    const line = await deps.lines.get(ctx, d.line_uuid);
    if (line.plantId !== d.plant_uuid) {
      await deps.plants.get(ctx, d.plant_uuid);
      throw badRequest(MONITOR_MESSAGES.plantMismatch);
    }
    await checkSignals(ctx, line.id, d.signal_uuids);
    const groupIds = [...new Set(d.signal_group_uuids)];
    const groups = await signalsRepo.groupsByIds(ctx.customerId, groupIds);
    if (groups.length !== groupIds.length) throw new AppError("NOT_FOUND", SIGNAL_MESSAGES.groupNotFound);
    if (groups.some((g) => g.lineId !== line.id)) throw badRequest(MONITOR_MESSAGES.groupsNotOnLine);
    // requirements.md monitor-forms §5: attributes missing from the line's collection
    const attributeIds = [...new Set(d.part_attributes.map((a) => a.attribute_uuid))];
    if (attributeIds.some((id) => !UUID.test(id))) throw badRequest(MONITOR_MESSAGES.partAttributesNotFound);
    const attributes = await signalsRepo.signalsByIds(ctx.customerId, attributeIds);
    if (
      attributes.length !== attributeIds.length ||
      attributes.some((a) => a.lineId !== line.id || a.entityType !== "PART_ATTRIBUTE")
    )
      throw badRequest(MONITOR_MESSAGES.partAttributesNotFound);
    return line;
  }

  /** 409 with the existing monitor's id when the same settings already exist on the line. */
  async function refuseDuplicates(
    lineId: string,
    type: TMonitorType,
    name: string,
    md5: string,
    exceptId?: string,
  ) {
    const same = await repo.findByMd5(lineId, md5, exceptId);
    if (same) throw conflict(MONITOR_MESSAGES.duplicate, { task_uuid: same.id });
    if (await repo.findByName(lineId, type, name, exceptId)) throw conflict(MONITOR_MESSAGES.nameTaken(name));
  }

  async function insert(txRepo: ReturnType<typeof createMonitorsRepo>, values: MonitorValues) {
    try {
      return await txRepo.insert(values);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(MONITOR_MESSAGES.nameTaken(values.name));
      throw e;
    }
  }

  /** Inserts a monitor and records its creation, in one transaction; answers the stored row. */
  function insertRecorded(ctx: AuthContext, values: MonitorValues): Promise<MonitorRow> {
    return db.transaction(async (tx) => {
      const txRepo = createMonitorsRepo(tx);
      const row = await txRepo.find(ctx.customerId, await insert(txRepo, values));
      if (!row) throw monitorNotFound();
      await recordAudit(tx, ctx, {
        resource: "monitor",
        action: "create",
        ...auditTarget(row),
        before: null,
        after: auditFieldsOf(row),
      });
      return row;
    });
  }

  /** Updates a monitor and records the fields that changed, in one transaction. */
  function updateRecorded(
    ctx: AuthContext,
    id: string,
    values: Partial<MonitorValues> & { updatedAt: Date },
  ): Promise<MonitorRow> {
    return db.transaction(async (tx) => {
      const txRepo = createMonitorsRepo(tx);
      const before = await txRepo.find(ctx.customerId, id);
      if (!before) throw monitorNotFound();
      await txRepo.update(ctx.customerId, id, values);
      const after = (await txRepo.find(ctx.customerId, id)) as MonitorRow;
      await recordAudit(tx, ctx, {
        resource: "monitor",
        action: "update",
        ...auditTarget(after),
        before: auditFieldsOf(before),
        after: auditFieldsOf(after),
      });
      return after;
    });
  }

  /** The three rules: stored ones, the spec's defaults (off) for the others. */
  async function rules(ctx: AuthContext, monitorId: string, db: Tx = deps.db): Promise<TMonitorRule[]> {
    if (!(await createMonitorsRepo(db).find(ctx.customerId, monitorId))) throw monitorNotFound();
    const stored = await createMonitorsRepo(db).rules(monitorId);
    return RULE_TYPES.map((type) => {
      const r = stored.find((x) => x.type === type);
      const dflt = DEFAULT_MONITOR_RULES.find((x) => x.type === type) as TMonitorRule;
      if (!r) return dflt;
      return { active: r.active, type, details: { runs: r.runs, breaches: r.breaches, seconds: r.seconds } };
    });
  }

  /** requirements.md monitor-forms §2 "Cap monitors": part-based challenge ranges only with their flag on. */
  async function refusePartRangesWhenOff(ctx: AuthContext, d: TTaskCreate["task_details"]) {
    if (!d.challenge_ranges?.some((r) => r.mode === "PART")) return;
    if (!(await deps.flags.get(ctx.customerId)).flags.capChallengePartRange)
      throw badRequest(CHALLENGE_RANGE_TEXTS.partFlagOff);
  }

  return {
    /** The task schemas with this server's records range (MVD_QUERY_MAX_RECORD_COUNT). */
    schemas,

    /** What the monitor forms need to know of this installation (GET /api/monitors/form-bounds). */
    formBounds(): TMonitorFormBounds {
      return { maxRecordCount: deps.maxRecordCount };
    },

    async create(ctx: AuthContext, task: TTaskCreate): Promise<TMonitor> {
      if (task.task_type === "mvd" && !(await deps.flags.get(ctx.customerId)).flags.mvdMonitorCreation)
        throw forbidden(MONITOR_MESSAGES.mvdCreationDisabled);
      const line = await resolveDetails(ctx, task.task_details);
      await refusePartRangesWhenOff(ctx, task.task_details);
      const filter = storedFilterOf(task.task_details);
      const md5 = filterMd5(task.task_type, filter);
      await refuseDuplicates(line.id, task.task_type, task.task_name, md5);
      const row = await insertRecorded(ctx, {
        customerId: ctx.customerId,
        plantId: line.plantId,
        lineId: line.id,
        name: task.task_name,
        type: task.task_type,
        active: task.active,
        frequency: task.frequency,
        notes: task.notes,
        alertThreshold: fromServerAlertThreshold(task.task_details.alert_threshold),
        useExcludedPartIds: task.task_details.use_excluded_part_ids,
        useExcludedModelNumbers: task.task_details.use_excluded_model_numbers,
        filter,
        filterMd5: md5,
        // An active monitor is due at once: the worker picks it up on its next pass.
        nextRunAt: task.active ? now() : null,
      });
      return toMonitor(row);
    },

    async update(ctx: AuthContext, task: TTaskCreate & { task_uuid: string }): Promise<TMonitor> {
      const existing = await load(ctx, task.task_uuid);
      if (existing.type !== task.task_type) throw badRequest(MONITOR_MESSAGES.typeChange);
      const line = await resolveDetails(ctx, task.task_details);
      await refusePartRangesWhenOff(ctx, task.task_details);
      const filter = storedFilterOf(task.task_details);
      const md5 = filterMd5(task.task_type, filter);
      await refuseDuplicates(line.id, task.task_type, task.task_name, md5, existing.id);
      try {
        return toMonitor(
          await updateRecorded(ctx, existing.id, {
            plantId: line.plantId,
            lineId: line.id,
            name: task.task_name,
            active: task.active,
            frequency: task.frequency,
            notes: task.notes,
            alertThreshold: fromServerAlertThreshold(task.task_details.alert_threshold),
            useExcludedPartIds: task.task_details.use_excluded_part_ids,
            useExcludedModelNumbers: task.task_details.use_excluded_model_numbers,
            filter,
            filterMd5: md5,
            ...(task.active !== existing.active ? { nextRunAt: task.active ? now() : null } : {}),
            updatedAt: now(),
          }),
        );
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(MONITOR_MESSAGES.nameTaken(task.task_name));
        throw e;
      }
    },

    async get(ctx: AuthContext, id: string): Promise<TMonitor> {
      return toMonitor(await load(ctx, id));
    },

    async list(ctx: AuthContext, lineId: string, type?: TMonitorType): Promise<TMonitor[]> {
      const rows = await repo.list(ctx.customerId, lineId, type);
      // The customer's monitors on the line prove the line is theirs; an empty list checks it.
      if (rows.length === 0) await deps.lines.get(ctx, lineId);
      return rows.map(toMonitor);
    },

    async remove(ctx: AuthContext, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const txRepo = createMonitorsRepo(tx);
        const row = await txRepo.find(ctx.customerId, id);
        if (!row || !(await txRepo.delete(ctx.customerId, id))) throw monitorNotFound();
        await recordAudit(tx, ctx, {
          resource: "monitor",
          action: "delete",
          ...auditTarget(row),
          before: auditFieldsOf(row),
          after: null,
        });
      });
    },

    async nextName(ctx: AuthContext, lineId: string, type: TMonitorType): Promise<{ name: string }> {
      const line = await deps.lines.get(ctx, lineId);
      return { name: nextMonitorName(lineLabel(line), type, await repo.names(line.id, type)) };
    },

    /** Capability-service variant: a cap monitor for one signal with the new-cap defaults. */
    async createCap(ctx: AuthContext, signalId: string): Promise<{ id: string }> {
      const [signal] = await signalsRepo.signalsByIds(ctx.customerId, [signalId]);
      if (!signal) throw new AppError("NOT_FOUND", SIGNAL_MESSAGES.notFound);
      await checkSignals(ctx, signal.lineId, [signalId]);
      const line = await deps.lines.get(ctx, signal.lineId);
      const filter: TStoredMonitorFilter = {
        signal_uuids: [signalId],
        signal_group_uuids: [],
        part_attributes: [],
        sample_size: CAP_MONITOR_DEFAULTS.sample_size,
        pass_fail_filter: [],
        evaluation_ratio: CAP_MONITOR_DEFAULTS.evaluation_ratio,
        part_numbers: [],
        part_groups: [],
      };
      const md5 = filterMd5("cap", filter);
      const same = await repo.findByMd5(line.id, md5);
      if (same) throw conflict(MONITOR_MESSAGES.duplicate, { task_uuid: same.id });
      const row = await insertRecorded(ctx, {
        customerId: ctx.customerId,
        plantId: line.plantId,
        lineId: line.id,
        name: nextMonitorName(lineLabel(line), "cap", await repo.names(line.id, "cap")),
        type: "cap",
        active: CAP_MONITOR_DEFAULTS.active,
        frequency: CAP_MONITOR_DEFAULTS.frequency,
        notes: CAP_MONITOR_DEFAULTS.notes,
        alertThreshold: MONITOR_BOUNDS.defaultAlertThreshold,
        useExcludedPartIds: false,
        useExcludedModelNumbers: false,
        filter,
        filterMd5: md5,
        nextRunAt: null,
      });
      return { id: row.id };
    },

    /** Activate or deactivate, and the cap exclusion switches. */
    async patch(ctx: AuthContext, id: string, body: TPatchMonitorBody): Promise<TMonitor> {
      const existing = await load(ctx, id);
      const row = await updateRecorded(ctx, id, {
        ...(body.active !== undefined
          ? { active: body.active, nextRunAt: body.active ? (existing.active ? undefined : now()) : null }
          : {}),
        ...(body.useExcludedModelNumbers !== undefined
          ? { useExcludedModelNumbers: body.useExcludedModelNumbers }
          : {}),
        ...(body.useExcludedPartIds !== undefined ? { useExcludedPartIds: body.useExcludedPartIds } : {}),
        updatedAt: now(),
      });
      return toMonitor(row);
    },

    rules: (ctx: AuthContext, monitorId: string) => rules(ctx, monitorId),

    async saveRules(ctx: AuthContext, monitorId: string, list: TMonitorRule[]): Promise<TMonitorRule[]> {
      const monitor = await load(ctx, monitorId);
      await db.transaction(async (tx) => {
        const txRepo = createMonitorsRepo(tx);
        const before = await rules(ctx, monitorId, tx);
        for (const r of list) {
          await txRepo.upsertRule(monitorId, ruleValuesOf(r));
        }
        await recordAudit(tx, ctx, {
          resource: "monitor_rules",
          action: "update",
          ...auditTarget(monitor),
          before: auditRulesOf(before),
          after: auditRulesOf(await rules(ctx, monitorId, tx)),
        });
      });
      return rules(ctx, monitorId);
    },
  };
}
export type MonitorsService = ReturnType<typeof createMonitorsService>;
