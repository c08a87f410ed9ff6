import { z } from "zod";
import { ZId, zString } from "./common.js";

/** Location names besides plants (spec monitor-forms §2 "User location selector"). */
export const LOCATION_CORPORATE = "CORPORATE";
export const LOCATION_UNASSIGNED = "UNASSIGNED";
/** The provider's own location: its staff may act for any customer. */
export const LOCATION_PROVIDER = "LINEWATCH";

export const USER_ROLES = ["user", "administrator"] as const;
export const ZUserRole = z.enum(USER_ROLES);
export type TUserRole = z.infer<typeof ZUserRole>;

export const ZLocationConfig = z.object({
  locationName: zString().nullable(),
  locationPlantId: ZId.nullable(),
});
export type TLocationConfig = z.infer<typeof ZLocationConfig>;

/** A row of the Users page (spec settings §3 "User row"). */
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

/** POST /api/add-user?customerId= and the back-office path (spec settings §7). */
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

/** POST (add) / PUT (remove) /api/update-user-roles. */
export const ZUpdateUserRoleBody = z.strictObject({
  userId: ZId,
  role: z.literal("administrator"),
  customerId: ZId,
});
export type TUpdateUserRoleBody = z.infer<typeof ZUpdateUserRoleBody>;

/** POST /api/users deletes a user (spec settings §7). */
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

/** Spec settings §8 "Users", word for word. */
export const USER_MESSAGES = {
  roleUpdated: "User Role Updated",
  locationSaved: "Saved Location",
  locationSaveError: "Error Saving Location",
  roleUpdateError: "Error Updating User Role",
  forbidden: "Forbidden resource",
  deleteError: "Error deleting user. See console for details.",
  deleted: "User deleted successfully",
  exists: "User with the email already exists",
  addError: "Error adding user. See console for details.",
  added: "User added successfully",
  customerOrPlantUndefined: "Customer or Plant is undefined",
  customerIdRequired: "Customer ID is required",
  emailRequired: "Email is required",
  neverLoggedIn: "Never logged in",
  deleteConfirm: (email: string) => `Are you sure you want to delete ${email}?`,
  totalUsers: (n: number) => `Total users: ${n}`,
  cannotChangeOwnRole: "You cannot remove your own administrator role",
  cannotDeleteSelf: "You cannot delete your own account",
  /** Server answers in the product's words (not in the spec; architecture.md "Server"). */
  userNotFound: "User not found",
  customerNotFound: "Customer not found",
  locationPlantNotFound: "Location plant not found",
  unknownLocation: (name: string) => `Unknown location "${name}"`,
  providerLocationOnly: "Only provider staff can assign the provider location",
  providerStaffLocation: "Only provider staff can change the location of provider staff",
  deletionDisabled: "User deletion is not enabled for this customer",
  /** Shown once with the one-time link after a user is added. */
  passwordLinkTitle: "Password link",
  passwordLinkNote:
    "Send this link to the new user to set a password. It will not be shown again and expires in 7 days.",
  copyLink: "Copy link",
  linkCopied: "Link copied",
  copyBlocked: "Copying is blocked here: select the link and copy it by hand.",
  unassigned: "Unassigned",
  corporate: "Corporate",
  provider: "Linewatch",
  // The page (spec settings §2.6): its button and columns; the empty text is not worded by the spec
  addUser: "Add user",
  columns: {
    email: "Email",
    lastLogin: "Last login",
    role: "Role",
    location: "Location",
    actions: "Actions",
  },
  noUsers: "No users found",
} as const;
