import {
  alertRuleNeverFiresWarning,
  RULE_MESSAGES,
  ruleFormErrors,
  type TMonitorFormValues,
  type TRuleFormValues,
} from "@linewatch/contracts";
import { Alert, Stack, Typography } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { RuleCountField } from "./RuleCountField";
import { RuleSection } from "./RuleSection";
import { RULE_FIELD_LABELS, RULE_TEXTS, RULE_TITLES } from "./ruleTexts";

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

/**
 * Alert Rules tab of the monitor form (spec monitor-forms §2, §3 "Alert rule", §5, §9): three
 * independently switchable rules; with none on, every breach triggers an alert.
 */
export function AlertRulesTab() {
  const { control } = useFormContext<TMonitorFormValues>();
  const rules = useWatch({ control, name: "rules" });
  const frequency = useWatch({ control, name: "frequency" });
  const warning = timeRuleWarning(rules, frequency);
  const isNoneEnabled = !rules.consecutiveEnabled && !rules.runsEnabled && !rules.timeEnabled;

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {RULE_TEXTS.intro}
      </Typography>

      <RuleSection
        title={RULE_TITLES.Consecutive}
        enabledName="rules.consecutiveEnabled"
        description={RULE_TEXTS.consecutive(rules.consecutiveBreaches)}
      >
        <RuleCountField
          name="rules.consecutiveBreaches"
          label={RULE_FIELD_LABELS.consecutiveBreaches}
          isRuleEnabled={rules.consecutiveEnabled}
        />
      </RuleSection>

      <RuleSection
        title={RULE_TITLES.ExceedanceRuns}
        enabledName="rules.runsEnabled"
        description={RULE_TEXTS.runs(rules.breachesForRuns, rules.runs)}
      >
        <RuleCountField
          name="rules.breachesForRuns"
          label={RULE_FIELD_LABELS.breaches}
          isRuleEnabled={rules.runsEnabled}
        />
        <RuleCountField name="rules.runs" label={RULE_FIELD_LABELS.runs} isRuleEnabled={rules.runsEnabled} />
      </RuleSection>

      <RuleSection
        title={RULE_TITLES.ExceedanceTime}
        enabledName="rules.timeEnabled"
        description={RULE_TEXTS.time(rules.breachesForTime, rules.seconds)}
        footer={warning && <Alert severity="warning">{warning}</Alert>}
      >
        <RuleCountField
          name="rules.breachesForTime"
          label={RULE_FIELD_LABELS.breaches}
          isRuleEnabled={rules.timeEnabled}
        />
        <RuleCountField
          name="rules.seconds"
          label={RULE_FIELD_LABELS.minutes}
          isRuleEnabled={rules.timeEnabled}
          inMinutes
        />
      </RuleSection>

      {isNoneEnabled && <Alert severity="info">{RULE_MESSAGES.noRules}</Alert>}
    </Stack>
  );
}
