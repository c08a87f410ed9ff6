import { AUTH_MESSAGES, PASSWORD_CHANGE_TEXTS } from "@linewatch/contracts";
import { type APIRequestContext, request } from "@playwright/test";
import { DEMO_USERS, expect, expectAccessible, expectSnackbar, test } from "./fixtures";

// Changing one's own password from the user menu (issue 33 §2, decision 0318).

const FIRST = "the first long password";
const SECOND = "the second long password";

/** A new user of the demo customer with a password set through their one-time link. */
async function createUserWithPassword(baseURL: string, email: string, password: string) {
  const admin: APIRequestContext = await request.newContext({ baseURL });
  try {
    expect((await admin.post("/api/auth/login", { data: DEMO_USERS.admin })).status()).toBe(200);
    const me = await (await admin.get("/api/auth/me")).json();
    const added = await admin.post(`/api/add-user?customerId=${me.customer.id}`, {
      data: { email, locationName: null, locationPlantId: null },
    });
    expect(added.status(), await added.text()).toBe(201);
    const token = new URL((await added.json()).passwordLink).searchParams.get("token");
    const set = await admin.post("/api/auth/set-password", { data: { token, password } });
    expect(set.status(), await set.text()).toBe(204);
  } finally {
    await admin.dispose();
  }
}

async function signInWith(page: import("@playwright/test").Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("changes the password from the user menu and signs in with the new one", async ({ page, baseURL }) => {
  const email = `e2e-password-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await createUserWithPassword(baseURL ?? "", email, FIRST);
  await signInWith(page, email, FIRST);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();

  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: PASSWORD_CHANGE_TEXTS.title }).click();
  const dialog = page.getByRole("dialog", { name: PASSWORD_CHANGE_TEXTS.title });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "change password dialog", dialog);

  // A wrong current password is said under its field; the new passwords must match.
  await dialog.getByLabel(PASSWORD_CHANGE_TEXTS.currentPassword).fill("not my password");
  await dialog.getByLabel(new RegExp(`^${PASSWORD_CHANGE_TEXTS.newPassword}`)).fill(SECOND);
  await dialog.getByLabel(PASSWORD_CHANGE_TEXTS.repeatPassword).fill(`${SECOND}!`);
  await dialog.getByRole("button", { name: PASSWORD_CHANGE_TEXTS.submit }).click();
  await expect(dialog.getByText(PASSWORD_CHANGE_TEXTS.passwordsDiffer)).toBeVisible();
  await dialog.getByLabel(PASSWORD_CHANGE_TEXTS.repeatPassword).fill(SECOND);
  await dialog.getByRole("button", { name: PASSWORD_CHANGE_TEXTS.submit }).click();
  await expect(dialog.getByText(AUTH_MESSAGES.wrongCurrentPassword)).toBeVisible();
  await expectAccessible(page, "change password dialog with errors", dialog);

  await dialog.getByLabel(PASSWORD_CHANGE_TEXTS.currentPassword).fill(FIRST);
  await dialog.getByRole("button", { name: PASSWORD_CHANGE_TEXTS.submit }).click();
  await expectSnackbar(page, AUTH_MESSAGES.passwordChanged);
  await expect(dialog).toBeHidden();

  // This session stays; after signing out only the new password signs in.
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await signInWith(page, email, FIRST);
  await expect(page.getByText(AUTH_MESSAGES.invalidCredentials)).toBeVisible();
  await signInWith(page, email, SECOND);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
});
