import {
  CAP_RULES_MODAL,
  DEFAULT_RULE_FORM,
  CAP_ALERTS_MESSAGES as M,
  MONITOR_MESSAGES,
  ruleFormErrors,
  ruleFormFromRules,
  rulesFromRuleForm,
  type TMonitor,
  type TRuleFormValues,
} from "@linewatch/contracts";
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
} from "@mui/material";
import { useEffect, useState } from "react";
import { useMonitorRules } from "../../../monitors/api/queries";
import { AlertRulesEditor } from "../../../monitors/components/rules/AlertRulesEditor";

/**
 * 'Cap Alert Rules' (requirements.md settings §2.4, §9: 850 by 450, Save and Close): the monitor form's
 * standalone rules editor with its defaults and checks, for one cap monitor.
 */
export function CapRulesDialog(p: {
  monitor: TMonitor | null;
  isSaving: boolean;
  onSave: (monitorId: string, rules: ReturnType<typeof rulesFromRuleForm>) => Promise<void>;
  onClose: () => void;
}) {
  const rulesQ = useMonitorRules(p.monitor?.monitor_uuid);
  const [values, setValues] = useState<TRuleFormValues>(DEFAULT_RULE_FORM);
  useEffect(() => {
    if (rulesQ.data) setValues(ruleFormFromRules(rulesQ.data));
  }, [rulesQ.data]);
  const isValid = Object.keys(ruleFormErrors(values)).length === 0;

  return (
    <Dialog
      open={!!p.monitor}
      onClose={p.onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: CAP_RULES_MODAL.width, height: CAP_RULES_MODAL.height } } }}
    >
      <DialogTitle>{M.rulesTitle}</DialogTitle>
      <DialogContent dividers>
        {rulesQ.isLoading ? (
          <CircularProgress aria-label="Loading" />
        ) : rulesQ.isError ? (
          <Alert severity="error">{MONITOR_MESSAGES.errorLoading}</Alert>
        ) : (
          <AlertRulesEditor values={values} frequency={p.monitor?.frequency ?? 15} onChange={setValues} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{M.close}</Button>
        <Button
          variant="contained"
          disabled={!isValid || p.isSaving || !rulesQ.data}
          onClick={async () => {
            if (p.monitor) await p.onSave(p.monitor.monitor_uuid, rulesFromRuleForm(values));
          }}
        >
          {M.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
