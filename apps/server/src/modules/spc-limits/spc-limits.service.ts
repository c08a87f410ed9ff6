import {
  DEFAULT_MODEL,
  formulaOrNull,
  hasAnyLimit,
  limitOrderErrors,
  lockedLimitKeys,
  plainNumber,
  SIGNAL_MESSAGES,
  SPC_FORMULA_FIELDS,
  SPC_LIMIT_KEYS,
  SPC_LIMIT_LABELS,
  SPC_LIMITS_MESSAGES,
  type TSpcLimitKey,
  type TSpcSignalLimits,
  type TSpcSuggestBody,
  type TSpcSuggestion,
} from "@linewatch/contracts";
import { parseLimitFormula, suggestControlLimits } from "@linewatch/stats";
import type { Db } from "../../db/client.js";
import { AppError, badRequest } from "../../errors.js";
import { recordAuditMany } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import { singleSignalFilter } from "../evaluation/window.plan.js";
import { loadWindow } from "../evaluation/window.read.js";
import type { FeatureFlagsService } from "../feature-flags/feature-flags.service.js";
import type { LinesService } from "../lines/lines.service.js";
import { createSpcLimitsRepo, type SpcLimitValues } from "./spc-limits.repo.js";

type SignalRow = Awaited<ReturnType<ReturnType<typeof createSpcLimitsRepo>["signalsOfLine"]>>[number];

/** Signals that take SPC limits: the line's measurements (numeric). */
const isLimitable = (s: SignalRow) => s.entityType === "MEASUREMENT" && s.storage === "num";

/** '*' first, then model numbers in order (requirements.md settings §9: limits sorted by station, signal, model). */
const byModel = (a: { modelNumber: string }, b: { modelNumber: string }) =>
  a.modelNumber === b.modelNumber
    ? 0
    : a.modelNumber === DEFAULT_MODEL
      ? -1
      : b.modelNumber === DEFAULT_MODEL
        ? 1
        : a.modelNumber < b.modelNumber
          ? -1
          : 1;

/** Each signal's limits as the audit log records them: by model number, the four formulas. */
function auditLimitsBySignal(rows: (SpcLimitValues & { signalId: string })[]) {
  const bySignal = new Map<string, Record<string, Record<string, string | null>>>();
  for (const r of [...rows].sort(byModel)) {
    const limits = bySignal.get(r.signalId) ?? {};
    limits[r.modelNumber] = { lsl: r.lslFormula, lcl: r.lclFormula, ucl: r.uclFormula, usl: r.uslFormula };
    bySignal.set(r.signalId, limits);
  }
  return (signalId: string) => bySignal.get(signalId) ?? {};
}

/**
 * SPC limits of a line (requirements.md settings §2.5, §3, §5, §7). Saving replaces the model rows of each
 * signal sent; every formula is parsed by packages/stats' safe evaluator and may reference only
 * numeric signals of the same line. The worker reads spc_limits at each evaluation
 * (evaluation/window.plan.ts), so a save takes effect at the monitor's next evaluation.
 */
export function createSpcLimitsService(deps: {
  db: Db;
  lines: LinesService;
  flags: FeatureFlagsService;
  /** Most records a suggestion reads (MVD_QUERY_MAX_RECORD_COUNT). */
  maxRecordCount: number;
}) {
  const repo = createSpcLimitsRepo(deps.db);

  async function list(ctx: AuthContext, lineId: string): Promise<TSpcSignalLimits[]> {
    await deps.lines.get(ctx, lineId);
    const [signals, limits] = await Promise.all([
      repo.signalsOfLine(ctx.customerId, lineId),
      repo.limitsOfLine(ctx.customerId, lineId),
    ]);
    const bySignal = new Map<string, typeof limits>();
    for (const l of limits) bySignal.set(l.signalId, [...(bySignal.get(l.signalId) ?? []), l]);
    return signals.filter(isLimitable).map((s) => ({
      lineUUID: lineId,
      stationName: s.stationName,
      signalUUID: s.id,
      signalName: s.name,
      singleSide: s.singleSide,
      limits: (bySignal.get(s.id) ?? []).sort(byModel).map((l) => ({
        uuid: l.id,
        model_number: l.modelNumber,
        lslFormula: l.lslFormula,
        lclFormula: l.lclFormula,
        uclFormula: l.uclFormula,
        uslFormula: l.uslFormula,
      })),
    }));
  }

  return {
    list,

    /**
     * Control limits from a period the user marks as stable (issue #14): per model number seen in
     * the period and for '*' (every record), mean ± 3 σ of the signal's values — σ within (moving
     * range) unless the period's lag-1 autocorrelation makes it flag noticeably more than 0.27 %
     * of in-control points, then the overall σ (issue 29); each with its expected false-alarm rate.
     */
    async suggest(
      ctx: AuthContext,
      lineId: string,
      body: TSpcSuggestBody,
      opts: { signal?: AbortSignal } = {},
    ): Promise<TSpcSuggestion[]> {
      await deps.lines.get(ctx, lineId);
      const signal = (await repo.signalsOfLine(ctx.customerId, lineId)).find((s) => s.id === body.signalUUID);
      if (!signal) throw new AppError("NOT_FOUND", SIGNAL_MESSAGES.notFound);
      if (!isLimitable(signal)) throw badRequest(SPC_LIMITS_MESSAGES.signalNotOnLine(signal.name));
      const from = new Date(body.from);
      const to = new Date(body.to);
      if (!(from < to)) throw badRequest(SPC_LIMITS_MESSAGES.suggestOrder);
      const window = await loadWindow(
        deps.db,
        {
          customerId: ctx.customerId,
          lineId,
          type: "svd",
          filter: singleSignalFilter(signal.id, deps.maxRecordCount),
          period: { from, to, limit: deps.maxRecordCount, anchor: "start" },
        },
        { signal: opts.signal },
      );
      const all: number[] = [];
      const groups = new Map<string, number[]>([[DEFAULT_MODEL, all]]);
      for (const r of window.records) {
        const x = r.values[0] as number;
        all.push(x);
        if (!r.modelNumber) continue;
        const ofModel = groups.get(r.modelNumber);
        if (ofModel) ofModel.push(x);
        else groups.set(r.modelNumber, [x]);
      }
      const round = (x: number) => Math.round(x * 1e6) / 1e6;
      const pair = (p: { lcl: number; ucl: number; expectedFalseAlarmRate: number }) => ({
        lcl: round(p.lcl),
        ucl: round(p.ucl),
        expectedFalseAlarmRate: p.expectedFalseAlarmRate,
      });
      return [...groups]
        .flatMap(([model, values]): TSpcSuggestion[] => {
          const s = suggestControlLimits(values);
          if (!s) return [];
          return [
            {
              model_number: model,
              n: s.n,
              lcl: round(s.lcl),
              ucl: round(s.ucl),
              basis: s.basis,
              expectedFalseAlarmRate: s.expectedFalseAlarmRate,
              lag1Autocorrelation: s.lag1Autocorrelation,
              sigmaRatio: s.sigmaRatio,
              isAutocorrelated: s.isAutocorrelated,
              movingRange: pair(s.movingRange),
              overall: pair(s.overall),
            },
          ];
        })
        .sort((a, b) => byModel({ modelNumber: a.model_number }, { modelNumber: b.model_number }));
    },

    async save(ctx: AuthContext, lineId: string, body: TSpcSignalLimits[]): Promise<TSpcSignalLimits[]> {
      const line = await deps.lines.get(ctx, lineId);
      const [signals, { flags }] = await Promise.all([
        repo.signalsOfLine(ctx.customerId, lineId),
        deps.flags.get(ctx.customerId),
      ]);
      const byId = new Map(signals.map((s) => [s.id, s]));
      const numeric = new Set(signals.filter((s) => s.storage === "num").map((s) => s.id));
      const bySignal = new Map<string, SpcLimitValues[]>();

      for (const item of body) {
        // Another line's or customer's signal answers 404, as every foreign id does.
        const signal = byId.get(item.signalUUID);
        if (item.lineUUID !== lineId || !signal) throw new AppError("NOT_FOUND", SIGNAL_MESSAGES.notFound);
        if (!isLimitable(signal)) throw badRequest(SPC_LIMITS_MESSAGES.signalNotOnLine(signal.name));
        const locked = flags.capSingleSided ? lockedLimitKeys(signal.singleSide) : [];
        const rows: SpcLimitValues[] = [];
        for (const row of item.limits) {
          const model = row.model_number;
          const fail = (key: TSpcLimitKey, detail: string) =>
            badRequest(SPC_LIMITS_MESSAGES.cellError(SPC_LIMIT_LABELS[key], signal.name, model, detail));
          if (rows.some((r) => r.modelNumber === model))
            throw badRequest(SPC_LIMITS_MESSAGES.duplicateModel(signal.name, model));
          const values = {} as Record<TSpcLimitKey, string | null>;
          for (const key of SPC_LIMIT_KEYS) {
            const src = formulaOrNull(row[SPC_FORMULA_FIELDS[key]]);
            values[key] = src;
            if (src === null) continue;
            if (locked.includes(key)) throw fail(key, SPC_LIMITS_MESSAGES.singleSided);
            const parsed = parseLimitFormula(src);
            if (!parsed.ok) throw fail(key, parsed.error.message);
            for (const ref of parsed.references) {
              if (!numeric.has(ref)) {
                const at = src.toLowerCase().indexOf(ref) - 1;
                throw fail(key, SPC_LIMITS_MESSAGES.notOnLine(ref, at));
              }
            }
          }
          const order = limitOrderErrors(
            Object.fromEntries(SPC_LIMIT_KEYS.map((k) => [k, plainNumber(values[k])])),
          );
          const first = SPC_LIMIT_KEYS.find((k) => order[k]);
          if (first) throw fail(first, order[first] as string);
          const stored = {
            modelNumber: model,
            lslFormula: values.lsl,
            lclFormula: values.lcl,
            uclFormula: values.ucl,
            uslFormula: values.usl,
          };
          // requirements.md settings §5: with the cap-limits flag on, only rows with at least one limit are saved.
          if (flags.capLimits && !hasAnyLimit(stored)) continue;
          rows.push(stored);
        }
        bySignal.set(signal.id, rows);
      }
      await deps.db.transaction(async (tx) => {
        const txRepo = createSpcLimitsRepo(tx);
        const before = auditLimitsBySignal(await txRepo.limitsOfLine(ctx.customerId, lineId));
        await txRepo.replace(ctx.customerId, lineId, bySignal);
        const after = auditLimitsBySignal(await txRepo.limitsOfLine(ctx.customerId, lineId));
        // One record per signal whose limits changed: its model rows, keyed by model number.
        await recordAuditMany(
          tx,
          ctx,
          [...bySignal.keys()].map((signalId) => ({
            resource: "spc_limit" as const,
            action: "update" as const,
            resourceId: signalId,
            resourceName: (byId.get(signalId) as SignalRow).name,
            plantId: line.plantId,
            lineId,
            before: before(signalId),
            after: after(signalId),
          })),
        );
      });
      return list(ctx, lineId);
    },
  };
}
export type SpcLimitsService = ReturnType<typeof createSpcLimitsService>;
