import { Typography } from "@mui/material";
import { createBrowserRouter } from "react-router";
import { FeatureFlagsPage } from "../features/feature-flags/FeatureFlagsPage";
import { HomePage } from "../features/home/HomePage";
import { LineOverviewPage } from "../features/line-overview/LineOverviewPage";
import { LoginPage } from "../features/login/LoginPage";
import { SetPasswordPage } from "../features/login/SetPasswordPage";
import { MonitorFormPage } from "../features/monitors/MonitorFormPage";
import { InsightMappingPage } from "../features/settings/data-sources/InsightMappingPage";
import { SettingsPage } from "../features/settings/SettingsPage";
import { AppShell } from "./AppShell";
import { PlantLineProvider } from "./context/PlantLineContext";
import { RequireAuth } from "./RequireAuth";

export const router = createBrowserRouter([
  { path: "/login", element: <LoginPage /> },
  { path: "/set-password", element: <SetPasswordPage /> },
  {
    element: (
      <RequireAuth>
        <PlantLineProvider>
          <AppShell />
        </PlantLineProvider>
      </RequireAuth>
    ),
    children: [
      { path: "/", element: <HomePage /> },
      { path: "/lines/:lineId", element: <LineOverviewPage /> },
      { path: "/monitors/new", element: <MonitorFormPage /> },
      { path: "/monitors/:monitorId", element: <MonitorFormPage /> },
      { path: "/settings", element: <SettingsPage /> },
      { path: "/settings/insight-mapping", element: <InsightMappingPage /> },
      { path: "/feature-flags", element: <FeatureFlagsPage /> },
      { path: "*", element: <Typography>Page not found</Typography> },
    ],
  },
]);
