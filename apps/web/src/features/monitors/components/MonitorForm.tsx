import type { TFormMode, TFormMonitorType } from "@linewatch/contracts";

export type MonitorFormProps = {
  type: TFormMonitorType;
  /** CREATE without a monitor id; EDIT or VIEW of the monitor with this id. */
  mode: TFormMode;
  monitorId?: string | null;
  /** The line a new monitor starts on (default: the line picked in the top bar). */
  lineId?: string | null;
  /** Called after a successful save (the form has closed itself) and on Cancel / Close. */
  onClose: () => void;
  /** Called with the saved monitor's id after a successful create or update. */
  onSaved?: (monitorId: string) => void;
};

/** The MVD / SVD monitor form (spec monitor-forms §2–§5, §8). Being built: see MonitorForm shell. */
export function MonitorForm(_p: MonitorFormProps) {
  return null;
}
