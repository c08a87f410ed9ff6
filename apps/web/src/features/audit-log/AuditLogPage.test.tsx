import {
  AUDIT_PAGE_SIZE,
  AUDIT_TEXTS,
  SERVER_MESSAGES,
  type TAuditEntry,
  type TAuditLogPage,
  type TUserRow,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PlantLineProvider } from "../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../shared/ui/SnackbarProvider";
import { testMe, testPlant } from "../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../test/mockApi";
import { setupSettingsServer } from "../../test/renderSettingsPage";
import { AuditLogPage } from "./AuditLogPage";
import { PROVIDER_STAFF_MARK } from "./components/AuditEntriesTable";

const plant = testPlant({ timeZone: "UTC" });
const ADMIN = testMe({ isAdministrator: true, email: "admin@acme.test" });
const otherUser: TUserRow = {
  id: "00000000-0000-4000-8000-000000000031",
  email: "planner@acme.test",
  lastLogin: null,
  role: "user",
  locationName: null,
  locationPlantId: null,
  isProviderStaff: false,
};

const entry = (over: Partial<TAuditEntry> = {}): TAuditEntry => ({
  id: "00000000-0000-4000-8000-000000000901",
  at: "2026-11-20T14:05:03.000Z",
  actorUserId: ADMIN.id,
  actorEmail: ADMIN.email,
  actorIsProviderStaff: false,
  resource: "spc_limit",
  resourceId: "00000000-0000-4000-8000-000000000501",
  resourceName: "Torque",
  action: "update",
  plantId: plant.id,
  lineId: null,
  before: { ucl: 10, lcl: 2 },
  after: { ucl: 12, lcl: 2 },
  ...over,
});

let me = ADMIN;
let answer: () => AnswerOf<"get", "*/api/audit-log"> = () =>
  HttpResponse.json<TAuditLogPage>({ entries: [entry()], total: 1 });
let listUrls: URL[] = [];
let exportUrls: URL[] = [];
let exportAnswer: () => AnswerOf<"get", "*/api/audit-log/export"> = () =>
  new HttpResponse("\uFEFFTime (UTC)\r\n", {
    headers: { "content-type": "text/csv", "content-disposition": 'attachment; filename="audit-log.csv"' },
  });

setupSettingsServer(
  { me: () => me, plants: [plant] },
  mockApi.get("*/api/customer-users-for-user", () => HttpResponse.json<TUserRow[]>([otherUser])),
  mockApi.get("*/api/audit-log/export", ({ request }) => {
    exportUrls.push(new URL(request.url));
    return exportAnswer();
  }),
  mockApi.get("*/api/audit-log", ({ request }) => {
    listUrls.push(new URL(request.url));
    return answer();
  }),
);

beforeEach(() => {
  me = ADMIN;
  answer = () => HttpResponse.json<TAuditLogPage>({ entries: [entry()], total: 1 });
  listUrls = [];
  exportUrls = [];
});
afterEach(() => vi.restoreAllMocks());

function renderPage(start = "/audit-log") {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: "/audit-log",
        element: (
          <SnackbarProvider>
            <PlantLineProvider>
              <AuditLogPage />
            </PlantLineProvider>
          </SnackbarProvider>
        ),
      },
    ],
    { initialEntries: [start] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const lastList = () => Object.fromEntries(listUrls.at(-1)?.searchParams ?? []);
const table = () => screen.findByRole("table", { name: AUDIT_TEXTS.title });

describe("AuditLogPage", () => {
  it("shows each change with its time, user, resource, name, action and the fields before and after", async () => {
    answer = () =>
      HttpResponse.json<TAuditLogPage>({
        entries: [entry({ actorIsProviderStaff: true, actorEmail: "support@linewatch.test" })],
        total: 1,
      });
    renderPage();
    const [, row] = within(await table()).getAllByRole("row") as [HTMLElement, HTMLElement];
    expect(within(row).getByText("2026-11-20 14:05:03 UTC")).toBeInTheDocument();
    expect(within(row).getByText("support@linewatch.test")).toBeInTheDocument();
    expect(within(row).getByText(PROVIDER_STAFF_MARK)).toBeInTheDocument();
    expect(within(row).getByText(AUDIT_TEXTS.resourceLabels.spc_limit)).toBeInTheDocument();
    expect(within(row).getByText("Torque")).toBeInTheDocument();
    expect(within(row).getByText(AUDIT_TEXTS.actionLabels.update)).toBeInTheDocument();
    // Only the changed field: ucl, not lcl.
    expect(row).toHaveTextContent("ucl: 10 → 12");
    expect(row.textContent).not.toContain("lcl");
    expect(lastList()).toEqual({ limit: String(AUDIT_PAGE_SIZE), offset: "0" });
  });

  it("asks the server for the filters picked and keeps them in the address", async () => {
    const ue = userEvent.setup();
    const router = renderPage();
    await table();
    await ue.click(screen.getByRole("combobox", { name: "Resource" }));
    await ue.click(await screen.findByRole("option", { name: AUDIT_TEXTS.resourceLabels.spc_limit }));
    await waitFor(() => expect(lastList().resource).toBe("spc_limit"));
    await ue.click(screen.getByRole("combobox", { name: "User" }));
    await ue.click(await screen.findByRole("option", { name: otherUser.email }));
    await waitFor(() => expect(lastList()).toMatchObject({ resource: "spc_limit", userId: otherUser.id }));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get("resource")).toBe("spc_limit");
    expect(params.get("user")).toBe(otherUser.id);
  });

  it("reads the filters and period from a link, as instants on the plant's clock", async () => {
    renderPage("/audit-log?resource=line&from=2026-11-01T00:00:00.000Z&to=2026-11-02T00:00:00.000Z");
    await table();
    expect(lastList()).toMatchObject({
      resource: "line",
      from: "2026-11-01T00:00:00.000Z",
      to: "2026-11-02T00:00:00.000Z",
    });
    expect(screen.getByLabelText("From")).toHaveValue("2026-11-01T00:00");
    expect(screen.getByText(/Times in UTC/)).toBeInTheDocument();
  });

  it("pages on the server, the page in the address", async () => {
    const ue = userEvent.setup();
    answer = () => HttpResponse.json<TAuditLogPage>({ entries: [entry()], total: AUDIT_PAGE_SIZE * 2 + 1 });
    const router = renderPage();
    await table();
    await ue.click(screen.getByRole("button", { name: /next page/i }));
    await waitFor(() => expect(lastList().offset).toBe(String(AUDIT_PAGE_SIZE)));
    expect(new URLSearchParams(router.state.location.search).get("page")).toBe("2");
  });

  it("says so when nothing matches", async () => {
    answer = () => HttpResponse.json<TAuditLogPage>({ entries: [], total: 0 });
    renderPage();
    expect(await screen.findByText(AUDIT_TEXTS.empty)).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("shows a failed load with a retry", async () => {
    answer = () => refusal(500, { message: SERVER_MESSAGES.internal });
    renderPage();
    expect(await screen.findByText(SERVER_MESSAGES.internal)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });

  it("exports the records of the filters shown, and shows the server's refusal", async () => {
    const ue = userEvent.setup();
    const createObjectURL = vi.fn(() => "blob:audit");
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    renderPage(`/audit-log?resource=spc_limit&user=${otherUser.id}&from=2026-11-01T00:00:00.000Z`);
    await table();
    await ue.click(screen.getByRole("button", { name: AUDIT_TEXTS.exportCsv }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(Object.fromEntries(exportUrls[0]?.searchParams ?? [])).toEqual({
      resource: "spc_limit",
      userId: otherUser.id,
      from: "2026-11-01T00:00:00.000Z",
    });
    exportAnswer = () => refusal(400, { message: AUDIT_TEXTS.exportTooLarge });
    await ue.click(screen.getByRole("button", { name: AUDIT_TEXTS.exportCsv }));
    expect(await screen.findByText(AUDIT_TEXTS.exportTooLarge)).toBeInTheDocument();
  });

  it("shows a long value cut, and the whole of it on demand", async () => {
    const ue = userEvent.setup();
    const long = `${"a".repeat(100)}END`;
    answer = () =>
      HttpResponse.json<TAuditLogPage>({
        entries: [entry({ before: { formula: "x" }, after: { formula: long } })],
        total: 1,
      });
    renderPage();
    const t = await table();
    expect(t.textContent).not.toContain("END");
    await ue.click(within(t).getByRole("button", { name: "Show all" }));
    expect(t).toHaveTextContent(long);
  });

  it("shows a user who is not an administrator the refusal, and asks for no record", async () => {
    me = testMe({ isAdministrator: false });
    renderPage();
    expect(await screen.findByText(SERVER_MESSAGES.forbidden)).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: AUDIT_TEXTS.exportCsv })).not.toBeInTheDocument();
    expect(listUrls).toEqual([]);
  });
});
