import { AUTH_MESSAGES, LOCATION_PROVIDER, USER_MESSAGES } from "@linewatch/contracts";
import type { Page } from "@playwright/test";
import { DEMO_USERS, expect, expectSnackbar, openSettings, setFlag, signIn, test } from "./fixtures";

// Settings → Users (requirements.md settings §2.6, §4 "User row", §5 "Add user", §8 "Users"; monitor-forms
// §2 "User location selector", §6, §7 PATCH /api/users/{userId}).

const unique = (tag: string) => `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
const grid = (page: Page) => page.getByRole("grid", { name: "Users" });
const rowOf = (page: Page, email: string) => grid(page).getByRole("row").filter({ hasText: email });

async function openUsers(page: Page) {
  await openSettings(page, "Users");
  await expect(grid(page)).toBeVisible();
  await expect(page.getByText(/^Total users: \d+$/)).toBeVisible();
}

/** Adds a user through the new row; returns the one-time link the dialog showed. */
async function addUser(page: Page, email: string): Promise<string> {
  await page.getByRole("button", { name: "Add user" }).click();
  const input = page.getByRole("textbox", { name: "Email" });
  await expect(input).toBeFocused();
  await input.fill(email);
  await grid(page).getByRole("button", { name: "Save" }).click();
  const dialog = page.getByRole("dialog", { name: USER_MESSAGES.passwordLinkTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(USER_MESSAGES.passwordLinkNote)).toBeVisible();
  const link = await dialog.getByTestId("password-link").inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  return link;
}

async function pickOption(page: Page, combobox: ReturnType<Page["getByRole"]>, option: string) {
  await combobox.click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("adds a user: one new row at a time, Email is required, the link is shown once and works", async ({
  page,
  browser,
}) => {
  await signIn(page, "admin");
  await openUsers(page);
  const total = Number((await page.getByText(/^Total users: \d+$/).textContent())?.match(/\d+/)?.[0]);

  // One new row, in edit mode, focus in Email; Add user is disabled meanwhile.
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("textbox", { name: "Email" })).toBeFocused();
  await expect(page.getByRole("button", { name: "Add user" })).toBeDisabled();
  await grid(page).getByRole("button", { name: "Save" }).click();
  await expectSnackbar(page, USER_MESSAGES.emailRequired);
  await expect(page.getByRole("textbox", { name: "Email" })).toBeVisible();
  // Cancel removes the new row.
  await grid(page).getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("textbox", { name: "Email" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Add user" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Add user" })).toBeFocused();

  const email = unique("add");
  const link = await addUser(page, email);
  await expectSnackbar(page, USER_MESSAGES.added);
  await expect(page.getByText(USER_MESSAGES.totalUsers(total + 1))).toBeVisible();
  const row = rowOf(page, email);
  await expect(row).toBeVisible();
  await expect(row.getByText(USER_MESSAGES.neverLoggedIn)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Email" })).toBeHidden();
  // The link is not shown again after a reload.
  await page.reload();
  await expect(rowOf(page, email)).toBeVisible();
  await expect(page.getByRole("dialog")).toBeHidden();

  // The new user sets a password through the link and signs in.
  const context = await browser.newContext();
  try {
    const newcomer = await context.newPage();
    await newcomer.goto(link);
    await newcomer.getByLabel("New password").fill("a long new password");
    await newcomer.getByLabel("Repeat password").fill("a long new password");
    await newcomer.getByRole("button", { name: "Set password" }).click();
    // Signing in before the password is stored fails (a busy machine): wait for the page to say so.
    await expect(newcomer.getByText(AUTH_MESSAGES.passwordSet)).toBeVisible();
    await newcomer.goto("/login");
    await newcomer.getByLabel("Email").fill(email);
    await newcomer.getByLabel("Password").fill("a long new password");
    await newcomer.getByRole("button", { name: "Sign in" }).click();
    await expect(newcomer.getByRole("button", { name: "User menu" })).toBeVisible();
  } finally {
    await context.close();
  }
  await page.reload();
  await expect(rowOf(page, email).getByText(USER_MESSAGES.neverLoggedIn)).toBeHidden();
});

test("a duplicate email shows 'User with the email already exists' and keeps the row open", async ({
  page,
}) => {
  await signIn(page, "admin");
  await openUsers(page);
  await page.getByRole("button", { name: "Add user" }).click();
  await page.getByRole("textbox", { name: "Email" }).fill(DEMO_USERS.user.email);
  await page.getByRole("textbox", { name: "Email" }).press("Enter");
  await expectSnackbar(page, USER_MESSAGES.exists);
  await expect(page.getByRole("textbox", { name: "Email" })).toHaveValue(DEMO_USERS.user.email);
  await page.getByRole("textbox", { name: "Email" }).press("Escape");
  await expect(page.getByRole("textbox", { name: "Email" })).toBeHidden();
});

test("changes a role both ways at once; the signed-in user's own row cannot be demoted or deleted", async ({
  page,
}) => {
  await signIn(page, "admin");
  await openUsers(page);
  const email = unique("role");
  await addUser(page, email);
  const role = page.getByRole("combobox", { name: `Role of ${email}` });
  await expect(role).toHaveText("user");

  await pickOption(page, role, "administrator");
  await expectSnackbar(page, USER_MESSAGES.roleUpdated);
  await expect(role).toHaveText("administrator");
  await page.reload();
  await expect(page.getByRole("combobox", { name: `Role of ${email}` })).toHaveText("administrator");

  await pickOption(page, page.getByRole("combobox", { name: `Role of ${email}` }), "user");
  await expect(page.getByRole("combobox", { name: `Role of ${email}` })).toHaveText("user");
  await page.reload();
  await expect(page.getByRole("combobox", { name: `Role of ${email}` })).toHaveText("user");

  const own = page.getByRole("combobox", { name: `Role of ${DEMO_USERS.admin.email}` });
  await expect(own).toHaveAttribute("aria-disabled", "true");
  await expect(rowOf(page, DEMO_USERS.admin.email).getByRole("button", { name: /^Delete/ })).toHaveCount(0);
});

test("saves a location: Saved Location, kept after a reload; Unassigned sends both null", async ({
  page,
}) => {
  await signIn(page, "admin");
  await openUsers(page);
  const email = unique("loc");
  await addUser(page, email);
  const location = () => page.getByRole("combobox", { name: `Location of ${email}` });
  // Customers' administrators are not offered the provider's location.
  await location().click();
  await expect(page.getByRole("option", { name: "Corporate" })).toBeVisible();
  await expect(page.getByRole("option", { name: USER_MESSAGES.provider })).toHaveCount(0);
  const patch = page.waitForRequest((r) => r.method() === "PATCH" && r.url().includes("/api/users/"));
  await page.getByRole("option", { name: "Corporate" }).click();
  expect((await patch).postDataJSON()).toEqual({ locationName: "CORPORATE", locationPlantId: null });
  await expectSnackbar(page, USER_MESSAGES.locationSaved);
  await page.reload();
  await expect(location()).toHaveText("Corporate");

  const unassigned = page.waitForRequest((r) => r.method() === "PATCH" && r.url().includes("/api/users/"));
  await pickOption(page, location(), "Unassigned");
  expect((await unassigned).postDataJSON()).toEqual({ locationName: null, locationPlantId: null });
  await page.reload();
  await expect(location()).toHaveText("Unassigned");
});

test("provider staff are offered the provider location", async ({ page }) => {
  await signIn(page, "admin");
  await openUsers(page);
  const email = unique("provider");
  await addUser(page, email);
  await page.context().clearCookies();

  await signIn(page, "support");
  const customers = await (await page.request.get("/api/auth/customers")).json();
  const demo = customers.find((c: { id: string; name: string }) => !/linewatch/i.test(c.name));
  expect(
    (await page.request.post("/api/auth/switch-customer", { data: { customerId: demo.id } })).status(),
  ).toBe(200);
  await openUsers(page);
  await pickOption(
    page,
    page.getByRole("combobox", { name: `Location of ${email}` }),
    USER_MESSAGES.provider,
  );
  await expectSnackbar(page, USER_MESSAGES.locationSaved);
  const rows = await (await page.request.get("/api/customer-users-for-user")).json();
  expect(rows.find((u: { email: string }) => u.email === email)?.locationName).toBe(LOCATION_PROVIDER);
});

test("deletes a user after confirmation, only with the user-deletion flag on", async ({ page }) => {
  await signIn(page, "admin");
  await openUsers(page);
  const email = unique("delete");
  await addUser(page, email);
  await setFlag(page, "userDeletion", false);
  await page.reload();
  await expect(rowOf(page, email)).toBeVisible();
  await expect(rowOf(page, email).getByRole("button", { name: `Delete ${email}` })).toHaveCount(0);

  try {
    await setFlag(page, "userDeletion", true);
    await page.reload();
    await rowOf(page, email)
      .getByRole("button", { name: `Delete ${email}` })
      .click();
    const confirm = page.getByRole("dialog", { name: USER_MESSAGES.deleteConfirm(email) });
    await expect(confirm).toBeVisible();
    // Cancel keeps the user.
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(rowOf(page, email)).toBeVisible();

    await rowOf(page, email)
      .getByRole("button", { name: `Delete ${email}` })
      .click();
    await page
      .getByRole("dialog", { name: USER_MESSAGES.deleteConfirm(email) })
      .getByRole("button", { name: "Delete" })
      .click();
    await expectSnackbar(page, USER_MESSAGES.deleted);
    await expect(rowOf(page, email)).toHaveCount(0);
  } finally {
    await setFlag(page, "userDeletion", false);
  }
});

test("the Location column follows its flag", async ({ page }) => {
  await signIn(page, "admin");
  try {
    await setFlag(page, "userLocation", false);
    await openUsers(page);
    await expect(grid(page).getByRole("columnheader", { name: "Location" })).toHaveCount(0);
    await expect(grid(page).getByRole("columnheader", { name: "Last login" })).toBeVisible();
  } finally {
    await setFlag(page, "userLocation", true);
  }
  await page.reload();
  await expect(grid(page).getByRole("columnheader", { name: "Location" })).toBeVisible();
});

test("works from the keyboard: arrows reach the Role select, Enter opens it", async ({ page }) => {
  await signIn(page, "admin");
  await openUsers(page);
  const email = unique("kbd");
  await addUser(page, email);
  // Closing the link dialog puts the focus on the new user's row; Tab from Add user comes back to it.
  const cell = grid(page).getByRole("gridcell", { name: email, exact: true });
  await expect(cell).toBeFocused();
  await page.getByRole("button", { name: "Add user" }).focus();
  await page.keyboard.press("Tab");
  await expect(cell).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const role = page.getByRole("combobox", { name: `Role of ${email}` });
  await expect(role).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("listbox")).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expectSnackbar(page, USER_MESSAGES.roleUpdated);
  await expect(role).toHaveText("administrator");
});
