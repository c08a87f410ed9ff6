import {
  RETENTION_DEFAULTS,
  RETENTION_MESSAGES,
  RETENTION_TEXTS,
  type TRetentionBody,
  type TRetentionResponse,
} from "@linewatch/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { testMe, testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import { renderSettingsPage, setupSettingsServer } from "../../../test/renderSettingsPage";
import { RetentionPage } from "./RetentionPage";

const T = RETENTION_TEXTS;
const me = testMe({ isAdministrator: true });
let stored: TRetentionResponse;
let puts: TRetentionBody[] = [];
/** The PUT's answer; default: stored. */
let refusePut: ((body: TRetentionBody) => ReturnType<typeof refusal>) | null = null;

const server = setupSettingsServer({ me: () => me, plants: [testPlant()] });
beforeEach(() => {
  stored = { ...RETENTION_DEFAULTS, isDefault: true };
  puts = [];
  refusePut = null;
  server.use(
    mockApi.get("*/api/retention", () => HttpResponse.json(stored)),
    mockApi.put("*/api/retention", async ({ request }) => {
      const body = JSON.parse(await request.text()) as TRetentionBody;
      puts.push(body);
      if (refusePut) return refusePut(body);
      stored = { ...body, isDefault: false };
      return HttpResponse.json(stored);
    }),
  );
});

const days = (f: keyof typeof T.labels) =>
  screen.getByRole("spinbutton", { name: `${T.labels[f]} (${T.days})` });
const forever = (f: keyof typeof T.labels) =>
  screen.getByRole("checkbox", { name: `${T.labels[f]}: ${T.keepForever}` });
const saveButton = () => screen.getByRole("button", { name: T.save });

describe("Settings → Data retention", () => {
  it("shows each horizon with what it covers and its default, the audit log kept for ever", async () => {
    renderSettingsPage(<RetentionPage />, { section: "DATA_RETENTION" });
    expect(screen.getByRole("progressbar", { name: "Loading" })).toBeInTheDocument();
    expect(await screen.findByRole("form", { name: T.title })).toBeInTheDocument();
    expect(days("partRecordsDays")).toHaveValue(400);
    expect(days("evaluationsDays")).toHaveValue(90);
    expect(days("resolvedAlertsDays")).toHaveValue(730);
    expect(days("auditLogDays")).toBeDisabled();
    expect(forever("auditLogDays")).toBeChecked();
    expect(forever("partRecordsDays")).not.toBeChecked();
    expect(screen.getByText(new RegExp(T.defaultIs(400)))).toHaveTextContent(T.helper.partRecordsDays);
    expect(screen.getByText(new RegExp(T.defaultIs(null)))).toHaveTextContent(T.helper.auditLogDays);
    // Nothing changed yet: nothing to save.
    expect(saveButton()).toBeDisabled();
  });

  it("saves a longer horizon at once, keyboard only, without asking", async () => {
    const ue = userEvent.setup();
    renderSettingsPage(<RetentionPage />, { section: "DATA_RETENTION" });
    await screen.findByRole("form", { name: T.title });
    await ue.click(days("partRecordsDays"));
    await ue.clear(days("partRecordsDays"));
    await ue.keyboard("500{Enter}");
    expect(await screen.findByText(T.saved)).toBeInTheDocument();
    expect(puts).toEqual([{ ...RETENTION_DEFAULTS, partRecordsDays: 500 }]);
    expect(screen.queryByRole("dialog", { name: T.confirmTitle })).not.toBeInTheDocument();
    await waitFor(() => expect(saveButton()).toBeDisabled());
  });

  it("asks before saving shorter horizons, naming each, and sends nothing on Cancel", async () => {
    const ue = userEvent.setup();
    renderSettingsPage(<RetentionPage />, { section: "DATA_RETENTION" });
    await screen.findByRole("form", { name: T.title });
    await ue.clear(days("partRecordsDays"));
    await ue.type(days("partRecordsDays"), "30");
    // Keep for ever off for the audit log: a horizon where there was none is shorter too.
    await ue.click(forever("auditLogDays"));
    await ue.type(days("auditLogDays"), "730");
    await ue.click(saveButton());
    let ask = await screen.findByRole("dialog", { name: T.confirmTitle });
    expect(within(ask).getByText(T.confirmLine("partRecordsDays", 30))).toBeInTheDocument();
    expect(within(ask).getByText(T.confirmLine("auditLogDays", 730))).toBeInTheDocument();
    expect(
      within(ask).getByText(/records older than 30 days will be deleted at the next housekeeping run/),
    ).toBeInTheDocument();
    await ue.click(within(ask).getByRole("button", { name: T.cancel }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: T.confirmTitle })).not.toBeInTheDocument(),
    );
    expect(puts).toEqual([]);

    await ue.click(saveButton());
    ask = await screen.findByRole("dialog", { name: T.confirmTitle });
    // The confirm button has the focus: Enter confirms.
    await ue.keyboard("{Enter}");
    expect(await screen.findByText(T.saved)).toBeInTheDocument();
    expect(puts).toEqual([{ ...RETENTION_DEFAULTS, partRecordsDays: 30, auditLogDays: 730 }]);
  });

  it("refuses a horizon out of bounds under its field, and shows the server's refusal there too", async () => {
    const ue = userEvent.setup();
    renderSettingsPage(<RetentionPage />, { section: "DATA_RETENTION" });
    await screen.findByRole("form", { name: T.title });
    await ue.clear(days("partRecordsDays"));
    await ue.type(days("partRecordsDays"), "3");
    await ue.click(saveButton());
    expect(await screen.findByText(RETENTION_MESSAGES.min("partRecordsDays"))).toBeInTheDocument();
    expect(puts).toEqual([]);

    refusePut = () =>
      refusal(400, {
        message: "body.evaluationsDays: too long",
        fields: [
          { in: "body", field: "evaluationsDays", message: RETENTION_MESSAGES.max("evaluationsDays") },
        ],
      });
    await ue.clear(days("partRecordsDays"));
    await ue.type(days("partRecordsDays"), "400");
    await ue.clear(days("evaluationsDays"));
    await ue.type(days("evaluationsDays"), "100");
    await ue.click(saveButton());
    expect(await screen.findByText(RETENTION_MESSAGES.max("evaluationsDays"))).toBeInTheDocument();
    expect(puts).toHaveLength(1);
  });

  it("shows an error with Retry when the retention cannot be read", async () => {
    const ue = userEvent.setup();
    let fail = true;
    server.use(
      mockApi.get("*/api/retention", () =>
        fail ? refusal(500, { message: "boom" }) : HttpResponse.json(stored),
      ),
    );
    renderSettingsPage(<RetentionPage />, { section: "DATA_RETENTION" });
    expect(await screen.findByText(`${T.errorLoading}: boom`)).toBeInTheDocument();
    fail = false;
    await ue.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("form", { name: T.title })).toBeInTheDocument();
  });
});
