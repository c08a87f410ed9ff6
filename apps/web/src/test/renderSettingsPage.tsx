import {
  defaultFeatureFlags,
  SETTINGS_KIT_MESSAGES,
  type TFeatureFlagsResponse,
  type TLine,
  type TMe,
  type TPlant,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { HttpResponse, type RequestHandler } from "msw";
import { setupServer } from "msw/node";
import type { ReactElement } from "react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { PlantLineProvider } from "../app/context/PlantLineContext";
import { SnackbarProvider } from "../shared/ui/SnackbarProvider";
import { installResizeObserver } from "./fixtures";
import { mockApi } from "./mockApi";

// The set-up every Settings page test repeats: the API mocked with MSW (the signed-in user, the
// flags, the plant and its lines, and the page's own routes), a fresh query cache, the
// providers the app's shell gives a page, and a data router (pages guard leaving with
// useBlocker, which needs one).

/** What the session routes answer; functions are read on each request (a test may change them). */
export type SettingsSession = {
  me: () => TMe;
  plants: readonly TPlant[];
  lines?: () => readonly TLine[];
  flags?: () => TFeatureFlagsResponse;
};

export const defaultFlagsResponse = (): TFeatureFlagsResponse => ({
  flags: defaultFeatureFlags(),
  etqOverride: false,
});

/**
 * An MSW server answering the session routes and `handlers`, started and closed with the test
 * file; after each test the page is unmounted and handlers added with `server.use` are dropped.
 */
export function setupSettingsServer(session: SettingsSession, ...handlers: RequestHandler[]) {
  const server = setupServer(
    mockApi.get("*/api/auth/me", () => HttpResponse.json(session.me())),
    mockApi.get("*/api/feature-flags", () => HttpResponse.json((session.flags ?? defaultFlagsResponse)())),
    mockApi.get("*/api/plants", () => HttpResponse.json([...session.plants])),
    mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([...(session.lines?.() ?? [])])),
    mockApi.patch("*/api/auth/me/selection", () => new HttpResponse(null, { status: 204 })),
    ...handlers,
  );
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    cleanup();
    server.resetHandlers();
  });
  afterAll(() => server.close());
  return server;
}

/** jsdom has no layout: a size for every element and a ResizeObserver, so grids render their rows. */
export function installGridLayout(o: { width: number; height: number } = { width: 1600, height: 800 }) {
  installResizeObserver();
  const size = {
    width: o.width,
    height: o.height,
    top: 0,
    left: 0,
    right: o.width,
    bottom: o.height,
    x: 0,
    y: 0,
  };
  Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;
}

/** Where a test lands when the page lets it leave (a link elsewhere, another section). */
export const LEFT_SETTINGS_TEXT = "Left the section";

/**
 * Renders a Settings section as the app does: inside the query cache, the snackbars, the plant
 * and line context and a router at /settings?section=… . Another section or path shows
 * LEFT_SETTINGS_TEXT, so a test can see whether leaving went through.
 */
export function renderSettingsPage(page: ReactElement, o: { section?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const start = `/settings${o.section ? `?section=${o.section}` : ""}`;
  const router = createMemoryRouter(
    [
      {
        path: "/settings",
        element: (
          <SnackbarProvider>
            <PlantLineProvider>
              <SectionOrLeft start={start} page={page} />
            </PlantLineProvider>
          </SnackbarProvider>
        ),
      },
      { path: "*", element: <p>{LEFT_SETTINGS_TEXT}</p> },
    ],
    { initialEntries: [start] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, queryClient, router };
}

/** The page while the URL is still its section's; another section means the page was left. */
function SectionOrLeft({ start, page }: { start: string; page: ReactElement }) {
  const { pathname, search } = useLocation();
  return `${pathname}${search}` === start ? page : <p>{LEFT_SETTINGS_TEXT}</p>;
}

/**
 * Leaves the section for another (the router of renderSettingsPage) and answers the
 * 'Discard Changes?' question the page must ask: Continue Editing stays (the question gone), Exit
 * leaves (LEFT_SETTINGS_TEXT shown).
 */
export async function leaveSectionAnswering(
  router: ReturnType<typeof renderSettingsPage>["router"],
  ue: UserEvent,
  answer: "continue" | "exit",
  to = "/settings?section=USER_MANAGEMENT",
) {
  const K = SETTINGS_KIT_MESSAGES;
  await act(() => router.navigate(to));
  const ask = await screen.findByRole("dialog", { name: K.discardTitle });
  expect(within(ask).getByText(K.discardText)).toBeInTheDocument();
  await ue.click(
    within(ask).getByRole("button", { name: answer === "exit" ? K.discardExit : K.discardContinue }),
  );
  if (answer === "exit") expect(await screen.findByText(LEFT_SETTINGS_TEXT)).toBeInTheDocument();
  else
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: K.discardTitle })).not.toBeInTheDocument(),
    );
}
