import { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "./auth-texts.js";
import { ZId, zString } from "./common.js";
import { LANGUAGES } from "./i18n.js";

/** Sign-in limits (issue: five failures for one email within 5 minutes answer 429). */
export const LOGIN_LIMIT = { failures: 5, windowMs: 5 * 60_000 } as const;
/** Session lifetime: 12 h idle, 7 days absolute. */
export const SESSION_LIMITS = { idleMs: 12 * 3_600_000, absoluteMs: 7 * 24 * 3_600_000 } as const;
export const SESSION_COOKIE = "lw_session";

export const ZLoginBody = z.strictObject({
  email: zString().trim().min(1).max(254),
  password: zString().min(1).max(1024),
});
export type TLoginBody = z.infer<typeof ZLoginBody>;

export const ZSetPasswordBody = z.strictObject({
  token: zString().min(20).max(200),
  password: zString()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(1024),
});
export type TSetPasswordBody = z.infer<typeof ZSetPasswordBody>;

/** POST /api/auth/me/password (issue 33 §2): the current password, and the new one by the set-password rule. */
export const ZChangePasswordBody = z.strictObject({
  currentPassword: zString().min(1).max(1024),
  newPassword: ZSetPasswordBody.shape.password,
});
export type TChangePasswordBody = z.infer<typeof ZChangePasswordBody>;

export const ZCustomerRef = z.object({ id: ZId, name: zString() });
export type TCustomerRef = z.infer<typeof ZCustomerRef>;

/** The signed-in user as the web app sees it. */
export const ZMe = z.object({
  id: ZId,
  email: zString(),
  isAdministrator: z.boolean(),
  isProviderStaff: z.boolean(),
  locationName: zString().nullable(),
  locationPlantId: ZId.nullable(),
  homeCustomer: ZCustomerRef,
  customer: ZCustomerRef,
  selectedPlantId: ZId.nullable(),
  selectedLineId: ZId.nullable(),
  /** The interface's language the user chose; null follows the browser's (issue 32 §4). */
  language: z.enum(LANGUAGES).nullable(),
});
export type TMe = z.infer<typeof ZMe>;

export const ZSwitchCustomerBody = z.strictObject({ customerId: ZId });
export const ZCustomerList = z.array(ZCustomerRef);

export const ZSelectionBody = z.strictObject({
  selectedPlantId: ZId.nullable().optional(),
  selectedLineId: ZId.nullable().optional(),
});
export type TSelectionBody = z.infer<typeof ZSelectionBody>;

/** PUT /api/auth/me/language: the user's interface language, or null to follow the browser's. */
export const ZLanguageBody = z.strictObject({ language: z.enum(LANGUAGES).nullable() });
export type TLanguageBody = z.infer<typeof ZLanguageBody>;

/** GET /api/check-current-user-roles (requirements.md settings §7). */
export const ZCurrentUserRoles = z.object({ isAdministrator: z.boolean() });
