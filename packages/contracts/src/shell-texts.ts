import { AUDIT_TEXTS } from "./audit-log-texts.js";

// The signed-in frame's words: the top bar, the user menu and the loading and error states every
// page shares (not in the spec).

export const SHELL_TEXTS = {
  productName: "Linewatch",
  plant: "Plant",
  line: "Line",
  home: "Home",
  settings: "Settings",
  userMenu: "User menu",
  location: (name: string) => `Location: ${name}`,
  unassigned: "Unassigned",
  customer: "Customer",
  actForCustomer: "Act for customer",
  loadingOption: "Loading…",
  nowActingFor: (customer: string) => `Now acting for ${customer}`,
  featureFlags: "Feature flags",
  /** The audit log's menu item, as the audit log names itself. */
  auditLog: AUDIT_TEXTS.menuItem,
  changePassword: "Change password",
  apiTokens: "API tokens",
  signOut: "Sign out",
  loading: "Loading",
  loadingPage: "Loading page",
  retry: "Retry",
  close: "Close",
  /** Any path inside the signed-in frame that no page answers. */
  pageNotFound: "Page not found",
} as const;
