import type { TSettingsSection } from "@linewatch/contracts";
import { type ComponentType, lazy, Suspense } from "react";
import { PageLoading } from "../../shared/ui/PageLoading";

// Each section's code is its own chunk, loaded when the section is first shown (or its menu item
// is hovered: prefetchSection), so Settings loads only the section it shows.
const SECTION_LOADERS: Partial<Record<TSettingsSection, () => Promise<{ default: ComponentType }>>> = {
  DATA_SOURCES: () => import("./data-sources/DataSourcesPage").then((m) => ({ default: m.DataSourcesPage })),
  LINE_MANAGEMENT: () =>
    import("./lines/LineManagementPage").then((m) => ({ default: m.LineManagementPage })),
  MVD_ANOMALY_MONITORS: () =>
    import("./monitors/MonitorsAdminPage").then((m) => ({ default: m.MvdMonitorsPage })),
  SVD_ANOMALY_MONITORS: () =>
    import("./monitors/MonitorsAdminPage").then((m) => ({ default: m.SvdMonitorsPage })),
  SIGNAL_MANAGEMENT: () =>
    import("./signals/SignalManagementPage").then((m) => ({ default: m.SignalManagementPage })),
  PLANTS: () => import("./plants/PlantsPage").then((m) => ({ default: m.PlantsPage })),
  DATA_RETENTION: () => import("./retention/RetentionPage").then((m) => ({ default: m.RetentionPage })),
  USER_MANAGEMENT: () => import("./users/UsersPage").then((m) => ({ default: m.UsersPage })),
  MS_TEAMS: () => import("./notifications/TeamsPage").then((m) => ({ default: m.TeamsPage })),
  ETQ_RELIANCE: () => import("./notifications/EtqReliancePage").then((m) => ({ default: m.EtqReliancePage })),
  SPC_ALERT: () => import("./cap-alerts/CapAlertsPage").then((m) => ({ default: m.CapAlertsPage })),
  SPC_LIMITS: () => import("./spc-limits/SpcLimitsPage").then((m) => ({ default: m.SpcLimitsPage })),
};

function lazySection(load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Page = lazy(load);
  return function LazySection() {
    return (
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    );
  };
}

/** The content pane of each Settings section; a missing entry shows "not available yet". */
export const SECTION_PAGES: Partial<Record<TSettingsSection, ComponentType>> = Object.fromEntries(
  Object.entries(SECTION_LOADERS).map(([section, load]) => [section, lazySection(load)]),
);

/** Starts loading a section's code ahead of opening it (hover or focus on its menu item). */
export function prefetchSection(section: TSettingsSection) {
  SECTION_LOADERS[section]?.().catch(() => undefined);
}
