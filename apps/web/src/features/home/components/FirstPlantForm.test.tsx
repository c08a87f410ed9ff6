import {
  PLANT_MESSAGES,
  PLANT_OVERVIEW_TEXTS,
  PLANT_TEXTS,
  type TCreatePlantBody,
  TEXT_MESSAGES,
  type TPlant,
  type TPlantOverview,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { MemoryRouter } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { describedBy } from "../../../test/describedBy";
import { testMe } from "../../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../../test/mockApi";
import { HomePage } from "../HomePage";

// Home for a customer with no plant: an administrator creates the first one there (issue 28 §1),
// through the real plant context, so the new plant then shows as the top bar's and Home's.

const NEW_ID = "00000000-0000-4000-8000-0000000000aa";
let isAdministrator = true;
let plants: TPlant[] = [];
let posted: TCreatePlantBody[] = [];
/** The server's create: the plant is stored and listed from now on. */
const created = (body: TCreatePlantBody): AnswerOf<"post", "*/api/plants"> => {
  const plant = { id: NEW_ID, name: body.name, timeZone: body.timeZone, active: true };
  plants = [plant];
  return HttpResponse.json(plant, { status: 201 });
};
let answerPost: (body: TCreatePlantBody) => AnswerOf<"post", "*/api/plants"> = created;

const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(testMe({ isAdministrator }))),
  mockApi.get("*/api/plants", ({ request }) => {
    const all = new URL(request.url).searchParams.get("includeInactive") === "true";
    return HttpResponse.json(all ? plants : plants.filter((p) => p.active));
  }),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([])),
  mockApi.patch("*/api/auth/me/selection", () => new HttpResponse(null, { status: 204 })),
  mockApi.get("*/api/plants/:plantId/overview", ({ params }) => {
    const plant = plants.find((p) => p.id === params.plantId);
    const overview: TPlantOverview = {
      plantId: String(params.plantId),
      timeZone: plant?.timeZone ?? "UTC",
      generatedAt: new Date().toISOString(),
      hoursFrom: new Date(Date.now() - 86_400_000).toISOString(),
      lines: [],
      newestAlerts: [],
    };
    return HttpResponse.json(overview);
  }),
  mockApi.post("*/api/plants", async ({ request }) => {
    const body = (await request.json()) as TCreatePlantBody;
    posted.push(body);
    return answerPost(body);
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  isAdministrator = true;
  plants = [];
  posted = [];
  answerPost = created;
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderHome() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <PlantLineProvider>
          <MemoryRouter>
            <HomePage />
          </MemoryRouter>
        </PlantLineProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

/** Picks a time zone in the autocomplete with the keyboard: type to filter, Enter picks. */
async function pickTimeZone(ue: ReturnType<typeof userEvent.setup>, zone: string) {
  const input = screen.getByRole("combobox", { name: new RegExp(PLANT_TEXTS.timeZone) });
  await ue.clear(input);
  await ue.type(input, zone);
  await ue.keyboard("{Enter}");
  await waitFor(() => expect((input as HTMLInputElement).value).toBe(zone));
}

describe("Home with no plant", () => {
  it("offers an administrator the first-plant form, whose plant then shows as Home's", async () => {
    const ue = userEvent.setup();
    renderHome();
    const form = await screen.findByRole("form", { name: PLANT_TEXTS.firstPlantTitle });
    expect(screen.queryByText(PLANT_OVERVIEW_TEXTS.noPlants)).not.toBeInTheDocument();
    // Keyboard only: the name has the focus, Tab reaches the time zone.
    const name = within(form).getByRole("textbox", { name: new RegExp(PLANT_TEXTS.name) });
    await waitFor(() => expect(document.activeElement).toBe(name));
    await ue.keyboard("  Plant North ");
    await pickTimeZone(ue, "America/Chicago");
    await ue.click(within(form).getByRole("button", { name: PLANT_TEXTS.create }));

    await waitFor(() => expect(posted).toEqual([{ name: "Plant North", timeZone: "America/Chicago" }]));
    expect(await screen.findByRole("heading", { name: "Plant North" })).toBeInTheDocument();
    expect(await screen.findByText(PLANT_OVERVIEW_TEXTS.noLines)).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: PLANT_TEXTS.firstPlantTitle })).not.toBeInTheDocument();
    expect(await screen.findByText(PLANT_TEXTS.created)).toBeInTheDocument();
  });

  it("checks the name before sending, and shows the server's refusal under its field", async () => {
    const ue = userEvent.setup();
    answerPost = () => refusal(409, { message: PLANT_MESSAGES.nameTaken });
    renderHome();
    const form = await screen.findByRole("form", { name: PLANT_TEXTS.firstPlantTitle });
    await ue.click(within(form).getByRole("button", { name: PLANT_TEXTS.create }));
    expect(await within(form).findByText(PLANT_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(posted).toEqual([]);

    await ue.type(within(form).getByRole("textbox", { name: new RegExp(PLANT_TEXTS.name) }), "Taken");
    await pickTimeZone(ue, "Europe/Berlin");
    await ue.click(within(form).getByRole("button", { name: PLANT_TEXTS.create }));
    expect(await within(form).findByText(PLANT_MESSAGES.nameTaken)).toBeInTheDocument();
    expect(posted).toHaveLength(1);
    expect(screen.getByRole("form", { name: PLANT_TEXTS.firstPlantTitle })).toBeInTheDocument();
  });

  it("shows a field the server's validation refused under that field, with the contract's words", async () => {
    const ue = userEvent.setup();
    // Text the database cannot hold (an unpaired surrogate pasted into the name): only the
    // server's contract checks it, and its words name no plant rule.
    answerPost = () =>
      refusal(400, {
        message: `body.name: ${TEXT_MESSAGES.unstorable}`,
        fields: [{ in: "body", field: "name", message: TEXT_MESSAGES.unstorable }],
      });
    renderHome();
    const form = await screen.findByRole("form", { name: PLANT_TEXTS.firstPlantTitle });
    const name = within(form).getByRole("textbox", { name: new RegExp(PLANT_TEXTS.name) });
    await ue.type(name, "Aachen");
    await pickTimeZone(ue, "Europe/Berlin");
    await ue.click(within(form).getByRole("button", { name: PLANT_TEXTS.create }));
    await waitFor(() => expect(describedBy(name)).toBe(TEXT_MESSAGES.unstorable));
    expect(posted).toHaveLength(1);
    // Not above the form as well: the refusal has its place.
    expect(within(form).queryByText(`body.name: ${TEXT_MESSAGES.unstorable}`)).not.toBeInTheDocument();
  });

  it("says when every plant is deactivated, and links to where they are reactivated", async () => {
    plants = [
      { id: "00000000-0000-4000-8000-0000000000bb", name: "Old Works", timeZone: "UTC", active: false },
    ];
    renderHome();
    const form = await screen.findByRole("form", { name: PLANT_TEXTS.firstPlantTitle });
    expect(await within(form).findByText(PLANT_TEXTS.onlyInactive(1))).toBeInTheDocument();
    const link = within(form).getByRole("link", { name: PLANT_TEXTS.openPlantsSettings });
    expect(link).toHaveAttribute("href", "/settings?section=PLANTS");
    expect(within(form).queryByText(PLANT_TEXTS.firstPlantIntro)).not.toBeInTheDocument();
  });

  it("tells a user who is no administrator to ask one, with no form", async () => {
    isAdministrator = false;
    renderHome();
    expect(await screen.findByText(PLANT_OVERVIEW_TEXTS.noPlants)).toBeInTheDocument();
    expect(screen.getByText(PLANT_TEXTS.askAdministrator)).toBeInTheDocument();
    expect(screen.queryByRole("form")).not.toBeInTheDocument();
  });
});
