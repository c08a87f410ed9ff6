import { API_TOKEN_MESSAGES, API_TOKEN_TEXTS, SHELL_TEXTS } from "@linewatch/contracts";
import { request } from "@playwright/test";
import { expect, expectAccessible, expectSnackbar, signIn, test } from "./fixtures";

// Personal API tokens from the user menu (issue 33 §3, decision 0319): made, shown once, used
// by a script, revoked.

test("creates an API token, shows it once, and revokes it", async ({ page, baseURL }) => {
  await signIn(page, "user");
  await page.goto("/");
  const openDialog = async () => {
    await page.getByRole("button", { name: SHELL_TEXTS.userMenu }).click();
    await page.getByRole("menuitem", { name: SHELL_TEXTS.apiTokens }).click();
    const dialog = page.getByRole("dialog", { name: API_TOKEN_TEXTS.title });
    await expect(dialog).toBeVisible();
    return dialog;
  };
  let dialog = await openDialog();
  await expectAccessible(page, "API tokens dialog", dialog);

  const name = `e2e script ${Date.now()}`;
  await dialog.getByLabel(new RegExp(`^${API_TOKEN_TEXTS.name}`)).fill(name);
  await dialog.getByLabel(API_TOKEN_TEXTS.expiresInDays).fill("7");
  await dialog.getByRole("button", { name: API_TOKEN_TEXTS.create }).click();
  await expectSnackbar(page, API_TOKEN_MESSAGES.created);
  const secretBox = dialog.getByTestId("api-token-secret");
  await expect(secretBox).toHaveText(/^lwt_/);
  await expect(dialog.getByText(API_TOKEN_TEXTS.shownOnce)).toBeVisible();
  await expect(dialog.getByRole("button", { name: API_TOKEN_TEXTS.copy })).toBeVisible();
  const row = dialog.getByTestId("api-token-row").filter({ hasText: name });
  await expect(row).toContainText(API_TOKEN_TEXTS.scopes.read);
  await expect(row).toContainText(API_TOKEN_TEXTS.never);
  await expectAccessible(page, "API tokens dialog with a new token", dialog);
  const secret = (await secretBox.textContent()) ?? "";

  // A script reads with it, and is refused a change (read only).
  const script = await request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${secret}` },
  });
  try {
    expect((await script.get("/api/auth/me")).status()).toBe(200);
    const change = await script.patch("/api/auth/me/selection", { data: { selectedPlantId: null } });
    expect(change.status()).toBe(403);

    // Opened again: the secret is not shown any more; the token was used.
    await dialog.getByRole("button", { name: API_TOKEN_TEXTS.close }).click();
    await expect(dialog).toBeHidden();
    dialog = await openDialog();
    await expect(dialog.getByTestId("api-token-secret")).toBeHidden();
    const again = dialog.getByTestId("api-token-row").filter({ hasText: name });
    await expect(again).toBeVisible();
    await expect(again).not.toContainText(API_TOKEN_TEXTS.never);

    // Revoked after a confirmation: gone from the list, refused at once.
    await again.getByRole("button", { name: API_TOKEN_TEXTS.revokeLabel(name) }).click();
    const confirm = page.getByRole("dialog", { name: API_TOKEN_TEXTS.revokeConfirm(name) });
    await expect(confirm).toBeVisible();
    await expectAccessible(page, "revoke API token confirmation", confirm);
    await confirm.getByRole("button", { name: API_TOKEN_TEXTS.revoke }).click();
    await expectSnackbar(page, API_TOKEN_MESSAGES.revoked);
    await expect(dialog.getByTestId("api-token-row").filter({ hasText: name })).toHaveCount(0);
    expect((await script.get("/api/auth/me")).status()).toBe(401);
  } finally {
    await script.dispose();
  }
});
