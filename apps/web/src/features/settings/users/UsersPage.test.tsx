import {
  defaultFeatureFlags,
  type TAddUserBody,
  type TAddUserResponse,
  type TFeatureFlagsResponse,
  type TMe,
  type TPlant,
  type TUserRow,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { UsersPage } from "./UsersPage";

// jsdom has no layout: give the grid a size and a ResizeObserver so it renders its rows.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
const size = { width: 1200, height: 600, top: 0, left: 0, right: 1200, bottom: 600, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const customer = { id: "00000000-0000-4000-8000-000000000001", name: "Acme" };
const plant: TPlant = {
  id: "00000000-0000-4000-8000-000000000002",
  name: "Detroit",
  timeZone: "America/Detroit",
};
const me: TMe = {
  id: "00000000-0000-4000-8000-000000000003",
  email: "admin@acme.test",
  isAdministrator: true,
  isProviderStaff: false,
  locationName: null,
  locationPlantId: null,
  homeCustomer: customer,
  customer,
  selectedPlantId: plant.id,
  selectedLineId: null,
};
const adminRow: TUserRow = {
  id: me.id,
  email: me.email,
  lastLogin: "2026-11-22T10:00:00Z",
  role: "administrator",
  locationName: null,
  locationPlantId: null,
  isProviderStaff: false,
};
const flags: TFeatureFlagsResponse = { flags: defaultFeatureFlags(), etqOverride: false };

let users: TUserRow[];
const added: TAddUserBody[] = [];
const server = setupServer(
  http.get("*/api/auth/me", () => HttpResponse.json(me)),
  http.get("*/api/feature-flags", () => HttpResponse.json(flags)),
  http.get("*/api/plants", () => HttpResponse.json([plant])),
  http.get("*/api/plants/:plantId/lines", () => HttpResponse.json([])),
  http.get("*/api/customer-users-for-user", () => HttpResponse.json(users)),
  http.post("*/api/add-user", async ({ request }) => {
    const body = (await request.json()) as TAddUserBody;
    if (users.some((u) => u.email === body.email)) {
      return HttpResponse.json({ message: USER_MESSAGES.exists }, { status: 409 });
    }
    added.push(body);
    const user: TUserRow = {
      ...adminRow,
      id: crypto.randomUUID(),
      email: body.email,
      role: "user",
      lastLogin: null,
    };
    users = [...users, user];
    return HttpResponse.json<TAddUserResponse>(
      { user, passwordLink: "http://localhost/set-password?token=one-time" },
      { status: 201 },
    );
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderPage() {
  users = [adminRow];
  added.length = 0;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <PlantLineProvider>
          <UsersPage />
        </PlantLineProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

const addButton = () => screen.getByRole("button", { name: "Add user" });

describe("UsersPage: the add-user row", { timeout: 30_000 }, () => {
  it("opens one new row in edit mode with the focus in Email; an empty email is refused", async () => {
    const ue = userEvent.setup();
    renderPage();
    expect(await screen.findByText(USER_MESSAGES.totalUsers(1))).toBeTruthy();

    await ue.click(addButton());
    const email = await screen.findByRole("textbox", { name: "Email" });
    await waitFor(() => expect(document.activeElement).toBe(email));
    // Only one new row at a time.
    expect((addButton() as HTMLButtonElement).disabled).toBe(true);

    await ue.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(USER_MESSAGES.emailRequired)).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Email" })).toBeTruthy();
    expect(added).toHaveLength(0);

    await ue.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("textbox", { name: "Email" })).toBeNull());
    expect((addButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows the 409 text for an email that exists, then adds a new one and shows its link once", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(await screen.findByRole("button", { name: "Add user" }));

    const email = await screen.findByRole("textbox", { name: "Email" });
    await ue.type(email, adminRow.email);
    await ue.click(screen.getByRole("button", { name: "Save" }));
    const conflict = await screen.findByRole("alert");
    expect(conflict.textContent).toBe(USER_MESSAGES.exists);
    await ue.click(within(conflict).getByRole("button", { name: "Close" }));
    // Still editing, with what was typed.
    expect((screen.getByRole("textbox", { name: "Email" }) as HTMLInputElement).value).toBe(adminRow.email);

    await ue.clear(screen.getByRole("textbox", { name: "Email" }));
    await ue.type(screen.getByRole("textbox", { name: "Email" }), "new@acme.test{Enter}");
    const dialog = await screen.findByRole("dialog", { name: USER_MESSAGES.passwordLinkTitle });
    expect((within(dialog).getByTestId("password-link") as HTMLInputElement).value).toBe(
      "http://localhost/set-password?token=one-time",
    );
    expect(within(dialog).getByText(USER_MESSAGES.passwordLinkNote)).toBeTruthy();
    expect(added).toEqual([{ email: "new@acme.test", locationPlantId: plant.id, locationName: plant.name }]);
    expect(await screen.findByText(USER_MESSAGES.added)).toBeTruthy();

    await ue.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await screen.findByText(USER_MESSAGES.totalUsers(2))).toBeTruthy();
    expect(screen.getByText("new@acme.test")).toBeTruthy();
    expect(screen.getByText(USER_MESSAGES.neverLoggedIn)).toBeTruthy();
    expect(screen.queryByRole("textbox", { name: "Email" })).toBeNull();
    expect((addButton() as HTMLButtonElement).disabled).toBe(false);
  });
});
