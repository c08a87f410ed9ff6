import {
  defaultFeatureFlags,
  FEATURE_FLAG_MESSAGES,
  FEATURE_FLAGS,
  type TFeatureFlagsResponse,
  type TMe,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { MemoryRouter } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SnackbarProvider } from "../../shared/ui/SnackbarProvider";
import { testMe } from "../../test/fixtures";
import { mockApi } from "../../test/mockApi";
import { FeatureFlagsPage } from "./FeatureFlagsPage";

let me: TMe;
let flags: TFeatureFlagsResponse;
const puts: { key: string; enabled: boolean }[] = [];
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/feature-flags", () => HttpResponse.json(flags)),
  mockApi.put("*/api/feature-flags/:key", async ({ params, request }) => {
    const { enabled } = JSON.parse(await request.text()) as { enabled: boolean };
    const key = params.key as keyof TFeatureFlagsResponse["flags"];
    puts.push({ key, enabled });
    flags = { ...flags, flags: { ...flags.flags, [key]: enabled } };
    return HttpResponse.json(flags);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderPage(who: Partial<TMe>) {
  me = testMe(who);
  flags = { flags: defaultFeatureFlags(), etqOverride: false };
  puts.length = 0;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <MemoryRouter>
          <FeatureFlagsPage />
        </MemoryRouter>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

/** The User deletion switch, once the signed-in user and the flags have loaded. */
async function userDeletion() {
  await screen.findByText(`Flags apply to everyone at ${me.customer.name}.`);
  return screen.findByRole("switch", { name: FEATURE_FLAGS.userDeletion.label });
}

describe("FeatureFlagsPage", () => {
  it("shows an administrator every flag read-only, with a note saying who changes them", async () => {
    renderPage({ isAdministrator: true });
    const toggle = (await userDeletion()) as HTMLInputElement;
    expect(toggle).toBeDisabled();
    expect(screen.getByText(FEATURE_FLAG_MESSAGES.readOnly)).toBeInTheDocument();
    for (const s of screen.getAllByRole("switch")) expect(s).toBeDisabled();
    expect(puts).toEqual([]);
  });

  it("lets provider staff switch a flag, without the read-only note", async () => {
    const ue = userEvent.setup();
    renderPage({ isAdministrator: true, isProviderStaff: true });
    const toggle = (await userDeletion()) as HTMLInputElement;
    expect(toggle).not.toBeDisabled();
    expect(screen.queryByText(FEATURE_FLAG_MESSAGES.readOnly)).not.toBeInTheDocument();
    await ue.click(toggle);
    await waitFor(() => expect(puts).toEqual([{ key: "userDeletion", enabled: true }]));
    await waitFor(() =>
      expect(screen.getByRole("switch", { name: FEATURE_FLAGS.userDeletion.label })).toBeChecked(),
    );
  });
});
