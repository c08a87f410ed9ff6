// The Users page's texts and constants, apart from users.ts's schemas: the page shows these, and
// only adding a user checks its email with ZAddUserBody, so the page loads without zod (issue #17:
// a module goes whole into the chunk of the page that first uses it).

/** Location names besides plants (requirements.md monitor-forms §2 "User location selector"). */
export const LOCATION_CORPORATE = "CORPORATE";
export const LOCATION_UNASSIGNED = "UNASSIGNED";
/** The provider's own location: its staff may act for any customer. */
export const LOCATION_PROVIDER = "LINEWATCH";

export const USER_ROLES = ["user", "administrator"] as const;

/** Spec requirements.md settings §8 "Users", word for word. */
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
  /** Server answers in the product's words (not in the spec; docs/architecture.md "Server"). */
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
  // The page (requirements.md settings §2.6): its button and columns; the empty text is not worded by the spec
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

/** An administrator's new password link for an existing user (issue 33 §2; the Users page's row action). */
export const PASSWORD_LINK_TEXTS = {
  action: "Send password link",
  actionLabel: (email: string) => `Send password link to ${email}`,
  confirmTitle: (email: string) => `Send a password link to ${email}?`,
  confirmBody:
    "The one-time link lets them set a new password. Creating it ends all of their sessions now: they are signed out everywhere.",
  confirm: "Create link",
  cancel: "Cancel",
  note: "Send this link to the user to set a new password. It will not be shown again and expires in 7 days.",
  created: "Password link created; the user's sessions have ended",
  error: "Error creating the password link",
  providerStaffOnly: "Only provider staff can send a password link to provider staff",
} as const;
