import { PLANT_MESSAGES, PLANT_TEXTS, type TPlant } from "@linewatch/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { testMe, testPlant } from "../../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../../test/mockApi";
import { renderSettingsPage, setupSettingsServer } from "../../../test/renderSettingsPage";
import { PlantsPage } from "./PlantsPage";

const detroit = testPlant();
const closed: TPlant = {
  id: "00000000-0000-4000-8000-0000000000c1",
  name: "Old Works",
  timeZone: "Europe/Berlin",
  active: false,
};
const me = testMe({ isAdministrator: true, selectedPlantId: detroit.id });

let stored: TPlant[] = [];
let requests: { method: string; url: string; body?: unknown }[] = [];
/** The PATCH's answer; default: the change applied. */
let answerPatch: ((id: string, body: Partial<TPlant>) => AnswerOf<"patch", "*/api/plants/:plantId">) | null =
  null;

const server = setupSettingsServer({ me: () => me, plants: [detroit] });
beforeEach(() => {
  stored = [detroit, closed];
  requests = [];
  answerPatch = null;
  server.use(
    mockApi.get("*/api/plants", ({ request }) => {
      const all = new URL(request.url).searchParams.get("includeInactive") === "true";
      return HttpResponse.json(all ? stored : stored.filter((p) => p.active));
    }),
    mockApi.post("*/api/plants", async ({ request }) => {
      const body = (await request.json()) as { name: string; timeZone: string };
      requests.push({ method: "POST", url: request.url, body });
      if (stored.some((p) => p.name.toLowerCase() === body.name.toLowerCase()))
        return refusal(409, { message: PLANT_MESSAGES.nameTaken });
      const plant = { id: "00000000-0000-4000-8000-0000000000d1", ...body, active: true };
      stored = [...stored, plant];
      return HttpResponse.json(plant, { status: 201 });
    }),
    mockApi.patch("*/api/plants/:plantId", async ({ request, params }) => {
      const id = String(params.plantId);
      const body = (await request.json()) as Partial<TPlant>;
      requests.push({ method: "PATCH", url: request.url, body });
      if (answerPatch) return answerPatch(id, body);
      stored = stored.map((p) => (p.id === id ? { ...p, ...body } : p));
      const plant = stored.find((p) => p.id === id);
      return plant ? HttpResponse.json(plant) : refusal(404, { message: PLANT_MESSAGES.notFound });
    }),
  );
});

const table = () => screen.findByRole("table", { name: PLANT_TEXTS.title });
const rowOf = async (name: string) => {
  const cell = await within(await table()).findByRole("rowheader", { name });
  return cell.closest("tr") as HTMLElement;
};
const texts = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((c) => c.textContent);

async function pickTimeZone(ue: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, zone: string) {
  const input = within(dialog).getByRole("combobox", { name: new RegExp(PLANT_TEXTS.timeZone) });
  await ue.clear(input);
  await ue.type(input, zone);
  await ue.keyboard("{Enter}");
  await waitFor(() => expect((input as HTMLInputElement).value).toBe(zone));
}

describe("Settings → Plants", () => {
  it("lists every plant of the customer, the deactivated ones too, with time zone and active", async () => {
    renderSettingsPage(<PlantsPage />, { section: "PLANTS" });
    expect(screen.getByRole("progressbar", { name: "Loading" })).toBeInTheDocument();
    expect(texts(await rowOf("Detroit"))).toEqual(["America/Detroit", PLANT_TEXTS.yes, expect.any(String)]);
    expect(texts(await rowOf("Old Works"))).toEqual(["Europe/Berlin", PLANT_TEXTS.no, expect.any(String)]);
    expect(
      within(await rowOf("Old Works")).getByRole("button", { name: `${PLANT_TEXTS.reactivate} Old Works` }),
    );
  });

  it("adds a plant through the dialog, keyboard only, and lists it", async () => {
    const ue = userEvent.setup();
    renderSettingsPage(<PlantsPage />, { section: "PLANTS" });
    await table();
    await ue.click(screen.getByRole("button", { name: PLANT_TEXTS.add }));
    const dialog = await screen.findByRole("dialog", { name: PLANT_TEXTS.addTitle });
    // A taken name comes back under Name and the dialog stays.
    await ue.keyboard("detroit");
    await pickTimeZone(ue, dialog, "Asia/Tokyo");
    await ue.keyboard("{Enter}");
    expect(await within(dialog).findByText(PLANT_MESSAGES.nameTaken)).toBeInTheDocument();
    const name = within(dialog).getByRole("textbox", { name: new RegExp(PLANT_TEXTS.name) });
    await ue.clear(name);
    await ue.type(name, "Nagoya{Enter}");
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: PLANT_TEXTS.addTitle })).not.toBeInTheDocument(),
    );
    expect(texts(await rowOf("Nagoya"))).toEqual(["Asia/Tokyo", PLANT_TEXTS.yes, expect.any(String)]);
    expect(requests.map((r) => r.body)).toEqual([
      { name: "detroit", timeZone: "Asia/Tokyo" },
      { name: "Nagoya", timeZone: "Asia/Tokyo" },
    ]);
    expect(await screen.findByText(PLANT_TEXTS.created)).toBeInTheDocument();
  });

  it("renames a plant and changes its time zone; a dirty dialog asks before it closes", async () => {
    const ue = userEvent.setup();
    renderSettingsPage(<PlantsPage />, { section: "PLANTS" });
    await ue.click(
      within(await rowOf("Detroit")).getByRole("button", { name: `${PLANT_TEXTS.edit} Detroit` }),
    );
    const dialog = await screen.findByRole("dialog", { name: PLANT_TEXTS.editTitle });
    const name = within(dialog).getByRole("textbox", { name: new RegExp(PLANT_TEXTS.name) });
    expect(name).toHaveValue("Detroit");
    await ue.clear(name);
    await ue.type(name, "Detroit Assembly");
    await ue.keyboard("{Escape}");
    const ask = await screen.findByRole("dialog", { name: PLANT_TEXTS.discardTitle });
    await ue.click(within(ask).getByRole("button", { name: PLANT_TEXTS.discardContinue }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: PLANT_TEXTS.discardTitle })).not.toBeInTheDocument(),
    );
    await pickTimeZone(ue, dialog, "America/Chicago");
    await ue.click(within(dialog).getByRole("button", { name: PLANT_TEXTS.save }));
    expect(texts(await rowOf("Detroit Assembly"))).toEqual([
      "America/Chicago",
      PLANT_TEXTS.yes,
      expect.any(String),
    ]);
    expect(requests).toEqual([
      {
        method: "PATCH",
        url: expect.stringContaining(`/api/plants/${detroit.id}`),
        body: { name: "Detroit Assembly", timeZone: "America/Chicago" },
      },
    ]);
  });

  it("asks before deactivating, shows the server's reason when it refuses, and reactivates", async () => {
    const ue = userEvent.setup();
    answerPatch = () => refusal(409, { message: PLANT_MESSAGES.hasActiveLines(3) });
    renderSettingsPage(<PlantsPage />, { section: "PLANTS" });
    await ue.click(
      within(await rowOf("Detroit")).getByRole("button", { name: `${PLANT_TEXTS.deactivate} Detroit` }),
    );
    const confirm = await screen.findByRole("dialog", { name: PLANT_TEXTS.deactivateTitle("Detroit") });
    expect(requests).toEqual([]);
    await ue.click(within(confirm).getByRole("button", { name: PLANT_TEXTS.deactivate }));
    expect(await within(confirm).findByText(PLANT_MESSAGES.hasActiveLines(3))).toBeInTheDocument();
    expect(requests.map((r) => r.body)).toEqual([{ active: false }]);
    await ue.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() =>
      expect(
        screen.queryByRole("dialog", { name: PLANT_TEXTS.deactivateTitle("Detroit") }),
      ).not.toBeInTheDocument(),
    );
    expect(texts(await rowOf("Detroit"))[1]).toBe(PLANT_TEXTS.yes);

    answerPatch = null;
    await ue.click(
      within(await rowOf("Old Works")).getByRole("button", { name: `${PLANT_TEXTS.reactivate} Old Works` }),
    );
    const again = await screen.findByRole("dialog", { name: PLANT_TEXTS.reactivateTitle("Old Works") });
    expect(within(again).queryByText(PLANT_MESSAGES.hasActiveLines(3))).not.toBeInTheDocument();
    await ue.click(within(again).getByRole("button", { name: PLANT_TEXTS.reactivate }));
    await waitFor(() =>
      expect(
        texts(screen.getByRole("rowheader", { name: "Old Works" }).closest("tr") as HTMLElement)[1],
      ).toBe(PLANT_TEXTS.yes),
    );
    expect(requests.map((r) => r.body)).toEqual([{ active: false }, { active: true }]);
  });

  it("shows an error with Retry when the list fails, and the empty state when there is no plant", async () => {
    const ue = userEvent.setup();
    let fail = true;
    server.use(
      mockApi.get("*/api/plants", () => (fail ? refusal(500, { message: "boom" }) : HttpResponse.json([]))),
    );
    renderSettingsPage(<PlantsPage />, { section: "PLANTS" });
    expect(await screen.findByText(`${PLANT_TEXTS.errorLoading}: boom`)).toBeInTheDocument();
    fail = false;
    await ue.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText(PLANT_TEXTS.empty)).toBeInTheDocument();
  });
});
