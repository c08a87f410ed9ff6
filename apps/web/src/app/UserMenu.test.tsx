import { APPEARANCE_TEXTS, AUDIT_TEXTS, LANGUAGE_TEXTS, SHELL_TEXTS, type TMe } from "@linewatch/contracts";
import { LANGUAGE_TEXTS_DE, SHELL_TEXTS_DE } from "@linewatch/contracts/de";
import { useTheme } from "@mui/material";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { currentLanguage, LANGUAGE_STORAGE_KEY, setLanguage } from "../shared/i18n/language";
import { APPEARANCE_STORAGE_KEY } from "../shared/ui/appearance";
import { MuiProviders } from "../shared/ui/MuiProviders";
import { SnackbarProvider } from "../shared/ui/SnackbarProvider";
import { installMatchMedia, testMe } from "../test/fixtures";
import { mockApi, refusal } from "../test/mockApi";
import { RequireAuth } from "./RequireAuth";
import { UserMenu } from "./UserMenu";

let me: TMe;
const saved: unknown[] = [];
let isSaveRefused = false;
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.put("*/api/auth/me/language", async ({ request }) => {
    if (isSaveRefused) return refusal(500, { message: "Internal Server Error" });
    const body = (await request.json()) as { language: TMe["language"] };
    saved.push(body);
    me = { ...me, language: body.language };
    return new HttpResponse(null, { status: 204 });
  }),
  mockApi.get("*/api/auth/customers", () => HttpResponse.json([me.customer])),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

/** What the page's theme is: its mode, as a component of the page reads it. */
function ModeProbe() {
  return <p data-testid="mode">{useTheme().palette.mode}</p>;
}

/** The system's dark setting as told. */
function systemPrefersDark(isDark: boolean) {
  installMatchMedia((query) => isDark && query.includes("prefers-color-scheme: dark"));
}

function renderMenu(who: Partial<TMe>, opts: { withTheme?: boolean } = {}) {
  me = testMe(who);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: (
          <RequireAuth>
            <UserMenu />
          </RequireAuth>
        ),
      },
      { path: "/audit-log", element: <p>Audit log page</p> },
    ],
    { initialEntries: ["/"] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      {opts.withTheme ? (
        <MuiProviders>
          <ModeProbe />
          <RouterProvider router={router} />
        </MuiProviders>
      ) : (
        <SnackbarProvider>
          <RouterProvider router={router} />
        </SnackbarProvider>
      )}
    </QueryClientProvider>,
  );
  return router;
}

async function openMenu(who: Partial<TMe>, opts: { withTheme?: boolean } = {}) {
  const router = renderMenu(who, opts);
  const ue = userEvent.setup();
  await ue.click(await screen.findByRole("button", { name: "User menu" }));
  await screen.findByRole("menu");
  return { ue, router };
}

describe("UserMenu", () => {
  it("follows the system's light or dark setting until a user chooses one, and keeps the choice", async () => {
    window.localStorage.removeItem(APPEARANCE_STORAGE_KEY);
    systemPrefersDark(true);
    const { ue } = await openMenu({}, { withTheme: true });
    expect(screen.getByTestId("mode").textContent).toBe("dark");
    const item = (a: "system" | "light" | "dark") =>
      screen.getByRole("menuitemradio", { name: APPEARANCE_TEXTS.options[a] });
    expect(item("system")).toHaveAttribute("aria-checked", "true");
    await ue.click(item("light"));
    expect(screen.getByTestId("mode").textContent).toBe("light");
    expect(item("light")).toHaveAttribute("aria-checked", "true");
    expect(item("system")).toHaveAttribute("aria-checked", "false");
    expect(window.localStorage.getItem(APPEARANCE_STORAGE_KEY)).toBe("light");
    // A new page of this browser opens in the chosen appearance, whatever the system says.
    cleanup();
    systemPrefersDark(true);
    await openMenu({}, { withTheme: true });
    expect(screen.getByTestId("mode").textContent).toBe("light");
    window.localStorage.removeItem(APPEARANCE_STORAGE_KEY);
  });

  it("keeps the language with the user: German when chosen, the browser's when not", async () => {
    saved.length = 0;
    // The browser (jsdom) speaks English; the user has chosen nothing yet.
    const { ue } = await openMenu({ language: null }, { withTheme: true });
    const item = (name: string) => screen.getByRole("menuitemradio", { name });
    expect(item(LANGUAGE_TEXTS.browser)).toHaveAttribute("aria-checked", "true");
    await ue.click(item(LANGUAGE_TEXTS.options.de));
    // Saved on the server, then the frame follows: the menu button is named in German.
    const button = await screen.findByRole("button", { name: SHELL_TEXTS_DE.userMenu });
    expect(saved).toEqual([{ language: "de" }]);
    expect(currentLanguage()).toBe("de");
    expect(document.documentElement.lang).toBe("de");
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("de");
    await ue.click(button);
    expect(await screen.findByRole("menuitemradio", { name: LANGUAGE_TEXTS.options.de })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    // Back to the browser's language: null is saved and the interface is English again.
    await ue.click(item(LANGUAGE_TEXTS_DE.browser));
    expect(await screen.findByRole("button", { name: SHELL_TEXTS.userMenu })).toBeInTheDocument();
    expect(saved).toEqual([{ language: "de" }, { language: null }]);
    expect(currentLanguage()).toBe("en");
  });

  it("opens in the user's saved language, whatever this browser showed last", async () => {
    expect(currentLanguage()).toBe("en");
    renderMenu({ language: "de" }, { withTheme: true });
    expect(await screen.findByRole("button", { name: SHELL_TEXTS_DE.userMenu })).toBeInTheDocument();
    cleanup();
    await setLanguage("en", { remember: false });
  });

  it("says so when the language could not be saved, and stays in the language on show", async () => {
    isSaveRefused = true;
    const { ue } = await openMenu({ language: null }, { withTheme: true });
    await ue.click(screen.getByRole("menuitemradio", { name: LANGUAGE_TEXTS.options.de }));
    expect(await screen.findByText(LANGUAGE_TEXTS.saveFailed)).toBeInTheDocument();
    expect(currentLanguage()).toBe("en");
    isSaveRefused = false;
  });

  it("offers administrators the audit log, which opens its page", async () => {
    const { ue, router } = await openMenu({ isAdministrator: true });
    await ue.click(screen.getByRole("menuitem", { name: AUDIT_TEXTS.menuItem }));
    expect(await screen.findByText("Audit log page")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/audit-log");
  });

  it("offers the audit log to provider staff only when they are administrators, as the server checks", async () => {
    await openMenu({ isProviderStaff: true, isAdministrator: true });
    expect(screen.getByRole("menuitem", { name: AUDIT_TEXTS.menuItem })).toBeInTheDocument();
    cleanup();
    await openMenu({ isProviderStaff: true, isAdministrator: false });
    expect(screen.getByRole("menuitem", { name: "Sign out" })).toBeInTheDocument();
    expect(screen.queryByRole("menuitem", { name: AUDIT_TEXTS.menuItem })).not.toBeInTheDocument();
  });

  it("does not offer other users the audit log", async () => {
    await openMenu({ isAdministrator: false });
    expect(screen.getByRole("menuitem", { name: "Sign out" })).toBeInTheDocument();
    expect(screen.queryByRole("menuitem", { name: AUDIT_TEXTS.menuItem })).not.toBeInTheDocument();
  });
});
