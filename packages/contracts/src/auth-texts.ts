// The sign-in and set-password pages' words, apart from auth.ts's schemas: those pages are plain
// HTML and load without zod (decision 0067).

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
