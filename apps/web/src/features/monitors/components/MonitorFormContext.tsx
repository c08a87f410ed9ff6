import type { TFormError, TFormMode, TPlant } from "@linewatch/contracts";
import { errorAt } from "@linewatch/contracts";
import { createContext, useContext } from "react";

/**
 * What every tab of the monitor form reads besides the values (the values live in the form's
 * react-hook-form context: `useFormContext<TMonitorFormValues>()`).
 */
export type MonitorFormCtx = {
  mode: TFormMode;
  /** VIEW: every control read-only. */
  readOnly: boolean;
  /** Validation is shown: always in EDIT, in CREATE after the first save attempt (requirements.md monitor-forms §4). */
  showErrors: boolean;
  /** Every current validation error (monitorFormErrors), whether shown or not. */
  errors: TFormError[];
  customerId: string;
  plant: TPlant;
  /** MVD_QUERY_MAX_RECORD_COUNT of this installation. */
  maxRecordCount: number;
  /** The clock (tests pass a fixed one). */
  now: () => number;
};

export const MonitorFormContext = createContext<MonitorFormCtx | null>(null);

export function useMonitorFormCtx(): MonitorFormCtx {
  const v = useContext(MonitorFormContext);
  if (!v) throw new Error("useMonitorFormCtx needs a MonitorFormContext provider");
  return v;
}

/** The message to show under a field, or undefined (nothing shown until validation is on). */
export function useFieldError(path: string): string | undefined {
  const ctx = useMonitorFormCtx();
  return ctx.showErrors ? errorAt(ctx.errors, path) : undefined;
}
