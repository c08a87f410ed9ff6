import {
  PASSWORD_LINK_TEXTS,
  type TAddUserBody,
  type TAddUserResponse,
  type TUserRow,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { testMe, testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import {
  installGridLayout,
  leaveSectionAnswering,
  renderSettingsPage,
  setupSettingsServer,
} from "../../../test/renderSettingsPage";
import { UsersPage } from "./UsersPage";

installGridLayout({ width: 1200, height: 600 });

const plant = testPlant();
const me = testMe({ email: "admin@acme.test", isAdministrator: true, selectedPlantId: plant.id });
const adminRow: TUserRow = {
  id: me.id,
  email: me.email,
  lastLogin: "2026-11-22T10:00:00Z",
  role: "administrator",
  locationName: null,
  locationPlantId: null,
  isProviderStaff: false,
};

let users: TUserRow[];
const added: TAddUserBody[] = [];
const linksFor: string[] = [];
setupSettingsServer(
  { me: () => me, plants: [plant] },
  mockApi.get("*/api/customer-users-for-user", () => HttpResponse.json(users)),
  mockApi.post("*/api/add-user", async ({ request }) => {
    const body = JSON.parse(await request.text()) as TAddUserBody;
    if (users.some((u) => u.email === body.email)) {
      return refusal(409, { message: USER_MESSAGES.exists });
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
  mockApi.post("*/api/users/:userId/password-link", ({ params }) => {
    linksFor.push(String(params.userId));
    return HttpResponse.json({ passwordLink: "http://localhost/set-password?token=reset-once" });
  }),
);

function renderPage() {
  users = [adminRow];
  added.length = 0;
  return renderSettingsPage(<UsersPage />, { section: "USER_MANAGEMENT" });
}

const addButton = () => screen.getByRole("button", { name: USER_MESSAGES.addUser });

describe("UsersPage: the add-user row", { timeout: 30_000 }, () => {
  it("opens one new row in edit mode with the focus in Email; an empty email is refused", async () => {
    const ue = userEvent.setup();
    renderPage();
    expect(await screen.findByText(USER_MESSAGES.totalUsers(1))).toBeInTheDocument();

    await ue.click(addButton());
    const email = await screen.findByRole("textbox", { name: "Email" });
    await waitFor(() => expect(document.activeElement).toBe(email));
    // Only one new row at a time.
    expect(addButton()).toBeDisabled();

    await ue.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(USER_MESSAGES.emailRequired)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Email" })).toBeInTheDocument();
    expect(added).toHaveLength(0);

    await ue.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("textbox", { name: "Email" })).not.toBeInTheDocument());
    expect(addButton()).not.toBeDisabled();
  });

  it("asks 'Discard Changes?' before leaving the section with the new row open; Exit leaves without adding", async () => {
    const ue = userEvent.setup();
    const { router } = renderPage();
    expect(await screen.findByText(USER_MESSAGES.totalUsers(1))).toBeInTheDocument();
    await ue.click(addButton());
    await ue.type(await screen.findByRole("textbox", { name: "Email" }), "new@example.com");
    await leaveSectionAnswering(router, ue, "continue", "/settings?section=LINE_MANAGEMENT");
    expect(screen.getByRole("textbox", { name: "Email" })).toHaveValue("new@example.com");
    await leaveSectionAnswering(router, ue, "exit", "/settings?section=LINE_MANAGEMENT");
    expect(added).toHaveLength(0);
  });

  it("shows the 409 text for an email that exists, then adds a new one and shows its link once", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(await screen.findByRole("button", { name: USER_MESSAGES.addUser }));

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
    expect(within(dialog).getByTestId("password-link")).toHaveValue(
      "http://localhost/set-password?token=one-time",
    );
    expect(within(dialog).getByText(USER_MESSAGES.passwordLinkNote)).toBeInTheDocument();
    expect(added).toEqual([{ email: "new@acme.test", locationPlantId: plant.id, locationName: plant.name }]);
    expect(await screen.findByText(USER_MESSAGES.added)).toBeInTheDocument();

    await ue.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByText(USER_MESSAGES.totalUsers(2))).toBeInTheDocument();
    expect(screen.getByText("new@acme.test")).toBeInTheDocument();
    expect(screen.getByText(USER_MESSAGES.neverLoggedIn)).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Email" })).not.toBeInTheDocument();
    expect(addButton()).not.toBeDisabled();
  });
});

describe("UsersPage: a new password link", { timeout: 30_000 }, () => {
  const colleague: TUserRow = { ...adminRow, id: crypto.randomUUID(), email: "op@acme.test", role: "user" };
  const staff: TUserRow = {
    ...adminRow,
    id: crypto.randomUUID(),
    email: "support@provider.test",
    role: "administrator",
    isProviderStaff: true,
  };

  it("asks first, saying the sessions end, then shows the link once; not on one's own row or provider staff's", async () => {
    const ue = userEvent.setup();
    users = [adminRow, colleague, staff];
    linksFor.length = 0;
    renderSettingsPage(<UsersPage />, { section: "USER_MANAGEMENT" });
    const action = await screen.findByRole("button", {
      name: PASSWORD_LINK_TEXTS.actionLabel(colleague.email),
    });
    expect(
      screen.queryByRole("button", { name: PASSWORD_LINK_TEXTS.actionLabel(adminRow.email) }),
    ).toBeNull();
    expect(screen.queryByRole("button", { name: PASSWORD_LINK_TEXTS.actionLabel(staff.email) })).toBeNull();

    await ue.click(action);
    const confirm = await screen.findByRole("dialog", {
      name: PASSWORD_LINK_TEXTS.confirmTitle(colleague.email),
    });
    expect(within(confirm).getByText(PASSWORD_LINK_TEXTS.confirmBody)).toBeInTheDocument();
    expect(linksFor).toEqual([]);
    await ue.click(within(confirm).getByRole("button", { name: PASSWORD_LINK_TEXTS.confirm }));

    const dialog = await screen.findByRole("dialog", { name: USER_MESSAGES.passwordLinkTitle });
    expect(within(dialog).getByTestId("password-link")).toHaveValue(
      "http://localhost/set-password?token=reset-once",
    );
    expect(within(dialog).getByText(PASSWORD_LINK_TEXTS.note)).toBeInTheDocument();
    expect(linksFor).toEqual([colleague.id]);
    expect(await screen.findByText(PASSWORD_LINK_TEXTS.created)).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });
});
