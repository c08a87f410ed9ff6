import {
  alertRuleNeverFiresWarning,
  RULE_FIELD_LABELS,
  RULE_MESSAGES,
  RULE_TEXTS,
  RULE_TITLES,
  ruleFormErrors,
  type TRuleFormValues,
} from "@linewatch/contracts";
import { Alert, Stack, Typography } from "@mui/material";
import { useMemo } from "react";
import { RuleCountField } from "./RuleCountField";
import { RuleSection } from "./RuleSection";

/**
 * The time rule's warning when it can never fire at this frequency, or null. Only for a switched-on
 * rule whose breaches and time are valid (otherwise the field errors say what is wrong).
 */
export function timeRuleWarning(rules: TRuleFormValues, frequencyMinutes: number): string | null {
  if (!rules.timeEnabled || !Number.isFinite(frequencyMinutes) || frequencyMinutes <= 0) return null;
  const errors = ruleFormErrors(rules);
  if (errors.breachesForTime || errors.seconds) return null;
  return alertRuleNeverFiresWarning(
    {
      type: "ExceedanceTime",
      active: true,
      runs: null,
      breaches: rules.breachesForTime,
      seconds: rules.seconds,
    },
    frequencyMinutes,
  );
}

export type AlertRulesEditorProps = {
  values: TRuleFormValues;
  /** The monitor's frequency in minutes (the time rule warns when it can never fire at it). */
  frequency: number;
  onChange: (next: TRuleFormValues) => void;
  readOnly?: boolean;
  /** Field errors are shown (default true); the monitor form shows them after its first save in CREATE. */
  showErrors?: boolean;
};

/**
 * A monitor's alert rules (requirements.md monitor-forms §2 "Alert Rules tab", §3 "Alert rule", §5, §9):
 * three independently switchable rules; with none on, every breach triggers an alert. It holds
 * no state: the monitor form's tab and a modal both hand it values and take its changes.
 */
export function AlertRulesEditor({
  values: rules,
  frequency,
  onChange,
  readOnly = false,
  showErrors = true,
}: AlertRulesEditorProps) {
  const errors = useMemo(() => (showErrors ? ruleFormErrors(rules) : {}), [rules, showErrors]);
  const warning = timeRuleWarning(rules, frequency);
  const isNoneEnabled = !rules.consecutiveEnabled && !rules.runsEnabled && !rules.timeEnabled;
  const set =
    <K extends keyof TRuleFormValues>(key: K) =>
    (value: TRuleFormValues[K]) =>
      onChange({ ...rules, [key]: value });
  const count = (
    key: "consecutiveBreaches" | "runs" | "breachesForRuns" | "breachesForTime" | "seconds",
  ) => ({
    value: rules[key],
    onChange: set(key),
    error: errors[key],
    readOnly,
  });

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {RULE_TEXTS.intro}
      </Typography>

      <RuleSection
        title={RULE_TITLES.Consecutive}
        isEnabled={rules.consecutiveEnabled}
        onEnabledChange={set("consecutiveEnabled")}
        readOnly={readOnly}
        description={RULE_TEXTS.consecutive(rules.consecutiveBreaches)}
      >
        <RuleCountField
          label={RULE_FIELD_LABELS.consecutiveBreaches}
          isRuleEnabled={rules.consecutiveEnabled}
          {...count("consecutiveBreaches")}
        />
      </RuleSection>

      <RuleSection
        title={RULE_TITLES.ExceedanceRuns}
        isEnabled={rules.runsEnabled}
        onEnabledChange={set("runsEnabled")}
        readOnly={readOnly}
        description={RULE_TEXTS.runs(rules.breachesForRuns, rules.runs)}
      >
        <RuleCountField
          label={RULE_FIELD_LABELS.breaches}
          isRuleEnabled={rules.runsEnabled}
          {...count("breachesForRuns")}
        />
        <RuleCountField label={RULE_FIELD_LABELS.runs} isRuleEnabled={rules.runsEnabled} {...count("runs")} />
      </RuleSection>

      <RuleSection
        title={RULE_TITLES.ExceedanceTime}
        isEnabled={rules.timeEnabled}
        onEnabledChange={set("timeEnabled")}
        readOnly={readOnly}
        description={RULE_TEXTS.time(rules.breachesForTime, rules.seconds)}
        footer={warning && <Alert severity="warning">{warning}</Alert>}
      >
        <RuleCountField
          label={RULE_FIELD_LABELS.breaches}
          isRuleEnabled={rules.timeEnabled}
          {...count("breachesForTime")}
        />
        <RuleCountField
          label={RULE_FIELD_LABELS.minutes}
          isRuleEnabled={rules.timeEnabled}
          inMinutes
          {...count("seconds")}
        />
      </RuleSection>

      {isNoneEnabled && <Alert severity="info">{RULE_MESSAGES.noRules}</Alert>}
    </Stack>
  );
}
