import { z } from "zod";

/**
 * Every flag the two specs name (requirements.md settings §6, requirements.md monitor-forms §1), with what it changes and its
 * default for a new customer. The demo customer has every flag on.
 */
export const FEATURE_FLAGS = {
  mvdMonitorCreation: {
    label: "MVD monitor creation",
    description: "Shows Multi-Variate (MVD) in the Settings menu and allows creating MVD monitors.",
    default: true,
  },
  etqIntegration: {
    label: "ETQ Reliance integration",
    description: "Shows ETQ Reliance under Integrations in the Settings menu.",
    default: false,
  },
  capExcludedParts: {
    label: "Cap excluded parts",
    description: "Adds Exclude Challenge Parts and Exclude Model Numbers to the Cap Alerts grid.",
    default: false,
  },
  capSingleSided: {
    label: "Cap single-sided",
    description:
      "Single-sided distributions: Distribution block in Signal Management, 'Single Sided' limit cells.",
    default: false,
  },
  capLimits: {
    label: "Cap limits",
    description: "Cap Limits saves only rows with at least one limit.",
    default: true,
  },
  userDeletion: {
    label: "User deletion",
    description: "Administrators can delete users from the Users page.",
    default: false,
  },
  userLocation: {
    label: "User location",
    description: "Shows the Location column and location selector on the Users page.",
    default: true,
  },
  limitEntityTypeSelection: {
    label: "Limit entity-type selection",
    description: "Offers Upper Limit and Lower Limit in the Entity Type select.",
    default: true,
  },
  resultEntityTypeSelection: {
    label: "Result entity-type selection",
    description: "Offers Result in the Entity Type select.",
    default: true,
  },
  componentEntityTypeSelection: {
    label: "Component entity-type selection",
    description: "Offers Component ID in the Entity Type select.",
    default: false,
  },
  partMarriage: {
    label: "Part marriage",
    description:
      "Line Management with Enabled/Disabled/All tabs and the line editor's Active, No Data Alert and Alert Displayed fields.",
    default: false,
  },
  lineFriendlyName: {
    label: "Line friendly name",
    description: "Configure Line action in Line Management without part marriage.",
    default: true,
  },
  feederLineAssignment: {
    label: "Feeder line assignment",
    description: "Feeder Lines section in the line editor.",
    default: false,
  },
  capExclusion: {
    label: "Cap exclusion",
    description: "Challenge Parts and Challenge Model Numbers in the line editor.",
    default: false,
  },
  capChallengePartRange: {
    label: "Part-based challenge range",
    description: "Cap monitors can exclude a challenge range by part as well as by time.",
    default: false,
  },
  multiselectTree: {
    label: "Multiselect tree",
    description: "Ctrl or meta click toggles signals in the Signal Management tree.",
    default: true,
  },
  shiftSelect: {
    label: "Shift select",
    description: "Shift-click selects a range of signals in the Signal Management tree.",
    default: true,
  },
} as const satisfies Record<string, { label: string; description: string; default: boolean }>;

export type TFeatureFlagKey = keyof typeof FEATURE_FLAGS;
export const FEATURE_FLAG_KEYS = Object.keys(FEATURE_FLAGS) as TFeatureFlagKey[];
export const ZFeatureFlagKey = z.enum(FEATURE_FLAG_KEYS as [TFeatureFlagKey, ...TFeatureFlagKey[]]);

/** Flag values as served to the web app. */
export const ZFeatureFlags = z.record(ZFeatureFlagKey, z.boolean());
export type TFeatureFlags = Record<TFeatureFlagKey, boolean>;

export const ZFeatureFlagsResponse = z.object({
  flags: ZFeatureFlags,
  /** Customer-id override that shows ETQ Reliance without its flag (requirements.md settings §2.1). */
  etqOverride: z.boolean(),
});
export type TFeatureFlagsResponse = z.infer<typeof ZFeatureFlagsResponse>;

export const ZFeatureFlagParams = z.strictObject({ key: ZFeatureFlagKey });
export const ZFeatureFlagBody = z.strictObject({ enabled: z.boolean() });

export const defaultFeatureFlags = (allOn = false): TFeatureFlags =>
  Object.fromEntries(FEATURE_FLAG_KEYS.map((k) => [k, allOn || FEATURE_FLAGS[k].default])) as TFeatureFlags;

export const FEATURE_FLAG_MESSAGES = {
  readOnly: "Feature flags are set by Linewatch. To change one, ask Linewatch support.",
} as const;

/**
 * Who sees and who switches a customer's feature flags (docs/architecture.md "who may change what"):
 * flags are the provider's, so only provider staff switch them; the customer's administrators
 * see them read-only; other users not at all.
 */
export const featureFlagAccess = (me: { isAdministrator: boolean; isProviderStaff: boolean }) => ({
  canView: me.isAdministrator || me.isProviderStaff,
  canChange: me.isProviderStaff,
});
