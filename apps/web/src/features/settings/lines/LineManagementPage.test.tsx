import {
  defaultFeatureFlags,
  SETTINGS_KIT_MESSAGES as K,
  LINE_MESSAGES,
  LINE_MANAGEMENT_MESSAGES as M,
  LINE_MANAGEMENT_TEXTS as T,
  type TFeatureFlags,
  type TLine,
} from "@linewatch/contracts";
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { parseCsv, toCsv } from "../../../shared/csv";
import { installResizeObserver, testLine, testMe, testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import {
  LEFT_SETTINGS_TEXT,
  leaveSectionAnswering,
  renderSettingsPage,
} from "../../../test/renderSettingsPage";
import { LineManagementPage } from "./LineManagementPage";

const downloads: { name: string; rows: unknown[][] }[] = [];
vi.mock("../../../shared/csv", async (orig) => ({
  ...(await orig<typeof import("../../../shared/csv")>()),
  downloadCsv: (name: string, rows: unknown[][]) => downloads.push({ name, rows }),
}));

installResizeObserver();
const size = { width: 1600, height: 900, top: 0, left: 0, right: 1600, bottom: 900, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const plant = testPlant({ timeZone: "UTC" });
const otherPlant = testPlant({ id: "00000000-0000-4000-8000-000000000009", name: "Zwickau" });
const L1 = "00000000-0000-4000-8000-000000000011";
const L2 = "00000000-0000-4000-8000-000000000012";
const L3 = "00000000-0000-4000-8000-000000000013";
const FAR = "00000000-0000-4000-8000-000000000019";

let lines: TLine[];
let flags: TFeatureFlags;
let patches: { id: string; body: Record<string, unknown> }[];
let windowPuts: { id: string; body: unknown }[];
let patchStatus: number;
let lineGetStatus: number;
let windowStatus: number;

const server = setupServer(
  mockApi.get("*/api/auth/me", () =>
    HttpResponse.json(testMe({ selectedPlantId: plant.id, selectedLineId: L1 })),
  ),
  mockApi.get("*/api/feature-flags", () => HttpResponse.json({ flags, etqOverride: false })),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant, otherPlant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json(lines)),
  mockApi.get("*/api/lines/:lineId", ({ params }) => {
    const l = lines.find((x) => x.id === params.lineId);
    return l && lineGetStatus === 200
      ? HttpResponse.json(l)
      : refusal(404, { message: "Unable to find the line" });
  }),
  mockApi.get("*/api/plant/get-active-monitor-count", () =>
    HttpResponse.json(lines.map((l) => ({ lineId: l.id, activeTaskCount: l.id === L1 ? 3 : 0 }))),
  ),
  mockApi.get("*/api/notifications/notifications/plants/:plantId/alert-viewing-window", () =>
    // L3 is missing: the page shows 90 for it.
    HttpResponse.json(
      lines
        .filter((l) => l.id !== L3)
        .map((l) => ({ lineId: l.id, alertViewingWindowDays: l.alertViewingWindowDays })),
    ),
  ),
  mockApi.patch("*/api/lines/:lineId", async ({ request, params }) => {
    const body = JSON.parse(await request.text()) as Record<string, unknown>;
    patches.push({ id: String(params.lineId), body });
    if (patchStatus !== 200)
      return refusal(patchStatus, { message: patchStatus === 409 ? M.circularDependency : "No" });
    lines = lines.map((l) => (l.id === params.lineId ? { ...l, ...body } : l));
    return HttpResponse.json(lines.find((l) => l.id === params.lineId));
  }),
  mockApi.put(
    "*/api/notifications/notifications/lines/:lineId/alert-viewing-window",
    async ({ request, params }) => {
      const body = JSON.parse(await request.text()) as { alertViewingWindowDays: number };
      windowPuts.push({ id: String(params.lineId), body });
      if (windowStatus !== 200) return refusal(windowStatus, { message: "No" });
      lines = lines.map((l) => (l.id === params.lineId ? { ...l, ...body } : l));
      return HttpResponse.json({ lineId: String(params.lineId), ...body });
    },
  ),
  mockApi.get("*/api/lines/:lineId/feeder-lines", ({ params }) =>
    HttpResponse.json({
      feederLineIds: lines.find((l) => l.id === params.lineId)?.feederLineIds ?? [],
      plants: [
        {
          id: plant.id,
          name: plant.name,
          lines: lines.map((l) => ({ id: l.id, name: l.name, friendlyName: l.friendlyName })),
        },
        {
          id: otherPlant.id,
          name: otherPlant.name,
          lines: [{ id: FAR, name: "Far Line", friendlyName: null }],
        },
      ],
    }),
  ),
  mockApi.get("*/api/lines/:lineId/exclusion-options", () =>
    HttpResponse.json({ partIds: ["MASTER-1"], modelNumbers: ["M-100"] }),
  ),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  lines = [
    testLine({
      id: L1,
      plantId: plant.id,
      name: "Assembly",
      ingestionThresholdHours: 12,
      alertViewingWindowDays: 7,
      lastIngestedTime: "2026-11-22T10:00:00Z",
    }),
    testLine({ id: L2, plantId: plant.id, name: "Paint", active: false, alertViewingWindowDays: 30 }),
    testLine({ id: L3, plantId: plant.id, name: "=Press", isNewLine: true, alertViewingWindowDays: 45 }),
  ];
  flags = {
    ...defaultFeatureFlags(),
    partMarriage: false,
    lineFriendlyName: true,
    feederLineAssignment: true,
    capExclusion: true,
  };
  patches = [];
  windowPuts = [];
  patchStatus = 200;
  lineGetStatus = 200;
  windowStatus = 200;
  downloads.length = 0;
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

// A data router as in the app: the line editor guards leaving the section (useBlocker).
function renderPage() {
  return renderSettingsPage(<LineManagementPage />, { section: "LINE_MANAGEMENT" });
}

const grid = () => screen.getByRole("grid");
const rowOf = (name: string) => {
  const cell = within(grid()).getByText(name);
  return cell.closest('[role="row"]') as HTMLElement;
};
const cellText = (name: string, field: string) =>
  rowOf(name).querySelector(`[data-field="${field}"]`)?.textContent;

describe("Line Management without part marriage (the default)", { timeout: 30_000 }, () => {
  it("shows the header bar's counts and the lines with their columns, the window 90 when missing", async () => {
    renderPage();
    await screen.findByText("Assembly");
    expect(screen.getByRole("button", { name: "Active: 2" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Inactive: 1" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Total: 3" })).toBeInTheDocument();
    for (const h of Object.values({
      a: T.columns.name,
      b: T.columns.lineActive,
      c: T.columns.activeMonitors,
      d: T.columns.lastIngestedTime,
      e: T.columns.ingestionThreshold,
      f: T.columns.overviewAlertFilter,
    }))
      expect(
        screen.getByRole("columnheader", { name: new RegExp(h.replace(/[()]/g, "\\$&")) }),
      ).toBeInTheDocument();
    expect(cellText("Assembly", "activeMonitors")).toBe("3");
    expect(cellText("Assembly", "ingestionThresholdHours")).toBe("12");
    expect(cellText("Assembly", "alertViewingWindowDays")).toBe("7");
    expect(cellText("=Press", "alertViewingWindowDays")).toBe("90");
    expect(cellText("Assembly", "lastIngestedTime")).toBe("2026-11-22 10:00:00 UTC");
    expect(screen.getByRole("switch", { name: "Line Active Paint" })).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Configure Line Assembly" })).toBeInTheDocument();
  });

  it("hides Configure Line when the friendly-name flag is off", async () => {
    flags.lineFriendlyName = false;
    renderPage();
    await screen.findByText("Assembly");
    expect(screen.queryByRole("button", { name: "Configure Line Assembly" })).not.toBeInTheDocument();
  });

  it("edits the Ingestion Alert Threshold in place with the spec's three messages, empty allowed", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: "Edit Assembly" }));
    const input = await screen.findByRole("textbox", { name: `${T.columns.ingestionThreshold} of Assembly` });
    for (const [typed, message] of [
      ["1.5", M.wholeNumber],
      ["-1", M.thresholdMin],
      ["1000001", M.thresholdMax],
    ]) {
      await ue.clear(input);
      await ue.type(input, typed as string);
      expect(await screen.findByText(message as string)).toBeInTheDocument();
    }
    await ue.clear(input);
    await ue.type(input, "{Enter}");
    await waitFor(() => expect(patches).toEqual([{ id: L1, body: { ingestionThresholdHours: null } }]));
    expect(windowPuts).toEqual([]);
  });

  it("asks 'Discard Changes?' before leaving the section with a row open; Continue Editing keeps it, Exit leaves", async () => {
    const ue = userEvent.setup();
    const { router } = renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: "Edit Assembly" }));
    const input = await screen.findByRole("textbox", { name: `${T.columns.ingestionThreshold} of Assembly` });
    await ue.clear(input);
    await ue.type(input, "36");
    await leaveSectionAnswering(router, ue, "continue");
    expect(
      screen.getByRole("textbox", {
        name: `${T.columns.ingestionThreshold} of Assembly`,
      }),
    ).toHaveValue("36");
    await leaveSectionAnswering(router, ue, "exit");
    expect(patches).toEqual([]);
  });

  it("leaves without asking when no row is open", async () => {
    const { router } = renderPage();
    await screen.findByText("Assembly");
    await act(() => router.navigate("/settings?section=USER_MANAGEMENT"));
    expect(await screen.findByText(LEFT_SETTINGS_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: K.discardTitle })).not.toBeInTheDocument();
  });

  it("keeps the row open with 'Failed to update Ingestion Alert Threshold' under the field when the save fails", async () => {
    patchStatus = 500;
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: "Edit Assembly" }));
    const input = await screen.findByRole("textbox", { name: `${T.columns.ingestionThreshold} of Assembly` });
    await ue.clear(input);
    await ue.type(input, "24{Enter}");
    expect(await screen.findByText(M.thresholdFailed)).toBeInTheDocument();
    expect(
      screen.getByRole("textbox", {
        name: `${T.columns.ingestionThreshold} of Assembly`,
      }),
    ).toHaveValue("24");
  });

  it("edits the Overview Alert Filter in place: 'Must be between 1 and 90', then saves through its own call", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: "Edit Assembly" }));
    const input = await screen.findByRole("textbox", {
      name: `${T.columns.overviewAlertFilter} of Assembly`,
    });
    await ue.clear(input);
    await ue.type(input, "91");
    expect(await screen.findByText(M.alertFilterRange)).toBeInTheDocument();
    await ue.clear(input);
    await ue.type(input, "14{Enter}");
    await waitFor(() => expect(windowPuts).toEqual([{ id: L1, body: { alertViewingWindowDays: 14 } }]));
    expect(patches).toEqual([]);
    await waitFor(() => expect(cellText("Assembly", "alertViewingWindowDays")).toBe("14"));
  });

  it("says 'Failed to update Overview Alert Filter' and shows the stored value again when the save fails", async () => {
    windowStatus = 500;
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: "Edit Assembly" }));
    const input = await screen.findByRole("textbox", {
      name: `${T.columns.overviewAlertFilter} of Assembly`,
    });
    await ue.clear(input);
    await ue.type(input, "14{Enter}");
    expect(await screen.findByText(M.alertFilterFailed)).toBeInTheDocument();
    await waitFor(() => expect(cellText("Assembly", "alertViewingWindowDays")).toBe("7"));
  });

  it("asks before deactivating with the spec's text; Cancel changes nothing, Save deactivates and the line leaves the Active filter", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: "Active: 2" }));
    expect(screen.queryByText("Paint")).not.toBeInTheDocument();
    await ue.click(screen.getByRole("switch", { name: "Line Active Assembly" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(T.deactivateText("Assembly"))).toBeInTheDocument();
    expect(within(dialog).getByText('You are about to deactivate line "Assembly."')).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(patches).toEqual([]);
    await ue.click(screen.getByRole("switch", { name: "Line Active Assembly" }));
    await ue.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(patches).toEqual([{ id: L1, body: { active: false } }]));
    await waitFor(() => expect(screen.queryByText("Assembly")).not.toBeInTheDocument());
    expect(await screen.findByRole("button", { name: "Inactive: 2" })).toBeInTheDocument();
  });

  it("asks before reactivating with the spec's text, and says 'Failed to activate line' when it fails", async () => {
    patchStatus = 500;
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Paint");
    await ue.click(screen.getByRole("switch", { name: "Line Active Paint" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText('You are about to reactivate line "Paint"')).toBeInTheDocument();
    expect(within(dialog).getByText(T.reactivateDetail)).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText(M.activateFailed)).toBeInTheDocument();
    const sw = await screen.findByRole("switch", { name: "Line Active Paint" }, { timeout: 3000 });
    expect(sw).not.toBeChecked();
  });

  it("says 'Failed to deactivate line' when deactivating fails", async () => {
    patchStatus = 500;
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("switch", { name: "Line Active Assembly" }));
    await ue.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Save" }));
    expect(await screen.findByText(M.deactivateFailed)).toBeInTheDocument();
  });

  it("exports the lines shown to line-management-summary with escaped cells", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: T.export }));
    expect(downloads).toHaveLength(1);
    const [d] = downloads;
    expect(d?.name).toBe("line-management-summary");
    const read = parseCsv(toCsv(d?.rows ?? []));
    expect(read[0]?.[0]).toBe(T.columns.name);
    expect(read.map((r) => r[0])).toContain("'=Press");
    expect(read.find((r) => r[0] === "Assembly")).toEqual([
      "Assembly",
      "Yes",
      "3",
      "2026-11-22 10:00:00 UTC",
      "12",
      "7",
    ]);
  });
});

describe("Configure Line drawer", { timeout: 30_000 }, () => {
  async function openEditor(name = "Assembly") {
    const ue = userEvent.setup();
    const { router } = renderPage();
    await screen.findByText(name);
    await ue.click(screen.getByRole("button", { name: `Configure Line ${name}` }));
    const drawer = await screen.findByRole("dialog", { name: T.configureLine });
    await within(drawer).findByText(T.noFeederLines);
    return { ue, drawer, router };
  }

  it("shows the line's name, Friendly Name, the empty feeder table; Save Changes only once something valid changed; sends only what changed", async () => {
    const { ue, drawer } = await openEditor();
    expect(within(drawer).getByText(T.lineName)).toBeInTheDocument();
    expect(within(drawer).getByText("Assembly")).toBeInTheDocument();
    expect(within(drawer).queryByLabelText(T.noDataAlert)).not.toBeInTheDocument();
    const save = within(drawer).getByRole("button", { name: T.saveChanges }) as HTMLButtonElement;
    expect(save).toBeDisabled();
    const name = within(drawer).getByRole("textbox", { name: T.friendlyName });
    await ue.type(name, " Lead");
    expect(await within(drawer).findByText(M.friendlyNameLeadingSpace)).toBeInTheDocument();
    expect(save).toBeDisabled();
    await ue.clear(name);
    await ue.type(name, "Line-2");
    expect(await within(drawer).findByText(M.friendlyNameAlphanumeric)).toBeInTheDocument();
    await ue.clear(name);
    await ue.type(name, "Main Line");
    await waitFor(() => expect(save).not.toBeDisabled());
    await ue.click(save);
    await waitFor(() => expect(patches).toEqual([{ id: L1, body: { friendlyName: "Main Line" } }]));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: T.configureLine })).not.toBeInTheDocument(),
    );
  });

  it("asks 'Discard Changes?' before closing with changes: Continue Editing keeps them, Exit closes", async () => {
    const { ue, drawer } = await openEditor();
    await ue.type(within(drawer).getByRole("textbox", { name: T.friendlyName }), "X");
    await ue.click(within(drawer).getByRole("button", { name: T.close }));
    expect(await screen.findByText(K.discardText)).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: K.discardContinue }));
    const name = (await within(drawer).findByRole(
      "textbox",
      { name: T.friendlyName },
      { timeout: 3000 },
    )) as HTMLInputElement;
    expect(name).toHaveValue("X");
    await ue.click(within(drawer).getByRole("button", { name: T.close }));
    await ue.click(await screen.findByRole("button", { name: K.discardExit }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: T.configureLine })).not.toBeInTheDocument(),
    );
    expect(patches).toEqual([]);
  });

  it("asks 'Discard Changes?' before leaving the section with changes: Continue Editing keeps them, Exit leaves", async () => {
    const { ue, drawer, router } = await openEditor();
    await ue.type(within(drawer).getByRole("textbox", { name: T.friendlyName }), "X");
    await leaveSectionAnswering(router, ue, "continue");
    expect(within(drawer).getByRole("textbox", { name: T.friendlyName })).toHaveValue("X");
    await leaveSectionAnswering(router, ue, "exit");
    expect(patches).toEqual([]);
  });

  it("leaves without asking once the drawer with changes was closed by Exit, even with another line's drawer open that failed to load", async () => {
    const { ue, drawer, router } = await openEditor();
    await ue.type(within(drawer).getByRole("textbox", { name: T.friendlyName }), "X");
    await ue.click(within(drawer).getByRole("button", { name: T.close }));
    await ue.click(await screen.findByRole("button", { name: K.discardExit }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: T.configureLine })).not.toBeInTheDocument(),
    );
    // Another line's drawer whose line cannot be read holds no changes.
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: K.discardTitle })).not.toBeInTheDocument(),
    );
    lineGetStatus = 404;
    await ue.click(await screen.findByRole("button", { name: /^Configure Line .*Press/ }, { timeout: 3000 }));
    const other = await screen.findByRole("dialog", { name: T.configureLine });
    expect(await within(other).findByText(LINE_MESSAGES.notFound)).toBeInTheDocument();
    await act(() => router.navigate("/settings?section=USER_MANAGEMENT"));
    expect(await screen.findByText(LEFT_SETTINGS_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: K.discardTitle })).not.toBeInTheDocument();
  });

  it("picks feeder lines across plants in the Feeder Lines drawer, guards its Cancel, and a cycle shows the spec's text in 'Unable to Save Changes'", async () => {
    const { ue, drawer } = await openEditor();
    await ue.click(within(drawer).getByRole("button", { name: T.configure }));
    const feeder = await screen.findByRole("dialog", { name: T.feederLines });
    expect(within(feeder).getByText(T.feederSelectedCaption)).toBeInTheDocument();
    // The line itself cannot feed itself.
    expect(within(feeder).getByRole("checkbox", { name: `${plant.name} / Assembly` })).toBeDisabled();
    await ue.type(within(feeder).getByRole("textbox", { name: T.feederSearch }), "far");
    expect(within(feeder).queryByRole("checkbox", { name: `${plant.name} / Paint` })).not.toBeInTheDocument();
    await ue.click(within(feeder).getByRole("checkbox", { name: "Zwickau / Far Line" }));
    await ue.click(within(feeder).getByRole("button", { name: T.cancel }));
    expect(await screen.findByText(K.discardText)).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: K.discardContinue }));
    await ue.click(await within(feeder).findByRole("button", { name: T.saveChanges }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: T.feederLines })).not.toBeInTheDocument(),
    );
    const table = await within(drawer).findByRole("table", { name: T.feederLines }, { timeout: 3000 });
    expect(within(table).getByText("Far Line")).toBeInTheDocument();
    expect(within(table).getByText("Zwickau")).toBeInTheDocument();
    patchStatus = 409;
    await ue.click(within(drawer).getByRole("button", { name: T.saveChanges }));
    const failed = await screen.findByRole("dialog", { name: M.saveFailedTitle });
    expect(within(failed).getByText(M.circularDependency)).toBeInTheDocument();
    expect(patches).toEqual([{ id: L1, body: { feederLineIds: [FAR] } }]);
    await ue.click(within(failed).getByRole("button", { name: T.ok }));
    expect(within(drawer).getByText("Far Line")).toBeInTheDocument();
  });

  it("shows the general save failure text for other errors", async () => {
    patchStatus = 500;
    const { ue, drawer } = await openEditor();
    await ue.type(within(drawer).getByRole("textbox", { name: T.friendlyName }), "X");
    await ue.click(within(drawer).getByRole("button", { name: T.saveChanges }));
    const failed = await screen.findByRole("dialog", { name: M.saveFailedTitle });
    expect(within(failed).getByText(M.saveFailedText)).toBeInTheDocument();
  });

  it("says 'Unable to find the line' when the line is gone", async () => {
    lineGetStatus = 404;
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: "Configure Line Assembly" }));
    const drawer = await screen.findByRole("dialog", { name: T.configureLine });
    expect(await within(drawer).findByText("Unable to find the line")).toBeInTheDocument();
  });

  it("offers the cap-exclusion fields behind their flag", async () => {
    const { drawer } = await openEditor();
    expect(within(drawer).getByLabelText(T.challengeParts)).toBeInTheDocument();
    expect(within(drawer).getByText(T.challengeModelNumbersHelper)).toBeInTheDocument();
  });
});

describe("Line Management with part marriage", { timeout: 30_000 }, () => {
  beforeEach(() => {
    flags.partMarriage = true;
    lines[0] = {
      ...(lines[0] as TLine),
      lastIngestedTime: "2020-01-01T00:00:00Z",
      ingestionThresholdHours: 1,
    };
  });

  it("shows the Enabled tab first, the Status chip, the new-line marker, the No Ingestion chip and the time zone in the header", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    expect(screen.getByRole("tab", { name: T.tabs.enabled, selected: true })).toBeInTheDocument();
    expect(screen.queryByText("Paint")).not.toBeInTheDocument();
    expect(within(rowOf("Assembly")).getByText(T.enabled)).toBeInTheDocument();
    expect(within(rowOf("=Press")).getByText(T.newLine)).toBeInTheDocument();
    expect(within(rowOf("Assembly")).getByText("No Ingestion")).toBeInTheDocument();
    expect(within(rowOf("=Press")).queryByText("No Ingestion")).not.toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: /Last Data received \(UTC\)/ })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Active: / })).not.toBeInTheDocument();
    await ue.click(screen.getByRole("tab", { name: T.tabs.disabled }));
    expect(await screen.findByText("Paint")).toBeInTheDocument();
    expect(within(rowOf("Paint")).getByText(T.disabled)).toBeInTheDocument();
    expect(screen.queryByText("Assembly")).not.toBeInTheDocument();
    await ue.click(screen.getByRole("tab", { name: T.tabs.all }));
    expect(await screen.findByText("Assembly")).toBeInTheDocument();
  });

  it("configures a line from the row menu: Active, No Data Alert and Alert Displayed with their rules, each sent to its call", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: `${T.moreActions} Assembly` }));
    await ue.click(await screen.findByRole("menuitem", { name: T.configureLine }));
    const drawer = await screen.findByRole("dialog", { name: T.configureLine });
    const hours = await within(drawer).findByRole("textbox", {
      name: new RegExp(T.noDataAlert.replace(/[()]/g, "\\$&")),
    });
    const days = within(drawer).getByRole("textbox", {
      name: new RegExp(T.alertDisplayed.replace(/[()]/g, "\\$&")),
    });
    await ue.clear(hours);
    expect(await within(drawer).findByText(M.required)).toBeInTheDocument();
    await ue.type(hours, "2.5");
    expect(await within(drawer).findByText(M.wholeNumber)).toBeInTheDocument();
    await ue.clear(hours);
    await ue.type(hours, "6");
    await ue.clear(days);
    await ue.type(days, "0");
    expect(await within(drawer).findByText(M.alertFilterRange)).toBeInTheDocument();
    expect(within(drawer).getByRole("button", { name: T.saveChanges })).toBeDisabled();
    await ue.clear(days);
    await ue.type(days, "30");
    await ue.click(within(drawer).getByRole("switch", { name: T.active }));
    await ue.click(within(drawer).getByRole("button", { name: T.saveChanges }));
    // Turning the line off stops its monitors: asked first, with the grid switch's words.
    const ask = await screen.findByRole("dialog", { name: T.deactivateTitle });
    expect(ask).toHaveTextContent(T.deactivateText("Assembly"));
    expect(patches).toEqual([]);
    await ue.click(within(ask).getByRole("button", { name: T.save }));
    await waitFor(() => expect(windowPuts).toEqual([{ id: L1, body: { alertViewingWindowDays: 30 } }]));
    expect(patches).toEqual([{ id: L1, body: { active: false, ingestionThresholdHours: 6 } }]);
  });

  it("says why Save Changes stays disabled on a line stored without a No Data Alert", async () => {
    lines[2] = { ...(lines[2] as TLine), ingestionThresholdHours: null };
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("=Press");
    await ue.click(screen.getByRole("button", { name: `${T.moreActions} =Press` }));
    await ue.click(await screen.findByRole("menuitem", { name: T.configureLine }));
    const drawer = await screen.findByRole("dialog", { name: T.configureLine });
    const hours = await within(drawer).findByRole("textbox", {
      name: new RegExp(T.noDataAlert.replace(/[()]/g, "\\$&")),
    });
    expect(within(drawer).queryByText(M.required)).not.toBeInTheDocument();
    const days = within(drawer).getByRole("textbox", {
      name: new RegExp(T.alertDisplayed.replace(/[()]/g, "\\$&")),
    });
    await ue.clear(days);
    await ue.type(days, "30");
    // The change is made, the stored line has no No Data Alert: the field says so.
    expect(await within(drawer).findByText(M.required)).toBeInTheDocument();
    expect(within(drawer).getByRole("button", { name: T.saveChanges })).toBeDisabled();
    await ue.type(hours, "4");
    expect(within(drawer).queryByText(M.required)).not.toBeInTheDocument();
    expect(within(drawer).getByRole("button", { name: T.saveChanges })).toBeEnabled();
  });

  it("keeps the drawer's changes and sends nothing when deactivating is cancelled", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Assembly");
    await ue.click(screen.getByRole("button", { name: `${T.moreActions} Assembly` }));
    await ue.click(await screen.findByRole("menuitem", { name: T.configureLine }));
    const drawer = await screen.findByRole("dialog", { name: T.configureLine });
    const active = await within(drawer).findByRole("switch", { name: T.active });
    await ue.click(active);
    await ue.click(within(drawer).getByRole("button", { name: T.saveChanges }));
    const ask = await screen.findByRole("dialog", { name: T.deactivateTitle });
    await ue.click(within(ask).getByRole("button", { name: T.cancel }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: T.deactivateTitle })).not.toBeInTheDocument(),
    );
    expect(patches).toEqual([]);
    expect(active).not.toBeChecked();
    expect(within(drawer).getByRole("button", { name: T.saveChanges })).toBeEnabled();
  });
});
