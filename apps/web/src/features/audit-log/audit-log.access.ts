/**
 * Who reads the audit log (issue 18 §2): administrators — the customer's, and provider staff who
 * are administrators, acting for it — as the server's `/api/audit-log` routes check; other users
 * read only the history of what they may see (ResourceHistory).
 */
export const canReadAuditLog = (me: { isAdministrator: boolean }) => me.isAdministrator;
