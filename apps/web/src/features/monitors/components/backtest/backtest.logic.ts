import {
  BACKTEST_BOUNDS,
  formToTask,
  ruleFormErrors,
  rulesFromRuleForm,
  type TBacktest,
  type TBacktestBody,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { isSignalSelectionValid } from "../filters/filters.logic";

export type TBacktestRequest =
  | { body: TBacktestBody; blocked: null }
  | { body: null; blocked: "signals" | "rules" };

/**
 * The backtest of the form's settings as they stand (issue #18 §1): the task a save would send and
 * the rules of the Alert Rules tab, over the last 7 days. Nothing to ask while the signals or the
 * rules are not valid.
 */
export function backtestRequestOf(
  v: TMonitorFormValues,
  ctx: { cust_uuid: string; plant_uuid: string },
  days: number = BACKTEST_BOUNDS.defaultDays,
): TBacktestRequest {
  if (!v.line_uuid || !isSignalSelectionValid(v)) return { body: null, blocked: "signals" };
  if (Object.keys(ruleFormErrors(v.rules)).length > 0) return { body: null, blocked: "rules" };
  const task = formToTask(v, ctx);
  return {
    blocked: null,
    // The name plays no part in a backtest: a form still without one is backtested all the same.
    body: {
      task: { ...task, task_name: task.task_name.trim() || "Backtest" },
      rules: rulesFromRuleForm(v.rules),
      ...(days !== BACKTEST_BOUNDS.defaultDays ? { period: { days } } : {}),
    },
  };
}

/** The period's length in whole days (7 by default), for the summary sentence. */
export const backtestDays = (b: Pick<TBacktest, "from" | "to">) =>
  Math.max(1, Math.round((Date.parse(b.to) - Date.parse(b.from)) / 86_400_000)) ||
  BACKTEST_BOUNDS.defaultDays;
