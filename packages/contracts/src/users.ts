import { z } from "zod";
import { ZId, zString } from "./common.js";
import { USER_ROLES } from "./user-texts.js";

export const ZUserRole = z.enum(USER_ROLES);
export type TUserRole = z.infer<typeof ZUserRole>;

export const ZLocationConfig = z.object({
  locationName: zString().nullable(),
  locationPlantId: ZId.nullable(),
});
export type TLocationConfig = z.infer<typeof ZLocationConfig>;

/** A row of the Users page (requirements.md settings §3 "User row"). */
export const ZUserRow = z.object({
  id: ZId,
  email: zString(),
  lastLogin: z.iso.datetime({ offset: true }).nullable(),
  role: ZUserRole,
  locationName: zString().nullable(),
  locationPlantId: ZId.nullable(),
  isProviderStaff: z.boolean(),
});
export type TUserRow = z.infer<typeof ZUserRow>;
export const ZUserList = z.array(ZUserRow);

const ZEmail = zString()
  .trim()
  .min(1, "Email is required")
  .max(254)
  .pipe(z.email("Enter a valid email address"));

/** POST /api/add-user?customerId= and the back-office path (requirements.md settings §7). */
export const ZAddUserBody = z.strictObject({
  email: ZEmail,
  locationPlantId: ZId.nullable(),
  locationName: zString().trim().max(200).nullable(),
});
export type TAddUserBody = z.infer<typeof ZAddUserBody>;
export const ZAddUserQuery = z.strictObject({ customerId: ZId });
export const ZAddUserResponse = z.object({
  user: ZUserRow,
  /** One-time link to set a password, shown to the administrator once. */
  passwordLink: zString(),
});
export type TAddUserResponse = z.infer<typeof ZAddUserResponse>;

/** POST /api/users/{userId}/password-link (issue 33 §2): the one-time link, shown to the administrator once. */
export const ZPasswordLinkResponse = ZAddUserResponse.pick({ passwordLink: true });
export type TPasswordLinkResponse = z.infer<typeof ZPasswordLinkResponse>;

/** POST (add) / PUT (remove) /api/update-user-roles. */
export const ZUpdateUserRoleBody = z.strictObject({
  userId: ZId,
  role: z.literal("administrator"),
  customerId: ZId,
});
export type TUpdateUserRoleBody = z.infer<typeof ZUpdateUserRoleBody>;

/** POST /api/users deletes a user (requirements.md settings §7). */
export const ZDeleteUserBody = z.strictObject({ userId: ZId, customerId: ZId });
export type TDeleteUserBody = z.infer<typeof ZDeleteUserBody>;

/** PATCH /api/users/{userId}; both null for Unassigned. */
export const ZUpdateUserLocationBody = z.strictObject({
  locationName: zString().trim().max(200).nullable(),
  locationPlantId: ZId.nullable(),
});
export type TUpdateUserLocationBody = z.infer<typeof ZUpdateUserLocationBody>;
export const ZUserIdParams = z.strictObject({ userId: ZId });

/** POST /api/check-users-roles. */
export const ZCheckUsersRolesBody = z.strictObject({
  userIds: z.array(ZId).max(1000),
  role: z.literal("administrator"),
});
export const ZCheckUsersRolesResponse = z.record(zString(), z.boolean());
