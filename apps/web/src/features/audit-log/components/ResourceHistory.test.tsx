import { AUDIT_PAGE_SIZE, AUDIT_TEXTS, type TAuditEntry, type TAuditLogPage } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { MemoryRouter } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { testMe, testPlant } from "../../../test/fixtures";
import { type AnswerOf, mockApi } from "../../../test/mockApi";
import { setupSettingsServer } from "../../../test/renderSettingsPage";
import { HistoryButton, type HistoryItem } from "./HistoryButton";

const plant = testPlant({ timeZone: "Europe/Berlin" });
const SIGNAL_ID = "00000000-0000-4000-8000-000000000501";

const entry = (over: Partial<TAuditEntry> = {}): TAuditEntry => ({
  id: "00000000-0000-4000-8000-000000000901",
  at: "2026-11-20T14:05:03.000Z",
  actorUserId: null,
  actorEmail: "planner@acme.test",
  actorIsProviderStaff: false,
  resource: "spc_limit",
  resourceId: SIGNAL_ID,
  resourceName: "Torque",
  action: "update",
  plantId: plant.id,
  lineId: null,
  before: { usl: 20, lsl: 1 },
  after: { usl: 25, lsl: 1 },
  ...over,
});

let answer: () => AnswerOf<"get", "*/api/audit-log/resources/:resource/:resourceId">;
let asked: URL[] = [];
setupSettingsServer(
  { me: () => testMe(), plants: [plant] },
  mockApi.get("*/api/audit-log/resources/:resource/:resourceId", ({ request }) => {
    asked.push(new URL(request.url));
    return answer();
  }),
);
beforeEach(() => {
  asked = [];
  answer = () => HttpResponse.json<TAuditLogPage>({ entries: [entry()], total: 1 });
});

async function openHistory(items: HistoryItem[] = [{ id: SIGNAL_ID, name: "Torque" }]) {
  const ue = userEvent.setup();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <PlantLineProvider>
          <HistoryButton resource="spc_limit" items={items} itemLabel="Signal" />
        </PlantLineProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  // Nothing is asked before the user opens the history.
  expect(asked).toEqual([]);
  await ue.click(screen.getByRole("button", { name: new RegExp(`^${AUDIT_TEXTS.history}`) }));
  return { ue, dialog: await screen.findByRole("dialog") };
}

describe("ResourceHistory", () => {
  it("lists the resource's own changes: who, when (plant time), action and fields before and after", async () => {
    const { dialog } = await openHistory();
    const table = await within(dialog).findByRole("table");
    const [, row] = within(table).getAllByRole("row") as [HTMLElement, HTMLElement];
    expect(row).toHaveTextContent("planner@acme.test");
    expect(row).toHaveTextContent("2026-11-20 15:05:03"); // 14:05 UTC in Berlin
    expect(row).toHaveTextContent(AUDIT_TEXTS.actionLabels.update);
    expect(row).toHaveTextContent("usl: 20 → 25");
    expect(row.textContent).not.toContain("lsl");
    expect(asked[0]?.pathname).toBe(`/api/audit-log/resources/spc_limit/${SIGNAL_ID}`);
  });

  it("pages through a long history on the server", async () => {
    answer = () => HttpResponse.json<TAuditLogPage>({ entries: [entry()], total: AUDIT_PAGE_SIZE + 1 });
    const { ue, dialog } = await openHistory();
    await within(dialog).findByRole("table");
    await ue.click(within(dialog).getByRole("button", { name: /next page/i }));
    await waitFor(() => expect(asked.at(-1)?.searchParams.get("offset")).toBe(String(AUDIT_PAGE_SIZE)));
  });

  it("shows the history of the item picked when it offers several", async () => {
    const other = { id: "00000000-0000-4000-8000-000000000502", name: "Angle" };
    const { ue, dialog } = await openHistory([{ id: SIGNAL_ID, name: "Torque" }, other]);
    await within(dialog).findByRole("table");
    await ue.click(within(dialog).getByRole("combobox", { name: "Signal" }));
    await ue.click(await screen.findByRole("option", { name: "Angle" }));
    await waitFor(() =>
      expect(asked.at(-1)?.pathname).toBe(`/api/audit-log/resources/spc_limit/${other.id}`),
    );
  });

  it("says so when nothing was recorded", async () => {
    answer = () => HttpResponse.json<TAuditLogPage>({ entries: [], total: 0 });
    const { dialog } = await openHistory();
    expect(await within(dialog).findByText(AUDIT_TEXTS.empty)).toBeInTheDocument();
  });

  it("names two history buttons of one page apart, each opening its own resource's history", async () => {
    const ue = userEvent.setup();
    const monitor = { id: "00000000-0000-4000-8000-000000000601", name: "Torque drift" };
    const rulesLabel = `${AUDIT_TEXTS.resourceLabels.monitor_rules} ${AUDIT_TEXTS.history.toLowerCase()}`;
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <PlantLineProvider>
            <HistoryButton resource="monitor" items={[monitor]} />
            <HistoryButton resource="monitor_rules" label={rulesLabel} items={[monitor]} />
          </PlantLineProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const own = screen.getByRole("button", { name: `${AUDIT_TEXTS.history} of Torque drift` });
    const rules = screen.getByRole("button", { name: `${rulesLabel} of Torque drift` });
    expect(rules.textContent).toBe(rulesLabel);
    expect(own).not.toBe(rules);
    await ue.click(rules);
    await screen.findByRole("dialog");
    await waitFor(() =>
      expect(asked.at(-1)?.pathname).toBe(`/api/audit-log/resources/monitor_rules/${monitor.id}`),
    );
  });
});
