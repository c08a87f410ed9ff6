import {
  defaultFeatureFlags,
  ETQ_MESSAGES,
  type TFeatureFlagsResponse,
  type TMe,
  type TPlant,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../shared/ui/SnackbarProvider";
import { mockApi } from "../../test/mockApi";
import { SettingsPage } from "./SettingsPage";

// requirements.md settings §2.1, §2.3: ETQ Reliance is reached only with its flag or the customer override;
// otherwise the section sends the user home, also when typed into the URL.

class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;

const customer = { id: "00000000-0000-4000-8000-000000000001", name: "Acme" };
const plant: TPlant = {
  id: "00000000-0000-4000-8000-000000000002",
  name: "Detroit",
  timeZone: "UTC",
  active: true,
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
  language: null,
};

let flags: TFeatureFlagsResponse;
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/feature-flags", () => HttpResponse.json(flags)),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([])),
  mockApi.get("*/api/reliance-configuration/plants/:plantId", () => HttpResponse.json({})),
  mockApi.get("*/api/notifications/delivery-health/plants/:plantId", () => HttpResponse.json([])),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  localStorage.clear();
});
afterAll(() => server.close());

function renderAt(url: string, f: { etqIntegration: boolean; etqOverride: boolean }) {
  flags = {
    flags: { ...defaultFeatureFlags(), etqIntegration: f.etqIntegration },
    etqOverride: f.etqOverride,
  };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <PlantLineProvider>
          <RouterProvider
            // A data router, as the app's: the sections guard leaving with useBlocker.
            router={createMemoryRouter(
              [
                { path: "/", element: <p>Home</p> },
                { path: "/settings", element: <SettingsPage /> },
              ],
              { initialEntries: [url] },
            )}
          />
        </PlantLineProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

describe("Settings → ETQ Reliance gate", { timeout: 30_000 }, () => {
  it("sends the user home when the flag is off and no override is set, also when typed into the URL", async () => {
    renderAt("/settings?section=ETQ_RELIANCE", { etqIntegration: false, etqOverride: false });
    expect(await screen.findByText("Home")).toBeInTheDocument();
    expect(screen.queryByText(ETQ_MESSAGES.title)).not.toBeInTheDocument();
  });

  it("opens the page with the flag on", async () => {
    renderAt("/settings?section=ETQ_RELIANCE", { etqIntegration: true, etqOverride: false });
    expect(await screen.findByRole("heading", { name: ETQ_MESSAGES.title })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "ETQ Reliance" })).toBeInTheDocument();
  });

  it("opens the page with the customer override though the flag is off", async () => {
    renderAt("/settings?section=ETQ_RELIANCE", { etqIntegration: false, etqOverride: true });
    expect(await screen.findByRole("heading", { name: ETQ_MESSAGES.title })).toBeInTheDocument();
  });
});
