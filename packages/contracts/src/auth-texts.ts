// The sign-in and set-password pages' words, apart from auth.ts's schemas: those pages are plain
// HTML and load without zod (decision 0067).

/** A new password's least length (ZSetPasswordBody). */
export const PASSWORD_MIN_LENGTH = 10;

/** The server's refusals and confirmations of sign-in and password links. */
export const AUTH_MESSAGES = {
  invalidCredentials: "Invalid email or password",
  tooManyAttempts: "Too many failed sign-ins for this email. Wait 5 minutes and try again.",
  tooManyAttemptsFromAddress:
    "Too many failed sign-ins from this network address. Wait 5 minutes and try again.",
  passwordSet: "Password set. You can sign in now.",
  invalidPasswordLink: "This password link is invalid or has expired. Ask an administrator for a new one.",
  wrongCurrentPassword: "The current password is wrong",
  passwordChanged: "Password changed. Your other sessions have ended.",
} as const;

/** Words of the sign-in and set-password pages (the server's refusals are AUTH_MESSAGES). */
export const AUTH_TEXTS = {
  productName: "Linewatch",
  signInIntro: "Sign in to monitor your lines.",
  email: "Email",
  password: "Password",
  signIn: "Sign in",
  setPasswordTitle: "Set your password",
  newPassword: "New password",
  passwordHelp: (min: number) => `At least ${min} characters`,
  repeatPassword: "Repeat password",
  passwordsDiffer: "Passwords do not match",
  setPassword: "Set password",
  goToSignIn: "Go to sign in",
  /** The first page's spinner, before anything else is loaded. */
  loading: "Loading",
} as const;

/** The user menu's Change password dialog (the server's answers are AUTH_MESSAGES). */
export const PASSWORD_CHANGE_TEXTS = {
  title: "Change password",
  currentPassword: "Current password",
  newPassword: "New password",
  passwordHelp: (min: number) => `At least ${min} characters`,
  tooShort: (min: number) => `The new password must be at least ${min} characters`,
  repeatPassword: "Repeat new password",
  passwordsDiffer: "Passwords do not match",
  currentRequired: "Enter your current password",
  submit: "Change password",
  cancel: "Cancel",
} as const;

/**
 * The routes' error boundary (RouteError): plain HTML like the sign-in page, whose bundle it is in,
 * so its words live here and not with the frame's (SHELL_TEXTS would bring the frame's chunk).
 */
export const ROUTE_ERROR_TEXTS = {
  updated: "Linewatch has been updated. Reload the page to continue.",
  reload: "Reload",
  unexpectedError: "Unexpected Application Error!",
} as const;
