import type { TMonitorFormValues } from "@linewatch/contracts";
import { useFormContext, useWatch } from "react-hook-form";
import { useMonitorFormCtx } from "../MonitorFormContext";
import { AlertRulesEditor } from "./AlertRulesEditor";

export { timeRuleWarning } from "./AlertRulesEditor";

/**
 * Alert Rules tab of the monitor form (requirements.md monitor-forms §2 "Alert Rules tab"): the form's
 * adapter of the standalone AlertRulesEditor — the rules and frequency from the form's values,
 * VIEW read-only, errors shown when the form shows them.
 */
export function AlertRulesTab() {
  const { readOnly, showErrors } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const rules = useWatch({ control, name: "rules" });
  const frequency = useWatch({ control, name: "frequency" });
  return (
    <AlertRulesEditor
      values={rules}
      frequency={frequency}
      readOnly={readOnly}
      showErrors={showErrors}
      onChange={(next) => setValue("rules", next, { shouldDirty: true })}
    />
  );
}
