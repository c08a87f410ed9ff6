import { MONITOR_FORM_TEXTS, MONITOR_MESSAGES } from "@linewatch/contracts";
import { SIGNAL_TREE_TEXT } from "../../../signals/signal-tree";

/**
 * The Signals tab's wording (requirements.md monitor-forms §2 "Signals tab"): the tab's own (contracts) with
 * the signal tree's (features/signals); tests read the same strings.
 */
export const SIGNALS_TAB_TEXT = {
  ...MONITOR_FORM_TEXTS.signalsTab,
  treeLabel: SIGNAL_TREE_TEXT.treeLabel,
  mvdHint: MONITOR_MESSAGES.mvdSignalsWizard,
  attributeHint: SIGNAL_TREE_TEXT.attributeHint,
  groupsMvdOnly: SIGNAL_TREE_TEXT.groupsMvdOnly,
  signalCount: SIGNAL_TREE_TEXT.signalCount,
} as const;
