/**
 * Who reads the audit log (issue 18 §2): the customer's administrators, and provider staff acting
 * for the customer; other users read only the history of what they may see (ResourceHistory).
 */
export const canReadAuditLog = (me: { isAdministrator: boolean; isProviderStaff: boolean }) =>
  me.isAdministrator || me.isProviderStaff;
