import { type ComponentType, type ReactNode, useEffect } from "react";
import { createBrowserRouter, matchRoutes, type RouteObject } from "react-router";
import { PlainLoading } from "../shared/ui/PlainLoading";
import { RouteError } from "./RouteError";

// Every page is its own chunk, fetched the first time its route is opened (the router's lazy
// routes), so the sign-in page loads none of the shell, grids, charts, date pickers or forms, and
// neither MUI nor TanStack Query: the query cache, the theme and the snackbars come with the shell
// (ShellProviders); the sign-in and set-password pages, the first spinner and the error boundary
// are plain HTML and plain fetch.
// While a chunk loads the router keeps the current page (the shell shows a progress bar); the very
// first page shows PageLoading. Links prefetch their page on hover or focus (prefetch.ts).

type Lazy = () => Promise<Pick<RouteObject, "Component" | "element">>;
const page =
  <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType): Lazy =>
  async () => ({ Component: pick(await load()) });

/** The signed-in pages' frame: sign-in check, plant and line context, top bar. */
const loadShell: Lazy = async () => {
  const [{ ShellProviders }, { RequireAuth }, { PlantLineProvider }, { AppShell }] = await Promise.all([
    import("./ShellProviders"),
    import("./RequireAuth"),
    import("./context/PlantLineContext"),
    import("./AppShell"),
  ]);
  return {
    element: (
      <ShellProviders>
        <RequireAuth>
          <PlantLineProvider>
            <AppShell />
          </PlantLineProvider>
        </RequireAuth>
      </ShellProviders>
    ),
  };
};
const loadLineOverview = page(
  () => import("../features/line-overview/LineOverviewPage"),
  (m) => m.LineOverviewPage,
);

/**
 * Sign-in: the first keystroke (or a password manager's fill) starts loading the shell and the
 * home page, which have the seconds the user spends typing to arrive.
 */
function PrefetchOnInput({ path, children }: { path: string; children: ReactNode }) {
  useEffect(() => {
    const handleInput = () => prefetchRoute(path);
    document.addEventListener("input", handleInput, { once: true });
    return () => document.removeEventListener("input", handleInput);
  }, [path]);
  return children;
}
const loadLogin: Lazy = async () => {
  const { LoginPage } = await import("../features/login/LoginPage");
  return {
    element: (
      <PrefetchOnInput path="/">
        <LoginPage />
      </PrefetchOnInput>
    ),
  };
};

/** Home: once it has shown, the line overview (the page a user opens next) loads while idle. */
function PrefetchWhenIdle({ load, children }: { load: () => Promise<unknown>; children: ReactNode }) {
  useEffect(() => whenIdle(load), [load]);
  return children;
}
const loadHome: Lazy = async () => {
  const { HomePage } = await import("../features/home/HomePage");
  return {
    element: (
      <PrefetchWhenIdle load={loadLineOverview}>
        <HomePage />
      </PrefetchWhenIdle>
    ),
  };
};

/** Runs `task` when the browser is idle (soon after, where it cannot tell); returns a cancel. */
function whenIdle(task: () => unknown): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(() => void task());
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(() => void task(), 200); // 200 ms: past the page's first frames
  return () => window.clearTimeout(id);
}

export const routes: RouteObject[] = [
  {
    HydrateFallback: PlainLoading,
    ErrorBoundary: RouteError,
    children: [
      { path: "/login", lazy: loadLogin },
      {
        path: "/set-password",
        lazy: page(
          () => import("../features/login/SetPasswordPage"),
          (m) => m.SetPasswordPage,
        ),
      },
      {
        lazy: loadShell,
        children: [
          { path: "/", lazy: loadHome },
          { path: "/lines/:lineId", lazy: loadLineOverview },
          {
            path: "/monitors/new",
            lazy: page(
              () => import("../features/monitors/MonitorFormPage"),
              (m) => m.MonitorFormPage,
            ),
          },
          {
            path: "/monitors/:monitorId",
            lazy: page(
              () => import("../features/monitors/MonitorFormPage"),
              (m) => m.MonitorFormPage,
            ),
          },
          {
            path: "/settings",
            lazy: page(
              () => import("../features/settings/SettingsPage"),
              (m) => m.SettingsPage,
            ),
          },
          {
            path: "/settings/insight-mapping",
            lazy: page(
              () => import("../features/settings/data-sources/InsightMappingPage"),
              (m) => m.InsightMappingPage,
            ),
          },
          {
            path: "/feature-flags",
            lazy: page(
              () => import("../features/feature-flags/FeatureFlagsPage"),
              (m) => m.FeatureFlagsPage,
            ),
          },
          {
            path: "/audit-log",
            lazy: page(
              () => import("../features/audit-log/AuditLogPage"),
              (m) => m.AuditLogPage,
            ),
          },
          {
            path: "*",
            lazy: page(
              () => import("./NotFoundPage"),
              (m) => m.NotFoundPage,
            ),
          },
        ],
      },
    ],
  },
];

/**
 * Loads the chunks of the page at `pathname` ahead of a navigation (the browser keeps a module it
 * has imported, so the router finds it there when the user gets there).
 */
export function prefetchRoute(pathname: string) {
  for (const m of matchRoutes(routes, pathname) ?? []) {
    // A failed prefetch is not an error: the navigation, if it comes, loads (and reports) again.
    if (typeof m.route.lazy === "function") m.route.lazy().catch(() => undefined);
  }
}

export const router = createBrowserRouter(routes);
