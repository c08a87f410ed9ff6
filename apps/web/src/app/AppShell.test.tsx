import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { useEffect, useState } from "react";
import { createMemoryRouter, RouterProvider, useParams } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { usePageLine } from "../shared/data/plants/plant-line";
import { SnackbarProvider } from "../shared/ui/SnackbarProvider";
import { PageLineSelect, usePageLine as useSectionLine } from "../shared/ui/settings/PageLineSelect";
import { testLine, testMe, testPlant } from "../test/fixtures";
import { mockApi, refusal } from "../test/mockApi";
import { AppShell } from "./AppShell";
import { PlantLineProvider } from "./context/PlantLineContext";

// The top bar's plant and line: the default line of a plant, and a page about one line deciding
// what the top bar shows (item: a shared link to another plant's line opens what it points to).

const detroit = testPlant({ name: "Detroit Assembly", timeZone: "America/Detroit" });
const stuttgart = testPlant({
  id: "00000000-0000-4000-8000-000000000102",
  name: "Stuttgart Components",
  timeZone: "Europe/Berlin",
});
const axle = testLine({
  id: "00000000-0000-4000-8000-000000000111",
  plantId: detroit.id,
  name: "Axle Assembly",
  friendlyName: "Rear Axle",
});
const brake = testLine({
  id: "00000000-0000-4000-8000-000000000112",
  plantId: detroit.id,
  name: "Brake Module",
});
// Created by a CSV upload: the server lists it first here, but it is not first by name.
const csvLine = testLine({
  id: "00000000-0000-4000-8000-000000000113",
  plantId: detroit.id,
  name: "E2E CSV Line",
});
const valve = testLine({
  id: "00000000-0000-4000-8000-000000000121",
  plantId: stuttgart.id,
  name: "Valve Machining",
});

let me = testMe();
let selections: unknown[] = [];
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/plants", () => HttpResponse.json([detroit, stuttgart])),
  mockApi.get("*/api/plants/:plantId/lines", ({ params }) =>
    HttpResponse.json(params.plantId === detroit.id ? [csvLine, brake, axle] : [valve]),
  ),
  mockApi.get("*/api/lines/:lineId", ({ params }) => {
    const line = [axle, brake, csvLine, valve].find((l) => l.id === params.lineId);
    return line ? HttpResponse.json(line) : refusal(404, { message: "Line not found" });
  }),
  mockApi.patch("*/api/auth/me/selection", async ({ request }) => {
    selections.push(JSON.parse(await request.text()));
    return new HttpResponse(null, { status: 204 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  me = testMe();
  selections = [];
});
afterAll(() => server.close());

function LinePage() {
  const { lineId } = useParams();
  const { line, plant } = usePageLine(lineId);
  return (
    <p>
      Page line {line?.name ?? "…"} in {plant?.timeZone ?? "…"}
    </p>
  );
}

/** A Settings section with its own line selector, and unsaved edits to hold its line with. */
function SectionPage() {
  const { lines, lineId, line, setLineId, holdLine } = useSectionLine();
  const [isDirty, setDirty] = useState(false);
  useEffect(() => holdLine(isDirty), [holdLine, isDirty]);
  return (
    <>
      <PageLineSelect
        label="Section line"
        lines={lines}
        lineId={lineId}
        onChange={setLineId}
        isLocked={isDirty}
      />
      <p>Section shows {line?.name ?? "…"}</p>
      <button type="button" onClick={() => setDirty((d) => !d)}>
        {isDirty ? "Discard" : "Edit"}
      </button>
    </>
  );
}

function renderAt(path: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        element: (
          <PlantLineProvider>
            <AppShell />
          </PlantLineProvider>
        ),
        children: [
          { path: "/", element: <p>Home page</p> },
          { path: "/lines/:lineId", element: <LinePage /> },
          { path: "/settings/section", element: <SectionPage /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return router;
}

const select = (name: string) => screen.getByRole("combobox", { name });

describe("AppShell: plant and line", { timeout: 30_000 }, () => {
  it("leaves a deactivated line out of the top bar's lines, even when it was the one remembered", async () => {
    me = testMe({ selectedPlantId: detroit.id, selectedLineId: brake.id });
    server.use(
      mockApi.get("*/api/plants/:plantId/lines", () =>
        HttpResponse.json([csvLine, { ...brake, active: false }, axle]),
      ),
    );
    const ue = userEvent.setup();
    renderAt("/");
    await waitFor(() => expect(select("Line").textContent).toBe("Rear Axle"));
    await ue.click(select("Line"));
    const options = within(await screen.findByRole("listbox"))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(options).toEqual(["E2E CSV Line", "Rear Axle"]);
  });

  it("opens a plant on its first active line by name, not on the line listed first", async () => {
    renderAt("/");
    await waitFor(() => expect(select("Plant").textContent).toBe("Detroit Assembly"));
    await waitFor(() => expect(select("Line").textContent).toBe("Rear Axle"));
  });

  it("follows a page about another plant's line: plant, line and time zone switch to it, and are remembered", async () => {
    me = testMe({ selectedPlantId: detroit.id, selectedLineId: axle.id });
    renderAt(`/lines/${valve.id}`);
    expect(await screen.findByText(`Page line Valve Machining in ${stuttgart.timeZone}`)).toBeInTheDocument();
    await waitFor(() => expect(select("Plant").textContent).toBe("Stuttgart Components"));
    await waitFor(() => expect(select("Line").textContent).toBe("Valve Machining"));
    expect(screen.getByTestId("plant-time-zone").textContent).toBe(stuttgart.timeZone);
    expect(selections).toContainEqual({ selectedPlantId: stuttgart.id, selectedLineId: valve.id });
  });

  it("shows the page's line, and picking another line in the top bar opens that line's page", async () => {
    me = testMe({ selectedPlantId: detroit.id, selectedLineId: axle.id });
    const ue = userEvent.setup();
    const router = renderAt(`/lines/${brake.id}`);
    await waitFor(() => expect(select("Line").textContent).toBe("Brake Module"));
    await ue.click(select("Line"));
    await ue.click(within(await screen.findByRole("listbox")).getByRole("option", { name: "Rear Axle" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/lines/${axle.id}`));
    expect(await screen.findByText(`Page line Axle Assembly in ${detroit.timeZone}`)).toBeInTheDocument();
    expect(select("Line").textContent).toBe("Rear Axle");
  });

  it("keeps a Settings section's line and the top bar's one: each follows the other, except over unsaved edits", async () => {
    me = testMe({ selectedPlantId: detroit.id, selectedLineId: axle.id });
    const ue = userEvent.setup();
    renderAt("/settings/section");
    expect(await screen.findByText("Section shows Axle Assembly")).toBeInTheDocument();
    // Picked in the section: the top bar shows it too, and it is remembered.
    await ue.click(select("Section line"));
    await ue.click(within(await screen.findByRole("listbox")).getByRole("option", { name: "Brake Module" }));
    await waitFor(() => expect(select("Line").textContent).toBe("Brake Module"));
    expect(screen.getByText("Section shows Brake Module")).toBeInTheDocument();
    expect(selections).toContainEqual({ selectedPlantId: detroit.id, selectedLineId: brake.id });
    // Picked in the top bar: the section follows.
    await ue.click(select("Line"));
    await ue.click(within(await screen.findByRole("listbox")).getByRole("option", { name: "E2E CSV Line" }));
    expect(await screen.findByText("Section shows E2E CSV Line")).toBeInTheDocument();
    // Over unsaved edits the section keeps its line; once they are gone it follows again.
    await ue.click(screen.getByRole("button", { name: "Edit" }));
    await ue.click(select("Line"));
    await ue.click(within(await screen.findByRole("listbox")).getByRole("option", { name: "Rear Axle" }));
    await waitFor(() => expect(select("Line").textContent).toBe("Rear Axle"));
    expect(screen.getByText("Section shows E2E CSV Line")).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: "Discard" }));
    expect(await screen.findByText("Section shows Axle Assembly")).toBeInTheDocument();
  });
});
