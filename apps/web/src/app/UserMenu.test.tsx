import { AUDIT_TEXTS, type TMe } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SnackbarProvider } from "../shared/ui/SnackbarProvider";
import { testMe } from "../test/fixtures";
import { mockApi } from "../test/mockApi";
import { UserMenu } from "./UserMenu";

let me: TMe;
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/auth/customers", () => HttpResponse.json([me.customer])),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

async function openMenu(who: Partial<TMe>) {
  me = testMe(who);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: "/", element: <UserMenu /> },
      { path: "/audit-log", element: <p>Audit log page</p> },
    ],
    { initialEntries: ["/"] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  const ue = userEvent.setup();
  await ue.click(await screen.findByRole("button", { name: "User menu" }));
  await screen.findByRole("menu");
  return { ue, router };
}

describe("UserMenu", () => {
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
